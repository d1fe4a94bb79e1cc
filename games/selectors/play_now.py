""" "Play now" as a person's pages see it: where they stand in the queue, how long they have
waited, and which computer player they would meet instead."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.conf import settings

from games.models import ENDED_STATUSES, BotLevel, Player, Rating, Ruleset, Ticket
from games.viewmodels.base import ViewModel

# A guest, or an account without a rated game yet, meets this computer player: it plays
# well and slips now and then, a fair game for someone the site does not know yet.
DEFAULT_COMPUTER = BotLevel.CASUAL


@dataclass(frozen=True)
class PlayStatus(ViewModel):
    status: str  # "waiting", "matched" or "idle"
    waited_seconds: int
    game: str | None  # the table's code once matched
    ticket: int | None = None  # the waiting ticket
    ruleset: str = "yahtzee"
    pace: str = ""
    players: int = 0
    rated: bool = False
    # Idle, the last ticket a rated one that left the queue without a table (a cancel, a
    # closed page, or a pause from rated tables that began while it waited).
    left_rated_queue: bool = False

    @property
    def ruleset_name(self) -> str:
        return str(Ruleset(self.ruleset).label)

    @property
    def computer_offered(self) -> bool:
        return self.status == "waiting" and self.waited_seconds >= settings.PLAY_NOW_WAIT_SECONDS

    def as_json(self) -> dict[str, object]:
        return {"status": self.status, "waited_seconds": self.waited_seconds, "game": self.game}


IDLE = PlayStatus(status="idle", waited_seconds=0, game=None)


def _tickets_of(player: Player):
    if player.user_id is not None:
        return Ticket.objects.filter(user_id=player.user_id)
    if player.guest:
        return Ticket.objects.filter(user__isnull=True, guest=player.guest)
    return Ticket.objects.none()


def play_status(player: Player, now: datetime) -> PlayStatus:
    """Waiting (since when), matched (a table not yet over), or idle."""
    ticket = _tickets_of(player).select_related("game").order_by("-joined_at", "-pk").first()
    if ticket is None:
        return IDLE
    if ticket.status == Ticket.Status.WAITING:
        return PlayStatus(
            status="waiting",
            waited_seconds=max(0, int((now - ticket.joined_at).total_seconds())),
            game=None,
            ticket=ticket.pk,
            ruleset=ticket.ruleset,
            pace=ticket.pace,
            players=ticket.players,
            rated=ticket.rated,
        )
    game = ticket.game
    if ticket.status == Ticket.Status.MATCHED and game and game.status not in ENDED_STATUSES:
        return PlayStatus(status="matched", waited_seconds=0, game=game.code, ticket=ticket.pk)
    if ticket.status == Ticket.Status.LEFT and ticket.rated:
        return replace(IDLE, left_rated_queue=True)
    return IDLE


def waiting_ticket(player: Player) -> int | None:
    """The id of the person's waiting ticket, if they wait."""
    return (
        _tickets_of(player)
        .filter(status=Ticket.Status.WAITING)
        .values_list("pk", flat=True)
        .first()
    )


def ticket_status(ticket_id: int) -> tuple[str, str | None]:
    """A ticket's status and its table's code."""
    row = Ticket.objects.filter(pk=ticket_id).values_list("status", "game__code").first()
    return (str(row[0]), row[1]) if row else (str(Ticket.Status.LEFT), None)


@dataclass(frozen=True)
class ComputerChoice(ViewModel):
    level: BotLevel
    by_rating: bool  # chosen by the person's rating; else the default for the unrated


def computer_for(player: Player, ruleset: str = "yahtzee") -> ComputerChoice:
    """The computer player whose public rating is closest to the person's; a guest or an
    account with no rated game yet at this rule set meets :data:`DEFAULT_COMPUTER`."""
    if player.user_id is None:
        return ComputerChoice(DEFAULT_COMPUTER, by_rating=False)
    rating = Rating.objects.filter(user_id=player.user_id, ruleset=ruleset, games__gt=0).first()
    if rating is None:
        return ComputerChoice(DEFAULT_COMPUTER, by_rating=False)
    level = min(BotLevel, key=lambda level: abs(public_rating(level) - rating.ordinal))
    return ComputerChoice(level, by_rating=True)


def public_rating(level: BotLevel) -> float:
    """A computer player's rating as the leaderboard shows it (mu - 3 sigma, as
    :func:`~games.selectors.ratings.bot_ratings`), comparable with an account's."""
    mu, sigma = level.rating
    return mu - 3 * sigma
