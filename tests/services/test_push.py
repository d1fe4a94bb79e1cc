"""Web Push delivered end to end (games/services/push.py, games/jobs/pushes.py), against a
push service stand-in (tests/push_service.py) that checks the VAPID signature and decrypts
each payload as a browser would. Time is a FrozenClock; nothing here sleeps."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import requests
from django.core import mail
from django.db import close_old_connections, connection

from games import jobs, services
from games.jobs import pushes
from games.management.commands.webpush_keys import new_pair
from games.models import (
    Block,
    Connection,
    InboxItem,
    LiveServer,
    PushDelivery,
    PushSubscription,
    SiteConnection,
)
from games.models.accounts import Profile
from games.services import push
from games.services.tournaments import tournament_finish, tournament_join
from tests.arena import arena, soon
from tests.clock_tables import seat_of
from tests.conftest import player_of
from tests.push_service import Device, PushServiceStandIn

pytestmark = pytest.mark.django_db(transaction=True)

SUBJECT = "mailto:push-tests@example.com"


@pytest.fixture
def stand_in(settings, tmp_path, monkeypatch) -> Iterator[PushServiceStandIn]:
    public, private = new_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_SUBJECT = SUBJECT
    service = PushServiceStandIn(tmp_path, public, SUBJECT)
    settings.WEBPUSH_ENDPOINT_HOSTS = [service.host]
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(service.cert))
    yield service
    service.close()


def device_of(stand_in: PushServiceStandIn, user) -> Device:
    device = stand_in.new_device()
    info = stand_in.subscription(device)
    services.push_subscribe(user_id=user.pk, endpoint=info["endpoint"], **info["keys"])
    return device


# -- your turn ---------------------------------------------------------------------------------


def test_your_turn_reaches_the_players_device_signed_and_encrypted(
    stand_in, make_game, ann, ben, bob, frozen_clock, take_turn
):
    game = make_game(ann, ben, start=True, starter=0, pace="live")
    phone = device_of(stand_in, bob)

    take_turn(game, ann, "12345", "chance")  # Bob's turn begins
    assert pushes.sweep() == 1

    assert stand_in.refused == []
    (note,) = phone.received
    assert note["title"] == "Your turn"
    assert game.code in note["body"] and "alice" in note["body"]
    assert note["url"] == f"/g/{game.code}/" and note["tag"] == f"turn-{game.code}"
    assert pushes.sweep() == 0  # once


def test_no_push_while_a_page_of_the_table_shows_the_seat(
    stand_in, make_game, ann, ben, bob, frozen_clock, take_turn
):
    game = make_game(ann, ben, start=True, starter=0, pace="relaxed")
    phone = device_of(stand_in, bob)
    server = LiveServer.objects.create(id="here", last_seen=frozen_clock.now())
    Connection.objects.create(game=game, channel_name="bobs-tab", server=server, seat=1)

    take_turn(game, ann, "12345", "chance")
    pushes.sweep()

    assert phone.received == []


def test_a_blitz_table_pushes_nothing_and_a_turn_pushes_once_a_device(
    stand_in, make_game, ann, ben, bob, frozen_clock, coach_advisor
):
    blitz = make_game(ann, ben, start=True, starter=1, pace="blitz")
    live = make_game(ann, ben, start=True, starter=1, pace="live")
    device_of(stand_in, bob)
    device_of(stand_in, bob)

    seat = seat_of(live, 1)
    push.turn_began(blitz, seat_of(blitz, 1), 1)
    push.turn_began(live, seat, 1)
    push.turn_began(live, seat, 1)

    assert PushDelivery.objects.filter(game=blitz).count() == 0
    assert PushDelivery.objects.filter(game=live).count() == 2  # one a device


def test_a_turn_that_moved_on_before_the_push_went_is_not_pushed(
    stand_in, make_game, ann, ben, bob, frozen_clock, take_turn
):
    game = make_game(ann, ben, start=True, starter=0, pace="live")
    phone = device_of(stand_in, bob)
    take_turn(game, ann, "12345", "chance")
    take_turn(game, ben, "12345", "chance")  # Bob played before any push went

    pushes.sweep()

    assert phone.received == []


def test_an_hour_left_on_a_daily_turn_is_pushed_and_mailed_once(
    stand_in, make_game, alice, ann, ben, frozen_clock, coach_advisor
):
    alice.email = "alice@example.com"
    alice.save()
    game = make_game(ann, ben, start=True, starter=0, pace="daily")
    phone = device_of(stand_in, alice)

    frozen_clock.advance(hours=23)
    jobs.sweep()
    jobs.sweep()
    pushes.sweep()

    assert [m.subject for m in mail.outbox if "One hour left" in m.subject]
    (note,) = phone.received
    assert note["title"] == "An hour left" and game.code in note["body"]


def test_e_mails_follow_the_accounts_choice(
    stand_in, make_game, alice, ann, ben, frozen_clock, coach_advisor
):
    alice.email = "alice@example.com"
    alice.save()
    services.notification_channels_set(user_id=alice.pk, channels={"your_turn": "push"})
    make_game(ann, ben, start=True, starter=0, pace="daily")

    jobs.sweep()

    assert mail.outbox == []


def test_a_notification_is_written_in_the_accounts_language(
    stand_in, make_game, ann, ben, bob, frozen_clock, take_turn
):
    Profile.objects.create(user=bob, language="uz")
    game = make_game(ann, ben, start=True, starter=0, pace="live")
    phone = device_of(stand_in, bob)

    take_turn(game, ann, "12345", "chance")
    pushes.sweep()

    (note,) = phone.received
    assert note["title"] != "Your turn" and game.code in note["body"]


def test_a_kind_turned_off_is_not_pushed(
    stand_in, make_game, ann, ben, bob, frozen_clock, take_turn
):
    services.notification_channels_set(user_id=bob.pk, channels={"your_turn": "none"})
    game = make_game(ann, ben, start=True, starter=0, pace="live")
    phone = device_of(stand_in, bob)

    take_turn(game, ann, "12345", "chance")
    pushes.sweep()

    assert phone.received == []


# -- news of people ----------------------------------------------------------------------------


def test_a_friend_request_and_its_acceptance_are_pushed(stand_in, alice, bob, frozen_clock):
    bobs = device_of(stand_in, bob)
    alices = device_of(stand_in, alice)

    services.friend_request(user_id=alice.pk, username="bob")
    pushes.sweep()
    services.friend_accept(user_id=bob.pk, username="alice")
    pushes.sweep()

    assert [n["body"] for n in bobs.received] == ["alice asks to be your friend."]
    assert [n["body"] for n in alices.received] == ["bob accepted your friend request."]
    assert alices.received[0]["url"] == "/friends/"


def test_an_invitation_is_pushed_with_its_table(stand_in, make_game, ann, alice, bob, frozen_clock):
    services.friend_request(user_id=alice.pk, username="bob")
    services.friend_accept(user_id=bob.pk, username="alice")
    game = make_game(ann, seats=2)
    phone = device_of(stand_in, bob)

    services.invitation_send(code=game.code, player=ann, username="bob")
    pushes.sweep()

    (note,) = phone.received
    assert note["body"] == f"alice invites you to table {game.code}."
    assert note["url"] == f"/g/{game.code}/"


def test_news_is_not_pushed_past_a_block_or_to_someone_on_the_site(
    stand_in, alice, bob, carol, frozen_clock
):
    phone = device_of(stand_in, bob)
    services.friend_request(user_id=alice.pk, username="bob")
    Block.objects.create(blocker=bob, blocked=alice)  # before the push went
    server = LiveServer.objects.create(id="here", last_seen=frozen_clock.now())
    SiteConnection.objects.create(user=bob, channel_name="bobs-page", server=server)
    services.friend_request(user_id=carol.pk, username="bob")  # seen live on his page

    pushes.sweep()

    assert phone.received == []


def test_what_one_person_sends_another_is_pushed_a_few_times_an_hour_at_most(
    stand_in, alice, bob, frozen_clock
):
    device_of(stand_in, bob)
    for _ in range(push.FROM_ONE_SENDER_PER_HOUR + 3):
        item = InboxItem.objects.create(user=bob, kind="friend_request", sender=alice)
        push.inbox_item_added(item)
        frozen_clock.advance(seconds=1)

    assert PushDelivery.objects.count() == push.FROM_ONE_SENDER_PER_HOUR
    frozen_clock.advance(hours=1)
    push.inbox_item_added(item)
    assert PushDelivery.objects.count() == push.FROM_ONE_SENDER_PER_HOUR + 1


# -- the end of a tournament -------------------------------------------------------------------


def test_a_tournaments_winner_is_pushed_to_its_entrants_in_their_language(
    stand_in, alice, bob, frozen_clock
):
    Profile.objects.create(user=bob, language="uz")
    alices, bobs = device_of(stand_in, alice), device_of(stand_in, bob)
    t = arena(player_of(alice), soon(frozen_clock.now()))
    for user in (alice, bob):  # before it starts: nobody is paired, alice leads on joining
        tournament_join(tournament_id=t.pk, player=player_of(user))
    frozen_clock.advance(minutes=22)

    assert tournament_finish(tournament_id=t.pk)
    pushes.sweep()

    (mine,) = alices.received
    assert (mine["title"], mine["body"]) == (
        "A tournament is over",
        "You won the tournament Sunday arena.",
    )
    assert (mine["url"], mine["tag"]) == (f"/tournaments/{t.pk}/", f"tournament-{t.pk}")
    (theirs,) = bobs.received  # the default "push for the rest" holds for tournaments too
    assert (theirs["title"], theirs["body"]) == (
        "Turnir tugadi",
        "Sunday arena turnirida alice g\u02bbolib chiqdi.",
    )


@pytest.mark.parametrize("chosen", ["none", "email"])
def test_a_tournaments_winner_is_not_pushed_to_who_chose_otherwise(
    stand_in, alice, frozen_clock, chosen
):
    services.notification_channels_set(user_id=alice.pk, channels={"tournament": chosen})
    phone = device_of(stand_in, alice)
    t = arena(player_of(alice), soon(frozen_clock.now()))
    tournament_join(tournament_id=t.pk, player=player_of(alice))
    frozen_clock.advance(minutes=22)

    assert tournament_finish(tournament_id=t.pk)
    pushes.sweep()

    assert InboxItem.objects.filter(user=alice, kind=InboxItem.Kind.TOURNAMENT).exists()
    assert phone.received == []


def test_a_tournaments_winner_does_not_count_towards_what_people_send(
    stand_in, alice, bob, frozen_clock
):
    device_of(stand_in, bob)
    for _ in range(push.FROM_ONE_SENDER_PER_HOUR):
        t = arena(player_of(alice), soon(frozen_clock.now()))
        item = InboxItem.objects.create(
            user=bob, kind="tournament", sender=alice, details={"tournament": t.pk}
        )
        push.inbox_item_added(item)
        frozen_clock.advance(seconds=1)

    services.friend_request(user_id=alice.pk, username="bob")

    assert PushDelivery.objects.filter(kind="tournament").count() == push.FROM_ONE_SENDER_PER_HOUR
    assert PushDelivery.objects.filter(kind="friend_request").count() == 1


# -- the push service's answers ----------------------------------------------------------------


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_no_longer_knows_is_forgotten(
    stand_in, alice, frozen_clock, status
):
    phone = device_of(stand_in, alice)
    phone.answers.append(status)
    services.push_test(user_id=alice.pk)

    pushes.sweep()

    assert not PushSubscription.objects.exists() and not PushDelivery.objects.exists()


def test_a_failing_push_service_is_tried_again_further_apart_each_time(
    stand_in, alice, frozen_clock
):
    phone = device_of(stand_in, alice)
    phone.answers.extend([503, 500])
    services.push_test(user_id=alice.pk)
    start = frozen_clock.now()

    pushes.sweep()
    row = PushDelivery.objects.get()
    assert row.attempts == 1 and row.due_at == start + push.FIRST_RETRY
    frozen_clock.advance(seconds=29)
    assert pushes.sweep() == 0
    frozen_clock.advance(seconds=1)
    pushes.sweep()
    row.refresh_from_db()
    assert row.attempts == 2 and row.due_at == frozen_clock.now() + 2 * push.FIRST_RETRY

    frozen_clock.advance(minutes=1)
    pushes.sweep()
    assert len(phone.received) == 1 and PushDelivery.objects.get().due_at is None


def test_a_timeout_is_tried_again_and_a_push_due_survives_a_restart(
    stand_in, alice, frozen_clock, monkeypatch
):
    phone = device_of(stand_in, alice)
    services.push_test(user_id=alice.pk)

    def timing_out(*args, **kwargs):
        raise requests.Timeout("the push service did not answer")

    with monkeypatch.context() as patched:
        patched.setattr(requests.Session, "send", timing_out)
        pushes.sweep()
    assert PushDelivery.objects.get().attempts == 1 and phone.received == []

    frozen_clock.advance(seconds=30)  # a new process finds the row where it was left
    pushes.sweep()
    assert len(phone.received) == 1


def test_a_claimed_row_is_not_claimed_again_until_its_lease_ends(stand_in, alice, frozen_clock):
    device_of(stand_in, alice)
    services.push_test(user_id=alice.pk)
    now = frozen_clock.now()

    assert len(push.push_claim(now)) == 1
    assert push.push_claim(now) == []
    assert len(push.push_claim(now + push.LEASE)) == 1  # the claimer died: another takes it


def test_a_batch_that_outlasts_its_lease_sends_each_push_once(
    stand_in, make_user, frozen_clock, monkeypatch
):
    phones = []
    for number in range(4):
        user = make_user(f"player{number}")
        phones.append(device_of(stand_in, user))
        services.push_test(user_id=user.pk)
    start = frozen_clock.now()
    real_send = pushes.send
    other_process: list[int] = []

    def slow(delivery, through):
        outcome = real_send(delivery, through)
        frozen_clock.advance(seconds=25)  # a slow push service (10 s a try, 50 rows a claim)
        if frozen_clock.now() > start + push.LEASE and not other_process:
            other_process.append(0)
            other_process[0] = pushes.sweep()  # another process looks while the batch goes
        return outcome

    monkeypatch.setattr(pushes, "send", slow)
    assert pushes.sweep() == 4  # this process claims all four and sends them one by one

    assert other_process == [1]  # the last row's lease had run out: the other one took it
    assert [len(phone.received) for phone in phones] == [1, 1, 1, 1]
    assert not PushDelivery.objects.filter(due_at__isnull=False).exists()


def test_a_lease_that_ran_out_is_not_renewed(stand_in, alice, frozen_clock):
    device_of(stand_in, alice)
    services.push_test(user_id=alice.pk)
    [row] = push.push_claim(frozen_clock.now())

    frozen_clock.advance(seconds=59)
    assert push.push_renew(row)  # still this claim's: the lease starts again
    frozen_clock.advance(seconds=60)
    assert not push.push_renew(row)  # run out: another process may take it at any moment
    [again] = push.push_claim(frozen_clock.now())
    frozen_clock.advance(seconds=1)
    assert push.push_renew(again) and not push.push_renew(row)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="two workers claiming at once: PostgreSQL"
)
def test_two_workers_claiming_at_once_send_each_push_once(stand_in, make_user, frozen_clock):
    for number in range(30):
        device_of(stand_in, make_user(f"player{number}"))
        services.push_test(user_id=PushSubscription.objects.latest("id").user_id)
    claimed: list[list[int]] = [[], []]
    start = threading.Barrier(2)

    def work(index: int) -> None:
        try:
            start.wait()
            for _ in range(5):
                claimed[index] += [r.pk for r in push.push_claim(frozen_clock.now(), limit=4)]
        finally:
            close_old_connections()

    workers = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    both = claimed[0] + claimed[1]
    assert len(both) == len(set(both)) == 30 and claimed[0] and claimed[1]


def test_without_keys_nothing_is_sent(stand_in, alice, settings, frozen_clock):
    phone = device_of(stand_in, alice)
    services.push_test(user_id=alice.pk)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""

    pushes.sweep()

    assert phone.received == [] and PushDelivery.objects.get().due_at is None


def test_a_test_notification_goes_once_a_minute(stand_in, alice, frozen_clock):
    phone = device_of(stand_in, alice)

    assert services.push_test(user_id=alice.pk) == 1
    assert services.push_test(user_id=alice.pk) == 0
    pushes.sweep()

    assert [n["title"] for n in phone.received] == ["Yahtzee"]
    assert phone.received[0]["url"] == "/accounts/notifications/"


def test_the_your_turn_rows_are_one_insert_and_none_without_devices(
    make_game, ann, ben, frozen_clock, django_assert_num_queries
):
    game = make_game(ann, ben, start=True, starter=0, pace="live")
    seat = seat_of(game, 1)
    with django_assert_num_queries(1):
        push.turn_began(game, seat, 1)
    assert not PushDelivery.objects.exists()


def test_a_push_the_service_refuses_for_good_is_not_tried_again(stand_in, alice, frozen_clock):
    phone = device_of(stand_in, alice)
    phone.answers.append(400)
    services.push_test(user_id=alice.pk)

    pushes.sweep()
    frozen_clock.advance(hours=2)

    assert pushes.sweep() == 0 and phone.received == []
    assert PushSubscription.objects.exists()  # the device stays: only a 404 or 410 ends it


def test_webpush_keys_prints_a_pair_the_push_api_takes(capsys):
    from django.core.management import call_command

    call_command("webpush_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())

    public = lines["WEBPUSH_VAPID_PUBLIC_KEY"]
    assert len(public) == 87 and public.startswith("B")  # 65 bytes, uncompressed point
    assert len(lines["WEBPUSH_VAPID_PRIVATE_KEY"]) == 43  # 32 bytes
