"""The site's pictures in templates: its icons, and dice pictured in text (the rules page)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games import caches
from games.templatetags.room import die_face

register = template.Library()


@register.simple_tag
def dice(values: str) -> SafeString:
    """``{% dice "11123" %}``: five dice as the table draws them, read out as their numbers."""
    faces = [die_face(int(value)) for value in values]
    return SafeString(
        render_to_string("rules/dice.html", {"faces": faces, "values": ", ".join(values)})
    )


@caches.memoize("icons by name", maxsize=16)
def _icon(name: str) -> SafeString:
    return render_to_string(f"games/icons.html#{name}")


@register.simple_tag
def icon(name: str) -> SafeString:
    """``{% icon "clock" %}``: one of the site's icons (``templates/games/icons.html``),
    drawn inline and rendered once."""
    return _icon(name)
