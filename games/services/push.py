"""Web Push: an account's devices, what it wants to hear of, and the notifications due.

A notification is a :class:`~games.models.PushDelivery` row per device, written in the
transaction of what caused it (a turn passing, a daily turn's last hour, an entry of the
inbox), and sent later by each process's background work (:mod:`games.jobs.pushes`), which
claims rows here (:func:`push_claim`) so that each goes once, whichever process looks.

A subscription's endpoint is an address the server will call: only ``https://`` on a push
service named in ``WEBPUSH_ENDPOINT_HOSTS`` is taken (:func:`check_endpoint`), never an
address a visitor chose.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress
import re
import uuid
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext

from games.clock import clock
from games.models import (
    Channel,
    Game,
    InboxItem,
    NotificationSettings,
    Pace,
    PushDelivery,
    PushKind,
    PushSubscription,
    Seat,
)
from games.models.push import DEFAULT_CHANNELS
from games.services.errors import GameError

# A device's notifications that failed are tried again after 30 s, 1 min, 2 min, ... up to
# an hour apart, and given up after this many tries.
MAX_ATTEMPTS = 8
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=1)
# How long a claimed row stays with the process that claimed it.
LEASE = timedelta(seconds=60)
# Rows that went are kept this long: they count towards the limits below.
KEPT = timedelta(days=1)
# News one person causes another (an invitation, a friend request or its acceptance):
# pushed at most this many times an hour to one account from one sender, and from everyone.
FROM_ONE_SENDER_PER_HOUR = 5
FROM_PEOPLE_PER_HOUR = 30
DEVICES_PER_ACCOUNT = 10

INBOX_KINDS = {
    InboxItem.Kind.INVITATION: PushKind.INVITATION,
    InboxItem.Kind.FRIEND_REQUEST: PushKind.FRIEND_REQUEST,
    InboxItem.Kind.FRIEND_ACCEPTED: PushKind.FRIEND_ACCEPTED,
    InboxItem.Kind.TOURNAMENT: PushKind.TOURNAMENT,
}
# News one person sends another, within the limits above (a tournament's winner is news of
# the site: each entrant hears of it once, whoever won).
PERSON_KINDS = frozenset({PushKind.INVITATION, PushKind.FRIEND_REQUEST, PushKind.FRIEND_ACCEPTED})
# The kinds an account chooses how to hear of (a test is not one).
NOTIFIED_KINDS = [kind for kind in PushKind if kind != PushKind.TEST]
# Turns too short for a notification to help.
NO_TURN_PUSH_PACES = frozenset({Pace.BLITZ})


class PushRefused(GameError):
    """A subscription the site will not take."""


def push_offered() -> bool:
    """Push is offered only when the site has its VAPID keys."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


# -- the devices -----------------------------------------------------------------------------

_HOST_NAME = re.compile(
    r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"
)


def _refused() -> PushRefused:
    return PushRefused(gettext("This browser's push service is not one the site can use."))


def host_allowed(host: str, port: int | None) -> bool:
    """``host`` (and ``port``, None for 443) is one of ``WEBPUSH_ENDPOINT_HOSTS``: an exact
    name, ``*.name`` for any name under it, or ``name:port`` for that name on that port."""
    for entry in settings.WEBPUSH_ENDPOINT_HOSTS:
        entry = entry.strip().lower()
        name, _, entry_port = entry.partition(":")
        if (int(entry_port) if entry_port.isdigit() else None) != port:
            continue
        if name.startswith("*."):
            if host.endswith(name[1:]) and len(host) > len(name) - 1:
                return True
        elif host == name:
            return True
    return False


def check_endpoint(endpoint: object) -> str:
    """The endpoint, if it is ``https://`` on a listed push service, with no user, no IP
    literal and the default port (or the port the list names); else a refusal."""
    if not isinstance(endpoint, str) or not 12 <= len(endpoint) <= 800 or not endpoint.isascii():
        raise _refused()
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise _refused() from None
    host = parts.hostname or ""
    if (
        parts.scheme != "https"
        or "@" in parts.netloc
        or parts.username is not None
        or parts.fragment
        or any(c in endpoint for c in " \\\t\r\n")
        or not _HOST_NAME.match(host)
        or parts.netloc.lower() not in (host, f"{host}:{port}")
    ):
        raise _refused()
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise _refused()
    if host.replace(".", "").isdigit() or not host_allowed(host, None if port == 443 else port):
        raise _refused()
    return endpoint


def _key(value: object, length: int) -> str:
    """A base64url key of ``length`` bytes as the browser gave it, or a refusal."""
    if not isinstance(value, str) or len(value) > 200:
        raise PushRefused(gettext("This subscription's keys are not valid."))
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise PushRefused(gettext("This subscription's keys are not valid.")) from None
    if len(raw) != length or (length == 65 and raw[0] != 4):
        raise PushRefused(gettext("This subscription's keys are not valid."))
    return value


@transaction.atomic
def push_subscribe(*, user_id: int, endpoint: object, p256dh: object, auth: object) -> bool:
    """Notify ``user_id`` on this device. The endpoint is the browser's secret: whoever
    posts it is signed in on that browser, so a device another account had moves to this
    one. Returns True if the device is new to the account."""
    endpoint = check_endpoint(endpoint)
    keys = {"p256dh": _key(p256dh, 65), "auth": _key(auth, 16)}
    _, created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user_id": user_id, **keys}
    )
    kept = PushSubscription.objects.filter(user_id=user_id).order_by("-created_at", "-id")
    old = list(kept.values_list("id", flat=True)[DEVICES_PER_ACCOUNT:])
    if old:
        PushSubscription.objects.filter(id__in=old).delete()
    return created


@transaction.atomic
def push_resubscribe(
    *, old_endpoint: object, old_auth: object, endpoint: object, p256dh: object, auth: object
) -> bool:
    """A browser's push service renewed a device's subscription (the service worker's
    ``pushsubscriptionchange``): the device keeps its account, settings and waiting pushes
    under the new endpoint and keys. The proof is the old subscription's auth secret, which
    only that browser and this site know; no session is needed, as the worker may wake when
    none is left. False (nothing changed) when no device has that endpoint and secret."""
    endpoint = check_endpoint(endpoint)
    keys = {"p256dh": _key(p256dh, 65), "auth": _key(auth, 16)}
    if not isinstance(old_endpoint, str) or not isinstance(old_auth, str):
        return False
    device = PushSubscription.objects.select_for_update().filter(endpoint=old_endpoint).first()
    if device is None or not hmac.compare_digest(device.auth.encode(), old_auth.encode()):
        return False
    # The new endpoint may already be stored (the page subscribed it first): one device.
    PushSubscription.objects.filter(endpoint=endpoint).exclude(pk=device.pk).delete()
    device.endpoint, device.p256dh, device.auth = endpoint, keys["p256dh"], keys["auth"]
    device.save(update_fields=["endpoint", "p256dh", "auth"])
    return True


@transaction.atomic
def push_unsubscribe(*, user_id: int, endpoint: object) -> bool:
    """Stop notifying ``user_id`` on this device; another account's device is left alone."""
    if not isinstance(endpoint, str):
        return False
    deleted, _ = PushSubscription.objects.filter(user_id=user_id, endpoint=endpoint).delete()
    return bool(deleted)


@transaction.atomic
def push_test(*, user_id: int) -> int:
    """A test notification to each of ``user_id``'s devices (one a minute at most); how
    many."""
    now = clock.now()
    recent = PushDelivery.objects.filter(
        user_id=user_id, kind=PushKind.TEST, created_at__gt=now - timedelta(minutes=1)
    )
    if recent.exists():
        return 0
    return _insert_for(user_id, PushKind.TEST, now)


# -- what an account wants to hear of ----------------------------------------------------------


def notification_channels(user_id: int) -> dict[str, str]:
    """How ``user_id`` hears of each kind of news (the defaults without a row)."""
    row = NotificationSettings.objects.filter(user_id=user_id).first()
    return {
        str(kind): (getattr(row, kind) if row else default)
        for kind, default in DEFAULT_CHANNELS.items()
    }


def wants(user_id: int, kind: str, by: Channel) -> bool:
    """``user_id`` hears of ``kind`` by ``by`` (push or e-mail); a test always goes."""
    if kind == PushKind.TEST:
        return by == Channel.PUSH
    chosen = notification_channels(user_id).get(kind, Channel.NONE)
    return chosen == Channel.BOTH or chosen == by


@transaction.atomic
def notification_channels_set(*, user_id: int, channels: dict[str, str]) -> None:
    """Keep ``channels`` (kind: channel, already checked by the form) for ``user_id``."""
    fields = {kind: value for kind, value in channels.items() if kind in DEFAULT_CHANNELS}
    NotificationSettings.objects.update_or_create(user_id=user_id, defaults=fields)


# -- hooks of the services: rows written in the caller's transaction ----------------------------


def _insert_for(
    user_id: int,
    kind: str,
    now: datetime,
    *,
    game_id: int | None = None,
    sender_id: int | None = None,
    tournament_id: int | None = None,
    turn: int = 0,
) -> int:
    """One statement: a due row for each of ``user_id``'s devices (none: no row), once a
    turn a device (a second one for the same turn is ignored)."""
    at = connection.ops.adapt_datetimefield_value(now)
    table = PushDelivery._meta.db_table
    devices = PushSubscription._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (subscription_id, user_id, kind, game_id, sender_id,"
            " tournament_id, turn, created_at, due_at, attempts, claim)"
            f" SELECT id, user_id, %s, %s, %s, %s, %s, %s, %s, 0, '' FROM {devices}"
            " WHERE user_id = %s ON CONFLICT DO NOTHING",
            [kind, game_id, sender_id, tournament_id, turn, at, at, user_id],
        )
        return max(int(cursor.rowcount), 0)


def turn_began(game: Game, seat: Seat, turn_number: int) -> None:
    """A person's turn began (``turn_clock.plan``): their devices get "your turn" unless
    the table is blitz. Who is at the table and what they chose is read when it goes, so
    the move pays for one insert at most, none for an account without devices."""
    if game.pace in NO_TURN_PUSH_PACES or not seat.user_id or seat.bot or seat.coach_plays:
        return
    _insert_for(seat.user_id, PushKind.YOUR_TURN, clock.now(), game_id=game.pk, turn=turn_number)


def last_hour_began(game: Game, seat: Seat, turn_number: int) -> None:
    """A daily turn has an hour left (``mail_marks.mail_marked``, once a turn)."""
    if not seat.user_id or seat.bot or seat.coach_plays:
        return
    _insert_for(seat.user_id, PushKind.LAST_HOUR, clock.now(), game_id=game.pk, turn=turn_number)


def inbox_item_added(item: InboxItem) -> None:
    """An entry reached someone's inbox (``inbox.inbox_add``): an invitation, a friend
    request or its acceptance is pushed too, within the limits on what people send, and so
    is a tournament's winner (to each entrant, once a tournament). The inbox's services
    already refused whatever a block or a setting forbids."""
    kind = INBOX_KINDS.get(InboxItem.Kind(item.kind))
    if kind is None or item.sender_id is None:
        return
    now = clock.now()
    if kind == PushKind.TOURNAMENT:
        tournament_id = item.details.get("tournament")
        if isinstance(tournament_id, int):
            _insert_for(
                item.user_id, kind, now, sender_id=item.sender_id, tournament_id=tournament_id
            )
        return
    recent = PushDelivery.objects.filter(
        user_id=item.user_id,
        kind__in=PERSON_KINDS,
        sender__isnull=False,
        created_at__gt=now - timedelta(hours=1),
    )
    events = recent.values("created_at", "sender_id").distinct()
    if (
        events.count() >= FROM_PEOPLE_PER_HOUR
        or events.filter(sender_id=item.sender_id).count() >= FROM_ONE_SENDER_PER_HOUR
    ):
        return
    game_id = item.game_id if kind == PushKind.INVITATION else None  # once a table a device
    _insert_for(item.user_id, kind, now, game_id=game_id, sender_id=item.sender_id)


# -- delivery bookkeeping (the jobs send) ------------------------------------------------------


def push_claim(now: datetime, limit: int = 50) -> list[PushDelivery]:
    """The due rows, each now leased to this caller: one atomic update marks them with a
    fresh claim, so two processes never take the same row (on PostgreSQL the rows are
    also locked, skipping those another process holds). A batch may outlast the lease:
    each row is renewed just before it goes (:func:`push_renew`), and skipped if lost."""
    due = PushDelivery.objects.filter(due_at__lte=now).order_by("due_at")
    if not due.exists():
        return []
    mark = uuid.uuid4().hex
    with transaction.atomic():
        if connection.features.has_select_for_update_skip_locked:
            due = due.select_for_update(skip_locked=True)
        ids = list(due.values_list("id", flat=True)[:limit])
        PushDelivery.objects.filter(id__in=ids, due_at__lte=now).update(
            due_at=now + LEASE, claim=mark
        )
    rows = PushDelivery.objects.filter(claim=mark, due_at=now + LEASE)
    related = ("subscription", "game", "sender", "tournament")
    return list(rows.select_related(*related).order_by("id"))


def push_renew(delivery: PushDelivery) -> bool:
    """Just before ``delivery`` goes: its lease, if this caller still holds it (its claim
    mark, and the lease not run out), starts again, in one conditional update. False when
    the lease ran out (a batch outlasted it) and the row is, or may be, another process's:
    the caller must not send it then, or it would go twice."""
    now = clock.now()
    renewed = PushDelivery.objects.filter(
        id=delivery.pk, claim=delivery.claim, due_at__gt=now
    ).update(due_at=now + LEASE)
    return renewed == 1


def push_done(delivery: PushDelivery) -> None:
    """The row went (or will never go): kept a day for the limits, due no more."""
    PushDelivery.objects.filter(id=delivery.pk, claim=delivery.claim).update(
        due_at=None, sent_at=clock.now()
    )


def push_retry(delivery: PushDelivery) -> None:
    """The push service failed for now: due again later, further apart each time."""
    attempts = delivery.attempts + 1
    if attempts >= MAX_ATTEMPTS:
        push_done(delivery)
        return
    wait = min(FIRST_RETRY * 2 ** (attempts - 1), LONGEST_RETRY)
    PushDelivery.objects.filter(id=delivery.pk, claim=delivery.claim).update(
        due_at=clock.now() + wait, attempts=attempts
    )


def push_device_gone(delivery: PushDelivery) -> None:
    """The push service no longer knows this device (404, 410): forget it."""
    PushSubscription.objects.filter(id=delivery.subscription_id).delete()


def push_prune(now: datetime) -> int:
    """Forget rows that went more than a day ago."""
    deleted, _ = PushDelivery.objects.filter(sent_at__lt=now - KEPT).delete()
    return deleted
