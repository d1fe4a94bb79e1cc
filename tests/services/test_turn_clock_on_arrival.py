"""The turn's clock judges a move when it arrives, not when the sweep next looks.

At the deadline or after it, the person's move is refused with a sentence and the turn
expires there and then, as the sweep's expiry would have done it: the seat is away and the
coach finishes the turn. Time is a :class:`~tests.conftest.FrozenClock` moved by hand;
nothing here sleeps.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games import jobs, services
from games.models import Game, Move, Seat
from games.rules import Category
from games.services import NotAllowed, OutOfTime, StaleAction
from games.snapshots import Snapshot
from tests.conftest import HTMX, seen_from, snapshot, version_of

pytestmark = pytest.mark.django_db(transaction=True)

TOO_LATE = "Your time ran out; the coach is finishing this turn."


@pytest.fixture
def blitz(make_game, ann, ben, frozen_clock, coach_advisor, settings):
    """Alice and Bob at a blitz table (30 s a turn); Alice is on turn. The coach waits a
    human moment before each of its moves, as in production, so a test sees the table
    just after the expiry and drives the coach itself."""
    settings.BOT_DELAY_SECONDS = 1
    return make_game(ann, ben, start=True, starter=0, pace="blitz")


@pytest.fixture
def heard(monkeypatch) -> list[Snapshot]:
    """The versions announced to the live layer, in order."""
    versions: list[Snapshot] = []
    monkeypatch.setattr(services.writes, "listeners", [versions.append])
    return versions


def seat_status(game: Game, position: int) -> str:
    return Seat.objects.get(game=game, position=position).status


def on_turn(game: Game) -> int | None:
    game.refresh_from_db()
    return game.engine_state(list(game.seats.order_by("position"))).current_seat


def attempt(action: str, game: Game, player) -> Game:
    """One action of ``player`` against the table's current version."""
    version = version_of(game)
    if action == "roll":
        return services.turn_roll(code=game.code, player=player, version=version)
    if action == "keep":
        held = (True, False, False, False, False)
        return services.turn_keep(code=game.code, player=player, version=version, held=held)
    return services.turn_score(
        code=game.code, player=player, version=version, category=Category.CHANCE
    )


def test_a_score_sent_after_the_deadline_is_refused_and_the_coachs_move_counts(
    blitz, ann, loaded_dice, frozen_clock, alice_client
):
    loaded_dice.load("11111")
    services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))
    frozen_clock.advance(seconds=30, milliseconds=10)  # the score comes 0.01 s late

    response = alice_client.post(
        f"/g/{blitz.code}/score/",
        {"version": version_of(blitz), "category": "chance"},
        headers=HTMX,
    )

    assert response.status_code == 409
    page = response.content.decode()
    assert TOO_LATE in page
    # The table as it now stands: Alice is away and the coach is on her turn.
    assert 'id="me" data-seat="0" data-status="away"' in page
    assert "You are away: the coach plays your turns until you are back." in seen_from(page, 0)
    assert seat_status(blitz, 0) == "away"
    assert not Move.objects.filter(game=blitz, kind="score").exists()

    loaded_dice.load("11111" * 3)  # should the coach roll again
    while on_turn(blitz) == 0:  # the coach plays Alice's turn at its pace
        frozen_clock.advance(seconds=1)
        assert jobs.sweep() == 1

    scored = Move.objects.get(game=blitz, kind="score")
    assert scored.by_coach and scored.seat == 0
    assert (scored.category, scored.points) == (Category.YAHTZEE.value, 50)
    boxes = Seat.objects.get(game=blitz, position=0).scorecard["boxes"]
    assert boxes == {"yahtzee": 50}  # the only box filled, and not the one she sent


def test_a_refused_move_without_javascript_shows_the_sentence_on_the_page(
    blitz, frozen_clock, alice_client
):
    frozen_clock.advance(seconds=31)

    response = alice_client.post(f"/g/{blitz.code}/roll/", {"version": version_of(blitz)})

    assert response.status_code == 409
    assert TOO_LATE in response.content.decode()
    assert seat_status(blitz, 0) == "away"


@pytest.mark.parametrize("action", ["roll", "keep", "score"])
def test_every_move_of_the_turn_sent_at_exactly_the_deadline_is_refused(
    blitz, ann, loaded_dice, frozen_clock, action
):
    if action != "roll":
        loaded_dice.load("12345")
        services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))
    frozen_clock.advance(seconds=30)  # the very moment the clock runs out
    moves_before = Move.objects.filter(game=blitz).count()

    with pytest.raises(OutOfTime, match=re.escape(TOO_LATE)):
        attempt(action, blitz, ann)

    assert seat_status(blitz, 0) == "away"
    assert Move.objects.filter(game=blitz).count() == moves_before  # the move was not made
    blitz.refresh_from_db()
    assert blitz.turn_deadline is None  # the coach plays on, at its own pace
    assert blitz.due_at == frozen_clock.now() + timedelta(seconds=1)


@pytest.mark.parametrize("action", ["roll", "keep", "score"])
def test_a_move_just_before_the_deadline_is_accepted(blitz, ann, loaded_dice, frozen_clock, action):
    loaded_dice.load("12345")
    if action != "roll":
        services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))
    frozen_clock.advance(seconds=29, microseconds=999_999)

    attempt(action, blitz, ann)

    assert seat_status(blitz, 0) == "playing"
    last = Move.objects.filter(game=blitz).last()
    assert last.kind == action and not last.by_coach and last.user_id == ann.user_id


def test_the_sweep_after_a_refused_move_does_not_expire_the_turn_twice(
    blitz, ann, frozen_clock, heard
):
    frozen_clock.advance(seconds=30)
    ((code, version),) = jobs.claim(frozen_clock.now())  # a process takes the expiry at v

    with pytest.raises(OutOfTime):  # the move arrives before that process acts
        services.turn_roll(code=blitz.code, player=ann, version=version)
    after = snapshot(blitz)
    jobs.run(code, version)  # then the process acts on what it claimed

    assert snapshot(blitz) == after
    assert version_of(blitz) == version + 1
    assert [announced.game.version for announced in heard] == [version + 1]
    assert seat_status(blitz, 0) == "away"


def test_a_move_after_the_sweeps_expiry_is_refused_and_the_table_is_the_same(
    blitz, ann, frozen_clock, heard
):
    frozen_clock.advance(seconds=30)
    version = version_of(blitz)
    assert jobs.sweep() == 1  # the sweep looks first this time

    with pytest.raises(StaleAction):
        services.turn_roll(code=blitz.code, player=ann, version=version)

    assert version_of(blitz) == version + 1
    assert [announced.game.version for announced in heard] == [version + 1]
    assert seat_status(blitz, 0) == "away"
    assert not Move.objects.filter(game=blitz, kind="roll").exists()


def test_a_move_by_someone_not_on_turn_after_the_deadline_changes_nothing(
    blitz, ben, frozen_clock, heard
):
    frozen_clock.advance(seconds=31)
    before = snapshot(blitz)

    with pytest.raises(NotAllowed, match=r"It is alice's turn, not yours\."):
        attempt("roll", blitz, ben)

    assert snapshot(blitz) == before
    assert heard == []
    assert seat_status(blitz, 0) == "playing"  # the expiry is left to the sweep


def test_a_reader_in_telugu_is_told_in_telugu_that_their_time_ran_out(
    blitz, frozen_clock, alice_client
):
    alice_client.cookies["django_language"] = "te"
    frozen_clock.advance(seconds=31)

    response = alice_client.post(
        f"/g/{blitz.code}/roll/", {"version": version_of(blitz)}, headers=HTMX
    )

    assert response.status_code == 409
    page = response.content.decode()
    assert TOO_LATE not in page
    assert "మీ సమయం అయిపోయింది; ఈ వంతును కోచ్ పూర్తి చేస్తోంది." in page
