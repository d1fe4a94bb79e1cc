"""E-mails of daily games: "your turn", and a reminder when an hour is left.

Sent with Django's e-mail framework (the console backend unless SMTP is configured, see
docs/deploy.md, "Configuration"); written as templates, in the language the player chose
for their account (else English). Sent by the process's background work (games/jobs/),
never on a request.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.models import Channel, Seat
from games.models.accounts import Profile
from games.services.push import wants
from games.snapshots import Snapshot


def _send(snapshot: Snapshot, seat: Seat, template: str) -> bool:
    """Mail ``seat``'s player (if they gave an address); True if a message went."""
    if seat.user_id is None:
        return False
    from django.contrib.auth import get_user_model

    email = get_user_model().objects.filter(pk=seat.user_id).values_list("email", flat=True)
    address = email.first()
    if not address or not wants(seat.user_id, template, Channel.EMAIL):
        return False
    with translation.override(language_of(seat.user_id)):
        return _send_to(snapshot, seat, template, address)


def language_of(user_id: int) -> str:
    """The language the account chose (English if it never did): no request to read a
    browser's language from here."""
    chosen = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE


def _send_to(snapshot: Snapshot, seat: Seat, template: str, address: str) -> bool:
    game = snapshot.game
    context = {
        "name": seat.name,
        "link": settings.SITE_URL.rstrip("/") + reverse("game", args=[game.code]),
        "deadline": game.turn_deadline,
        "code": game.code,
    }
    subject = " ".join(render_to_string(f"games/email/{template}_subject.txt", context).split())
    body = render_to_string(f"games/email/{template}.txt", context)
    send_mail(subject, body, None, [address])
    return True


def your_turn(snapshot: Snapshot, seat: Seat) -> bool:
    return _send(snapshot, seat, "your_turn")


def last_hour(snapshot: Snapshot, seat: Seat) -> bool:
    return _send(snapshot, seat, "last_hour")
