"""The sentence a screen reader hears after each change of a board, in the reader's
language (the board's live region, ``#announce``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ..engine import ROUNDS, GameState
from ..models import Game

if TYPE_CHECKING:
    from .board import SeatView


def announcement(
    game: Game, state: GameState | None, views: list[SeatView], current: SeatView | None
) -> str:
    """The sentence a screen reader hears after each change."""
    if game.status == Game.Status.LOBBY:
        return _("Waiting for players: %(seated)s of %(count)s seated.") % {
            "seated": len(views),
            "count": game.seat_count,
        }
    if game.status == Game.Status.ABANDONED:
        return str(_("The game was abandoned: nobody was left to play it."))
    if game.status == Game.Status.FINISHED:
        winners = [v.name for v in views if v.place == 1]
        names = f" {pgettext('between two names', 'and')} ".join(winners)
        return _("Game over. Winner: %(names)s.") % {"names": names}
    assert state is not None and current is not None
    if state.dice:
        dice = ", ".join(map(str, state.dice))
        left = state.rolls_left
        if current.is_you:
            roll = _("Your roll: %(dice)s.") % {"dice": dice}
        else:
            roll = _("%(name)s's roll: %(dice)s.") % {"name": current.name, "dice": dice}
        rolls = ngettext("%(left)s roll left.", "%(left)s rolls left.", left) % {"left": left}
        return f"{roll} {rolls}"
    numbers = {"round": state.round, "rounds": ROUNDS, "name": current.name}
    if current.is_you:
        return _("Round %(round)s of %(rounds)s. Your turn.") % numbers
    return _("Round %(round)s of %(rounds)s. %(name)s's turn.") % numbers
