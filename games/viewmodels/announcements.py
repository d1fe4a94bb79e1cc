"""The sentence a screen reader hears after each change of a board, in the reader's
language (the board's live region, ``#announce``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine import GameState
from games.models import Game, Seat


def announcement(
    game: Game, state: GameState | None, seats: Sequence[Seat], *, on_turn: bool
) -> str:
    """The sentence a screen reader hears after each change; ``on_turn``: the reader plays
    the turn in progress. ``seats`` are in position order."""
    if game.status == Game.Status.LOBBY:
        return _("Waiting for players: %(seated)s of %(count)s seated.") % {
            "seated": len(seats),
            "count": game.seat_count,
        }
    if game.status == Game.Status.ABANDONED:
        return str(_("The game was abandoned: nobody was left to play it."))
    if game.status == Game.Status.FINISHED:
        winners = [s.display_name for s in seats if s.place == 1]
        names = f" {pgettext('between two names', 'and')} ".join(winners)
        return _("Game over. Winner: %(names)s.") % {"names": names}
    assert state is not None and state.current_seat is not None
    name = seats[state.current_seat].display_name
    if state.dice:
        dice = ", ".join(map(str, state.dice))
        left = state.rolls_left
        if on_turn:
            roll = _("Your roll: %(dice)s.") % {"dice": dice}
        else:
            roll = _("%(name)s's roll: %(dice)s.") % {"name": name, "dice": dice}
        rolls = ngettext("%(left)s roll left.", "%(left)s rolls left.", left) % {"left": left}
        return f"{roll} {rolls}"
    numbers = {"round": state.round, "rounds": state.rounds, "name": name}
    if on_turn:
        return _("Round %(round)s of %(rounds)s. Your turn.") % numbers
    return _("Round %(round)s of %(rounds)s. %(name)s's turn.") % numbers
