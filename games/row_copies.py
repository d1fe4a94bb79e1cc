"""Copies of model instances, and new ones from known values, quicker than Django's own.

``copy.copy`` of a Django model goes through pickling's ``__reduce_ex__`` and the app
registry. A move copies its game and each seat twice (out of the committed snapshot and into
the new one), and those copies were most of ``Snapshot.of`` (figures: docs/benchmarks.md).
Likewise ``Model.__init__`` walks every field and sends two signals: every process rebuilds
the game and its seats from each version another process announces (``Snapshot.from_wire``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from django.db.models import Model
from django.db.models.base import ModelState

from games import caches

Row = TypeVar("Row", bound=Model)


def copy_row(row: Row) -> Row:
    """A shallow copy of a model instance, the one ``copy.copy(row)`` makes (the same field
    values, its own ModelState and fields cache) without copy's detour through pickling
    (``__reduce_ex__``, the app registry), about five times quicker: every move copies its
    game and each seat twice, out of the committed snapshot and into the new one."""
    cls = row.__class__
    copied = cls.__new__(cls)
    copied.__dict__.update(row.__dict__)
    state = ModelState.__new__(ModelState)
    state.__dict__.update(row._state.__dict__)
    state.fields_cache = dict(row._state.fields_cache)
    copied._state = state
    return copied


@caches.memoize("fixed default field values by model", maxsize=64)
def _defaults(cls: type[Model]) -> tuple[dict[str, Any], tuple[Any, ...], frozenset[str]]:
    """For a model: the defaults every new row shares (by attname), the fields whose default
    is drawn per row (a callable: a fresh code, list or dict), and every field's attname.

    Invariant: the shared values are never a callable default's, so no drawn value (such as
    a game's code) is ever handed to two rows."""
    stored = [field for field in cls._meta.concrete_fields if not field.generated]
    drawn = tuple(field for field in stored if field.has_default() and callable(field.default))
    fixed = {field.attname: field.get_default() for field in stored if field not in drawn}
    return fixed, drawn, frozenset(field.attname for field in stored)


def row_from_values(cls: type[Row], values: Mapping[str, Any]) -> Row:
    """A new, unsaved ``cls`` with ``values`` (by attname, ``user_id`` not ``user``) and
    every other field at its default: what ``cls(**values)`` makes, without walking
    ``Model.__init__`` (and so without its ``pre_init``/``post_init`` signals)."""
    fixed, drawn, names = _defaults(cls)
    if not names.issuperset(values):
        unknown = ", ".join(sorted(set(values) - names))
        raise TypeError(f"{cls.__name__} has no fields {unknown}")
    row = cls.__new__(cls)
    fields = row.__dict__
    fields.update(fixed)
    for field in drawn:
        if field.attname not in values:
            fields[field.attname] = field.get_default()
    fields.update(values)
    row._state = ModelState()
    return row
