"""The coach in the product: computer players, hints for the player on turn, and the
review of every finished game."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games import jobs, services
from games.jobs import autoplay
from games.models import BotLevel, Game, Move, Seat
from games.rules import Category, Rules, Scorecard
from games.services import GameError, NotAllowed, Player
from games.strategy.review import LoggedMove, review_game
from games.viewmodels import coach as viewmodels_coach
from tests.conftest import HTMX, ScriptedDice, board_view, player_of, version_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, dice):
    """Alice's 4-seat table, still in its lobby."""
    return services.game_create(player=player_of(alice), seat_count=4)


def add_bot(game: Game, host: Player, level: BotLevel) -> Seat:
    return services.game_add_bot(code=game.code, player=host, version=version_of(game), level=level)


def current_seat(game: Game) -> Seat:
    game.refresh_from_db()
    state = game.engine_state(list(game.seats.order_by("position")))
    return game.seats.get(position=state.current_seat)


# -- seating computer players ----------------------------------------------------------------


def test_host_seats_computer_players_of_each_level_by_name(table, alice):
    host = player_of(alice)
    for level in (BotLevel.COACH, BotLevel.CASUAL, BotLevel.COACH):
        add_bot(table, host, level)

    seats = list(table.seats.order_by("position"))
    assert [(s.name, s.bot) for s in seats] == [
        ("alice", ""),
        ("Coach bot", "coach"),
        ("Casual bot", "casual"),
        ("Coach bot 2", "coach"),
    ]
    assert all(s.guest.startswith("bot-") for s in seats[1:])


def test_only_the_host_seats_computer_players(table, bob):
    before = version_of(table)
    with pytest.raises(NotAllowed, match="Only the host"):
        add_bot(table, player_of(bob), BotLevel.COACH)
    assert version_of(table) == before
    assert table.seats.count() == 1


def test_no_computer_player_once_every_seat_is_taken(alice, dice):
    game = services.game_create(player=player_of(alice), seat_count=2)
    add_bot(game, player_of(alice), BotLevel.BEGINNER)
    with pytest.raises(GameError, match="Every seat"):
        add_bot(game, player_of(alice), BotLevel.BEGINNER)


def test_host_removes_a_computer_player_and_the_seats_close_up(table, alice, bob):
    host = player_of(alice)
    add_bot(table, host, BotLevel.COACH)
    services.game_join(code=table.code, player=player_of(bob), version=version_of(table))

    services.game_remove_bot(code=table.code, player=host, version=version_of(table), position=1)

    assert [(s.position, s.name) for s in table.seats.order_by("position")] == [
        (0, "alice"),
        (1, "bob"),
    ]
    with pytest.raises(GameError, match="no computer player"):
        services.game_remove_bot(
            code=table.code, player=host, version=version_of(table), position=1
        )


@pytest.mark.parametrize(("bots", "people", "hints"), [(3, 1, True), (0, 2, False), (2, 2, False)])
def test_automatic_hints_are_on_only_when_one_person_plays(alice, bob, dice, bots, people, hints):
    game = services.game_create(player=player_of(alice), seat_count=bots + people)
    if people == 2:
        services.game_join(code=game.code, player=player_of(bob), version=version_of(game))
    for _ in range(bots):
        add_bot(game, player_of(alice), BotLevel.BEGINNER)
    services.game_start(code=game.code, player=player_of(alice), version=version_of(game))
    game.refresh_from_db()
    assert game.coach_hints is hints


@pytest.mark.django_db(transaction=True)
def test_computer_players_leave_a_rematch_seated_again(alice, dice, coach_advisor):
    game = services.game_create(player=player_of(alice), seat_count=2, coach_hints=False)
    add_bot(game, player_of(alice), BotLevel.BEGINNER)
    play_game_as(player_of(alice), game)
    rematch = services.game_rematch(code=game.code, player=player_of(alice))
    assert [(s.name, s.bot) for s in rematch.seats.order_by("position")] == [
        ("alice", ""),
        ("Beginner bot", "beginner"),
    ]


# -- bots play through the services ------------------------------------------------------------


def play_game_as(person: Player, game: Game) -> Game:
    """Start the game, then play every one of ``person``'s turns (roll once, fill the first
    open box) until it is over; the computer players answer through the services."""
    services.game_start(code=game.code, player=person, version=version_of(game))
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        seat = current_seat(game)
        assert not seat.bot, "a computer player left its turn unplayed"
        services.turn_roll(code=game.code, player=person, version=version_of(game))
        game.refresh_from_db()
        card = Scorecard.from_dict(seat.scorecard, game.rules)
        box = board_view(game, person).seats[seat.position]
        category = next(c for c in Category if box.boxes[c].option is not None)
        assert card[category] is None
        services.turn_score(
            code=game.code, player=person, version=version_of(game), category=category
        )
    raise AssertionError("the game did not finish")


@pytest.mark.django_db(transaction=True)
def test_a_game_against_three_computer_players_is_played_to_the_end(alice, dice, coach_advisor):
    host = player_of(alice)
    game = services.game_create(player=host, seat_count=4)
    for level in (BotLevel.COACH, BotLevel.CASUAL, BotLevel.BEGINNER):
        add_bot(game, host, level)

    game = play_game_as(host, game)

    seats = list(game.seats.order_by("position"))
    assert game.status == Game.Status.FINISHED
    assert all(Scorecard.from_dict(seat.scorecard, game.rules).is_complete for seat in seats)
    bot_moves = Move.objects.filter(game=game, seat__in=[1, 2, 3])
    assert bot_moves.filter(kind=Move.Kind.SCORE).count() == 39
    # The coach plays perfectly, so it never rolls a turn away by keeping all five dice.
    assert bot_moves.filter(kind=Move.Kind.ROLL).count() >= 39
    # The review covers the person only, and is kept with the game.
    assert list(game.review["seats"]) == ["0"]
    assert seats[0].mean_loss is not None and seats[0].mean_loss >= 0
    assert all(seat.mean_loss is None for seat in seats[1:])


@pytest.mark.django_db(transaction=True)
def test_a_computer_turn_left_pending_by_a_restart_is_resumed(
    alice, dice, coach_advisor, monkeypatch
):
    host = player_of(alice)
    game = services.game_create(player=host, seat_count=2)
    add_bot(game, host, BotLevel.CASUAL)
    with monkeypatch.context() as server_stopping:
        # The start commits but nobody hears of it, as if the server stopped right after.
        server_stopping.setattr(services.writes, "listeners", [])
        services.game_start(
            code=game.code, player=host, version=version_of(game), rng=ScriptedDice("1111166666")
        )
    assert current_seat(game).bot == "casual"
    before = version_of(game)

    jobs.sweep()  # the process's periodic look for automatic work nobody is doing

    assert version_of(game) > before
    assert current_seat(game).name == "alice"
    assert Move.objects.filter(game=game, seat=1, kind=Move.Kind.SCORE).count() == 1


def test_a_computer_player_waits_while_the_coach_warms_up(alice, dice, monkeypatch, frozen_clock):
    monkeypatch.setattr(autoplay, "advisor_if_ready", lambda *args: None)
    host = player_of(alice)
    game = services.game_create(player=host, seat_count=2)
    add_bot(game, host, BotLevel.COACH)
    services.game_start(
        code=game.code, player=host, version=version_of(game), rng=ScriptedDice("1111166666")
    )
    before = version_of(game)

    assert jobs.sweep() == 1

    assert version_of(game) == before  # nothing played without the table
    game.refresh_from_db()
    assert game.due_at == frozen_clock.now() + timedelta(seconds=autoplay.WARMUP_RETRY_SECONDS)
    assert jobs.sweep() == 0  # not due again until then


# -- hints -------------------------------------------------------------------------------------


def solo(alice, hints: bool | None = True) -> Game:
    game = services.game_create(player=player_of(alice), seat_count=1, coach_hints=hints)
    services.game_start(code=game.code, player=player_of(alice), version=version_of(game))
    game.refresh_from_db()
    return game


def test_player_on_turn_sees_the_best_keep_and_the_cost_of_each_box(
    alice, coach_advisor, alice_client
):
    game = solo(alice)
    services.turn_roll(
        code=game.code,
        player=player_of(alice),
        version=version_of(game),
        rng=ScriptedDice("66612"),
    )

    page = alice_client.get(f"/g/{game.code}/").content.decode()

    assert "Coach:</strong> keep 6 6 6 and roll" in page
    suggested = re.findall(r'class="die[^"]*suggested[^"]*"', page)
    assert len(suggested) == 3
    assert re.search(r'aria-label="Score 18 in Sixes, costs [\d.]+ expected points"', page)
    # Nothing is held yet: the cost of rolling with the held dice would say nothing.
    assert "Rolling with the dice you keep now" not in page

    services.turn_keep(
        code=game.code,
        player=player_of(alice),
        version=version_of(game),
        held=(False, False, False, True, False),
    )
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert "Rolling with the dice you keep now costs" in page


def test_hints_say_when_holding_the_best_keep_and_rank_the_boxes(alice, coach_advisor):
    game = solo(alice)
    person = player_of(alice)
    services.turn_roll(
        code=game.code, player=person, version=version_of(game), rng=ScriptedDice("66612")
    )
    services.turn_keep(
        code=game.code,
        player=person,
        version=version_of(game),
        held=(True, True, True, False, False),
    )
    game.refresh_from_db()

    view = board_view(game, person)

    assert view.hints.keep_cost == pytest.approx(0, abs=1e-9)
    losses = {c: hint.loss for c, hint in view.hints.boxes.items()}
    assert set(losses) == set(Category)  # an empty card: every box is open
    assert min(losses.values()) > 0  # keeping the sixes beats scoring anything now
    assert losses[Category.ONES] > losses[Category.SIXES]


def test_hints_stay_hidden_from_other_players_and_when_off(alice, bob, coach_advisor, dice):
    game = services.game_create(
        player=player_of(alice), seat_count=2, coach_hints=True, rated=False
    )
    services.game_join(code=game.code, player=player_of(bob), version=version_of(game))
    services.game_start(
        code=game.code,
        player=player_of(alice),
        version=version_of(game),
        rng=ScriptedDice("6666611111"),
    )
    services.turn_roll(code=game.code, player=player_of(alice), version=version_of(game))
    game.refresh_from_db()

    assert board_view(game, player_of(alice)).hints.ready
    assert board_view(game, player_of(bob)).hints is None
    game.coach_hints = False
    assert board_view(game, player_of(alice)).hints is None


def test_hints_show_the_coach_warming_up_until_the_table_is_ready(alice, monkeypatch, dice):
    monkeypatch.setattr(viewmodels_coach, "loaded_advisor", lambda *args: None)
    game = solo(alice)
    services.turn_roll(code=game.code, player=player_of(alice), version=version_of(game))
    game.refresh_from_db()

    view = board_view(game, player_of(alice))

    assert view.hints is not None and not view.hints.ready


# -- the review --------------------------------------------------------------------------------


def test_review_rates_a_yahtzee_thrown_into_chance_as_a_costly_box(coach_advisor):
    moves = [
        LoggedMove("roll", 0, dice="55552", held="00000"),
        LoggedMove("keep", 0, dice="55552", held="11110"),
        LoggedMove("roll", 0, dice="55555", held="11110"),
        LoggedMove("score", 0, dice="55555", category="chance"),
    ]

    review = review_game(coach_advisor, Rules(), 1, moves)[0]

    keep, box = review.decisions
    assert (keep.kind, keep.dice, keep.rolls_left, keep.choice) == (
        "keep",
        (5, 5, 5, 5, 2),
        2,
        (5, 5, 5, 5),
    )
    assert keep.loss == pytest.approx(0, abs=1e-9)
    assert (box.kind, box.choice, box.best, box.rolls_left) == (
        "box",
        Category.CHANCE,
        Category.YAHTZEE,
        1,
    )
    assert box.loss > 20
    assert review.costliest == [box]
    assert review.mean_loss == pytest.approx(box.loss / 2)


@pytest.mark.django_db(transaction=True)
def test_finished_game_page_shows_the_review_with_the_costliest_moments(
    alice, alice_client, dice, coach_advisor
):
    game = services.game_create(player=player_of(alice), seat_count=1)
    game = play_game_as(player_of(alice), game)

    page = alice_client.get(f"/g/{game.code}/").content.decode()
    history = alice_client.get("/u/alice/").content.decode()

    assert "The coach’s review" in page
    assert "costliest moments" in page
    every = page.split('class="moments every"')[1].split("</ol>")[0]
    assert every.count('<table class="choices">') >= 13  # every decision, with its top five
    mean = Seat.objects.get(game=game).mean_loss
    assert f"{mean:.2f}" in history
    assert "lost per decision" in history


def test_a_review_is_stored_once(alice, dice):
    game = services.game_create(player=player_of(alice), seat_count=1)
    game.status = Game.Status.FINISHED
    game.save()
    services.review_store(code=game.code, review={"seats": {}}, mean_losses={0: 1.5})
    again = services.review_store(code=game.code, review={"seats": {"0": {}}}, mean_losses={})
    assert again.game.review == {"seats": {}}
    assert Seat.objects.get(game=game).mean_loss == 1.5


# -- over HTTP ---------------------------------------------------------------------------------


def test_host_adds_and_removes_a_computer_player_from_the_lobby_page(table, alice_client):
    response = alice_client.post(
        f"/g/{table.code}/bots/add/", {"version": version_of(table), "level": "coach"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "Coach bot" in response.content.decode()
    response = alice_client.post(
        f"/g/{table.code}/bots/remove/", {"version": version_of(table), "position": 1}
    )
    assert response.status_code == 302
    assert table.seats.count() == 1


def test_a_stranger_cannot_add_computer_players(table, bob_client):
    before = version_of(table)
    response = bob_client.post(f"/g/{table.code}/bots/add/", {"version": before, "level": "coach"})
    assert response.status_code == 403
    assert "Only the host" in response.content.decode()
    assert version_of(table) == before


def test_an_unknown_level_is_refused_with_a_message(table, alice_client):
    response = alice_client.post(
        f"/g/{table.code}/bots/add/", {"version": version_of(table), "level": "wizard"}
    )
    assert response.status_code == 400
    assert "Choose Coach, Coach (to win), Casual or Beginner." in response.content.decode()


def test_create_form_sets_coach_hints(alice_client):
    response = alice_client.post("/games/new/", {"seats": 2, "coach_hints": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.coach_hints is True
