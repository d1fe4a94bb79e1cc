""" "Play now": the queue, its exactly-once match, blocks, leaving, the computer instead."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection

from games import services
from games.models import Block, BotLevel, Game, LiveServer, Rating, Seat, Ticket, TicketPage
from games.selectors.play_now import computer_for, play_status
from games.services import GameError, NotAllowed, Player
from games.services import play_now as queue
from games.services.play_now import AlreadyWaiting, Choices, NotWaiting
from tests.conftest import PASSWORD, guest_player, player_of
from tests.threads import at_once

pytestmark = pytest.mark.django_db

LIVE_2 = Choices(pace="live", players=2, rated=True)
CASUAL_3 = Choices(pace="blitz", players=3, rated=False)


def people(make_user, *names: str) -> list[Player]:
    return [player_of(make_user(name)) for name in names]


def seated(game: Game) -> list[str]:
    return list(game.seats.order_by("position").values_list("name", flat=True))


def test_the_matching_key_is_one_value_built_from_every_choice():
    assert LIVE_2.key == "yahtzee/live/2/rated"
    assert CASUAL_3.key == "yahtzee/blitz/3/casual"
    assert Choices(pace="live", players=2, rated=False).key != LIVE_2.key


def test_one_person_waits_until_a_second_with_the_same_choices_comes(ann, ben, frozen_clock):
    first = queue.play_join(player=ann, choices=LIVE_2)
    assert first.status == Ticket.Status.WAITING and first.game is None
    frozen_clock.advance(seconds=4)
    assert play_status(ann, frozen_clock.now()).as_json() == {
        "status": "waiting",
        "waited_seconds": 4,
        "game": None,
    }
    second = queue.play_join(player=ben, choices=LIVE_2)
    assert second.status == Ticket.Status.MATCHED
    game = second.game
    assert game.status == Game.Status.PLAYING
    assert (game.pace, game.seat_count, game.rated, game.is_public) == ("live", 2, True, False)
    assert seated(game) == ["alice", "bob"]  # in the order they joined
    first.refresh_from_db()
    assert first.game == game and first.status == Ticket.Status.MATCHED
    assert play_status(ann, frozen_clock.now()).as_json() == {
        "status": "matched",
        "waited_seconds": 0,
        "game": game.code,
    }


def test_different_choices_are_never_matched_together(ann, ben):
    queue.play_join(player=ann, choices=LIVE_2)
    queue.play_join(player=ben, choices=Choices(pace="live", players=2, rated=False))
    assert not Game.objects.exists()
    assert Ticket.objects.filter(status="waiting").count() == 2


def test_three_guests_make_a_casual_table_of_three_seated_in_order():
    guests = [guest_player(name) for name in ("Ann", "Bea", "Cy")]
    tickets = [queue.play_join(player=g, choices=CASUAL_3) for g in guests]
    assert [t.status for t in tickets] == ["waiting", "waiting", "matched"]
    game = tickets[2].game
    assert seated(game) == ["Ann", "Bea", "Cy"]
    assert game.rated is False and game.pace == "blitz"
    assert Seat.objects.filter(game=game, guest=guests[1].guest).exists()


def test_people_who_blocked_each_other_are_never_matched_the_earliest_group_is(
    make_user,
):
    ann, ben, cat = people(make_user, "ann", "ben", "cat")
    Block.objects.create(blocker_id=ben.user_id, blocked_id=ann.user_id)
    queue.play_join(player=ann, choices=LIVE_2)
    assert queue.play_join(player=ben, choices=LIVE_2).status == "waiting"
    third = queue.play_join(player=cat, choices=LIVE_2)
    assert seated(third.game) == ["ann", "cat"]  # the earliest group without a block
    assert Ticket.objects.get(user_id=ben.user_id).status == "waiting"


def test_two_guests_with_the_same_name_are_not_seated_together():
    one, two, three = guest_player("Sam"), guest_player("sam"), guest_player("Kim")
    queue.play_join(player=one, choices=Choices("live", 2, False))
    assert queue.play_join(player=two, choices=Choices("live", 2, False)).status == "waiting"
    game = queue.play_join(player=three, choices=Choices("live", 2, False)).game
    assert seated(game) == ["Sam", "Kim"]


def test_a_second_post_is_refused_and_changes_nothing(ann):
    queue.play_join(player=ann, choices=LIVE_2)
    with pytest.raises(AlreadyWaiting, match="already waiting"):
        queue.play_join(player=ann, choices=CASUAL_3)
    assert Ticket.objects.count() == 1


def test_a_guest_may_not_queue_for_a_rated_game():
    with pytest.raises(NotAllowed, match="needs an account"):
        queue.play_join(player=guest_player(), choices=LIVE_2)
    assert not Ticket.objects.exists()


@pytest.mark.parametrize(
    "choices", [Choices("daily", 2, False), Choices("untimed", 2, False), Choices("live", 5, False)]
)
def test_only_blitz_live_relaxed_and_two_to_four_players_are_queued(ann, choices):
    with pytest.raises(GameError):
        queue.play_join(player=ann, choices=choices)
    assert not Ticket.objects.exists()


def test_a_cancel_leaves_the_queue_and_a_cancel_when_idle_is_refused(ann, ben):
    queue.play_join(player=ann, choices=LIVE_2)
    queue.play_cancel(player=ann)
    assert Ticket.objects.get().status == Ticket.Status.LEFT
    with pytest.raises(NotWaiting):
        queue.play_cancel(player=ann)
    assert queue.play_join(player=ben, choices=LIVE_2).status == "waiting"  # nobody to meet


def test_the_computer_is_offered_only_after_the_wait(ann, frozen_clock, settings):
    settings.PLAY_NOW_WAIT_SECONDS = 30
    queue.play_join(player=ann, choices=LIVE_2)
    frozen_clock.advance(seconds=29)
    assert not play_status(ann, frozen_clock.now()).computer_offered
    with pytest.raises(GameError, match="1 second"):
        queue.play_computer(player=ann, level=BotLevel.CASUAL)
    frozen_clock.advance(seconds=1)
    assert play_status(ann, frozen_clock.now()).computer_offered
    game = queue.play_computer(player=ann, level=BotLevel.BEGINNER)
    assert game.status == Game.Status.PLAYING and game.pace == "live"
    assert list(game.seats.values_list("bot", flat=True).order_by("position")) == ["", "beginner"]
    assert game.rated is False  # one person against the computer is casual
    assert play_status(ann, frozen_clock.now()).game == game.code


def test_the_computer_is_the_one_closest_to_the_rating(make_user):
    ann, ben, cat = people(make_user, "ann", "ben", "cat")
    Rating.objects.create(user_id=ann.user_id, mu=40, sigma=3, ordinal=31.0, games=12)
    Rating.objects.create(user_id=ben.user_id, mu=25, sigma=3, ordinal=16.0, games=12)
    assert computer_for(ann).level in (BotLevel.COACH_WIN, BotLevel.COACH)
    assert computer_for(ann).by_rating
    assert computer_for(ben).level == BotLevel.BEGINNER
    assert computer_for(cat) == computer_for(guest_player())  # no rating: the default
    assert computer_for(cat).level == BotLevel.CASUAL and not computer_for(cat).by_rating


def open_page(ticket: Ticket, channel: str, server: str = "server-a") -> str:
    return queue.play_page_open(server_id=server, ticket_id=ticket.pk, channel_name=channel)


def test_closing_the_last_waiting_page_leaves_the_queue(ann, ben, frozen_clock):
    ticket = queue.play_join(player=ann, choices=LIVE_2)
    frozen_clock.advance(seconds=1)
    assert open_page(ticket, "one") == "waiting"
    assert open_page(ticket, "two", server="server-b") == "waiting"
    queue.play_page_close(channel_name="one")
    assert Ticket.objects.get().status == "waiting"  # another page is still open
    queue.play_page_close(channel_name="two")
    assert Ticket.objects.get().status == Ticket.Status.LEFT
    assert queue.play_join(player=ben, choices=LIVE_2).status == "waiting"


def test_a_reload_keeps_the_place_in_the_queue(ann, frozen_clock):
    ticket = queue.play_join(player=ann, choices=LIVE_2)
    frozen_clock.advance(seconds=1)
    open_page(ticket, "old")
    frozen_clock.advance(seconds=20)
    queue.play_page_seen(ticket_id=ticket.pk)  # the page is loaded again
    queue.play_page_close(channel_name="old")  # then the old page's socket closes
    assert Ticket.objects.get().status == "waiting"
    open_page(ticket, "new")
    frozen_clock.advance(seconds=20)
    queue.play_page_close(channel_name="new")
    assert Ticket.objects.get().status == "left"


def test_a_ticket_whose_pages_are_gone_is_never_matched_and_the_sweep_takes_it_away(
    ann, ben, cat, frozen_clock
):
    ticket = queue.play_join(player=ann, choices=LIVE_2)
    frozen_clock.advance(seconds=1)
    open_page(ticket, "ann-page", server="dead")
    LiveServer.objects.filter(id="dead").delete()  # the heartbeat forgot a dead process
    frozen_clock.advance(seconds=60)
    assert queue.play_join(player=ben, choices=LIVE_2).status == "waiting"  # not with ann
    assert queue.play_queue_sweep(now=frozen_clock.now()) == 0
    assert Ticket.objects.get(user_id=ann.user_id).status == "left"
    assert queue.play_join(player=cat, choices=LIVE_2).status == "matched"  # ben's page lives


def test_an_opening_page_or_the_sweep_matches_a_ticket_left_out_while_it_had_no_page(
    ann, ben, frozen_clock
):
    first = queue.play_join(player=ann, choices=LIVE_2)
    frozen_clock.advance(seconds=60)  # ann's page has not been heard of for a minute
    second = queue.play_join(player=ben, choices=LIVE_2)
    assert second.status == "waiting"
    assert open_page(first, "ann-page") == "matched"
    assert Ticket.objects.filter(status="matched").count() == 2


def test_the_sweep_matches_what_can_be_matched(ann, ben, frozen_clock):
    first = queue.play_join(player=ann, choices=LIVE_2)
    frozen_clock.advance(seconds=60)
    queue.play_join(player=ben, choices=LIVE_2)
    open_page(first, "ann-page")  # opened on a process whose match failed: seen here
    Ticket.objects.update(status="waiting", game=None)
    Game.objects.all().delete()
    assert queue.play_queue_sweep(now=frozen_clock.now()) == 1
    assert Game.objects.count() == 1


def test_pages_are_told_once_the_match_commits(ann, ben, django_capture_on_commit_callbacks):
    told: list[tuple[int, str, str | None]] = []
    queue.listeners.append(lambda *change: told.append(change))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            first = queue.play_join(player=ann, choices=LIVE_2)
            second = queue.play_join(player=ben, choices=LIVE_2)
    finally:
        queue.listeners.pop()
    code = second.game.code
    assert sorted(told) == sorted([(first.pk, "matched", code), (second.pk, "matched", code)])


# -- at the same moment ----------------------------------------------------------------------


def _post_through_locks(player: Player, choices: Choices) -> Ticket:
    """One post; on SQLite's shared in-memory test database (whose table locks do not wait
    as a database file's do) a post refused as "locked" is tried again, unless it went
    through and only its answer was refused."""
    for _attempt in range(10_000):
        try:
            return queue.play_join(player=player, choices=choices)
        except OperationalError as error:
            if "locked" not in str(error):
                raise
        mine = _read_through_locks(Ticket.objects.filter(user_id=player.user_id))
        if mine is not None:
            return mine
    raise AssertionError("the database stayed locked")


def _read_through_locks(tickets) -> Ticket | None:
    for _attempt in range(10_000):
        try:
            return tickets.first()
        except OperationalError:
            pass
    raise AssertionError("the database stayed locked")


def post_at_once(players: list[Player], choices: Choices) -> list[object]:
    """Each player posts from their own thread (their own database connection), all
    released at the same moment."""
    return at_once([lambda p=p: _post_through_locks(p, choices) for p in players])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [2, 4])
def test_people_posting_at_the_same_moment_end_at_one_table_seated_once(size):
    users = [
        get_user_model().objects.create_user(username=f"p{i}", password=PASSWORD)
        for i in range(size * 2)
    ]
    players = [player_of(user) for user in users]
    results = post_at_once(players, Choices(pace="blitz", players=size, rated=False))
    assert all(isinstance(r, Ticket) for r in results), results
    assert Game.objects.count() == 2  # two full groups: exactly two tables, never more
    for game in Game.objects.all():
        assert game.status == Game.Status.PLAYING
        assert game.seats.count() == size
    user_ids = list(Seat.objects.values_list("user_id", flat=True))
    assert sorted(user_ids) == sorted(u.pk for u in users)  # everyone seated exactly once
    assert not Ticket.objects.filter(status="waiting").exists()
    assert connection.vendor in ("sqlite", "postgresql")


@pytest.mark.django_db(transaction=True)
def test_one_person_posting_twice_at_once_gets_one_ticket():
    user = get_user_model().objects.create_user(username="twice", password=PASSWORD)
    me = player_of(user)
    results = post_at_once([me, me], Choices(pace="live", players=3, rated=False))
    assert "Ticket" in {type(r).__name__ for r in results}
    assert {type(r).__name__ for r in results} <= {"Ticket", "AlreadyWaiting"}
    assert Ticket.objects.count() == 1


def test_a_page_of_no_ticket_is_told_it_left(ann):
    assert queue.play_page_open(server_id="s", ticket_id=999, channel_name="x") == "left"
    queue.play_page_close(channel_name="nobody")  # nothing to forget: nothing happens
    assert not TicketPage.objects.exists()


def test_waited_seconds_is_zero_when_idle(ann, frozen_clock):
    assert play_status(ann, frozen_clock.now()).as_json() == {
        "status": "idle",
        "waited_seconds": 0,
        "game": None,
    }


def test_the_heartbeat_sweeps_the_queue(ann, frozen_clock):
    from games import jobs

    queue.play_join(player=ann, choices=LIVE_2)  # its page never opened its socket
    frozen_clock.advance(seconds=13)
    jobs.beat()
    assert Ticket.objects.get().status == Ticket.Status.LEFT


def test_a_table_that_cannot_be_opened_leaves_everyone_waiting(ann, ben, monkeypatch):
    def refuse(**kwargs: object) -> None:
        raise GameError("paused from rated tables")

    monkeypatch.setattr(queue.lobby, "game_start", refuse)
    queue.play_join(player=ann, choices=LIVE_2)
    assert queue.play_join(player=ben, choices=LIVE_2).status == "waiting"
    assert not Game.objects.exists()
    assert Ticket.objects.filter(status="waiting").count() == 2


def test_a_matched_person_posting_again_is_sent_back_to_their_table_not_queued(ann, ben):
    queue.play_join(player=ann, choices=LIVE_2)
    game = queue.play_join(player=ben, choices=LIVE_2).game
    # A double click, a resubmitted form, or other choices while the table plays:
    again = queue.play_join(player=ben, choices=LIVE_2)
    other = queue.play_join(player=ann, choices=CASUAL_3)
    assert (again.status, again.game) == (other.status, other.game) == ("matched", game)
    assert not Ticket.objects.filter(status="waiting").exists()
    assert Ticket.objects.count() == 2 and Game.objects.count() == 1


def test_a_matched_guest_posting_again_is_sent_back_to_their_table():
    ann, bea = guest_player("Ann"), guest_player("Bea")
    casual_2 = Choices(pace="live", players=2, rated=False)
    queue.play_join(player=ann, choices=casual_2)
    game = queue.play_join(player=bea, choices=casual_2).game
    assert queue.play_join(player=bea, choices=casual_2).game == game
    assert not Ticket.objects.filter(status="waiting").exists()


def test_who_left_their_table_or_whose_table_is_over_may_queue_again(ann, ben):
    queue.play_join(player=ann, choices=LIVE_2)
    game = queue.play_join(player=ben, choices=LIVE_2).game
    services.game_leave(code=game.code, player=ben, version=game.version)
    assert queue.play_join(player=ben, choices=CASUAL_3).status == "waiting"
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert queue.play_join(player=ann, choices=CASUAL_3).status == "waiting"


def test_a_person_paused_while_waiting_leaves_the_rated_queue_and_the_others_are_matched(
    make_user, pause_begins, django_capture_on_commit_callbacks
):
    ann, ben, cat = (make_user(name) for name in ("ann", "ben", "cat"))
    mine = queue.play_join(player=player_of(ann), choices=LIVE_2)
    pause_begins(ann)  # she left a rated game elsewhere while she waited
    told: list[tuple[int, str, str | None]] = []
    queue.listeners.append(lambda *change: told.append(change))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert queue.play_join(player=player_of(ben), choices=LIVE_2).status == "waiting"
    finally:
        queue.listeners.pop()
    assert told == [(mine.pk, "left", None)]  # her waiting page goes back to the form
    third = queue.play_join(player=player_of(cat), choices=LIVE_2)
    assert third.status == "matched" and seated(third.game) == ["ben", "cat"]
    mine.refresh_from_db()
    assert mine.status == Ticket.Status.LEFT and mine.game is None


def test_a_paused_person_still_plays_casual_from_the_queue(make_user, pause_begins):
    ann, ben = make_user("ann"), make_user("ben")
    casual_2 = Choices(pace="live", players=2, rated=False)
    queue.play_join(player=player_of(ann), choices=casual_2)
    pause_begins(ann)
    assert queue.play_join(player=player_of(ben), choices=casual_2).status == "matched"
