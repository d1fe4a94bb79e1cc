"""Tags for the room's most repeated fragments: scorecard rows and cells, die faces.

A 4-seat scorecard has 13 rows and 52 cells and every push renders it, yet rows and cells
repeat endlessly (a filled 18, an open box worth 25, a blank; a row nobody changed since
the last move), and no cell names a player, so they repeat across tables too. Each is
rendered once per distinct content and viewpoint, and then reused. Only a box the dice
could fill now looks different to the player on turn (a button) and to everyone else (a
preview).
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.safestring import SafeString

from games import caches, render_language
from games.rules import Box
from games.selectors import BoxView, DieView, RowView, box_name

register = template.Library()


# Who a cell is for, when the dice could fill its box: (the player on turn, everyone else).
Audience = tuple[bool, bool]
ANYONE: Audience = (False, False)  # a filled box, or one the dice cannot fill: one look


@caches.memoize("scorecard cells", maxsize=8192, key_extra=render_language.current)
def _score_cell(box: BoxView, audience: Audience) -> SafeString:
    for_turn, for_others = audience
    return render_to_string(
        "games/room.html#score_cell", {"box": box, "for_turn": for_turn, "for_others": for_others}
    )


def score_cell(box: BoxView, audience: Audience) -> SafeString:
    """One seat's cell in one row: a box the dice could fill now is a button for the player
    on turn and a preview for everyone else (a board for the whole table has both)."""
    return _score_cell(box, audience if box.option is not None else ANYONE)


@caches.memoize("scorecard rows", maxsize=4096, key_extra=render_language.current)
def _score_row(row: RowView, audience: Audience) -> SafeString:
    # The cells are joined here: a {% for %} round a tag per cell cost four times as much,
    # and every roll changes the rows of the boxes still open.
    cells = SafeString("".join(score_cell(box, audience) for box in row.boxes))
    return render_to_string(
        "games/room.html#score_row",
        {"label": row.label, "short": row.short, "cells": cells},
    )


def score_row(row: RowView, audience: Audience) -> SafeString:
    """One box's row across the table, made of cells (most rows recur move after move)."""
    if all(box.option is None for box in row.boxes):  # the same for every viewer
        return _score_row(row, ANYONE)
    return _score_row(row, audience)


@register.simple_tag
def score_rows(rows: list[RowView], for_turn: bool, for_others: bool) -> SafeString:
    """The rows of one section of the scorecard, for the player on turn, for everyone
    else, or both."""
    audience = (bool(for_turn), bool(for_others))
    return SafeString("".join(score_row(row, audience) for row in rows))


@register.filter(name="box_name")
def box_name_filter(category: Box) -> str:
    """The name of a box in the reader's language: ``{{ category|box_name }}``."""
    return box_name(category)


@caches.memoize("die faces", maxsize=16)
def _die_face(value: int) -> SafeString:
    return render_to_string("games/room.html#die", {"die": DieView(0, value)})


@register.simple_tag
def die_face(value: int) -> SafeString:
    """The picture of a die showing ``value`` (hidden from screen readers: labels say it)."""
    return _die_face(value)


# The value a die's button sends is the held mask pressing it gives, which depends on all
# five dice: a button is rendered whole once per die, face, look and mask (a few thousand
# buttons in all per language) and reused.
@caches.memoize("die buttons", maxsize=4096, key_extra=render_language.current)
def _die_button(die: DieView, can_keep: bool) -> SafeString:
    return render_to_string("games/room.html#die_button", {"die": die, "can_keep": can_keep})


@register.simple_tag
def die_button(die: DieView, can_keep: bool) -> SafeString:
    """The button of one die: press it to keep or release the die."""
    return _die_button(die, bool(can_keep))


# Most fragments (the scorecard's head and sums, the turn's banner, clock and hint, the
# log's lines, the dice) recur within a turn and between the viewpoints of one version; a
# table's fragments are wanted again at its next move, after every other table has made
# one: about fifteen a table. Every entry also lives in the heap the garbage collector
# walks on each full collection, which pauses the whole process (about four objects an
# entry): the memo holds what a hundred busy tables need, not more.
@caches.memoize(
    "room fragments by name and arguments", maxsize=4096, key_extra=render_language.current
)
def _fragment(name: str, context: tuple[tuple[str, object], ...]) -> SafeString:
    return render_to_string(f"games/room.html#{name}", dict(context))


@register.simple_tag
def fragment(name: str, **context: object) -> SafeString:
    """The ``{% partialdef name %}`` of the room rendered with only ``context``, once per
    distinct context: the partial sees nothing else, so equal arguments always render
    equal markup. Every argument must be hashable (tuples, frozen views, numbers, text),
    and no lazy translation: one hashes as its text in the language active at the time,
    so a memo kept across languages would lose track of its own keys.
    """
    if any(isinstance(value, Promise) for value in context.values()):
        raise TypeError(f"fragment {name!r}: pass translated text, not a lazy translation")
    return _fragment(name, tuple(sorted(context.items())))
