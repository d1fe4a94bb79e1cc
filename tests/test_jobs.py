"""Background work (games/jobs/): the coach's review off the request path, and daily games'
e-mails, each sent once.

Time is a :class:`~tests.conftest.FrozenClock` moved by hand; nothing here sleeps."""

from __future__ import annotations

import pytest
from django.core import mail

from games import jobs, selectors, services
from games.rules import Category
from tests.clock_tables import seat_of
from tests.conftest import version_of

pytestmark = pytest.mark.django_db(transaction=True)


# -- the review, off the request path ---------------------------------------------------------


def test_the_last_box_does_not_wait_for_the_review(
    make_game, ann, ben, frozen_clock, coach_advisor, settings, play_out
):
    settings.BOT_DELAY_SECONDS = 1  # as in production: nothing automatic on the committing thread
    game = play_out(make_game(ann, ben, start=True, pace="untimed"), [ann, ben])

    assert game.status == "finished" and game.review is None
    assert game.due_at == frozen_clock.now()

    assert jobs.sweep() == 1
    game.refresh_from_db()
    assert set(game.review["seats"]) == {"0", "1"} and game.due_at is None


def test_the_review_rates_only_the_decisions_a_person_made_themselves(
    untimed, ann, ben, take_turn, play_out, alice_client
):
    take_turn(untimed, ann, "12345", Category.CHANCE)  # her one decision: the box
    take_turn(untimed, ben, "12345", Category.CHANCE)
    services.game_leave(code=untimed.code, player=ann, version=version_of(untimed))

    game = play_out(untimed, [None, ben], whole=True)

    alices = game.review["seats"]["0"]
    assert [d["round"] for d in alices["decisions"]] == [1]
    assert alices["skill"]["decisions"] == 1
    assert seat_of(game, 0).mean_loss == pytest.approx(alices["decisions"][0]["loss"], abs=1e-3)
    assert len(game.review["seats"]["1"]["decisions"]) >= 13  # Bob's own, every one


def test_a_person_who_left_before_deciding_anything_gets_no_rating(
    untimed, ann, ben, play_out, alice_client
):
    services.game_leave(code=untimed.code, player=ann, version=version_of(untimed))

    game = play_out(untimed, [None, ben], whole=True)

    assert game.review["seats"]["0"]["decisions"] == []
    assert seat_of(game, 0).mean_loss is None
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert page.count('class="skill" data-band=') == 1  # Bob's; none for alice
    assert "alice: skill and luck" not in page

    assert selectors.user_history("alice").band is None


def test_the_replay_links_a_persons_reviewed_decision_past_the_coachs_moves(
    blitz, ann, ben, frozen_clock, play_out, client
):
    frozen_clock.advance(seconds=31)
    jobs.sweep()  # the coach plays Alice's first turn
    services.seat_return(code=blitz.code, player=ann, version=version_of(blitz))
    game = play_out(blitz, [ann, ben], whole=True)  # then she plays every turn herself

    first = game.review["seats"]["0"]["decisions"][0]
    page = client.get(f"/g/{game.code}/replay/?seat=0&decision=0").content.decode()

    assert first["round"] == 2
    assert "The coach played this move" not in page
    assert "alice scored" in page and 'class="coach verdict"' in page


# -- daily games' e-mails ----------------------------------------------------------------------


def test_a_daily_turn_is_mailed_once_and_reminded_once_an_hour_before(
    make_game, alice, ann, ben, frozen_clock, coach_advisor
):
    alice.email = "alice@example.com"
    alice.save()
    game = make_game(ann, ben, start=True, pace="daily")

    jobs.sweep()
    jobs.sweep()

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    assert f"/g/{game.code}/" in mail.outbox[0].body
    assert "Your turn in Yahtzee game" in mail.outbox[0].subject

    frozen_clock.advance(hours=22, minutes=59)
    jobs.sweep()
    assert len(mail.outbox) == 1
    frozen_clock.advance(minutes=1)
    jobs.sweep()
    jobs.sweep()
    assert len(mail.outbox) == 2 and "One hour left" in mail.outbox[1].subject

    frozen_clock.advance(hours=1)
    jobs.sweep()
    assert seat_of(game, 0).status == "away"  # and Bob, without an address, gets no mail
    assert len(mail.outbox) == 2


@pytest.mark.parametrize(
    ("language", "subject", "body"),
    [
        ("te", "యాట్జీ", "రోజువారీ"),
        ("uz", "Yahtzee", "kunlik"),
    ],
)
def test_a_daily_turn_is_mailed_in_the_language_the_account_chose(
    make_game, alice, ann, ben, frozen_clock, coach_advisor, language, subject, body
):
    from games.models.accounts import Profile

    alice.email = "alice@example.com"
    alice.save()
    Profile.objects.create(user=alice, language=language)
    make_game(ann, ben, start=True, pace="daily")

    jobs.sweep()

    (message,) = mail.outbox
    assert "Your turn" not in message.subject and subject in message.subject
    assert "daily game" not in message.body and body in message.body.lower()
    assert "Hello" not in message.body


def test_a_guest_or_a_player_without_an_address_gets_no_mail(
    make_game, ann, ben, frozen_clock, coach_advisor
):
    make_game(ann, ben, start=True, pace="daily")

    jobs.sweep()

    assert mail.outbox == []


@pytest.mark.parametrize("pace", ["blitz", "live", "relaxed", "untimed"])
def test_only_a_daily_game_sends_e_mail(make_game, alice, ann, ben, frozen_clock, pace):
    alice.email = "alice@example.com"
    alice.save()
    make_game(ann, ben, start=True, starter=0, pace=pace)

    jobs.sweep()
    frozen_clock.advance(minutes=10)  # past any clock but a daily one: the coach plays on
    jobs.sweep()

    assert mail.outbox == []


def test_sign_up_takes_an_optional_email_and_the_account_page_changes_it(client):
    from django.contrib.auth import get_user_model

    password = "a-long-table-of-dice-42"
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dana",
            "email": "dana@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="dana")
    assert user.email == "dana@example.com"

    assert client.post("/accounts/", {"email": "not an address"}).status_code == 400
    client.post("/accounts/", {"email": "d@example.org"})
    user.refresh_from_db()
    assert user.email == "d@example.org"
    assert "d@example.org" in client.get("/accounts/").content.decode()
