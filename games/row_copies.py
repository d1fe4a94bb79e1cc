"""Copies of model instances, quicker than ``copy.copy``.

``copy.copy`` of a Django model goes through pickling's ``__reduce_ex__`` and the app
registry. A move copies its game and each seat twice (out of the committed snapshot and into
the new one), and those copies were most of ``Snapshot.of`` (figures: docs/benchmarks.md).
"""

from __future__ import annotations

from typing import TypeVar

from django.db.models import Model
from django.db.models.base import ModelState

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
