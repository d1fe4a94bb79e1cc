"""What "Download your data" adds beside an account's games and people: its table talk, its
notification settings and devices, its daily games, its tournaments, its fair-play reviews
and when it was last on the site, as plain JSON values. Fifteen queries, however many rows
of each kind (one query per kind of row).

Nothing about another person goes in beyond what the account sees itself: a tournament's
name, never another entrant; a muted seat's number at a table, never who sat there; a
reported message's table and the reason, never its author or words; a fair-play review's
decision, never the moderator who made it."""

from __future__ import annotations

from django.db.models import (
    Count,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from games.clock import clock
from games.models import (
    ChatMessage,
    ChatMute,
    ChatPreference,
    ChatReport,
    ChatSilence,
    DailyEntry,
    DailyReminder,
    Entry,
    FairPlayReview,
    LastSeen,
    NotificationSettings,
    PushSubscription,
    Result,
    Tournament,
)
from games.models.push import DEFAULT_CHANNELS
from games.selectors.accounts import _moment


def _count_of(entries: QuerySet[Entry]) -> Coalesce:
    """A subquery's row count as a number (0, not NULL, when it finds no row)."""
    counted = entries.order_by().values("tournament").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def chat_data(user_id: int) -> dict[str, object]:
    """The account's table talk: its "chat off" setting, every message it wrote (whether
    a moderator hid it, and when), the reports it filed, the seats it muted (where the
    person muted sits now; None once they left the table), and the silences a moderator
    gave it, those from before it signed up or logged in as a guest included
    (``chat.chat_guest_claim``)."""
    key = f"u:{user_id}"  # games.models.person_key of an account
    chat_off = ChatPreference.objects.filter(user_id=user_id).values_list("chat_off", flat=True)
    messages = (
        ChatMessage.objects.filter(author_user_id=user_id)
        .order_by("created_at", "pk")
        .values_list("game__code", "seat", "name", "phrase", "text", "created_at", "hidden_at")
    )
    reports = (
        ChatReport.objects.filter(reporter=key)
        .order_by("created_at", "pk")
        .values_list("message__game__code", "reason", "created_at")
    )
    mutes = ChatMute.objects.filter(viewer=key).order_by("pk").values_list("game__code", "seat")
    silences = (
        ChatSilence.objects.filter(person=key)
        .order_by("created_at", "pk")
        .values_list("created_at", "until")
    )
    return {
        "chat_off": bool(chat_off.first()),
        "messages": [
            {
                "game": code,
                "seat": seat,
                "name": name,
                "phrase": phrase or None,
                "text": text or None,
                "created_at": _moment(at),
                "hidden_by_moderator": hidden is not None,
                "hidden_at": _moment(hidden),
            }
            for code, seat, name, phrase, text, at, hidden in messages
        ],
        "reports": [
            {"game": code, "reason": reason, "created_at": _moment(at)}
            for code, reason, at in reports
        ],
        "mutes": [{"game": code, "seat": seat} for code, seat in mutes],
        "silences": [{"from": _moment(at), "until": _moment(until)} for at, until in silences],
    }


def notifications_data(user_id: int) -> dict[str, object]:
    """How the account hears of each kind of news (the defaults when it never chose), and
    its devices: each one's push endpoint, when it was added, the last notification that
    went to it (or was given up) and how many wait and were tried in vain, over the
    deliveries kept (a day after they went). A device's own keys (``p256dh``, ``auth``)
    are the browser's secrets: they stay out of the file, as do the site's VAPID keys."""
    kinds = [str(kind) for kind in DEFAULT_CHANNELS]
    chosen = NotificationSettings.objects.filter(user_id=user_id).values_list(*kinds).first()
    devices = (
        PushSubscription.objects.filter(user_id=user_id)
        .annotate(
            last_push_at=Max("deliveries__sent_at"),
            pushes_waiting=Count("deliveries", filter=Q(deliveries__due_at__isnull=False)),
            failed_attempts=Coalesce(Sum("deliveries__attempts"), 0),
        )
        .order_by("created_at", "pk")
        .values_list("endpoint", "created_at", "last_push_at", "pushes_waiting", "failed_attempts")
    )
    return {
        "settings": {
            str(kind): (chosen[i] if chosen else str(default))
            for i, (kind, default) in enumerate(DEFAULT_CHANNELS.items())
        },
        "devices": [
            {
                "endpoint": endpoint,
                "created_at": _moment(at),
                "last_push_at": _moment(last),
                "pushes_waiting": waiting,
                "failed_attempts": failed,
            }
            for endpoint, at, last, waiting, failed in devices
        ],
    }


def daily_data(user_id: int) -> dict[str, object]:
    """The account's reminder setting and each of its daily games: the day, its rule set,
    the game's code and state, the score and the seconds from first roll to last box."""
    reminder = DailyReminder.objects.filter(user_id=user_id).values_list("remind", "last_reminded")
    remind, last_reminded = reminder.first() or (False, None)
    entries = (
        DailyEntry.objects.filter(user_id=user_id)
        .order_by("day__date", "pk")
        .values_list(
            "day__date",
            "day__ruleset",
            "game__code",
            "game__status",
            "game__seats__total",  # the daily game is solo: its one seat
            "game__started_at",
            "game__finished_at",
        )
    )
    games = []
    for day, ruleset, code, status, total, started, finished in entries:
        seconds = int((finished - started).total_seconds()) if started and finished else None
        games.append(
            {
                "date": _moment(day),
                "ruleset": ruleset,
                "game": code,
                "status": status,
                "score": total,
                "seconds": seconds,
                "started_at": _moment(started),
                "finished_at": _moment(finished),
            }
        )
    return {
        "reminder": {"remind": remind, "last_reminded": _moment(last_reminded)},
        "games": games,
    }


def tournaments_data(user_id: int) -> list[dict[str, object]]:
    """The tournaments the account made or joined, first to start first: their settings,
    and for an entrant its points, games, place (as the standings count it: one more than
    those with more points) among how many players, and each game's result."""
    now = clock.now()
    ahead = Entry.objects.filter(tournament=OuterRef("tournament"), points__gt=OuterRef("points"))
    everyone = Entry.objects.filter(tournament=OuterRef("tournament"))
    entries = {
        row[0]: row[1:]
        for row in Entry.objects.filter(user_id=user_id)
        .annotate(ahead=_count_of(ahead), players=_count_of(everyone))
        .values_list(
            "tournament_id", "joined_at", "points", "games", "withdrawn", "ahead", "players"
        )
    }
    results: dict[int, list[dict[str, object]]] = {}
    for tournament_id, code, place, points, doubled in (
        Result.objects.filter(user_id=user_id)
        .order_by("pk")
        .values_list("tournament_id", "game__code", "place", "points", "doubled")
    ):
        results.setdefault(tournament_id, []).append(
            {"game": code, "place": place, "points": points, "doubled": doubled}
        )
    tournaments = Tournament.objects.filter(
        Q(created_by_id=user_id) | Q(pk__in=list(entries))
    ).order_by("starts_at", "pk")
    found: list[dict[str, object]] = []
    for t in tournaments:
        entry = entries.get(t.pk)
        row: dict[str, object] = {
            "id": t.pk,
            "name": t.name,
            "created_by_me": t.created_by_id == user_id,
            "starts_at": _moment(t.starts_at),
            "ends_at": _moment(t.ends_at),
            "status": t.status_at(now),
            "ruleset": t.ruleset,
            "pace": t.pace,
            "table_size": t.table_size,
            "rated": t.rated,
            "public": t.public,
            "entry": None,
        }
        if entry is not None:
            joined, points, games, withdrawn, ahead_of_me, players = entry
            row["entry"] = {
                "joined_at": _moment(joined),
                "points": points,
                "games": games,
                "withdrawn": withdrawn,
                "place": ahead_of_me + 1,
                "players": players,
                "results": results.get(t.pk, []),
            }
        found.append(row)
    return found


def fair_play_data(user_id: int) -> list[dict[str, object]]:
    """Each fair-play review of the account, oldest first: when it was raised, the rated
    games and the figures it was raised on, and what a moderator decided, and when."""
    reviews = (
        FairPlayReview.objects.filter(user_id=user_id)
        .order_by("flagged_at", "pk")
        .values_list("pk", "status", "choices", "agreed", "flagged_at", "decided_at")
    )
    games: dict[int, list[str]] = {}
    for review_id, code in (
        FairPlayReview.games.through.objects.filter(fairplayreview__user_id=user_id)
        .order_by("game__finished_at", "game_id")
        .values_list("fairplayreview_id", "game__code")
    ):
        games.setdefault(review_id, []).append(code)
    return [
        {
            "status": status,
            "flagged_at": _moment(flagged),
            "games": games.get(review_id, []),
            "real_choices": choices,
            "agreed_with_the_coach": agreed,
            "decided_at": _moment(decided),
        }
        for review_id, status, choices, agreed, flagged, decided in reviews
    ]


def account_kept(user_id: int) -> dict[str, object]:
    """The keys "Download your data" adds: ``chat``, ``notifications``, ``daily``,
    ``tournaments``, ``fair_play`` and ``last_seen`` (when the account's last page with a
    live connection to the site closed; none while it never has)."""
    last_seen = LastSeen.objects.filter(user_id=user_id).values_list("at", flat=True).first()
    return {
        "chat": chat_data(user_id),
        "notifications": notifications_data(user_id),
        "daily": daily_data(user_id),
        "tournaments": tournaments_data(user_id),
        "fair_play": fair_play_data(user_id),
        "last_seen": _moment(last_seen),
    }
