"""Reads for pages: a table as one viewer sees it, the open tables, a player's history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.models import Connection, Game, LiveServer
from games.rules import Category
from games.services import Player
from tests.conftest import ScriptedDice, board_view, full_card, guest_player, version_of

pytestmark = pytest.mark.django_db

C = Category
NOBODY = Player(name="")


def roll(game: Game, player: Player, faces: str) -> Game:
    services.turn_roll(
        code=game.code, player=player, version=version_of(game), rng=ScriptedDice(faces)
    )
    game.refresh_from_db()
    return game


def view_of(game: Game, viewer: Player) -> selectors.GameView:
    game.refresh_from_db()
    return board_view(game, viewer)


# -- a table as one viewer sees it ------------------------------------------------------------


def test_the_host_sees_their_lobby_with_free_seats(make_game, ann):
    game = make_game(ann, seats=3)

    view = view_of(game, ann)

    assert (view.status, view.version, view.code) == ("lobby", 1, game.code)
    assert view.is_host
    assert view.you is view.seats[0]
    assert [(s.name, s.is_you, s.is_host, s.is_guest) for s in view.seats] == [
        ("alice", True, True, False)
    ]
    assert (view.can_join, view.free_seats, len(view.free_seat_slots)) == (False, 2, 2)
    assert view.announcement == "Waiting for players: 1 of 3 seated."
    assert (view.rolloff, view.current, view.round) == (None, None, 0)


def test_a_visitor_may_join_a_lobby_with_a_free_seat_but_not_a_full_one(make_game, ann, ben):
    open_table = make_game(ann, seats=3)
    full_table = make_game(ann, ben)

    assert view_of(open_table, guest_player()).can_join
    assert not view_of(full_table, guest_player()).can_join
    assert not view_of(open_table, guest_player()).is_host


def test_in_a_rematch_the_player_who_opened_it_is_marked_host(make_game, ann, ben, play_out):
    game = make_game(ann, ben, start=True)
    play_out(game, [ann, ben])
    rematch = services.game_rematch(code=game.code, player=ben)

    view = view_of(rematch, ann)

    assert [(s.name, s.is_host) for s in view.seats] == [("alice", False), ("bob", True)]
    assert not view.is_host


def test_before_the_first_roll_the_starter_is_to_play(duel, ann, ben):
    mine, theirs, watching = view_of(duel, ann), view_of(duel, ben), view_of(duel, NOBODY)

    assert mine.current.name == "alice"
    assert (mine.your_turn, theirs.your_turn, watching.your_turn) == (True, False, False)
    assert (mine.has_rolled, mine.dice, mine.rolls_left, mine.round) == (False, (), 3, 1)
    # What the player on turn may do, whoever looks: one board serves the whole table.
    assert (mine.can_roll, mine.can_keep, theirs.can_roll) == (True, False, True)
    assert (mine.for_turn, mine.for_others) == (watching.for_turn, watching.for_others)
    assert mine.announcement == "Round 1 of 13. Your turn."
    assert theirs.announcement == "Round 1 of 13. alice's turn."
    assert [s.is_current for s in mine.seats] == [True, False]


def test_after_a_roll_the_dice_show_with_their_toggles(duel, ann):
    roll(duel, ann, "22333")
    services.turn_keep(
        code=duel.code, player=ann, version=version_of(duel), held=(True,) * 2 + (False,) * 3
    )

    view = view_of(duel, ann)

    assert [(d.index, d.value, d.held, d.toggle_mask) for d in view.dice] == [
        (0, 2, True, "01000"),
        (1, 2, True, "10000"),
        (2, 3, False, "11100"),
        (3, 3, False, "11010"),
        (4, 3, False, "11001"),
    ]
    assert view.dice[2].pips == [(28, 28), (50, 50), (72, 72)]
    assert (view.can_keep, view.rolls_left) == (True, 2)
    assert view.announcement == "Your roll: 2, 2, 3, 3, 3. 2 rolls left."


def test_the_announcement_counts_one_roll_in_the_singular(duel, ann, ben):
    roll(duel, ann, "22333")
    roll(duel, ann, "44455")  # nothing kept: all five dice roll again
    assert view_of(duel, ben).announcement.endswith("1 roll left.")


def test_only_the_current_players_open_boxes_carry_points(duel, ann, ben):
    roll(duel, ann, "22333")

    for viewer in (ann, ben, NOBODY):
        view = view_of(duel, viewer)
        alice_col, bob_col = view.seats
        assert {c: b.option for c, b in alice_col.boxes.items()} == {
            C.ONES: 0,
            C.TWOS: 4,
            C.THREES: 9,
            C.FOURS: 0,
            C.FIVES: 0,
            C.SIXES: 0,
            C.THREE_OF_A_KIND: 13,
            C.FOUR_OF_A_KIND: 0,
            C.FULL_HOUSE: 25,
            C.SMALL_STRAIGHT: 0,
            C.LARGE_STRAIGHT: 0,
            C.YAHTZEE: 0,
            C.CHANCE: 13,
        }
        assert all(b.option is None and b.forbidden is None for b in bob_col.boxes.values())


def test_rows_list_every_box_for_every_seat_in_printed_order(duel, ann):
    view = view_of(duel, ann)

    assert [(r.value, r.label) for r in view.rows] == [(c.value, c.label) for c in Category]
    assert [r.value for r in view.upper_rows] == [c.value for c in list(Category)[:6]]
    assert [r.value for r in view.lower_rows] == [c.value for c in list(Category)[6:]]
    assert all(len(row.boxes) == 2 for row in view.rows)


def test_upper_first_says_why_lower_boxes_are_closed(make_game, ann):
    game = make_game(ann, upper_first=True, start=True)
    roll(game, ann, "22333")

    boxes = view_of(game, ann).seats[0].boxes

    assert boxes[C.THREES].option == 9
    assert boxes[C.FULL_HOUSE].option is None
    assert boxes[C.FULL_HOUSE].forbidden == (
        "Fill all six upper boxes before using the lower section."
    )


def test_an_extra_yahtzee_explains_the_joker_rule(make_game, ann, take_turn):
    game = make_game(ann, start=True)
    take_turn(game, ann, "44444", "yahtzee")
    roll(game, ann, "44444")

    view = view_of(game, ann)

    assert view.joker_note == "Yahtzee bonus +100! Joker rule: it must go in Fours."
    boxes = view.seats[0].boxes
    assert [c for c, b in boxes.items() if b.option is not None] == [C.FOURS]
    assert boxes[C.FULL_HOUSE].forbidden.startswith("Joker rule")
    assert boxes[C.YAHTZEE].value == 50


def test_upper_remaining_counts_down_to_the_bonus(make_game, ann, take_turn):
    game = make_game(ann, start=True)
    assert view_of(game, ann).seats[0].upper_remaining == 63

    take_turn(game, ann, "66661", "sixes")

    assert view_of(game, ann).seats[0].upper_remaining == 39


def test_the_rolloff_view_names_each_seat_with_dice_total_and_leaders(make_game, ann, ben):
    game = make_game(ann, ben)
    services.game_start(
        code=game.code,
        player=ann,
        version=version_of(game),
        rng=ScriptedDice("66655", "66655", "11111", "22222"),
    )

    rolloff = view_of(game, NOBODY).rolloff

    assert rolloff.rounds == (
        (("alice", (6, 6, 6, 5, 5), 28, True), ("bob", (6, 6, 6, 5, 5), 28, True)),
        (("alice", (1, 1, 1, 1, 1), 5, False), ("bob", (2, 2, 2, 2, 2), 10, True)),
    )
    assert rolloff.starter_name == "bob"


def test_a_finished_game_shows_the_ranking_and_its_rematch(make_game, ann, ben, play_out):
    game = make_game(ann, ben, start=True)
    play_out(game, [ann, ben], lambda seat, turn: "11112" if seat == 0 else "12345")

    before = view_of(game, ann)
    rematch = services.game_rematch(code=game.code, player=ann)
    after = view_of(game, ann)

    assert [(s.name, s.place, s.total) for s in before.ranking] == [
        ("bob", 1, 100),
        ("alice", 2, 24),
    ]
    assert (before.current, before.your_turn, before.round) == (None, False, 13)
    assert before.announcement == "Game over. Winner: bob."
    assert before.rematch_code is None
    assert after.rematch_code == rematch.code


# -- open tables and a player's tables ----------------------------------------------------------


def test_the_public_list_shows_one_open_table_per_host(make_game, ann, ben):
    for _ in range(5):
        flood = make_game(ann, seats=2, public=True)
    guest = guest_player("Gus")
    for _ in range(3):
        by_guest = make_game(guest, seats=2, public=True)
    other = make_game(ben, seats=2, public=True)

    lobbies = [g.code for g in selectors.public_lobbies()]

    assert lobbies == [other.code, by_guest.code, flood.code]


def test_public_lobbies_lists_open_public_tables_newest_first(make_game, ann, ben):
    older = make_game(ann, seats=2, public=True)
    newer = make_game(ben, seats=4, public=True)
    Game.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(hours=1))
    make_game(ann, seats=2)  # private
    make_game(ann, ben, public=True)  # full
    make_game(ann, public=True, start=True)  # started

    lobbies = selectors.public_lobbies()

    assert [(g.code, g.seated) for g in lobbies] == [(newer.code, 1), (older.code, 1)]
    assert [g.code for g in selectors.public_lobbies(limit=1)] == [newer.code]


def test_a_players_tables_are_those_not_over_yet(make_game, ann, ben, play_out):
    lobby = make_game(ann, seats=2)
    playing = make_game(ben, ann, start=True)
    over = make_game(ann, start=True)
    play_out(over, [ann])
    make_game(ben, seats=2)

    assert {g.code for g in selectors.player_games(ann)} == {lobby.code, playing.code}
    assert selectors.player_games(NOBODY) == []


def test_a_guests_tables_follow_their_session_token(make_game, ann):
    gus = guest_player("Gus")
    mine = make_game(gus, seats=2)
    make_game(guest_player("Gus"), seats=2)
    make_game(ann, seats=2)

    assert [g.code for g in selectors.player_games(gus)] == [mine.code]


# -- state.json ------------------------------------------------------------------------------


def test_state_json_reports_cards_totals_and_places_when_over(make_game, ann, ben, play_out):
    game = make_game(ann, ben, start=True)
    play_out(game, [ann, ben], lambda seat, turn: "11112" if seat == 0 else "12345")
    game.refresh_from_db()

    state = selectors.state_json(game)

    assert (state["status"], state["version"], state["round"]) == ("finished", game.version, 13)
    assert (state["current_seat"], state["dice"], state["kept"]) == (None, None, None)
    alice_seat, bob_seat = state["seats"]
    assert (alice_seat["name"], alice_seat["total"], alice_seat["place"]) == ("alice", 24, 2)
    assert (bob_seat["name"], bob_seat["total"], bob_seat["place"]) == ("bob", 100, 1)
    assert bob_seat["card"]["large_straight"] == 40
    assert bob_seat["card"]["upper_subtotal"] == 15
    assert (bob_seat["card"]["upper_bonus"], bob_seat["card"]["yahtzee_bonus"]) == (0, 0)


def test_state_json_counts_the_bonuses(make_game, ann, take_turn):
    game = make_game(ann, start=True)
    take_turn(game, ann, "66666", "yahtzee")
    take_turn(game, ann, "66666", "sixes")

    card = selectors.state_json(game)["seats"][0]["card"]

    assert (card["yahtzee"], card["sixes"], card["yahtzee_bonus"], card["total"]) == (
        50,
        30,
        100,
        180,
    )


# -- a player's history -------------------------------------------------------------------------


def test_history_of_an_unknown_player_is_none(db):
    assert selectors.user_history("nobody") is None


def test_history_without_finished_games_is_empty(alice, make_game, ann, ben):
    make_game(ann, ben, start=True)

    history = selectors.user_history("alice")

    assert (history.username, history.games_played, history.wins) == ("alice", 0, 0)
    assert (history.average, history.best, history.bonus_rate) == (None, None, None)
    assert (history.yahtzees, history.entries, history.chart) == (0, [], None)


def test_history_counts_games_wins_scores_yahtzees_and_bonus_rate(alice, bob, carol, finished_game):
    now = timezone.now()
    bonus_card = full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)  # 63 + 35
    first = finished_game(
        (alice, bonus_card),
        (bob, full_card(chance=20)),
        yahtzees=2,
        finished_at=now - timedelta(days=2),
    )
    second = finished_game(
        (bob, full_card(chance=30)),
        (alice, full_card(chance=30)),
        (carol, full_card(chance=5)),
        finished_at=now - timedelta(days=1),
    )
    third = finished_game(
        (alice, full_card(chance=10)), (carol, full_card(chance=25)), finished_at=now
    )
    finished_game(("guest-token", full_card(chance=99)))  # a guest's game counts for nobody

    history = selectors.user_history("alice")

    assert (history.games_played, history.wins, history.best) == (3, 2, 98)
    assert history.average == pytest.approx((98 + 30 + 10) / 3)
    assert history.yahtzees == 2
    assert history.bonus_rate == pytest.approx(1 / 3)
    assert [(e.game.pk, e.total, e.place, e.players, e.won) for e in history.entries] == [
        (third.pk, 10, 2, 2, False),
        (second.pk, 30, 1, 3, True),
        (first.pk, 98, 1, 2, True),
    ]
    assert [total for _, _, total in history.chart["points"]] == [98, 30, 10]  # oldest first


def test_history_comes_from_played_games(make_game, ann, ben, play_out):
    game = make_game(ann, ben, start=True)
    play_out(game, [ann, ben], lambda seat, turn: "12345" if seat == 0 else "11112")

    alice_history = selectors.user_history("alice")
    bob_history = selectors.user_history("bob")

    assert (alice_history.games_played, alice_history.wins, alice_history.best) == (1, 1, 100)
    assert (bob_history.games_played, bob_history.wins, bob_history.best) == (1, 0, 24)
    assert alice_history.entries[0].game.pk == game.pk


def test_an_abandoned_table_is_kept_in_the_history_but_not_in_its_figures(alice, finished_game):
    finished_game((alice, full_card(chance=20)))
    abandoned = finished_game(
        (alice, full_card(chance=5)), (alice.username + "-guest", full_card())
    )
    Game.objects.filter(pk=abandoned.pk).update(status=Game.Status.ABANDONED)

    history = selectors.user_history("alice")

    assert [e.game.status for e in history.entries].count(Game.Status.ABANDONED) == 1
    assert (history.games_played, history.best) == (1, 20)
    assert [total for _, _, total in history.chart["points"]] == [20]


def test_score_chart_scales_to_the_best_score_rounded_up_to_a_gridline():
    chart = selectors.score_chart([100, 250, 50])

    assert chart["points"] == [(30.0, 123.3, 100), (300.0, 53.3, 250), (570.0, 146.7, 50)]
    assert chart["polyline"] == "30.0,123.3 300.0,53.3 570.0,146.7"
    assert chart["gridlines"] == [(170.0, 0), (123.3, 100), (76.7, 200), (30.0, 300)]
    assert selectors.score_chart([]) is None


def test_score_chart_of_one_low_game_keeps_a_hundred_point_scale():
    chart = selectors.score_chart([50])

    assert chart["points"] == [(30.0, 100.0, 50)]
    assert chart["gridlines"] == [(170.0, 0), (30.0, 100)]


def test_a_solo_game_counts_as_played_but_not_as_a_win(alice, bob, finished_game):
    finished_game((alice, full_card(chance=30)))
    finished_game((alice, full_card(chance=20)), (bob, full_card(chance=10)))

    history = selectors.user_history("alice")

    assert (history.games_played, history.wins) == (2, 1)
    assert [e.won for e in history.entries] == [True, False]


def test_presence_forgets_the_pages_of_a_server_that_stopped(duel, settings):
    settings.PRESENCE_HEARTBEAT_SECONDS = 15
    services.presence_open(server_id="alive", code=duel.code, channel_name="a", seat=0)
    services.presence_open(server_id="crashed", code=duel.code, channel_name="b", seat=1)
    services.presence_open(server_id="crashed", code=duel.code, channel_name="c", seat=None)
    LiveServer.objects.filter(id="crashed").update(last_seen=timezone.now() - timedelta(minutes=2))

    presence = selectors.presence_view(duel.code)
    assert (presence.seats, presence.watching) == ((("alice", True), ("bob", False)), 0)

    services.server_heartbeat("alive")  # the living also sweep away what the dead left
    assert not LiveServer.objects.filter(id="crashed").exists()
    assert list(Connection.objects.values_list("channel_name", flat=True)) == ["a"]
