"""Replays: a game move by move at /g/<code>/replay/ (``?v=N`` links to a moment), with the
dice, the kept dice, the box chosen, everyone's card as it was, and the coach's verdict on
each decision from the stored review."""

from __future__ import annotations

import re

import pytest

from games import selectors, services
from games.models import Game, Move
from games.rules import Category
from tests.conftest import CardRow, scorecard_of, version_of

pytestmark = pytest.mark.django_db

KEEP_THREE_ONES = (True, True, True, False, False)
ONES = Category.ONES.label
FOUR_OF_A_KIND = Category.FOUR_OF_A_KIND.label


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def played(loaded_dice, make_game, ann, ben) -> Game:
    """Ann and Bob: Ann rolls 11123, keeps the ones, rolls 1 and 4, scores Ones (4); Bob
    rolls 66666 and scores a Yahtzee. Then the game stops (two turns played)."""
    game = make_game(ann, ben, start=True)

    def act(service, player, **kwargs):
        service(code=game.code, player=player, version=version_of(game), **kwargs)

    loaded_dice.load("11123")
    act(services.turn_roll, ann)
    act(services.turn_keep, ann, held=KEEP_THREE_ONES)
    loaded_dice.load("14")
    act(services.turn_roll, ann)
    act(services.turn_score, ann, category=Category.ONES)
    loaded_dice.load("66666")
    act(services.turn_roll, ben)
    act(services.turn_score, ben, category=Category.YAHTZEE)
    game.refresh_from_db()
    return game


def row_of(page: str, label: str) -> CardRow:
    """The replay card's row of that name."""
    return next(row for row in scorecard_of(page, "replay-card") if row.label == label)


def versions(game: Game) -> dict[str, list[int]]:
    by_kind: dict[str, list[int]] = {}
    for move in Move.objects.filter(game=game).order_by("version"):
        by_kind.setdefault(move.kind, []).append(move.version)
    return by_kind


def test_the_replay_opens_at_the_start_with_who_won_the_roll_off(played, client):
    page = text(client.get(f"/g/{played.code}/replay/"))

    assert "alice won the roll-off and starts." in page
    assert "Move 1 of 7" in page
    assert 'rel="prev"' not in page and 'rel="next"' in page


def test_each_kind_of_move_is_shown_with_its_dice_and_the_cards_as_they_were(played, client):
    v = versions(played)
    url = f"/g/{played.code}/replay/?v="

    first_roll = text(client.get(url + str(v["roll"][0])))
    assert "alice rolled." in first_roll
    assert re.findall(r'data-die-value="(\d)"', first_roll) == ["1", "1", "1", "2", "3"]

    keep = text(client.get(url + str(v["keep"][0])))
    assert "alice kept 1 1 1." in keep
    assert keep.count('class="die held"') == 3

    again = text(client.get(url + str(v["roll"][1])))
    assert "alice rolled again, keeping 1 1 1." in again
    assert re.findall(r'data-die-value="(\d)"', again) == ["1", "1", "1", "1", "4"]
    # Before the box is chosen, the Ones box is still empty on alice's card.
    assert row_of(again, ONES).cells == ("", "")

    scored = text(client.get(url + str(v["score"][0])))
    assert f"alice scored 4 in {ONES}." in scored
    assert row_of(scored, ONES).cells == ("4", "")

    last = text(client.get(url + str(v["score"][1])))
    assert "bob scored 50 in Yahtzee." in last
    assert row_of(last, "Yahtzee").cells == ("", "50")
    assert 'rel="next"' not in last and 'rel="prev"' in last


def test_a_version_between_moves_or_past_the_end_shows_the_move_before_it(played, client):
    last = versions(played)["score"][-1]
    page = text(client.get(f"/g/{played.code}/replay/?v={last + 50}"))
    assert "bob scored 50 in Yahtzee." in page
    assert "Move 7 of 7" in page


@pytest.mark.parametrize("query", ["v=abc", "v=-3", "seat=x&decision=1", "v=1e9"])
def test_a_malformed_moment_is_answered_with_a_message_and_the_start(played, client, query):
    response = client.get(f"/g/{played.code}/replay/?{query}")

    assert response.status_code == 400
    assert "That link names no moment of this game" in text(response)
    assert "won the roll-off" in text(response)


def test_the_replay_of_an_unknown_game_is_not_found_and_a_lobby_has_nothing_yet(
    client, make_game, ann
):
    assert client.get("/g/nosuchgame/replay/").status_code == 404
    lobby = make_game(ann)
    assert "Nothing has happened at this table yet" in text(client.get(f"/g/{lobby.code}/replay/"))


def review_of_alice() -> dict:
    """A stored review of alice's three decisions (the keep, Ones, nothing more)."""
    decisions = [
        {"round": 1, "kind": "keep", "dice": [1, 1, 1, 2, 3], "rolls_left": 2,
         "choice": [1, 1, 1], "best": [1, 1, 1], "loss": 0.0},
        {"round": 1, "kind": "box", "dice": [1, 1, 1, 1, 4], "rolls_left": 1,
         "choice": "ones", "best": "four_of_a_kind", "loss": 3.24},
    ]  # fmt: skip
    return {
        "seats": {
            "0": {
                "seat": 0,
                "decisions": decisions,
                "total_loss": 3.24,
                "mean_loss": 1.62,
                "costliest": [1],
            }
        }
    }


def test_the_coachs_verdict_is_shown_on_each_reviewed_decision(played, client):
    Game.objects.filter(pk=played.pk).update(review=review_of_alice())
    v = versions(played)
    url = f"/g/{played.code}/replay/?v="

    assert "Coach: keep 1 1 1 was the best play." in text(client.get(url + str(v["roll"][1])))
    assert f"Coach: {ONES} gave away 3.2 expected points; the best was {FOUR_OF_A_KIND}." in text(
        client.get(url + str(v["score"][0]))
    )
    assert "Coach:" not in text(client.get(url + str(v["roll"][0])))  # a first roll: no choice
    assert "Coach:" not in text(client.get(url + str(v["score"][1])))  # bob was not reviewed


def test_a_reviewed_decision_links_to_its_moment(played, client):
    Game.objects.filter(pk=played.pk).update(review=review_of_alice())
    page = text(client.get(f"/g/{played.code}/replay/?seat=0&decision=1"))
    assert f"alice scored 4 in {ONES}." in page

    played.refresh_from_db()
    _, decisions = selectors.replay_steps(played)
    assert decisions == {(0, 0): versions(played)["roll"][1], (0, 1): versions(played)["score"][0]}


def test_the_ranking_the_review_and_the_history_link_the_replay(
    make_game, ann, alice, alice_client, play_out
):
    game = play_out(make_game(ann, start=True), [ann])
    Game.objects.filter(pk=game.pk).update(
        review={
            "seats": {
                "0": {
                    "seat": 0,
                    "decisions": review_of_alice()["seats"]["0"]["decisions"],
                    "total_loss": 3.24,
                    "mean_loss": 1.62,
                    "costliest": [1],
                }
            }
        }
    )
    table = text(alice_client.get(f"/g/{game.code}/"))
    assert f'href="/g/{game.code}/replay/"' in table
    assert f'href="/g/{game.code}/replay/?seat=0&amp;decision=1"' in table
    history = text(alice_client.get(f"/u/{alice.username}/"))
    assert f'href="/g/{game.code}/replay/"' in history


def test_the_replay_page_steps_by_arrow_keys_from_a_static_script(played, client):
    page = text(client.get(f"/g/{played.code}/replay/"))
    assert "js/replay.js" in page
    assert 'data-replay="next"' in page
    assert "<script>" not in page


def test_the_replay_card_is_the_table_card_at_that_moment(played, client):
    """The replay draws the table's own scorecard: the same boxes, sums and total, cell for
    cell, with the mover's column marked instead of the column on turn."""
    last = versions(played)["score"][-1]
    table = scorecard_of(client.get(f"/g/{played.code}/").content.decode())
    replay = scorecard_of(client.get(f"/g/{played.code}/replay/?v={last}").content.decode())

    assert replay[1:] == table[1:]  # every row under the column heads
    assert [row.label for row in replay] == [
        "Box",
        *(c.label for c in Category if c.is_upper),
        "Upper subtotal",
        "Bonus (63+)",
        *(c.label for c in Category if not c.is_upper),
        "Yahtzee bonus",
        "Total",
    ]
    assert replay[0].cells == table[0].cells == ("alice", "bob")
    assert replay[0].looks == ("", "current")  # bob scored the last move
    assert table[0].looks == ("current", "")  # alice is on turn
    subtotal = next(row for row in replay if row.label == "Upper subtotal")
    assert subtotal.cells == ("4 59 more for the bonus", "0 63 more for the bonus")
    assert next(row for row in replay if row.kind == "total").cells == ("4", "50")
    assert next(row for row in replay if row.label == "Yahtzee").looks == ("open", "filled")
