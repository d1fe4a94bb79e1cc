"""Arena tournaments: making one, joining and withdrawing, pairing (closest points, no
rematch while others wait, the smaller table after 20 s, one seed per round, exactly once),
the points and the streak, leaving and being away, the end and its announcement; a whole
arena run on an injected clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import (
    ChatLevel,
    Entry,
    Game,
    InboxItem,
    Result,
    Seat,
    Tournament,
    TournamentTable,
)
from games.selectors import tournaments as reads
from games.selectors.social import inbox_entries as inbox_of
from games.services import GameError, NotAllowed, Player
from games.services.chat import ChatRefused, chat_level_of, chat_post
from games.services.tournament_scoring import game_ended, points_for
from games.services.tournaments import (
    AlreadyIn,
    Plan,
    groups_of,
    tournament_create,
    tournament_finish,
    tournament_join,
    tournament_pair,
    tournament_pin,
    tournament_withdraw,
    tournaments_sweep,
)
from tests.arena import arena, finish, seated_names, soon
from tests.conftest import guest_player, jump_to_last_round, player_of

pytestmark = pytest.mark.django_db


def people(make_user, *names: str) -> list[Player]:
    return [player_of(make_user(name)) for name in names]


def tables_of(tournament: Tournament, round_: int | None = None) -> list[Game]:
    tables = TournamentTable.objects.filter(tournament=tournament)
    if round_ is not None:
        tables = tables.filter(round=round_)
    return [t.game for t in tables.select_related("game").order_by("pk")]


def ann_and_ben_at_a_table(make_user, now) -> tuple[Player, Player, Tournament, Game]:
    """An arena under way that ann and ben have joined, and the table they were paired at."""
    ann, ben = people(make_user, "ann", "ben")
    t = arena(ann, now)
    tournament_join(tournament_id=t.pk, player=ann)
    tournament_join(tournament_id=t.pk, player=ben)
    (game,) = tables_of(t)
    return ann, ben, t, game


def points(tournament: Tournament) -> dict[str, int]:
    return {s.username: s.points for s in reads.standings_of(tournament)}


@pytest.mark.parametrize(
    ("place", "players", "streak", "expected"),
    [
        (1, 2, 0, (1, False)),
        (2, 2, 0, (0, False)),
        (1, 4, 0, (3, False)),
        (3, 4, 0, (1, False)),
        (4, 4, 5, (0, False)),
        (1, 4, 1, (3, False)),  # one win before: not yet on a streak
        (1, 4, 2, (6, True)),  # after two wins in a row a win counts double
        (1, 2, 7, (2, True)),
        (None, 3, 2, (0, False)),  # an abandoned table earns nothing
    ],
)
def test_place_k_at_a_table_of_n_earns_n_minus_k_and_a_streak_doubles_a_win(
    place, players, streak, expected
):
    assert points_for(place=place, players=players, streak=streak) == expected


def test_anyone_with_an_account_makes_a_tournament_and_bad_plans_change_nothing(ann, frozen_clock):
    made = arena(ann, soon(frozen_clock.now()), minutes=45, size=3, ruleset="yatzy")
    assert (made.minutes, made.table_size, made.ruleset, made.pace) == (45, 3, "yatzy", "blitz")
    assert made.ends_at == made.starts_at + timedelta(minutes=45)
    assert made.status_at(frozen_clock.now()) == "upcoming"
    good = dict(
        name="x",
        starts_at=soon(frozen_clock.now()),
        minutes=30,
        pace="live",
        table_size=2,
        ruleset="yacht",
        rated=True,
        public=True,
    )
    for change in (
        {"minutes": 19},
        {"minutes": 181},
        {"pace": "daily"},
        {"table_size": 5},
        {"ruleset": "poker"},
        {"name": "   "},
        {"starts_at": frozen_clock.now() - timedelta(hours=1)},
    ):
        with pytest.raises(GameError):
            tournament_create(player=ann, plan=Plan(**{**good, **change}))
    with pytest.raises(NotAllowed):
        tournament_create(player=guest_player(), plan=Plan(**good))
    assert Tournament.objects.count() == 1


def test_joining_twice_is_refused_and_withdrawing_then_joining_again_works(ann, ben, frozen_clock):
    t = arena(ann, soon(frozen_clock.now()))
    tournament_join(tournament_id=t.pk, player=ben)
    with pytest.raises(AlreadyIn):
        tournament_join(tournament_id=t.pk, player=ben)
    tournament_withdraw(tournament_id=t.pk, player=ben)
    with pytest.raises(GameError):
        tournament_withdraw(tournament_id=t.pk, player=ben)
    tournament_join(tournament_id=t.pk, player=ben)
    assert Entry.objects.get(tournament=t, user_id=ben.user_id).withdrawn is False
    with pytest.raises(NotAllowed):
        tournament_join(tournament_id=t.pk, player=guest_player())
    with pytest.raises(GameError):
        tournament_join(tournament_id=t.pk + 99, player=ben)


def test_nobody_is_paired_before_the_start(make_user, ann, frozen_clock):
    t = arena(ann, soon(frozen_clock.now()))
    for p in people(make_user, "p1", "p2"):
        tournament_join(tournament_id=t.pk, player=p)
    assert tournaments_sweep() == 0
    frozen_clock.advance(minutes=1)
    assert tournaments_sweep() == 1


def test_a_whole_arena_run_with_two_tables_of_two(make_user, frozen_clock):
    ann, ben, cat, dan = people(make_user, "ann", "ben", "cat", "dan")
    t = arena(ann, soon(frozen_clock.now()), minutes=20, size=2)
    for p in (ann, ben, cat, dan):
        tournament_join(tournament_id=t.pk, player=p)
    assert not TournamentTable.objects.exists()
    frozen_clock.advance(minutes=1)
    assert tournaments_sweep() == 2
    first = tables_of(t, 1)
    assert len(first) == 2
    assert len({table.seed for table in TournamentTable.objects.filter(round=1)}) == 1
    everyone = sorted(name for game in first for name in seated_names(game))
    assert everyone == ["ann", "ben", "cat", "dan"]  # each at one table
    winners = (seated_names(first[0])[0], seated_names(first[1])[0])
    for game in first:
        finish(game, winners=winners)
    # Nobody waits long: whoever is free is paired at once (here by the sweep).
    assert tournaments_sweep() == 2
    second = tables_of(t, 2)
    assert {frozenset(seated_names(g)) for g in second} == {
        frozenset(winners),  # the closest scores together: the two winners...
        frozenset(n for n in ("ann", "ben", "cat", "dan") if n not in winners),
    }
    seeds = {table.seed for table in TournamentTable.objects.filter(round=2)}
    assert len(seeds) == 1 and seeds != {TournamentTable.objects.filter(round=1)[0].seed}
    champion = winners[0]
    for game in second:
        finish(game, winners=(champion, *[n for n in seated_names(game) if n not in winners][:1]))
    assert reads.standings_of(t)[0].username == champion
    assert reads.standings_of(t)[0].streak == 2
    # Third round: the champion's win counts double.
    tournaments_sweep()
    third = tables_of(t, 3)
    mine = next(g for g in third if champion in seated_names(g))
    finish(mine, winners=(champion,))
    result = Result.objects.get(game=mine, user__username=champion)
    assert (result.points, result.doubled) == (2, True)
    assert points(t)[champion] == 4
    # The clock runs out with a table still in play: no new table, it finishes and counts.
    frozen_clock.advance(minutes=20)
    assert tournaments_sweep() == 0
    assert tournament_finish(tournament_id=t.pk) is False  # a table still plays
    rest = [g for g in tables_of(t) if g.status == Game.Status.PLAYING]
    assert rest
    for game in rest:
        finish(game, winners=(seated_names(game)[0],))
    tournaments_sweep()
    t.refresh_from_db()
    assert t.announced_at is not None
    assert t.status_at(frozen_clock.now()) == "finished"
    assert not Game.objects.filter(status=Game.Status.PLAYING).exists()
    notes = InboxItem.objects.filter(kind=InboxItem.Kind.TOURNAMENT)
    assert notes.count() == 4
    champion_user = get_user_model().objects.get(username=champion)
    (mine_note,) = [e for e in inbox_of(champion_user.pk) if e.kind == "tournament"]
    assert "You won the tournament" in mine_note.text
    other = next(n for n in notes if n.user_id != champion_user.pk)
    (theirs,) = [e for e in inbox_of(other.user_id) if e.kind == "tournament"]
    assert f"{champion} won the tournament" in theirs.text
    assert tournament_finish(tournament_id=t.pk) is False  # announced once
    played = reads.tournaments_played(champion_user.pk)
    assert [(p.name, p.place, p.players) for p in played] == [("Sunday arena", 1, 4)]
    data = reads.tournament_view(t.pk).as_json()
    assert data["status"] == "finished" and data["players"][0]["username"] == champion
    assert len(data["games"]) == TournamentTable.objects.filter(tournament=t).count()


def test_every_table_of_a_round_rolls_the_same_dice_from_the_rounds_seed(make_user, frozen_clock):
    players = people(make_user, "ann", "ben", "cat", "dan")
    t = arena(players[0], soon(frozen_clock.now()), size=2)
    for p in players:
        tournament_join(tournament_id=t.pk, player=p)
    frozen_clock.advance(minutes=1)
    tournaments_sweep()
    tables = list(TournamentTable.objects.select_related("game"))
    assert len(tables) == 2 and len({table.round for table in tables}) == 1
    assert {table.game.dice_draw for table in tables} == {"same"}
    assert {table.game.server_seed for table in tables} == {tables[0].seed}
    rolled = []
    for table in tables:
        game = table.game
        seats = list(game.seats.order_by("position"))
        on_turn = seats[game.engine_state(seats).current_seat]
        snapshot = services.turn_roll(
            code=game.code,
            player=Player(name=on_turn.name, user_id=on_turn.user_id),
            version=game.version,
        )
        rolled.append(snapshot.state.dice)
    assert rolled[0] == rolled[1]


def test_the_same_opponents_are_not_paired_twice_in_a_row_when_others_wait(make_user, frozen_clock):
    ann, ben, cat, dan = people(make_user, "ann", "ben", "cat", "dan")
    t = arena(ann, frozen_clock.now())
    entries = []
    for p in (ann, ben, cat, dan):
        entries.append(Entry(tournament=t, user_id=p.user_id, joined_at=frozen_clock.now()))
    ea, eb, ec, ed = entries
    ea.last_opponents, eb.last_opponents = [eb.user_id], [ea.user_id]
    now = frozen_clock.now()
    for e in entries:
        e.waiting_since = now
    groups = groups_of([ea, eb, ec, ed], 2, now, now)
    assert [[e.user_id for e in g] for g in groups] == [
        [ea.user_id, ec.user_id],
        [eb.user_id, ed.user_id],
    ]
    # Only the two of them wait: they meet again rather than wait.
    assert len(groups_of([ea, eb], 2, now, now)) == 1


def test_too_few_waiting_get_a_smaller_table_after_twenty_seconds(make_user, frozen_clock):
    ann, ben, cat = people(make_user, "ann", "ben", "cat")
    t = arena(ann, frozen_clock.now(), size=4)
    for p in (ann, ben, cat):
        tournament_join(tournament_id=t.pk, player=p)
    assert not TournamentTable.objects.exists()
    frozen_clock.advance(seconds=19)
    assert tournaments_sweep() == 0
    frozen_clock.advance(seconds=1)
    assert tournaments_sweep() == 1
    (game,) = tables_of(t)
    assert sorted(seated_names(game)) == ["ann", "ben", "cat"]
    assert game.ruleset == "yahtzee" and game.pace == "blitz"


def test_one_alone_never_gets_a_table(ann, frozen_clock):
    t = arena(ann, frozen_clock.now())
    tournament_join(tournament_id=t.pk, player=ann)
    frozen_clock.advance(minutes=5)
    assert tournaments_sweep() == 0


def test_pairing_twice_seats_nobody_twice(make_user, frozen_clock):
    t = arena(people(make_user, "host")[0], frozen_clock.now())
    for p in people(make_user, "p1", "p2"):
        Entry.objects.create(
            tournament=t,
            user_id=p.user_id,
            joined_at=frozen_clock.now(),
            waiting_since=frozen_clock.now(),
        )
    assert len(tournament_pair(tournament_id=t.pk)) == 1
    assert tournament_pair(tournament_id=t.pk) == []
    assert Seat.objects.count() == 2


def test_a_player_is_never_at_two_tournament_tables_at_once(make_user, frozen_clock):
    ann, ben, cat = people(make_user, "ann", "ben", "cat")
    one = arena(ann, frozen_clock.now())
    two = arena(ann, frozen_clock.now())
    tournament_join(tournament_id=one.pk, player=ann)
    tournament_join(tournament_id=one.pk, player=ben)
    assert len(tables_of(one)) == 1
    tournament_join(tournament_id=two.pk, player=ann)
    tournament_join(tournament_id=two.pk, player=cat)
    assert tables_of(two) == []  # ann plays in the first; cat waits
    (game,) = tables_of(one)
    finish(game, winners=("ann",))
    tournament_withdraw(tournament_id=one.pk, player=ann)
    tournaments_sweep()
    assert len(tables_of(two)) == 1


def test_scoring_a_game_twice_changes_nothing(make_user, frozen_clock):
    _ann, _ben, t, game = ann_and_ben_at_a_table(make_user, frozen_clock.now())
    finish(game, winners=("ben",))
    TournamentTable.objects.update(scored=False)  # as if another process had not seen it
    game_ended(game, list(game.seats.order_by("position")))
    assert Result.objects.count() == 2
    assert points(t) == {"ben": 1, "ann": 0}
    assert reads.standings_of(t)[0].games == 1


def test_shared_places_each_earn_n_minus_the_best_place(make_user, frozen_clock):
    _ann, _ben, t, game = ann_and_ben_at_a_table(make_user, frozen_clock.now())
    finish(game, winners=("ann", "ben"))  # the same dice: a tie for first
    assert points(t) == {"ann": 1, "ben": 1}


def test_leaving_a_tournament_game_loses_it(make_user, frozen_clock):
    ann, _ben, t, game = ann_and_ben_at_a_table(make_user, frozen_clock.now())
    finish(game, winners=("ann",), leaves="ann")
    assert points(t) == {"ben": 1, "ann": 0}
    assert not Entry.objects.get(user_id=ann.user_id).withdrawn


def test_away_for_a_whole_game_withdraws_the_player(make_user, frozen_clock):
    ann, ben, _t, game = ann_and_ben_at_a_table(make_user, frozen_clock.now())
    finish(game, winners=("ann",), away="ann")
    entry = Entry.objects.get(user_id=ann.user_id)
    assert entry.withdrawn and entry.waiting_since is None
    assert Entry.objects.get(user_id=ben.user_id).waiting_since is not None


def test_a_withdrawn_player_is_not_paired(make_user, frozen_clock):
    ann, ben, cat = people(make_user, "ann", "ben", "cat")
    t = arena(ann, soon(frozen_clock.now()))
    for p in (ann, ben, cat):
        tournament_join(tournament_id=t.pk, player=p)
    tournament_withdraw(tournament_id=t.pk, player=ann)
    frozen_clock.advance(minutes=1)
    tournaments_sweep()
    (game,) = tables_of(t)
    assert sorted(seated_names(game)) == ["ben", "cat"]


def test_an_entrant_paused_from_rated_tables_waits_out_of_pairing_and_the_others_play(
    make_user, frozen_clock, settings, pause_begins
):
    settings.RATED_LEAVE_PAUSE = timedelta(minutes=10)
    ann, ben, cat, dan = (make_user(name) for name in ("ann", "ben", "cat", "dan"))
    t = arena(player_of(ann), soon(frozen_clock.now()), minutes=60, rated=True)
    for user in (ann, ben):
        tournament_join(tournament_id=t.pk, player=player_of(user))
    pause_begins(ann)  # she left a rated game elsewhere while she waited
    tournament_join(tournament_id=t.pk, player=player_of(cat))
    for _ in range(5):
        frozen_clock.advance(minutes=1)
        tournaments_sweep()
    (table,) = tables_of(t)
    assert sorted(seated_names(table)) == ["ben", "cat"]
    t.refresh_from_db()
    assert t.rounds == 1  # only rounds that made tables count
    # She is still in: back in the pairing once her pause is over.
    tournament_join(tournament_id=t.pk, player=player_of(dan))
    assert len(tables_of(t)) == 1
    frozen_clock.advance(minutes=5)
    assert tournaments_sweep() == 1
    assert sorted(seated_names(tables_of(t)[-1])) == ["ann", "dan"]
    t.refresh_from_db()
    assert t.rounds == 2


def test_nobody_joins_a_finished_tournament(ann, ben, frozen_clock):
    t = arena(ann, frozen_clock.now())
    frozen_clock.advance(minutes=21)
    with pytest.raises(GameError):
        tournament_join(tournament_id=t.pk, player=ben)
    assert not Entry.objects.exists()


def test_only_staff_pin(ann, frozen_clock):
    t = arena(ann, soon(frozen_clock.now()))
    with pytest.raises(NotAllowed):
        tournament_pin(tournament_id=t.pk, pinned=True, by_staff=False)
    tournament_pin(tournament_id=t.pk, pinned=True, by_staff=True)
    assert [x.pk for x in reads.tournaments_pinned()] == [t.pk]


def test_a_game_end_pairs_whoever_is_free_once_it_has_committed(
    make_user, frozen_clock, django_capture_on_commit_callbacks
):
    ann, ben, cat = people(make_user, "ann", "ben", "cat")
    t = arena(ann, frozen_clock.now(), size=2)
    for p in (ann, ben, cat):
        tournament_join(tournament_id=t.pk, player=p)
    (game,) = tables_of(t)
    frozen_clock.advance(seconds=5)
    with django_capture_on_commit_callbacks(execute=True):
        finish(game, winners=(seated_names(game)[0],))
    frozen_clock.advance(seconds=1)
    assert len(tables_of(t)) == 2  # the waiting third met one of the two at once


def test_an_abandoned_table_earns_nothing_and_withdraws_who_never_played(make_user, frozen_clock):
    _ann, _ben, _t, game = ann_and_ben_at_a_table(make_user, frozen_clock.now())
    jump_to_last_round(game, lambda seat, turn: "12345")
    Seat.objects.filter(game=game).update(status=Seat.Status.AWAY)
    game.refresh_from_db()
    services.coach_stands_in(code=game.code, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert sorted(Result.objects.values_list("points", "place")) == [(0, None), (0, None)]
    assert all(e.withdrawn and e.games == 1 for e in Entry.objects.all())


@pytest.mark.parametrize("public", [True, False])
def test_strangers_paired_by_the_arena_talk_in_quick_phrases_public_or_not(
    make_user, frozen_clock, public
):
    ann, ben = (player_of(make_user(name)) for name in ("ann", "ben"))
    tournament = arena(ann, frozen_clock.now(), public=public)
    for person in (ann, ben):
        tournament_join(tournament_id=tournament.pk, player=person)

    [table] = TournamentTable.objects.filter(tournament=tournament).select_related("game")
    assert chat_level_of(table.game) == ChatLevel.PHRASES
    with pytest.raises(ChatRefused):
        chat_post(code=table.game.code, player=ben, text="my number is 555 0100")
