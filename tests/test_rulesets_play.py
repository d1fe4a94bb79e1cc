"""Issue 31, the coach and the machine in every rule set: computer players of every level,
hints, feedback, the review with skill and luck, practice, the turn clock and the coach
that plays for someone away, series and fair dice, in Yatzy and Yacht as in Yahtzee."""

from __future__ import annotations

import pytest

from games import jobs, selectors, services
from games.dice import verify
from games.models import BotLevel, Game, Move, Seat
from games.rules import Rules
from games.selectors.practice import practice_answer_view, practice_position
from tests.clock_tables import on_turn, seat_of
from tests.conftest import board_view, player_of, version_of

RULESETS = ["yatzy", "yacht"]


def new_table(host, ruleset: str, seats: int = 2, **options) -> Game:
    return services.game_create(
        player=host, seat_count=seats, rules=Rules(ruleset=ruleset), **options
    )


def add_bot(game: Game, host, level: BotLevel) -> None:
    services.game_add_bot(code=game.code, player=host, version=version_of(game), level=level)


def play_as(person, game: Game) -> Game:
    """Start the game, then play each of ``person``'s turns (roll once, fill the first box
    the board offers) until it is over; computer players answer through the services."""
    services.game_start(code=game.code, player=person, version=version_of(game))
    for _ in range(100):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        position = on_turn(game)
        assert not Seat.objects.get(game=game, position=position).bot, "a bot left its turn"
        services.turn_roll(code=game.code, player=person, version=version_of(game))
        game.refresh_from_db()
        boxes = board_view(game, person).seats[position].boxes
        box = next(box for box, view in boxes.items() if view.option is not None)
        services.turn_score(code=game.code, player=person, version=version_of(game), category=box)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.django_db(transaction=True)
def test_computer_players_of_every_level_play_a_whole_game(alice, dice, ruleset, ruleset_advisor):
    ruleset_advisor(ruleset)
    host = player_of(alice)
    game = new_table(host, ruleset, seats=1 + len(BotLevel))
    for level in BotLevel:
        add_bot(game, host, level)

    game = play_as(host, game)

    boxes = len(Rules(ruleset=ruleset).boxes)
    for seat in game.seats.all():
        assert len(seat.scorecard["boxes"]) == boxes
        assert None not in seat.scorecard["boxes"].values()
        assert Move.objects.filter(game=game, seat=seat.position, kind="score").count() == boxes
    assert sorted(s.place for s in game.seats.all())[0] == 1


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.django_db(transaction=True)
def test_the_review_rates_play_and_luck_and_feeds_practice(alice, dice, ruleset, ruleset_advisor):
    ruleset_advisor(ruleset)
    host = player_of(alice)
    game = play_as(host, new_table(host, ruleset, seats=1, coach_hints=False))

    game.refresh_from_db()
    seat = game.seats.get()
    assert game.review is not None and "0" in game.review["seats"]
    assert seat.play_worth is not None and seat.luck is not None
    assert round(seat.play_worth + seat.luck) == seat.total
    page = selectors.replay_view(game, None, None)
    assert page is not None
    position = practice_position(0)
    if position is not None:  # first-open-box play always leaves a costly keep or two
        assert position.ruleset == ruleset
        rows = [row.value for row in position.card.upper_rows + position.card.lower_rows]
        assert rows == [box.value for box in Rules(ruleset=ruleset).boxes]
        answer = practice_answer_view(position, set())
        assert answer.choices


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.django_db
def test_hints_name_the_rule_sets_boxes(alice, loaded_dice, ruleset, ruleset_advisor):
    ruleset_advisor(ruleset)
    host = player_of(alice)
    game = new_table(host, ruleset, seats=1, coach_hints=True)
    loaded_dice.load("33333", "55555")  # the roll-off, then the first roll
    services.game_start(code=game.code, player=host, version=version_of(game))
    services.turn_roll(code=game.code, player=host, version=version_of(game))
    game.refresh_from_db()

    hints = board_view(game, host).hints
    assert hints.ready
    assert hints.best == "score {} now".format({"yatzy": "Yatzy", "yacht": "Yacht"}[ruleset])
    assert set(hints.boxes) == set(Rules(ruleset=ruleset).boxes)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.django_db
def test_feedback_after_a_box_names_it(alice, loaded_dice, ruleset, ruleset_advisor):
    ruleset_advisor(ruleset)
    host = player_of(alice)
    game = new_table(host, ruleset, seats=1, feedback=True, coach_hints=False)
    loaded_dice.load("33333", "12345")  # the roll-off, then the first roll
    services.game_start(code=game.code, player=host, version=version_of(game))
    services.turn_roll(code=game.code, player=host, version=version_of(game))
    services.turn_score(code=game.code, player=host, version=version_of(game), category="ones")
    game.refresh_from_db()

    feedback = selectors.decision_feedback(game, 0)
    assert feedback is not None
    assert feedback.choice == "Ones"
    straight = {"yatzy": "Small Straight", "yacht": "Little Straight"}[ruleset]
    assert feedback.best == straight


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.django_db(transaction=True)  # the coach's move follows the expiry's commit
def test_the_coach_plays_for_someone_whose_clock_ran_out(
    ann, ben, frozen_clock, ruleset, ruleset_advisor
):
    ruleset_advisor(ruleset)
    game = new_table(ann, ruleset, pace="blitz")
    services.game_join(code=game.code, player=ben, version=version_of(game))
    services.game_start(code=game.code, player=ann, version=version_of(game))
    first = on_turn(game)
    frozen_clock.advance(seconds=31)

    jobs.sweep()

    assert seat_of(game, first).status == "away"
    [scored] = Move.objects.filter(game=game, seat=first, kind="score", by_coach=True)
    assert scored.category in {box.value for box in Rules(ruleset=ruleset).boxes}
    assert on_turn(game) != first


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.django_db
def test_a_series_keeps_its_rule_set_and_its_dice_verify(alice, ruleset, ruleset_advisor):
    ruleset_advisor(ruleset)
    host = player_of(alice)
    game = play_as(host, new_table(host, ruleset, seats=1, series=2))

    seeds = [seat.client_seed for seat in game.seats.order_by("position")]
    checks = verify(bytes.fromhex(game.server_seed), seeds, selectors.moves_json(game)["moves"])
    assert checks and all(check.ok for check in checks)
    rematch = services.game_rematch(code=game.code, player=host)
    assert rematch.ruleset == ruleset and rematch.series_game == 2
    assert selectors.series_view(game) is not None
