"""E-mails of daily games: "your turn", and a reminder when an hour is left.

Sent with Django's e-mail framework (the console backend unless SMTP is configured, see
the README); written as templates, in the language of the site. Sent by the process's
background work (games/jobs.py), never on a request.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from .models import Seat
from .snapshots import Snapshot


def _send(snapshot: Snapshot, seat: Seat, template: str) -> bool:
    """Mail ``seat``'s player (if they gave an address); True if a message went."""
    if seat.user_id is None:
        return False
    from django.contrib.auth import get_user_model

    email = get_user_model().objects.filter(pk=seat.user_id).values_list("email", flat=True)
    address = email.first()
    if not address:
        return False
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
