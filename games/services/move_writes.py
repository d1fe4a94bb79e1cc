"""A move's writes as SQL statements built once per process.

A move writes its game, a scored seat and its log row. ``Model.save()`` and
``QuerySet.update()`` build and compile a query for each of them every time, which cost
more than the database itself (figures: docs/benchmarks.md). The statements here are
made once per model and set of fields from the models' own metadata; each value is
converted by its field, as the ORM converts it (``pre_save``, ``get_db_prep_save``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model

Columns = list["Field[Any, Any]"]


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column, f"{model.__name__}.{name} is no column"
    return field


@cache
def _update(model: type[Model], names: tuple[str, ...], versioned: bool) -> tuple[str, Columns]:
    quote = connection.ops.quote_name
    fields = [_field(model, name) for name in names]
    where = f"{quote(_field(model, model._meta.pk.name).column)} = %s"
    if versioned:
        where += f" AND {quote(_field(model, 'version').column)} = %s"
    sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    return f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {where}", fields


@cache
def _insert(model: type[Model]) -> tuple[str, Columns]:
    quote = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    slots = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({slots})", fields


def update(row: Model, names: Sequence[str], *, version_was: int | None = None) -> int:
    """Write ``names`` of ``row`` (as ``row.save(update_fields=names)`` does); with
    ``version_was``, only if the row still holds that version. The rows written."""
    sql, fields = _update(type(row), tuple(names), version_was is not None)
    values = [field.get_db_prep_save(field.pre_save(row, False), connection) for field in fields]
    values.append(row.pk)
    if version_was is not None:
        values.append(version_was)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return int(cursor.rowcount)


def insert(row: Model) -> None:
    """Add ``row`` (as ``row.save()`` does for a new row, without reading its id back)."""
    sql, fields = _insert(type(row))
    values = [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
