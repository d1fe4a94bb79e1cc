"""Dice pictured in text (the rules page): the game's own die faces in a row."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .room import die_face

register = template.Library()


@register.simple_tag
def dice(values: str) -> SafeString:
    """``{% dice "11123" %}``: five dice as the table draws them, read out as their numbers."""
    faces = [die_face(int(value)) for value in values]
    return SafeString(
        render_to_string("rules/dice.html", {"faces": faces, "values": ", ".join(values)})
    )
