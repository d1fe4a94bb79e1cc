"""The coach on the pages: the five best choices in the hints and at every review moment,
playing to win in the last rounds, skill against luck, and the rating band."""

from __future__ import annotations

import itertools
import re

import pytest

from games import selectors, services
from games.jobs import autoplay
from games.models import BotLevel, Game, Move
from games.rules import Category, Rules
from games.strategy.advisor import alternatives
from games.strategy.bots import POLICIES, choose_action
from games.strategy.review import Decision, LoggedMove, SeatReview, review_game
from games.strategy.winning import rank_to_win
from games.viewmodels.choices import wire_views
from tests.conftest import (
    ScriptedDice,
    board_view,
    jump_to_last_round,
    player_of,
    rolloff_won_by,
    version_of,
)

pytestmark = pytest.mark.django_db


def solo_rolled(alice, faces: str):
    person = player_of(alice)
    game = services.game_create(player=person, seat_count=1, coach_hints=True)
    services.game_start(code=game.code, player=person, version=version_of(game))
    services.turn_roll(
        code=game.code, player=person, version=version_of(game), rng=ScriptedDice(faces)
    )
    game.refresh_from_db()
    return game


def choices_table(page: str, caption: str) -> str:
    start = page.index(f"<caption>{caption}</caption>")
    return page[start : page.index("</table>", start)]


def test_the_hints_show_the_coachs_top_five_as_rank_orders_them(alice, alice_client, coach_advisor):
    game = solo_rolled(alice, "66612")
    view = board_view(game, player_of(alice))
    state = game.engine_state(list(game.seats.all()))

    expected = alternatives(coach_advisor.rank(state.cards[0], state.dice, 2), 5).top
    shown = view.hints.top
    assert [c.expected for c in shown] == [o.expected_total for o in expected]
    assert shown[0].words == "keep 6 6 6" and shown[0].is_best
    assert [c.place for c in shown] == [1, 2, 3, 4, 5]
    assert all(a.loss <= b.loss for a, b in itertools.pairwise(shown))

    page = alice_client.get(f"/g/{game.code}/").content.decode()
    table = choices_table(page, "The coach’s five best choices")
    assert table.count('<tr class="choice') == 5
    first = table.split('<tr class="choice')[1]
    assert first.count('class="die-face"') == 3  # the three sixes kept, drawn as dice
    assert f"{expected[0].expected_total:.1f}" in first and "best" in first
    assert "Expected final score: the total your card is expected to reach" in page


def test_with_no_rolls_left_the_top_five_are_boxes(alice, coach_advisor):
    person = player_of(alice)
    game = solo_rolled(alice, "66612")
    for faces in ("66612", "66612"):
        services.turn_roll(
            code=game.code, player=person, version=version_of(game), rng=ScriptedDice(faces)
        )
    game.refresh_from_db()

    top = board_view(game, person).hints.top

    assert len(top) == 5 and all(c.kind == "box" for c in top)
    assert top[0].box == Category.SIXES.label


def test_playing_to_win_ranks_the_last_rounds_by_the_chance_of_finishing_first(
    make_game, ann, ben, coach_advisor, alice_client
):
    game = make_game(ann, ben, start=True, starter=0)
    game.coach_hints = True
    game.save()
    jump_to_last_round(game, lambda seat, turn: "12345" if seat == 0 else "66666")
    services.turn_roll(
        code=game.code, player=ann, version=version_of(game), rng=ScriptedDice("66612")
    )
    game.refresh_from_db()
    state = game.engine_state(list(game.seats.order_by("position")))

    hints = board_view(game, ann).hints
    ranking = rank_to_win(coach_advisor, state.cards[0], state.dice, 2, [state.cards[1]])

    assert [c.win_chance for c in hints.to_win] == [o.win_probability for o in ranking[:5]]
    assert hints.to_win[0].win_chance >= hints.to_win[-1].win_chance
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert "Playing to win: the five choices with the best chance of finishing first" in page
    assert "Chance to win: how often this choice ends ahead of every opponent" in page


def test_a_solo_game_has_no_play_to_win_hints(alice, coach_advisor):
    game = solo_rolled(alice, "66612")
    assert board_view(game, player_of(alice)).hints.to_win == ()


# -- the review ---------------------------------------------------------------------------------


def turn(dice: str, box: str) -> list[LoggedMove]:
    return [
        LoggedMove("roll", 0, dice=dice, held="00000"),
        LoggedMove("score", 0, dice=dice, category=box),
    ]


MOVES = [
    *turn("66666", "chance"),  # a Yahtzee thrown into Chance: costly
    LoggedMove("roll", 0, dice="11112", held="00000"),
    LoggedMove("roll", 0, dice="11345", held="11000"),  # kept the ones, not four of them
    LoggedMove("score", 0, dice="11345", category="ones"),
    *turn("12345", "large_straight"),
]


@pytest.fixture
def reviewed(alice, finished_game, coach_advisor):
    """A finished solo game of Alice's with the coach's review of three scripted turns."""
    review = review_game(coach_advisor, Rules(), 1, MOVES)[0]
    card = {"chance": 30, "ones": 2, "large_straight": 40}
    game = finished_game((alice, card))
    services.review_store(
        code=game.code, review={"seats": {"0": review.to_dict()}}, mean_losses={0: review.mean_loss}
    )
    return game, review


def test_the_review_says_what_the_play_and_the_dice_were_worth(alice_client, reviewed):
    game, review = reviewed
    skill = review.skill

    page = alice_client.get(f"/g/{game.code}/").content.decode()

    assert skill.luck < 0  # 72 points after three turns is far below a whole game's average
    assert f"alice’s play was worth {skill.play_worth:.1f} points" in page
    assert f"perfect play from an empty card averages {skill.expected_start:.1f}" in page
    assert f"alice’s dice were worth {-skill.luck:.1f} points less than average" in page
    assert f"Rating: <strong>{skill.band.name}</strong>" in page
    assert skill.band.name == "learning"  # a Yahtzee in Chance gives away tens of points
    for bands in ("expert: below 0.2", "strong: 0.2 to 0.5", "good: 0.5 to 1.5"):
        assert bands in page
    assert "learning: 1.5 or more" in page


def test_a_moment_whose_loss_shows_as_nothing_is_not_a_costly_moment(
    alice, alice_client, finished_game
):
    game = finished_game((alice, CARD_200))
    store_review(game, [0.01])  # would read "-0.0" at one decimal

    page = alice_client.get(f"/g/{game.code}/").content.decode()
    costliest = page.split("alice: costliest moments")[1].split("<details>")[0]

    assert "Perfect play: not a single point given away." in costliest
    assert '<ol class="moments">' not in costliest
    assert "−0.0" not in page


def test_every_review_moment_shows_the_top_five_and_marks_the_choice(alice_client, reviewed):
    game, review = reviewed
    yahtzee_in_chance = review.decisions[0]
    assert yahtzee_in_chance.options.place > 5  # Chance is far from the top five here

    page = alice_client.get(f"/g/{game.code}/").content.decode()
    every = page.split('class="moments every"')[1].split("</ol>")[0]
    tables = every.split('<table class="choices">')[1:]

    assert len(tables) == len(review.decisions)
    first = tables[0]
    rows = first.split('<tr class="choice')[1:]
    assert len(rows) == 6  # the top five, and the chosen one at its place
    assert "chosen" in rows[5] and "Score Chance" in rows[5]
    assert f'data-place="{yahtzee_in_chance.options.place}"' in rows[5]
    assert f"−{yahtzee_in_chance.loss:.1f}" in rows[5]
    assert "Score Yahtzee" in rows[0] and "best" in rows[0]
    assert f"ranks number {yahtzee_in_chance.options.place} of all" in every


def test_a_chosen_choice_among_the_top_five_is_marked_in_place():
    top = [
        {"kind": "keep", "choice": [1, 1, 1, 1], "expected_total": 200.0, "loss": 0.0},
        {"kind": "keep", "choice": [1, 1], "expected_total": 198.5, "loss": 1.5},
    ]

    views = wire_views(top, [1, 1], 2, 1.5)

    assert [(v.place, v.chosen) for v in views] == [(1, False), (2, True)]
    assert views[1].words == "keep 1 1" and len(views[1].dice) == 2


def test_a_chosen_choice_outside_the_top_five_is_added_with_its_loss():
    top = [{"kind": "box", "choice": "yahtzee", "expected_total": 250.0, "loss": 0.0}]

    views = wire_views(top, "chance", 9, 20.25)

    assert views[-1].chosen and views[-1].place == 9
    assert views[-1].expected == pytest.approx(229.75)
    assert views[-1].box == Category.CHANCE.label


# -- the history ---------------------------------------------------------------------------------


def store_review(game: Game, losses: list[float], expected_start: float = 250.0) -> None:
    """The coach's review of a finished solo game whose decisions lost ``losses``."""
    decisions = [
        Decision(0, i + 1, "box", (1, 2, 3, 4, 5), 0, Category.CHANCE, Category.CHANCE, loss)
        for i, loss in enumerate(losses)
    ]
    total = game.seats.get().total
    review = SeatReview(0, decisions, expected_start=expected_start, final_total=total)
    services.review_store(
        code=game.code, review={"seats": {"0": review.to_dict()}}, mean_losses={0: review.mean_loss}
    )


def test_the_history_states_the_rating_band_and_charts_the_trend(
    alice, alice_client, finished_game
):
    for loss in (2.0, 0.4, 0.1, 0.3):
        store_review(finished_game((alice, {"chance": 20})), [loss])

    page = alice_client.get("/u/alice/").content.decode()
    history = selectors.user_history("alice")

    assert history.mean_loss == pytest.approx(0.7)
    assert "alice’s rating band is <strong>good</strong>" in page
    assert "0.70 points were given away per decision" in page
    assert "strong: 0.2 to 0.5" in page
    assert re.search(r'<polyline points="[\d., ]+" class="trend loss"/>', page)
    assert "The second line is the trend" in page


BOXES_200 = {
    "chance": 30,
    "yahtzee": 50,
    "large_straight": 40,
    "small_straight": 30,
    "full_house": 25,
    "four_of_a_kind": 25,
}
CARD_200 = {"boxes": BOXES_200}


def test_the_history_says_what_each_games_play_and_dice_were_worth_and_their_averages(
    alice, alice_client, finished_game
):
    unlucky = finished_game((alice, CARD_200))  # one decision, 3 points given away
    store_review(unlucky, [3.0])
    lucky = finished_game(
        (alice, {"boxes": {**BOXES_200, "three_of_a_kind": 30, "sixes": 30, "fives": 20}})
    )
    store_review(lucky, [0.0] * 9)  # nine perfect decisions, 280 points

    page = alice_client.get("/u/alice/").content.decode()
    rows = {
        code: row
        for row in page.split("<tr")[1:]
        for code in (unlucky.code, lucky.code)
        if f"Table {code}" in row
    }

    # Play: 250 from an empty card less what was given away; the dice: the rest of the score.
    assert '<td data-label="Play worth" class="play-worth">247.0</td>' in rows[unlucky.code]
    assert '<td data-label="Dice against average" class="luck">−47.0</td>' in rows[unlucky.code]
    assert '<td data-label="Play worth" class="play-worth">250.0</td>' in rows[lucky.code]
    assert '<td data-label="Dice against average" class="luck">+30.0</td>' in rows[lucky.code]
    assert (
        "On average over those games, alice’s play was worth 248.5 points a game, "
        "and the dice 8.5 points less than average." in page
    )


def test_the_historys_mean_loss_is_per_decision_not_per_game(alice, alice_client, finished_game):
    store_review(finished_game((alice, CARD_200)), [3.0])
    store_review(finished_game((alice, CARD_200)), [0.0] * 9)

    page = alice_client.get("/u/alice/").content.decode()

    # 3 points over 10 decisions, not the mean of 3.0 and 0.0 per decision.
    assert "0.30 points were given away per decision on average" in page
    assert "alice’s rating band is <strong>strong</strong>" in page


def test_the_trend_is_the_mean_of_the_last_five_games():
    chart = selectors.loss_chart([1.0, 0.0, 2.0, 1.0, 1.0, 0.0])
    scale = selectors.line_chart([1.0, 0.0, 2.0, 1.0, 1.0, 0.0], grid=1)
    trend = [tuple(map(float, p.split(","))) for p in chart["trend"].split()]
    # Means of the last five: 1, 0.5, 1, 1, 1, 0.8; on the scale of 0..2 that maps 2 to the top.
    ys = [y for _, y in trend]
    top, bottom = scale["gridlines"][-1][0], scale["gridlines"][0][0]
    assert [round((bottom - y) / (bottom - top) * 2, 2) for y in ys] == [1, 0.5, 1, 1, 1, 0.8]


# -- the computer player that plays to win ------------------------------------------------------


def test_the_coach_to_win_is_a_computer_player_that_plays_the_win_policy():
    level = BotLevel("coach_win")
    assert level.label == "Coach (to win)"
    assert level.policy == "win" and level.policy in POLICIES


@pytest.mark.django_db(transaction=True)
def test_the_coach_to_win_plays_its_turn_through_the_services(alice, coach_advisor, monkeypatch):
    host = player_of(alice)
    game = services.game_create(player=host, seat_count=2)
    services.game_add_bot(
        code=game.code, player=host, version=version_of(game), level=BotLevel.COACH_WIN
    )
    asked = []

    def spy(advisor, state, seat, rng, policy="optimal", **kw):
        asked.append(policy)
        return choose_action(advisor, state, seat, rng, policy, **kw)

    monkeypatch.setattr(autoplay, "choose_action", spy)
    services.game_start(
        code=game.code, player=host, version=version_of(game), rng=rolloff_won_by(1, 2)
    )

    game.refresh_from_db()
    bot = game.seats.get(position=1)
    assert bot.name == "Coach (to win) bot"
    assert Move.objects.filter(game=game, seat=1, kind=Move.Kind.SCORE).count() == 1
    assert asked and set(asked) == {"win"}
    state = game.engine_state(list(game.seats.order_by("position")))
    assert state.current_seat == 0 and game.status == Game.Status.PLAYING  # alice's turn now


def test_the_lobby_offers_the_coach_to_win(alice, alice_client):
    game = services.game_create(player=player_of(alice), seat_count=2)
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert '<option value="coach_win">Coach (to win)' in page
