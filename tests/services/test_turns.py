"""A turn's writes (games/services/turns.py, writes.py, dice_supply.py): where the dice come
from, rolling, keeping and scoring, versions and who may act, the end, the announcements and
the move log that replays the game."""

from __future__ import annotations

import itertools
import random
import secrets

import pytest

from games import engine, rules, services
from games.committed import committed
from games.engine import GameState, Keep, Roll, RollOffRound, Score
from games.models import Game, Move, Seat
from games.rules import Category, Scorecard
from games.services import GameError, NotAllowed, Player, StaleAction
from games.services.dice_supply import dice_supply
from games.snapshots import Snapshot
from tests.conftest import (
    DICE_SEED,
    ScriptedDice,
    dice_of,
    guest_player,
    held_of,
    snapshot,
    version_of,
)
from tests.services.helpers import C, attempt, card_of, keep, roll, score

pytestmark = pytest.mark.django_db


# -- dice -------------------------------------------------------------------------------


def test_dice_come_from_each_games_fair_stream_by_default():
    """No source replaces the games' own streams (tests/test_dice.py checks them)."""
    assert dice_supply.source is None
    assert isinstance(dice_supply.choices, secrets.SystemRandom)


def test_rolls_come_from_the_injected_dice_source(dice, duel, ann):
    same = random.Random(DICE_SEED)
    expected = "".join(str(same.randint(1, 6)) for _ in range(5))

    services.turn_roll(code=duel.code, player=ann, version=version_of(duel))

    duel.refresh_from_db()
    assert dice_of(duel) == expected


# -- announcements ----------------------------------------------------------------------------


@pytest.fixture
def heard(monkeypatch):
    """The versions announced to the live layer, in order."""
    versions: list[tuple[str, int]] = []
    monkeypatch.setattr(
        services.writes,
        "listeners",
        [lambda snap: versions.append((snap.game.code, snap.game.version))],
    )
    return versions


def test_each_change_is_announced_once_after_commit(
    duel, ann, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        roll(duel, ann, "12345")

    assert len(callbacks) == 1
    assert heard == [(duel.code, version_of(duel))]


def test_a_refused_action_announces_nothing(duel, ben, heard, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(NotAllowed),
    ):
        roll(duel, ben, "12345")

    assert callbacks == []
    assert heard == []


@pytest.mark.parametrize("act", ["roll", "keep", "score"])
def test_the_announced_version_carries_the_engine_state_its_move_made(
    duel, ann, engine_states, monkeypatch, django_capture_on_commit_callbacks, act
):
    if act != "roll":
        roll(duel, ann, "12345")
    heard: list[Snapshot] = []
    monkeypatch.setattr(services.writes, "listeners", [heard.append])
    engine_states.clear()

    with django_capture_on_commit_callbacks(execute=True):
        attempt(act, duel, ann)
    (announced,) = heard
    state = announced.state

    assert len(engine_states) == 1  # the move's own, of the version it was made on
    duel.refresh_from_db()
    assert state == duel.engine_state(list(duel.seats.order_by("position")))


@pytest.mark.django_db(transaction=True)
def test_every_version_announced_in_a_whole_game_has_the_state_its_copies_read_back(
    make_game, ann, ben, play_out, monkeypatch
):
    heard: list[Snapshot] = []
    monkeypatch.setattr(services.writes, "listeners", [heard.append])
    faces = lambda seat, turn: "66666" if turn % 3 else "12345"  # noqa: E731

    game = play_out(make_game(ann, ben, start=True), [ann, ben], faces, whole=True)

    played = [announced for announced in heard if announced.state is not None]
    assert game.status == Game.Status.FINISHED and len(played) == 1 + 52  # the start, the moves
    for announced in played:
        assert announced.state == announced.game.engine_state(announced.seats)
    assert heard[-1].state == game.engine_state(list(game.seats.order_by("position")))


# -- a turn: roll, keep, score ------------------------------------------------------------------


def test_a_roll_shows_five_dice_and_uses_one_of_three_rolls(duel, ann):
    roll(duel, ann, "31456")

    duel.refresh_from_db()
    assert (dice_of(duel), held_of(duel), duel.rolls_left) == ("31456", "00000", 2)


def test_each_roll_is_logged_with_who_when_and_version(duel, ann, alice):
    roll(duel, ann, "31456")

    move = duel.moves.get(kind=Move.Kind.ROLL)
    assert (move.seat, move.user_id, move.turn_number) == (0, alice.pk, 0)
    assert (move.dice, move.held) == ("31456", "00000")
    assert move.version == version_of(duel)
    assert move.created_at is not None


def test_kept_dice_stay_on_the_table_when_rolling_again(duel, ann):
    roll(duel, ann, "12345")
    keep(duel, ann, "10100")
    roll(duel, ann, "666")

    duel.refresh_from_db()
    assert (dice_of(duel), held_of(duel), duel.rolls_left) == ("16366", "10100", 1)
    keep_move = duel.moves.get(kind=Move.Kind.KEEP)
    assert (keep_move.dice, keep_move.held) == ("12345", "10100")


def test_keeping_does_not_use_a_roll(duel, ann):
    roll(duel, ann, "12345")
    keep(duel, ann, "11000")
    keep(duel, ann, "00011")

    duel.refresh_from_db()
    assert (held_of(duel), duel.rolls_left) == ("00011", 2)


def test_scoring_fills_the_box_and_passes_the_turn(duel, ann):
    roll(duel, ann, "22333")
    score(duel, ann, "full_house")

    duel.refresh_from_db()
    assert card_of(duel, 0)[C.FULL_HOUSE] == 25
    assert Seat.objects.get(game=duel, position=0).total == 25
    assert (duel.turn_number, dice_of(duel), held_of(duel), duel.rolls_left) == (1, "", "00000", 3)
    assert duel.engine_state(list(duel.seats.all())).current_seat == 1
    move = duel.moves.get(kind=Move.Kind.SCORE)
    assert (move.seat, move.category, move.points, move.dice) == (0, "full_house", 25, "22333")


def test_holds_do_not_carry_into_the_next_turn(duel, ann, ben):
    roll(duel, ann, "12345")
    keep(duel, ann, "11111")
    score(duel, ann, "chance")

    roll(duel, ben, "66666")

    duel.refresh_from_db()
    assert (dice_of(duel), held_of(duel)) == ("66666", "00000")


def test_keeping_before_rolling_is_refused(duel, ann):
    before = snapshot(duel)

    with pytest.raises(GameError, match="Roll the dice before keeping"):
        keep(duel, ann, "10000")
    assert snapshot(duel) == before


def test_scoring_before_rolling_is_refused(duel, ann):
    before = snapshot(duel)

    with pytest.raises(GameError, match="Roll the dice before choosing"):
        score(duel, ann, "chance")
    assert snapshot(duel) == before


def test_a_fourth_roll_is_refused(duel, ann):
    for faces in ("12345", "12345", "12345"):
        roll(duel, ann, faces)
    before = snapshot(duel)

    with pytest.raises(GameError, match="No rolls left"):
        roll(duel, ann, "12345")
    assert snapshot(duel) == before


def test_keeping_after_the_third_roll_is_refused(duel, ann):
    for faces in ("12345", "12345", "12345"):
        roll(duel, ann, faces)
    before = snapshot(duel)

    with pytest.raises(GameError, match="No rolls left"):
        keep(duel, ann, "11000")
    assert snapshot(duel) == before


def test_a_filled_box_is_refused(make_game, ann, take_turn):
    game = make_game(ann, start=True)
    take_turn(game, ann, "22333", "full_house")
    roll(game, ann, "44555")
    before = snapshot(game)

    with pytest.raises(GameError, match="Full House box is already filled"):
        score(game, ann, "full_house")
    assert snapshot(game) == before


def test_upper_first_refuses_a_lower_box_until_the_upper_section_is_full(make_game, ann):
    game = make_game(ann, upper_first=True, start=True)
    roll(game, ann, "22333")

    with pytest.raises(GameError, match="Fill all six upper boxes"):
        score(game, ann, "full_house")
    score(game, ann, "threes")
    assert card_of(game, 0)[C.THREES] == 9


def test_yahtzee_then_an_extra_yahtzee_earns_the_bonus_by_the_joker_rule(make_game, ann, take_turn):
    game = make_game(ann, start=True)
    take_turn(game, ann, "66666", "yahtzee")
    roll(game, ann, "66666")

    with pytest.raises(GameError, match="must go in the Sixes box"):
        score(game, ann, "chance")
    score(game, ann, "sixes")

    card = card_of(game, 0)
    assert (card[C.YAHTZEE], card[C.SIXES], card.yahtzee_bonus_count) == (50, 30, 1)
    seat = Seat.objects.get(game=game)
    assert (seat.total, seat.yahtzees) == (180, 2)


@pytest.fixture
def engine_states(monkeypatch):
    """The versions of the games whose engine state was worked out from their rows."""
    worked_out: list[int] = []
    engine_state = Game.engine_state

    def counted(game: Game, seats: list[Seat]) -> engine.GameState:
        worked_out.append(game.version)
        return engine_state(game, seats)

    monkeypatch.setattr(Game, "engine_state", counted)
    return worked_out


@pytest.mark.parametrize("act", ["roll", "keep", "score"])
def test_a_move_works_out_its_games_engine_state_once(duel, ann, engine_states, act):
    if act != "roll":
        roll(duel, ann, "12345")
    engine_states.clear()

    attempt(act, duel, ann)

    assert len(engine_states) == 1  # the state it was made on; the clock plans from the new one


# -- versions and who may act --------------------------------------------------------------------


def test_stale_roll_changes_nothing(duel, ann):
    old = version_of(duel)
    roll(duel, ann, "12345")
    before = snapshot(duel)

    with pytest.raises(StaleAction, match="nothing changed"):
        roll(duel, ann, "66666", version=old)
    assert snapshot(duel) == before


def test_the_same_roll_sent_twice_rolls_once(duel, ann):
    version = version_of(duel)
    roll(duel, ann, "12345", version=version)

    with pytest.raises(StaleAction):
        roll(duel, ann, "66666", version=version)

    assert duel.moves.filter(kind=Move.Kind.ROLL).count() == 1
    assert dice_of(Game.objects.get(pk=duel.pk)) == "12345"


@pytest.mark.parametrize("act", ["keep", "score"])
def test_stale_keep_or_score_changes_nothing(duel, ann, act):
    roll(duel, ann, "22333")
    old = version_of(duel)
    keep(duel, ann, "11000")
    before = snapshot(duel)

    with pytest.raises(StaleAction):
        if act == "keep":
            keep(duel, ann, "00111", version=old)
        else:
            score(duel, ann, "full_house", version=old)
    assert snapshot(duel) == before


def test_a_missing_version_is_stale(duel, ann):
    before = snapshot(duel)

    with pytest.raises(StaleAction):
        services.turn_roll(code=duel.code, player=ann, version=None, rng=ScriptedDice())
    assert snapshot(duel) == before


@pytest.mark.parametrize("act", ["roll", "keep", "score"])
def test_a_player_out_of_turn_is_not_allowed(duel, ann, ben, act):
    roll(duel, ann, "22333")
    before = snapshot(duel)

    with pytest.raises(NotAllowed, match="It is alice's turn, not yours"):
        attempt(act, duel, ben)
    assert snapshot(duel) == before


@pytest.mark.parametrize("watcher", ["carol", "anonymous", "guest"])
def test_a_watcher_cannot_play(duel, cat, watcher):
    player = {"carol": cat, "anonymous": Player(name=""), "guest": guest_player("Gus")}[watcher]
    before = snapshot(duel)

    with pytest.raises(NotAllowed, match="watching"):
        roll(duel, player, "12345")
    assert snapshot(duel) == before


def test_a_guests_seat_belongs_to_their_session_token(make_game, ann):
    gus = guest_player("Gus")
    impostor = Player(name="Gus", guest="another-session")
    game = make_game(gus, ann, start=True, starter=0)

    with pytest.raises(NotAllowed):
        roll(game, impostor, "12345")
    roll(game, gus, "12345")

    move = game.moves.get(kind=Move.Kind.ROLL)
    assert (move.seat, move.user_id) == (0, None)


def test_an_account_holder_never_owns_a_guest_seat_with_the_same_token(make_game, ann):
    gus = guest_player("Gus")
    game = make_game(gus, start=True)
    seat = game.seats.get()

    assert not Player(name="Gus", user_id=ann.user_id, guest=gus.guest).owns(seat)


def test_playing_in_the_lobby_is_refused(make_game, ann, ben):
    game = make_game(ann, ben)

    with pytest.raises(GameError, match="not started"):
        roll(game, ann, "12345")


# -- the end -----------------------------------------------------------------------------------


def test_the_last_box_finishes_the_game_with_a_ranking(duel, ann, ben, play_out):
    play_out(duel, [ann, ben], lambda seat, turn: "12345" if seat == 0 else "11112", whole=True)

    duel.refresh_from_db()
    assert duel.status == Game.Status.FINISHED
    assert duel.finished_at is not None
    assert duel.turn_number == 26
    seats = list(duel.seats.order_by("position"))
    assert [(s.total, s.place) for s in seats] == [(100, 1), (24, 2)]
    assert all(Scorecard.from_dict(s.scorecard).is_complete for s in seats)
    assert duel.moves.filter(kind=Move.Kind.SCORE).count() == 26


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_played_from_committed_copies_ends_as_one_read_back_each_move(
    make_game, ann, ben, play_out, monkeypatch
):
    """Each move after the first starts from the version this process committed."""
    faces = lambda seat, turn: "66666" if seat == 0 else "11112"  # noqa: E731
    from_copies = play_out(make_game(ann, ben, start=True), [ann, ben], faces, whole=True)
    assert committed.at(from_copies.code, from_copies.version) is not None
    monkeypatch.setattr(committed, "at", lambda code, version: None)
    read_back = play_out(make_game(ann, ben, start=True), [ann, ben], faces, whole=True)

    def outcome(game):
        seats = game.seats.order_by("position")
        return (
            game.status,
            game.version,
            [(s.scorecard, s.total, s.yahtzees, s.place) for s in seats],
            list(game.moves.order_by("version").values_list("kind", "dice", "points")),
        )

    assert outcome(from_copies)[0] == Game.Status.FINISHED
    assert outcome(from_copies) == outcome(read_back)


@pytest.mark.django_db(transaction=True)
def test_a_move_from_the_version_just_committed_reads_neither_game_nor_seats(duel, ann):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    roll(duel, ann, "12345", version=duel.version)
    with CaptureQueriesContext(connection) as queries:
        roll(duel, ann, "66666", version=duel.version + 1)

    assert [q["sql"] for q in queries if q["sql"].startswith("SELECT")] == []
    duel.refresh_from_db()
    assert (dice_of(duel), duel.rolls_left) == ("66666", 1)


@pytest.mark.django_db(transaction=True)
def test_a_committed_copy_outdated_by_another_process_is_refused_and_nothing_changes(
    duel, ann, monkeypatch
):
    roll(duel, ann, "12345")
    seen = version_of(duel)
    with monkeypatch.context() as elsewhere:  # another process: this one never hears of it
        elsewhere.setattr(services.writes, "listeners", [])
        keep(duel, ann, "11000")
    before = snapshot(duel)
    moves = duel.moves.count()

    with pytest.raises(StaleAction):
        roll(duel, ann, "66666", version=seen)  # a click made on the older table

    assert committed.at(duel.code, seen) is not None
    assert snapshot(duel) == before
    assert duel.moves.count() == moves


def test_a_move_against_a_version_another_process_announced_reads_nothing_back(duel, ann):
    """The snapshot another process sends its sockets is as good as one committed here."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.snapshots import Snapshot

    roll(duel, ann, "66654")
    duel.refresh_from_db()
    committed.remember(Snapshot.from_wire(Snapshot.of(duel).to_wire()))
    with CaptureQueriesContext(connection) as queries:
        score(duel, ann, "sixes", version=duel.version)

    assert [q["sql"] for q in queries if q["sql"].startswith("SELECT")] == []
    alice = duel.seats.get(position=0)
    assert (Scorecard.from_dict(alice.scorecard)[Category.SIXES], alice.total) == (18, 18)
    assert duel.moves.get(version=duel.version + 1).points == 18
    moves = duel.moves.count()
    with pytest.raises(StaleAction):  # the same click again: that copy is outdated now
        score(duel, ann, "fives", version=duel.version)
    assert duel.moves.count() == moves


def test_equal_totals_share_a_place_and_the_next_place_is_skipped(
    make_game, ann, ben, cat, play_out
):
    game = make_game(ann, ben, cat, start=True, starter=2)

    play_out(game, [ann, ben, cat], lambda seat, turn: "11112" if seat == 2 else "12345")

    places = list(game.seats.order_by("position").values_list("total", "place"))
    assert places == [(100, 1), (100, 1), (24, 3)]


@pytest.mark.parametrize("act", ["roll", "keep", "score"])
def test_acting_in_a_finished_game_is_refused(duel, ann, ben, play_out, act):
    play_out(duel, [ann, ben])
    before = snapshot(duel)

    with pytest.raises(GameError, match="over"):
        attempt(act, duel, ann)
    assert snapshot(duel) == before


def test_the_last_score_sent_twice_is_stale(duel, ann, ben, play_out):
    play_out(duel, [ann, ben])
    last = duel.moves.order_by("-version").first()
    player = [ann, ben][last.seat]
    before = snapshot(duel)

    with pytest.raises(StaleAction):
        score(duel, player, last.category, version=last.version - 1)
    assert snapshot(duel) == before


# -- the move log replays the game -------------------------------------------------------


def play_with_keeps(game: Game, players: list[Player], choices: random.Random) -> None:
    """Play a started game to the end through the services, keeping and re-rolling at random
    and scoring a random legal box; the dice come from dice_supply.source."""
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
        player = players[game.engine_state(list(game.seats.all())).current_seat]
        services.turn_roll(code=game.code, player=player, version=game.version)
        for _ in range(choices.randint(0, 2)):
            held = tuple(choices.random() < 0.5 for _ in range(5))
            services.turn_keep(code=game.code, player=player, version=version_of(game), held=held)
            services.turn_roll(code=game.code, player=player, version=version_of(game))
        game.refresh_from_db()
        state = game.engine_state(list(game.seats.all()))
        allowed = rules.options(state.cards[state.current_seat], state.dice)
        category = choices.choice(sorted(allowed, key=lambda c: c.value))
        services.turn_score(code=game.code, player=player, version=game.version, category=category)


def replay(game: Game) -> GameState:
    """Rebuild a game from its roll-off and Move log through the engine alone."""
    rolloff = tuple(
        RollOffRound(tuple((int(seat), tuple(d)) for seat, d in round_)) for round_ in game.rolloff
    )
    state = GameState(
        rules=game.rules,
        cards=tuple(Scorecard(rules=game.rules) for _ in range(game.seat_count)),
        rolloff=rolloff,
        starter=rolloff[-1].leaders[0],
    )
    moves = list(game.moves.order_by("version"))
    assert moves[0].kind == Move.Kind.START
    assert moves[0].seat == state.starter
    users = dict(game.seats.values_list("position", "user_id"))
    for previous, move in itertools.pairwise(moves):
        assert move.version == previous.version + 1
        assert (move.seat, move.turn_number) == (state.current_seat, state.turn_number)
        assert move.user_id == users[move.seat]
        if move.kind == Move.Kind.ROLL:
            assert move.held == "".join("1" if h else "0" for h in state.held)
            fresh = "".join(d for d, h in zip(move.dice, state.held, strict=True) if not h)
            state = engine.apply(state, Roll(move.seat), ScriptedDice(fresh))
            assert "".join(map(str, state.dice)) == move.dice
        elif move.kind == Move.Kind.KEEP:
            assert "".join(map(str, state.dice)) == move.dice
            state = engine.apply(state, Keep(move.seat, tuple(h == "1" for h in move.held)))
        else:
            assert move.kind == Move.Kind.SCORE
            assert "".join(map(str, state.dice)) == move.dice
            category = Category(move.category)
            state = engine.apply(state, Score(move.seat, category))
            assert state.cards[move.seat][category] == move.points
    assert moves[-1].version == game.version
    return state


def test_the_move_log_replays_through_the_engine_to_the_same_final_cards(dice, make_game, ann, ben):
    gus = guest_player("Gus")
    game = make_game(ann, gus, ben, start=True, starter=1)

    play_with_keeps(game, [ann, gus, ben], random.Random(7))

    game.refresh_from_db()
    assert game.moves.filter(kind=Move.Kind.KEEP).exists()
    state = replay(game)
    assert state.is_finished
    seats = list(game.seats.order_by("position"))
    assert [card.to_dict() for card in state.cards] == [s.scorecard for s in seats]
    assert {st.seat: (st.place, st.total) for st in state.ranking()} == {
        s.position: (s.place, s.total) for s in seats
    }
