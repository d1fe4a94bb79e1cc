"""The home page's "your turn" list and the routes a clock needs, across many tables.

Time is a :class:`~tests.conftest.FrozenClock` moved by hand; nothing here sleeps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail

from games import jobs, selectors, services
from games.models import Game, Seat, new_game_code
from tests.clock_tables import seat_of
from tests.conftest import HTMX, snapshot, version_of

pytestmark = pytest.mark.django_db(transaction=True)


# -- the home page and the routes ---------------------------------------------------------------


def test_the_home_page_lists_the_games_where_it_is_your_turn_first(
    blitz, make_game, ann, cat, frozen_clock, alice_client, bob_client
):
    waiting = make_game(cat, ann, start=True, starter=0, pace="daily")  # Carol's turn there

    page = alice_client.get("/").content.decode()
    bobs = bob_client.get("/").content.decode()

    assert page.index("Your turn") < page.index("New game")
    mine = page[page.index('id="your-turn"') : page.index("New game")]
    assert f"/g/{blitz.code}/" in mine and "30 seconds left" in mine
    assert f"/g/{waiting.code}/" not in mine
    assert 'id="your-turn"' not in bobs


def copies_of(game: Game, count: int) -> list[Game]:
    """``count`` more tables exactly like ``game`` (same seats, same turn), made at once."""
    copies = []
    for _ in range(count):
        copy = Game.objects.get(pk=game.pk)
        copy.pk, copy.code = None, new_game_code()
        copies.append(copy)
    copies = Game.objects.bulk_create(copies)
    seats = list(game.seats.all())
    Seat.objects.bulk_create(
        Seat(
            **{
                f.attname: getattr(s, f.attname)
                for f in Seat._meta.concrete_fields
                if f.attname != "id"
            }
            | {"game_id": c.pk}
        )
        for c in copies
        for s in seats
    )
    return copies


def test_your_turn_lists_the_soonest_deadline_first_however_many_games_you_play(
    make_game, ann, ben, frozen_clock
):
    first = make_game(ann, ben, start=True, starter=0, pace="untimed")
    waiting = [first, *copies_of(first, 200)]
    longest = waiting.pop()  # her turn there began before all the others
    Game.objects.filter(pk=longest.pk).update(turn_started_at=first.started_at - timedelta(days=1))
    frozen_clock.advance(minutes=1)
    soonest = make_game(ann, ben, start=True, starter=0, pace="blitz")  # made last
    later = make_game(ann, ben, start=True, starter=0, pace="daily")

    listed = [entry.game.code for entry in selectors.your_turn_games(ann, frozen_clock.now())]

    assert listed[:2] == [soonest.code, later.code]
    # Untimed tables after, the one waiting longest first, and always in the same order.
    assert listed[2:] == [longest.code, *(g.code for g in waiting)][: len(listed) - 2]


def test_the_open_tables_on_the_home_page_say_each_ones_pace(make_game, ann, ben, client):
    make_game(ann, seats=2, public=True, pace="blitz")
    make_game(ben, seats=3, public=True, pace="daily")

    page = client.get("/").content.decode()
    listed = page[page.index('id="open-tables"') :]

    assert "Blitz: 30 seconds a turn" in listed and "Daily: 24 hours a turn" in listed


def test_state_json_has_no_deadline_once_the_game_is_over(
    blitz, make_game, ann, ben, frozen_clock, play_out, client
):
    assert client.get(f"/g/{blitz.code}/state.json").json()["turn_deadline"] is not None
    finished = play_out(blitz, [ann, ben])
    abandoned = make_game(ann, ben, start=True, pace="blitz")
    services.game_leave(code=abandoned.code, player=ann, version=version_of(abandoned))
    services.game_leave(code=abandoned.code, player=ben, version=version_of(abandoned))

    for game, status in ((finished, "finished"), (abandoned, "abandoned")):
        state = client.get(f"/g/{game.code}/state.json").json()
        assert state["status"] == status
        assert state["turn_deadline"] is None


@pytest.mark.parametrize(
    ("route", "stale_status"),
    # "I'm back" only ever brings one's own seat back: any version will do (none is stale).
    [("takeover", 409), ("back", 200), ("leave", 409)],
)
def test_clock_actions_answer_bad_or_stale_forms_with_a_sentence_and_change_nothing(
    blitz, alice_client, route, stale_status
):
    before = snapshot(blitz)

    malformed = alice_client.post(f"/g/{blitz.code}/{route}/", {"version": "soon"})
    stale = alice_client.post(
        f"/g/{blitz.code}/{route}/", {"version": blitz.version - 1}, headers=HTMX
    )

    assert malformed.status_code == 400
    assert "reload the page" in malformed.content.decode()
    assert stale.status_code == stale_status
    assert snapshot(blitz) == before
    assert alice_client.get(f"/g/{blitz.code}/{route}/").status_code == 405


def test_a_snapshot_from_the_wire_keeps_the_clock(blitz):
    from games.snapshots import Snapshot

    again = Snapshot.from_wire(Snapshot.of(blitz).to_wire())

    assert again.game.turn_deadline == blitz.turn_deadline
    assert again.game.pace == "blitz"
    assert [s.status for s in again.seats] == ["playing", "playing"]


def test_a_daily_turns_mail_that_the_mail_server_refused_goes_at_the_next_look(
    make_game, alice, ann, ben, frozen_clock, coach_advisor, monkeypatch
):
    """A mail server that fails once must not cost the player their e-mail: the game stays
    due and the mail goes (once) when the lease runs out."""
    alice.email = "alice@example.com"
    alice.save()
    sent = mail.send_mail

    def down(*args, **kwargs):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("games.jobs.mails.send_mail", down)
    game = make_game(ann, ben, start=True, pace="daily")  # the turn comes: mailed at once
    jobs.sweep()
    assert mail.outbox == []

    monkeypatch.setattr("games.jobs.mails.send_mail", sent)
    jobs.sweep()  # still leased: nobody looks yet
    assert mail.outbox == []
    frozen_clock.advance(seconds=jobs.LEASE.total_seconds())
    jobs.sweep()
    jobs.sweep()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.com"]
    assert f"/g/{game.code}/" in mail.outbox[0].body


def test_a_mail_server_that_stays_down_does_not_stop_a_daily_turns_clock(
    make_game, alice, ann, ben, frozen_clock, coach_advisor, monkeypatch
):
    alice.email = "alice@example.com"
    alice.save()

    def down(*args, **kwargs):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("games.jobs.mails.send_mail", down)
    game = make_game(ann, ben, start=True, pace="daily")
    frozen_clock.advance(hours=24)
    jobs.sweep()

    assert seat_of(game, 0).status == "away"
    assert mail.outbox == []
