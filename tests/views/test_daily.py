"""The daily game's pages: /daily/ before, during and after one's game, /daily.json and a
past day's page and JSON, the reminder setting, the record on the history page; bad or
future dates answered with a sentence, never a 500."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import services
from games.models import DailyDay, DailyEntry, DailyReminder, Game, InboxItem, Player
from games.services import daily as daily_services
from tests.conftest import PASSWORD, player_of, version_of

pytestmark = pytest.mark.django_db
TODAY = "2026-06-01"  # the frozen clock's day (a Monday: Yahtzee)


def player_of_guest(client, name: str) -> Player:
    return Player(name=name, guest=client.session["guest_token"])


def play_out(game: Game, player) -> Game:
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        services.turn_roll(code=game.code, player=player, version=version_of(game))
        game.refresh_from_db()
        box = game.engine_state(list(game.seats.all())).cards[0].open_boxes[0]
        services.turn_score(code=game.code, player=player, version=version_of(game), category=box)


def test_the_page_offers_todays_game_with_todays_and_tomorrows_commitments(client, frozen_clock):
    page = client.get("/daily/").content.decode()
    today, tomorrow = DailyDay.objects.order_by("date")
    assert today.commitment in page and tomorrow.commitment in page
    assert today.seed not in page and tomorrow.seed not in page
    assert 'action="/daily/play/"' in page and "Daily Yahtzee, 2026-06-01" in page


def test_playing_twice_goes_to_the_same_table(alice_client, frozen_clock):
    first = alice_client.post("/daily/play/")
    second = alice_client.post("/daily/play/")
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == f"/g/{Game.objects.get().code}/"
    assert DailyEntry.objects.count() == 1
    assert "Continue today" in alice_client.get("/daily/").content.decode()


def test_a_guest_plays_under_the_name_typed_unranked(client, frozen_clock):
    answer = client.post("/daily/play/", {"name": "Gus"})
    assert answer.status_code == 302
    entry = DailyEntry.objects.get()
    assert entry.user_id is None and entry.guest == client.session["guest_token"]
    assert entry.game.seats.get().name == "Gus"
    assert client.post("/daily/play/", {"name": "Other"})["Location"] == answer["Location"]


def test_a_guest_who_signs_up_has_played_the_day_and_it_counts_for_the_account(
    client, frozen_clock
):
    client.post("/daily/play/", {"name": "Gus"})
    played = play_out(Game.objects.get(), player_of_guest(client, "Gus"))
    signed_up = client.post(
        "/accounts/signup/",
        {"username": "gus", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert signed_up.status_code == 302

    again = client.post("/daily/play/")

    assert again["Location"] == played.get_absolute_url()  # the same table, not a new one
    assert Game.objects.count() == 1
    entry = DailyEntry.objects.get()
    assert (entry.user.username, entry.guest) == ("gus", "")  # on the day's leaderboard


def test_an_account_that_played_the_day_keeps_its_game_when_its_guest_self_logs_in(
    client, alice, alice_client, frozen_clock
):
    theirs = alice_client.post("/daily/play/")["Location"]
    client.post("/daily/play/", {"name": "Alice on the bus"})
    logged_in = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert logged_in.status_code == 302

    assert client.post("/daily/play/")["Location"] == theirs
    assert DailyEntry.objects.filter(user=alice).count() == 1
    assert DailyEntry.objects.filter(user=None).count() == 1  # the guest's stays unranked


def test_the_daily_table_shows_only_to_its_player_until_the_day_is_over(
    alice_client, bob_client, frozen_clock
):
    code = alice_client.post("/daily/play/")["Location"].split("/")[2]
    assert alice_client.get(f"/g/{code}/").status_code == 200
    refused = bob_client.get(f"/g/{code}/")
    assert refused.status_code == 403 and "same dice" in refused.content.decode()


@pytest.mark.parametrize("action", ["roll", "keep", "score", "leave", "join", "rematch"])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_strangers_refused_or_malformed_move_shows_no_table_of_the_same_dice(
    alice_client, bob_client, frozen_clock, action, htmx
):
    code = alice_client.post("/daily/play/")["Location"].split("/")[2]
    alice_client.post(f"/g/{code}/roll/", {"version": Game.objects.get().version})
    game = Game.objects.get()
    headers = {"HX-Request": "true"} if htmx else {}

    answer = bob_client.post(f"/g/{code}/{action}/", {"version": game.version}, headers=headers)

    assert answer.status_code == 403 and "same dice" in answer.content.decode()
    assert 'id="board"' not in answer.content.decode()
    game.refresh_from_db()
    assert game.seats.count() == 1  # and nothing changed


def test_after_the_game_the_card_beside_the_coachs_the_place_and_the_share_line(
    alice, alice_client, frozen_clock, coach_advisor
):
    alice_client.post("/daily/play/")
    game = play_out(Game.objects.get(), player_of(alice))
    page = alice_client.get("/daily/").content.decode()
    day = DailyDay.objects.get(date=TODAY)
    total = game.seats.get().total
    assert day.coach_total is not None
    assert f"Daily Yahtzee {TODAY}: {total}, the coach {day.coach_total}" in page
    assert "Place 1 of 1 so far." in page and "The coach" in page
    assert f'href="/g/{game.code}/replay/"' in page  # one's own game: its review and replay
    data = alice_client.get("/daily.json").json()
    assert data["leaderboard"] == [{"username": "alice", "score": total, "seconds": 0}]
    assert data["coach_score"] is None and data["seed"] is None  # the day still runs
    # Today's leaderboard links no game: their dice are everyone's dice today.
    assert f"/g/{game.code}/verify/" not in page


def test_a_guests_result_says_unranked_and_is_translated(client, frozen_clock, coach_advisor):
    client.post("/daily/play/", {"name": "Gus"})
    game = play_out(
        Game.objects.get(), services.Player(name="Gus", guest=client.session["guest_token"])
    )
    page = client.get("/daily/").content.decode()
    assert "Guests play unranked" in page
    assert client.get("/daily.json").json()["leaderboard"] == []
    client.post("/i18n/setlang/", {"language": "uz"})
    page = client.get("/daily/").content.decode()
    assert f"Kunlik Yahtzee {TODAY}: {game.seats.get().total}, murabbiy " in page


def test_daily_json_keeps_the_contract(client, frozen_clock):
    data = client.get("/daily.json").json()
    today, tomorrow = DailyDay.objects.order_by("date")
    assert data == {
        "date": TODAY,
        "ruleset": "yahtzee",
        "commitment": today.commitment,
        "seed": None,
        "tomorrow_commitment": tomorrow.commitment,
        "leaderboard": [],
        "coach_score": None,
    }
    assert client.get(f"/daily/{TODAY}.json").json() == data


def test_a_past_day_shows_its_seed_leaderboard_replays_and_checks(
    alice, alice_client, client, frozen_clock, coach_advisor
):
    alice_client.post("/daily/play/")
    game = play_out(Game.objects.get(), player_of(alice))
    frozen_clock.moment = datetime(2026, 6, 2, 9, tzinfo=UTC)
    day = DailyDay.objects.get(date=TODAY)
    page = client.get(f"/daily/{TODAY}/").content.decode()
    assert day.seed in page
    assert f'href="/g/{game.code}/replay/"' in page and f'href="/g/{game.code}/verify/"' in page
    assert client.get(f"/g/{game.code}/replay/").status_code == 200
    data = client.get(f"/daily/{TODAY}.json").json()
    assert (
        data["seed"] == day.seed
        and data["coach_score"] == DailyDay.objects.get(pk=day.pk).coach_total
    )
    assert data["tomorrow_commitment"] == DailyDay.objects.get(date="2026-06-02").commitment
    assert client.get(f"/g/{game.code}/state.json").json()["dice_seed"] == day.seed


@pytest.mark.parametrize(
    "day", ["2026-06-02", "2027-01-01", "2026-13-01", "yesterday", "2026-6-1", "2026-06-01x"]
)
def test_a_future_or_malformed_day_is_a_404_with_a_sentence(client, frozen_clock, day):
    for url in (f"/daily/{day}/", f"/daily/{day}.json"):
        answer = client.get(url)
        assert answer.status_code == 404, url
        text = answer.content.decode()
        assert "not come yet" in text or "YYYY-MM-DD" in text, url
    assert not DailyDay.objects.filter(date__gt="2026-06-02").exists()


def test_a_past_day_without_a_game_is_a_404(client, frozen_clock):
    answer = client.get("/daily/2026-05-01.json")
    assert answer.status_code == 404 and "no daily game" in answer.json()["error"]
    assert client.get("/daily/2026-05-01/").status_code == 404


def test_todays_page_by_its_date_goes_to_daily(client, frozen_clock):
    assert client.get(f"/daily/{TODAY}/")["Location"] == "/daily/"


def test_the_reminder_is_an_accounts_choice_off_by_default(
    alice, alice_client, client, frozen_clock
):
    assert "Remind me" in alice_client.get("/daily/").content.decode()
    assert alice_client.post("/daily/reminder/", {"remind": "maybe"}).status_code == 400
    assert not DailyReminder.objects.exists()
    assert client.post("/daily/reminder/", {"remind": "on"}).status_code == 403
    assert alice_client.post("/daily/reminder/", {"remind": "on"}).status_code == 302
    assert DailyReminder.objects.get(user=alice).remind
    daily_services.daily_reminders_send(now=frozen_clock.now())
    inbox = alice_client.get("/inbox/").content.decode()
    assert "daily game is waiting" in inbox and 'href="/daily/"' in inbox
    assert InboxItem.objects.get().kind == "daily"
    alice_client.post("/daily/reminder/", {"remind": "off"})
    assert not DailyReminder.objects.get(user=alice).remind


def test_the_history_page_shows_daily_games_streaks_and_best_score(alice, client, frozen_clock):
    play_out(daily_services.daily_play(player=player_of(alice)), player_of(alice))
    page = client.get("/u/alice/").content.decode()
    assert "Daily game: 1 played." in page and "Current streak: 1 day in a row." in page


def test_the_pages_refuse_other_methods(client, frozen_clock):
    assert client.get("/daily/play/").status_code == 405
    assert client.post("/daily.json").status_code == 405
