"""The account page's "Notify me on this device" section (templates/push/device.html)."""

from __future__ import annotations

from django import template
from django.conf import settings

from games.services.push import push_offered

register = template.Library()


@register.inclusion_tag("push/device.html")
def push_device() -> dict[str, object]:
    return {"offered": push_offered(), "public_key": settings.WEBPUSH_VAPID_PUBLIC_KEY}
