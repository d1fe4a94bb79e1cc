"""What the redesigned table shows beyond the rules: the last move and the turn so far,
refusals that go away, the bonus hint that stops when it means nothing, the dice that
tumble only after a roll, short box names for phones, icons drawn rather than taken from
the system's fonts, the Joker rules linked when they decide where the dice go."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from django.conf import settings

from games import services
from games.committed import committed
from games.live import rendering
from games.models import Player
from games.rules import Category
from games.snapshots import Snapshot
from tests.conftest import HTMX, ScriptedDice, player_of, seen_from, version_of
from tests.views.helpers import post, text, url

pytestmark = pytest.mark.django_db

CLEAR_FLASH = '<div id="flash" hx-swap-oob="innerHTML"></div>'


def roll(game, player, faces):
    services.turn_roll(
        code=game.code, player=player, version=version_of(game), rng=ScriptedDice(faces)
    )
    game.refresh_from_db()


def keep(game, player, mask):
    held = tuple(c == "1" for c in mask)
    services.turn_keep(code=game.code, player=player, version=version_of(game), held=held)
    game.refresh_from_db()


def score(game, player, box):
    services.turn_score(
        code=game.code, player=player, version=version_of(game), category=Category(box)
    )
    game.refresh_from_db()


def test_everyone_sees_the_last_box_scored_as_a_sentence(duel, ann, alice_client, bob_client):
    roll(duel, ann, "12346")
    score(duel, ann, "small_straight")

    for browser in (alice_client, bob_client, alice_client.__class__()):
        page = text(browser.get(url(duel)))
        assert f"{ann.name} scored 30 in Small Straight." in page


def test_the_turn_so_far_lists_each_roll_and_the_dice_held_for_it(
    duel, ann, ben, bob_client, take_turn
):
    take_turn(duel, ann, "11111", "yahtzee")
    roll(duel, ben, "22345")
    keep(duel, ben, "11000")
    roll(duel, ben, "666")  # the three dice not held

    page = text(bob_client.get(url(duel)))

    assert f"{ann.name} scored 50 in Yahtzee." in page
    assert "This turn: 2 rolls" in page
    assert f"{ben.name} rolled 2 2 3 4 5." in page
    assert f"{ben.name} held 2 2 and rolled 2 2 6 6 6." in page


def test_the_turn_log_starts_afresh_with_each_turn(duel, ann, ben, bob_client, take_turn):
    take_turn(duel, ann, "12345", "chance")

    page = text(bob_client.get(url(duel)))

    assert f"{ann.name} scored 15 in Chance." in page
    assert "This turn:" not in page  # Ben has not rolled yet; Ann's roll is history


def test_a_move_made_on_a_known_version_logs_what_the_database_would(
    duel, ann, ben, take_turn, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(services.writes, "listeners", [lambda snapshot: None])
    with django_capture_on_commit_callbacks(execute=True):
        _play_a_turn_and_a_half(duel, ann, ben, take_turn)

    known = committed.at(duel.code, duel.version)
    assert known is not None  # the moves went through the cache, without reading back
    assert len(known.recent_moves) == 4  # Ann's roll and score, Ben's roll, his latest hold
    assert known.recent_moves == Snapshot.of(duel).recent_moves
    assert Snapshot.from_wire(known.to_wire()).recent_moves == known.recent_moves
    with django_capture_on_commit_callbacks(execute=True):
        roll(duel, ben, "566")
    assert committed.at(duel.code, duel.version).recent_moves == Snapshot.of(duel).recent_moves


def _play_a_turn_and_a_half(duel, ann, ben, take_turn):
    take_turn(duel, ann, "33345", "threes")
    roll(duel, ben, "11234")
    keep(duel, ben, "10000")
    keep(duel, ben, "11000")


def test_a_refusal_is_cleared_by_the_next_board(duel, ann, bob_client, alice_client):
    refused = post(bob_client, duel, "roll", htmx=True)
    page = refused.content.decode()

    assert refused.status_code >= 400
    assert "turn, not yours" in text(refused)
    # The board's own clearing comes first, the refusal after it: htmx swaps both in order.
    assert page.index(CLEAR_FLASH) < page.index('<p class="error">')

    post(alice_client, duel, "roll", htmx=True)
    snapshot = committed.at(duel.code, version_of(duel) + 1) or Snapshot.load(duel.code)
    pushed = rendering.live_message(snapshot, Player(""))
    assert CLEAR_FLASH in pushed
    assert 'class="error"' not in pushed


def test_the_bonus_hint_stops_once_the_upper_section_is_full(duel, ann, ben, bob_client):
    for box in ("ones", "twos", "threes", "fours", "fives"):
        for player in (ann, ben):
            roll(duel, player, "12345")
            score(duel, player, box)
    assert "more for the bonus" in text(bob_client.get(url(duel)))

    roll(duel, ann, "12345")
    score(duel, ann, "sixes")  # Ann's upper section is full, 48 short of the bonus

    page = text(bob_client.get(url(duel)))
    hints = re.findall(r"(\d+) more for the bonus", page)
    assert hints == [str(63 - 15)]  # Ben's only: his Sixes are still open


def test_the_dice_tumble_after_a_roll_but_not_after_holding_one(duel, ann, alice_client):
    roll(duel, ann, "12345")
    assert 'class="dice rolled' in text(alice_client.get(url(duel)))

    keep(duel, ann, "10000")
    page = seen_from(text(alice_client.get(url(duel))), 0)
    assert 'class="dice for-turn"' in page
    assert 'class="dice rolled' not in page


def test_the_cost_of_rolling_with_held_dice_waits_until_something_is_held(
    alice, coach_advisor, alice_client
):
    person = player_of(alice)
    game = services.game_create(player=person, seat_count=1, coach_hints=True)
    services.game_start(code=game.code, player=person, version=version_of(game))
    game.refresh_from_db()
    roll(game, person, "66612")

    page = text(alice_client.get(url(game)))
    assert "Dashed dice: the ones the coach would hold." in page
    assert "Rolling with the dice you keep now" not in page

    keep(game, person, "11100")
    assert "Rolling with the dice you keep now" in text(alice_client.get(url(game)))


def test_held_dice_carry_a_held_badge_and_open_boxes_a_short_name(duel, ann, alice_client):
    roll(duel, ann, "12345")
    keep(duel, ann, "01000")

    page = seen_from(text(alice_client.get(url(duel))), 0)

    assert page.count(">Held</span>") == 1
    assert '<span class="label-short" aria-hidden="true">Sm. str.</span>' in page


def test_once_started_the_invite_shrinks_to_a_share_button(duel, alice_client):
    page = text(alice_client.get(url(duel), headers={}))

    assert 'data-status="playing"' in page
    assert 'class="button secondary share-button" data-share="#share-link"' in page
    assert HTMX  # the swapped board carries its status too
    swapped = text(alice_client.get(url(duel), headers=HTMX))
    assert 'data-status="playing"' in swapped


def test_no_page_or_script_draws_a_pictograph_from_the_systems_fonts():
    """Emoji and other pictographs show as an empty box without a font that has them, and
    say nothing to a screen reader: the pages draw their icons (templates/games/icons.html)
    and say in words what they mean. A tab's title can only be text: its turn cue may
    be a plain triangle."""
    root = Path(settings.BASE_DIR)
    sources = [*(root / "templates").rglob("*.html"), *(root / "static" / "js").rglob("*.js")]
    drawn_by_fonts = []
    for source in sources:
        for number, line in enumerate(source.read_text().splitlines(), start=1):
            for char in line:
                pictograph = unicodedata.category(char) == "So" or ord(char) >= 0x1F000
                if pictograph and not (char == "▶" and "title" in line):
                    drawn_by_fonts.append(f"{source.relative_to(root)}:{number} {char!r}")
    assert drawn_by_fonts == []


@pytest.mark.parametrize(
    ("yahtzee_before", "faces", "joker"),
    [
        (True, "44444", True),  # an extra Yahtzee: the Joker rules decide where it goes
        (False, "44444", False),  # a first Yahtzee goes in its own box
        (True, "12345", False),  # an ordinary roll
    ],
)
def test_the_table_links_the_joker_rules_only_when_they_apply(
    make_game, ann, alice_client, client, take_turn, yahtzee_before, faces, joker
):
    game = make_game(ann, start=True)
    take_turn(game, ann, "44444", "yahtzee" if yahtzee_before else "fours")
    roll(game, ann, faces)

    for browser in (alice_client, client):  # the player, and someone watching
        page = text(browser.get(url(game)))

        assert ('href="/rules/#joker"' in page) is joker
