""" "Download your data" (``/accounts/data.json``) beside the games and people: an account's
table talk, notification settings and devices, daily games and tournaments, each written
through the services; nobody else's rows, none of a device's keys, and the same number of
queries however many rows (games/selectors/account_data.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.models import ChatMessage, DailyDay, PushDelivery, PushSubscription
from games.services import chat as chat_services
from games.services import daily as daily_services
from games.services import push as push_services
from games.services.tournaments import tournament_join
from tests.arena import arena, finish, soon
from tests.conftest import player_of
from tests.services.test_daily import play_out as play_daily_out

pytestmark = pytest.mark.django_db

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/"
# What the new keys take: chat 5, notifications 2, daily 2, tournaments 3, fair play 2,
# last seen 1.
KEPT_QUERIES = 15


def subscribe(user, device: str) -> None:
    services.push_subscribe(user_id=user.pk, endpoint=ENDPOINT + device, p256dh=P256DH, auth=AUTH)


def say(game, player, **said) -> ChatMessage:
    return chat_services.chat_post(code=game.code, player=player, **said)


def test_the_data_holds_the_accounts_chat_devices_daily_games_and_tournaments(
    alice_client, alice, bob, make_game, frozen_clock
):
    ann, ben = player_of(alice), player_of(bob)
    # Table talk: a phrase and a line of text, one hidden by a moderator; bob's line,
    # which alice reports; bob's seat, which she mutes.
    table = make_game(ann, ben)
    hello = say(table, ann, phrase="hello")
    frozen_clock.advance(seconds=5)
    rude = say(table, ann, text="You roll like a snail")
    secret = say(table, ben, text="bob's very own words")
    frozen_clock.advance(seconds=5)
    chat_services.chat_message_hide(message_id=rude.pk)
    hidden_at = frozen_clock.now()
    chat_services.chat_report(code=table.code, player=ann, message=secret.pk, reason="spam")
    chat_services.chat_mute(code=table.code, player=ann, seat=1)
    chat_services.chat_preference_set(user_id=alice.pk, chat_off=True)
    # Notifications: a choice, a device with a test push waiting; bob's own device.
    services.notification_channels_set(user_id=alice.pk, channels={"invitation": "none"})
    subscribe(alice, "alices-phone")
    subscribe(bob, "bobs-laptop")
    services.push_test(user_id=alice.pk)
    # The daily game, played to its end, and the reminder asked for.
    daily = play_daily_out(daily_services.daily_play(player=ann), ann, frozen_clock)
    daily_services.daily_reminder_set(user_id=alice.pk, remind=True)
    # A tournament bob made and alice won, and one alice made that nobody joined yet.
    won = arena(ben, frozen_clock.now())
    tournament_join(tournament_id=won.pk, player=ann)
    tournament_join(tournament_id=won.pk, player=ben)
    [arena_game] = [t.game for t in won.tables.select_related("game")]
    finish(arena_game, winners=("alice",))
    mine = arena(ann, soon(frozen_clock.now()) + timedelta(days=1))
    # Of the pushes due to alice's phone (the test and the daily game's turns), one went,
    # one failed once and waits to be tried again.
    went, failed, *_ = push_services.push_claim(frozen_clock.now())
    push_services.push_done(went)
    push_services.push_retry(failed)
    due = PushDelivery.objects.filter(user=alice, due_at__isnull=False).count()
    # Alice's last page with a live connection has closed; bob's comes and goes too.
    services.site_presence_open(server_id="s1", user_id=alice.pk, channel_name="alice-page")
    services.site_presence_close(user_id=alice.pk, channel_name="alice-page")
    left_at = frozen_clock.now()
    services.site_presence_open(server_id="s1", user_id=bob.pk, channel_name="bob-page")

    response = alice_client.get("/accounts/data.json")

    assert response.status_code == 200
    data = response.json()
    for kept in ("username", "games", "people", "rating_history"):
        assert kept in data  # every key from before stays
    chat = data["chat"]
    assert chat["chat_off"] is True
    assert chat["messages"] == [
        {
            "game": table.code,
            "seat": 0,
            "name": "alice",
            "phrase": "hello",
            "text": None,
            "created_at": hello.created_at.isoformat(),
            "hidden_by_moderator": False,
            "hidden_at": None,
        },
        {
            "game": table.code,
            "seat": 0,
            "name": "alice",
            "phrase": None,
            "text": "You roll like a snail",
            "created_at": rude.created_at.isoformat(),
            "hidden_by_moderator": True,
            "hidden_at": hidden_at.isoformat(),
        },
    ]
    assert chat["reports"] == [
        {"game": table.code, "reason": "spam", "created_at": hidden_at.isoformat()}
    ]
    assert chat["mutes"] == [{"game": table.code, "seat": 1}]
    assert chat["silences"] == []

    notifications = data["notifications"]
    assert notifications["settings"] == {
        "your_turn": "both",
        "last_hour": "both",
        "invitation": "none",
        "friend_request": "push",
        "friend_accepted": "push",
        "tournament": "push",
    }
    [device] = notifications["devices"]
    assert device["endpoint"] == ENDPOINT + "alices-phone"
    assert device["created_at"] == PushSubscription.objects.get(user=alice).created_at.isoformat()
    assert device["last_push_at"] == frozen_clock.now().isoformat()
    assert (device["pushes_waiting"], device["failed_attempts"]) == (due, 1)
    assert due > 1

    day = DailyDay.objects.get(date=frozen_clock.now().date())
    [played] = data["daily"]["games"]
    seat = daily.seats.get()
    assert played == {
        "date": day.date.isoformat(),
        "ruleset": day.ruleset,
        "game": daily.code,
        "status": "finished",
        "score": seat.total,
        "seconds": int((daily.finished_at - daily.started_at).total_seconds()),
        "started_at": daily.started_at.isoformat(),
        "finished_at": daily.finished_at.isoformat(),
    }
    assert played["seconds"] > 0
    assert data["daily"]["reminder"] == {"remind": True, "last_reminded": None}

    joined, made = data["tournaments"]
    assert (joined["id"], joined["name"], joined["created_by_me"]) == (won.pk, won.name, False)
    assert joined["starts_at"] == won.starts_at.isoformat()
    assert joined["entry"]["points"] == 1 and joined["entry"]["games"] == 1
    assert (joined["entry"]["place"], joined["entry"]["players"]) == (1, 2)
    assert joined["entry"]["results"] == [
        {"game": arena_game.code, "place": 1, "points": 1, "doubled": False}
    ]
    assert (made["id"], made["created_by_me"], made["entry"]) == (mine.pk, True, None)
    assert made["status"] == "upcoming"

    # Bob's own file: his line and his device, second of two in the arena; none of alice's.
    theirs = selectors.account_kept(bob.pk)
    assert [m["text"] for m in theirs["chat"]["messages"]] == ["bob's very own words"]
    assert theirs["chat"]["reports"] == [] and theirs["chat"]["mutes"] == []
    assert [d["endpoint"] for d in theirs["notifications"]["devices"]] == [ENDPOINT + "bobs-laptop"]
    assert theirs["daily"]["games"] == []
    assert theirs["last_seen"] is None  # his page is still open: alice's moment is hers
    [bobs] = theirs["tournaments"]
    assert (bobs["created_by_me"], bobs["entry"]["place"], bobs["entry"]["points"]) == (True, 2, 0)
    assert data["last_seen"] == left_at.isoformat()
    assert data["fair_play"] == []  # never flagged (tests/test_fair_play.py: a flag's entry)
    # Nobody else's rows, words or keys.
    body = response.content.decode()
    assert "bob's very own words" not in body and "bobs-laptop" not in body
    assert P256DH not in body and AUTH not in body
    assert "p256dh" not in body and '"auth"' not in body


def test_an_account_with_nothing_kept_gets_empty_lists_and_the_default_settings(
    alice_client, alice, django_assert_num_queries
):
    with django_assert_num_queries(KEPT_QUERIES):
        kept = selectors.account_kept(alice.pk)

    assert kept["chat"] == {
        "chat_off": False,
        "messages": [],
        "reports": [],
        "mutes": [],
        "silences": [],
    }
    assert kept["notifications"]["devices"] == []
    assert kept["notifications"]["settings"]["your_turn"] == "both"
    assert kept["daily"] == {"reminder": {"remind": False, "last_reminded": None}, "games": []}
    assert kept["tournaments"] == []
    assert kept["fair_play"] == [] and kept["last_seen"] is None


def fill(alice, bob, make_game, frozen_clock, times: int) -> None:
    """``times`` more rows of each kind for alice: messages, a report and a mute, devices,
    daily games on days to come, tournaments made and joined, with bob beside her."""
    ann, ben = player_of(alice), player_of(bob)
    for _ in range(times):
        table = make_game(ann, ben)
        say(table, ann, phrase="hello")
        say(table, ann, text="Good luck to you")
        theirs = say(table, ben, phrase="wow")
        chat_services.chat_report(code=table.code, player=ann, message=theirs.pk, reason="other")
        chat_services.chat_mute(code=table.code, player=ann, seat=1)
        subscribe(alice, f"device-{PushSubscription.objects.count()}")
        services.push_test(user_id=alice.pk)
        frozen_clock.advance(days=1)
        daily_services.daily_play(player=ann)
        later = soon(frozen_clock.now()) + timedelta(days=2)
        for tournament in (arena(ben, later), arena(ann, later)):
            tournament_join(tournament_id=tournament.pk, player=ann)
            tournament_join(tournament_id=tournament.pk, player=ben)
        frozen_clock.advance(minutes=2)  # the next test push may go


def test_the_data_takes_the_same_queries_for_one_row_of_each_kind_or_many(
    alice_client, alice, bob, make_game, frozen_clock, django_assert_max_num_queries
):
    fill(alice, bob, make_game, frozen_clock, 1)
    with CaptureQueriesContext(connection) as one:
        alice_client.get("/accounts/data.json")
    fill(alice, bob, make_game, frozen_clock, 4)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = alice_client.get("/accounts/data.json")
    with django_assert_max_num_queries(KEPT_QUERIES):
        selectors.account_kept(alice.pk)

    data = response.json()
    assert len(data["chat"]["messages"]) == 10 and len(data["chat"]["reports"]) == 5
    assert len(data["chat"]["mutes"]) == 5
    assert len(data["notifications"]["devices"]) == 5
    waiting = [d["pushes_waiting"] for d in data["notifications"]["devices"]]
    assert waiting == [
        PushDelivery.objects.filter(subscription=device, due_at__isnull=False).count()
        for device in PushSubscription.objects.filter(user=alice).order_by("created_at", "pk")
    ]
    assert len(data["daily"]["games"]) == 5
    assert len(data["tournaments"]) == 10
    assert {(t["entry"]["place"], t["entry"]["players"]) for t in data["tournaments"]} == {(1, 2)}
