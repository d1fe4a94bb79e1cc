"""A committed version of a game as one value (games/snapshots.py): the copies it is made of.

Its wire format is tested with the boards and sockets that use it (test_committed.py,
test_clocks.py, test_dice.py, test_consumers.py)."""

from __future__ import annotations

import copy

import pytest

from games.models import Game
from games.row_copies import copy_row

pytestmark = pytest.mark.django_db


def rows_of(duel: Game) -> dict[str, object]:
    """A game as read, and a seat read through it (its game in the seat's fields cache)."""
    seat = duel.seats.get(position=1)
    assert seat._state.fields_cache["game"] is duel
    return {"game": duel, "seat": seat}


@pytest.mark.parametrize("which", ["game", "seat"])
def test_a_copied_row_is_the_copy_that_copy_copy_makes(duel, which):
    row = rows_of(duel)[which]

    quick, usual = copy_row(row), copy.copy(row)

    def fields(copied):
        # copy.copy goes through pickling, which leaves Django's version on the copy
        return {k: v for k, v in vars(copied).items() if k not in ("_state", "_django_version")}

    assert type(quick) is type(usual) is type(row)
    assert fields(quick) == fields(usual) == fields(row)
    assert vars(quick._state) == vars(usual._state)
    assert quick._state.fields_cache == row._state.fields_cache


@pytest.mark.parametrize("which", ["game", "seat"])
def test_changing_a_copied_row_leaves_the_original_as_it_was(duel, which):
    row = rows_of(duel)[which]
    before = dict(vars(row)), dict(row._state.fields_cache), row._state.adding

    copied = copy_row(row)
    copied.pk = None
    copied.__dict__["added later"] = True
    copied._state.adding = True
    copied._state.fields_cache.clear()

    assert (dict(vars(row)), dict(row._state.fields_cache), row._state.adding) == before
