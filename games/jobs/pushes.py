"""Sending the notifications due (Web Push), from each process's background work.

:func:`sweep` claims the due rows (:func:`games.services.push.push_claim`: each goes to one
process only), decides whether each is still worth sending (the turn is still theirs, no
page of theirs shows it, they still want it, nobody blocked anybody), writes it in the
person's language and sends it with pywebpush: VAPID (RFC 8292) and an ``aes128gcm``
payload (RFC 8291). A timeout, a refused connection or a 5xx is tried again later, further
apart each time; a 404 or 410 means the device is gone, and it is forgotten.

Outbound TLS trusts the system's certificates, plus ``SSL_CERT_FILE`` and
``REQUESTS_CA_BUNDLE`` when set.
"""

from __future__ import annotations

import json
import logging
import os
import ssl
from datetime import datetime, timedelta
from typing import Any

import requests
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter

from games.clock import clock
from games.jobs.mails import language_of
from games.models import (
    Block,
    Channel,
    Connection,
    Game,
    Pace,
    PushDelivery,
    PushKind,
    SiteConnection,
)
from games.services import push as push_service

logger = logging.getLogger(__name__)

RETRIED_STATUSES = frozenset({408, 425, 429})
GONE_STATUSES = frozenset({404, 410})


class _TrustingAdapter(HTTPAdapter):
    """HTTPS with the system's certificates and the operator's extra ones."""

    def __init__(self, context: ssl.SSLContext) -> None:
        self.context = context
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["ssl_context"] = self.context
        super().init_poolmanager(*args, **kwargs)


def trusted_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    for variable in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
        path = os.environ.get(variable)
        if path and os.path.isfile(path):
            context.load_verify_locations(cafile=path)
    return context


def session() -> requests.Session:
    """A session for the push services (no proxies or netrc taken from the environment)."""
    made = requests.Session()
    made.trust_env = False
    made.mount("https://", _TrustingAdapter(trusted_context()))
    return made


def _turn_still_theirs(delivery: PushDelivery) -> bool:
    """The turn the row is about is still the person's, and no page of theirs shows it."""
    game = delivery.game
    if game is None or game.status != Game.Status.PLAYING:
        return False
    seats = list(game.seats.order_by("position"))
    state = game.engine_state(seats)
    if state.current_seat is None or state.turn_number != delivery.turn:
        return False
    seat = seats[state.current_seat]
    if seat.user_id != delivery.user_id or seat.coach_plays:
        return False
    return not Connection.objects.filter(game_id=game.pk, seat=seat.position).exists()


def worth_sending(delivery: PushDelivery) -> bool:
    kind = delivery.kind
    if not push_service.wants(delivery.user_id, kind, Channel.PUSH):
        return False
    if kind in (PushKind.YOUR_TURN, PushKind.LAST_HOUR):
        return _turn_still_theirs(delivery)
    if kind in push_service.PERSON_KINDS:
        if delivery.sender_id is None or Block.between(delivery.user_id, delivery.sender_id):
            return False
        # Someone on the site sees the news live on the page they have open.
        return not SiteConnection.objects.filter(user_id=delivery.user_id).exists()
    if kind == PushKind.TOURNAMENT:
        # The inbox has it live on any page of the site they have open, as news of people.
        if delivery.tournament is None:
            return False
        return not SiteConnection.objects.filter(user_id=delivery.user_id).exists()
    return True


def _players(game: Game, user_id: int) -> str:
    names = [s.display_name for s in game.seats.order_by("position") if s.user_id != user_id]
    return ", ".join(names) or "-"


def message(delivery: PushDelivery) -> dict[str, str]:
    """The notification in the active language: title, body, the page it opens, a tag (a
    newer notification of the same table or person replaces an older one)."""
    game, sender = delivery.game, delivery.sender
    name = sender.username if sender else ""
    kind = delivery.kind
    if game is not None and kind in (PushKind.YOUR_TURN, PushKind.LAST_HOUR):
        values = {"table": game.code, "players": _players(game, delivery.user_id)}
        url, tag = reverse("game", args=[game.code]), f"turn-{game.code}"
        if kind == PushKind.YOUR_TURN:
            title = _("Your turn")
            body = _("It is your turn at table %(table)s, with %(players)s.") % values
        else:
            title = _("An hour left")
            body = _("An hour is left on your turn at table %(table)s, with %(players)s.") % values
    elif kind == PushKind.INVITATION and game is not None:
        title = _("An invitation")
        body = _("%(name)s invites you to table %(table)s.") % {"name": name, "table": game.code}
        url, tag = reverse("game", args=[game.code]), f"invitation-{game.code}"
    elif kind == PushKind.FRIEND_REQUEST:
        title = _("A friend request")
        body = _("%(name)s asks to be your friend.") % {"name": name}
        url, tag = reverse("friends"), f"friend-{name}"
    elif kind == PushKind.FRIEND_ACCEPTED:
        title = _("A new friend")
        body = _("%(name)s accepted your friend request.") % {"name": name}
        url, tag = reverse("friends"), f"friend-{name}"
    elif kind == PushKind.TOURNAMENT and delivery.tournament is not None:
        tournament = delivery.tournament
        title = _("A tournament is over")
        values = {"name": name, "tournament": tournament.name}
        if delivery.sender_id == delivery.user_id:
            body = _("You won the tournament %(tournament)s.") % values
        else:
            body = _("%(name)s won the tournament %(tournament)s.") % values
        url = reverse("tournament", args=[tournament.pk])
        tag = f"tournament-{tournament.pk}"
    else:
        title = _("Yahtzee")
        body = _("Notifications work on this device.")
        url, tag = reverse("notification_settings"), "test"
    return {"title": title, "body": body, "url": url, "tag": tag}


def _time_to_live(delivery: PushDelivery) -> int:
    """How long a push service keeps a notification for a device that is off, in seconds."""
    if delivery.game is not None and delivery.kind == PushKind.YOUR_TURN:
        turn_time = Pace(delivery.game.pace).turn_time
        if turn_time:
            return int(turn_time.total_seconds())
    if delivery.kind == PushKind.LAST_HOUR:
        return 3600
    return 24 * 3600


def send(delivery: PushDelivery, through: requests.Session) -> str:
    """Send one row; what became of it: "sent", "retry" or "gone" (the device is gone)."""
    with translation.override(language_of(delivery.user_id)):
        data = json.dumps(message(delivery))
    try:
        webpush(
            subscription_info=delivery.subscription.info(),
            data=data,
            vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.WEBPUSH_SUBJECT},
            content_encoding="aes128gcm",
            ttl=_time_to_live(delivery),
            timeout=settings.WEBPUSH_TIMEOUT_SECONDS,
            requests_session=through,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE_STATUSES:
            return "gone"
        if status is None or status >= 500 or status in RETRIED_STATUSES:
            logger.info("Push to device %s failed (%s): later", delivery.subscription_id, status)
            return "retry"
        logger.warning("Push to device %s refused (%s)", delivery.subscription_id, status)
        return "sent"  # refused for good: not tried again
    except (requests.Timeout, requests.ConnectionError) as error:
        logger.info("Push to device %s failed (%s): later", delivery.subscription_id, error)
        return "retry"
    return "sent"


def deliver(delivery: PushDelivery, through: requests.Session) -> str:
    """Act on one claimed row; what became of it ("skipped" too, or "lost": the batch
    outlasted the row's lease, another process may have claimed it, so it is not sent
    here)."""
    if not push_service.push_offered() or not worth_sending(delivery):
        push_service.push_done(delivery)
        return "skipped"
    if not push_service.push_renew(delivery):
        return "lost"
    outcome = send(delivery, through)
    if outcome == "gone":
        push_service.push_device_gone(delivery)
    elif outcome == "retry":
        push_service.push_retry(delivery)
    else:
        push_service.push_done(delivery)
    return outcome


_last_prune: list[datetime] = []


def sweep(now: datetime | None = None) -> int:
    """Claim every row due by ``now`` and act on it; how many were claimed."""
    now = now or clock.now()
    if not _last_prune or now - _last_prune[0] > timedelta(hours=1):
        _last_prune[:] = [now]
        push_service.push_prune(now)
    claimed = push_service.push_claim(now)
    if claimed:
        through = session()
        try:
            for delivery in claimed:
                try:
                    deliver(delivery, through)
                except Exception:  # one bad row must not hold up the others
                    logger.exception("Push %s failed", delivery.pk)
                    push_service.push_retry(delivery)
        finally:
            through.close()
    return len(claimed)
