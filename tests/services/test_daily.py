"""The daily game's writes: the day rows (a day ahead, exactly once), someone's one game of
the day, the coach's game on the day's dice, the reminders, and a whole day on an
injected clock (no sleeping)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games import dice, selectors, services
from games.models import DailyDay, DailyEntry, DailyReminder, Game, InboxItem, Player
from games.models.daily import ruleset_of
from games.selectors import daily as reads
from games.services import NotAllowed
from games.services import daily as daily_services
from games.viewmodels.social import InboxEntry, entry_text
from tests.conftest import PASSWORD, guest_player, player_of, version_of
from tests.threads import at_once

pytestmark = pytest.mark.django_db
MONDAY = date(2026, 6, 1)  # the frozen clock's day, 12:00 UTC


def test_today_and_tomorrow_are_made_once_with_their_rule_set_and_seed(frozen_clock):
    today, tomorrow = daily_services.daily_days_ensure(now=frozen_clock.now())
    assert (today.date, tomorrow.date) == (MONDAY, MONDAY + timedelta(days=1))
    assert today.ruleset == "yahtzee" and len(bytes.fromhex(today.seed)) == 32
    assert today.commitment == dice.commitment(bytes.fromhex(today.seed))
    again, _ = daily_services.daily_days_ensure(now=frozen_clock.now())
    assert again.pk == today.pk and DailyDay.objects.count() == 2


@pytest.mark.parametrize(
    ("day", "ruleset"),
    [(MONDAY, "yahtzee"), (date(2026, 6, 5), "yahtzee"), (date(2026, 6, 6), "yatzy"),
     (date(2026, 6, 7), "yacht")],
)  # fmt: skip
def test_the_rule_sets_rotate_yatzy_on_saturdays_and_yacht_on_sundays(day, ruleset):
    assert ruleset_of(day) == ruleset


def test_the_seed_is_out_only_once_the_day_is_over(frozen_clock):
    today, _ = daily_services.daily_days_ensure(now=frozen_clock.now())
    assert today.revealed_seed(frozen_clock.now()) is None
    assert today.revealed_seed(datetime(2026, 6, 1, 23, 59, 59, tzinfo=UTC)) is None
    assert today.revealed_seed(datetime(2026, 6, 2, tzinfo=UTC)) == today.seed


def test_the_daily_game_is_solo_untimed_casual_without_hints_on_the_days_dice(ann, frozen_clock):
    game = daily_services.daily_play(player=ann)
    day = DailyDay.objects.get(date=MONDAY)
    assert game.status == Game.Status.PLAYING and game.seat_count == 1
    assert (game.rated, game.coach_hints, game.feedback, game.pace) == (
        False,
        False,
        False,
        "untimed",
    )
    assert game.dice_draw == "same" and game.server_seed == day.seed
    assert game.seed_secret_until == datetime(2026, 6, 2, tzinfo=UTC)
    assert game.ruleset == day.ruleset


def test_starting_twice_goes_back_to_the_same_game(ann, frozen_clock):
    first = daily_services.daily_play(player=ann)
    assert daily_services.daily_play(player=ann).pk == first.pk
    assert DailyEntry.objects.count() == 1 and Game.objects.count() == 1


def test_a_guest_plays_by_their_token_unranked_and_nobody_unknown_plays(frozen_clock):
    gus = guest_player("Gus", "token-1")
    game = daily_services.daily_play(player=gus)
    assert daily_services.daily_play(player=gus).pk == game.pk
    assert DailyEntry.objects.get().user_id is None
    with pytest.raises(NotAllowed):
        daily_services.daily_play(player=Player(name=""))
    assert Game.objects.count() == 1


def first_roll(game: Game, player: Player) -> list[int]:
    services.turn_roll(code=game.code, player=player, version=version_of(game))
    game.refresh_from_db()
    return list(game.dice)


def test_everyone_of_a_day_rolls_the_same_dice(ann, ben, frozen_clock):
    gus = guest_player("Gus", "token-2")
    games = [daily_services.daily_play(player=p) for p in (ann, ben, gus)]
    rolls = [first_roll(g, p) for g, p in zip(games, (ann, ben, gus), strict=True)]
    day = DailyDay.objects.get(date=MONDAY)
    assert rolls[0] == rolls[1] == rolls[2] == list(dice.same_dice(bytes.fromhex(day.seed), 1, 1))


def play_out(game: Game, player: Player, clock=None) -> Game:
    """Roll once and fill the first open box, turn after turn, to the end."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        if clock is not None:
            clock.advance(seconds=10)
        services.turn_roll(code=game.code, player=player, version=version_of(game))
        game.refresh_from_db()
        state = game.engine_state(list(game.seats.all()))
        box = state.cards[0].open_boxes[0]
        services.turn_score(code=game.code, player=player, version=version_of(game), category=box)


def test_the_coach_plays_the_days_dice_once_and_keeps_it(frozen_clock, coach_advisor):
    today, _ = daily_services.daily_days_ensure(now=frozen_clock.now())
    day = daily_services.daily_coach_play(day_id=today.pk)
    state = daily_services.coach_game(coach_advisor, "yahtzee", bytes.fromhex(today.seed))
    assert day.coach_total == state.cards[0].total and day.coach_total > 100
    assert daily_services.daily_coach_play(day_id=today.pk).coach_card == day.coach_card


def test_a_whole_day_on_the_clock_leaderboard_then_the_seed(ann, ben, frozen_clock, coach_advisor):
    gus = guest_player("Gus", "token-3")
    mine = play_out(daily_services.daily_play(player=ann), ann, frozen_clock)
    theirs = play_out(daily_services.daily_play(player=ben), ben)  # no time passes: faster
    play_out(daily_services.daily_play(player=gus), gus)
    day = DailyDay.objects.get(date=MONDAY)

    board = reads.leaderboard(day)
    totals = {"alice": mine.seats.get().total, "bob": theirs.seats.get().total}
    # Score first, then time taken: bob took no time at all.
    assert [line.username for line in board] == sorted(
        totals, key=lambda name: (-totals[name], name == "alice")
    )
    assert {line.username: line.seconds for line in board} == {"alice": 130, "bob": 0}
    entry = DailyEntry.objects.get(user__username="alice")
    place = next(line.place for line in board if line.username == "alice")
    assert reads.place_of(entry) == (place, 2)
    now = frozen_clock.now()
    data = reads.day_json(day, None, now)
    assert data["seed"] is None and data["coach_score"] is None
    assert "dice_seed" not in selectors.state_json(mine)

    frozen_clock.moment = datetime(2026, 6, 2, 0, 0, tzinfo=UTC)
    day = daily_services.daily_coach_play(day_id=day.pk)
    data = reads.day_json(day, None, frozen_clock.now())
    assert data["seed"] == day.seed and data["coach_score"] == day.coach_total
    mine.refresh_from_db()
    checks = dice.verify_same(
        bytes.fromhex(mine.revealed_seed), selectors.moves_json(mine)["moves"]
    )  # type: ignore[arg-type]
    assert checks and all(c.ok for c in checks)
    # The next day is a new game, on new dice.
    tomorrow = daily_services.daily_play(player=ann)
    assert tomorrow.pk != mine.pk and tomorrow.server_seed != mine.server_seed


def test_on_a_sunday_everyone_and_the_coach_play_yacht(ann, frozen_clock, ruleset_advisor):
    ruleset_advisor("yacht")  # the table, loaded (or built) once per session
    frozen_clock.moment = datetime(2026, 6, 7, 9, tzinfo=UTC)
    game = play_out(daily_services.daily_play(player=ann), ann)
    day = daily_services.daily_coach_play(day_id=DailyDay.objects.get(date="2026-06-07").pk)
    assert game.ruleset == day.ruleset == "yacht"
    assert len(game.seats.get().scorecard["boxes"]) == len(day.coach_card["boxes"]) == 12  # type: ignore[index]
    assert day.coach_total is not None and day.coach_total > 0
    entry = DailyEntry.objects.get(game=game)
    assert reads.result_of(entry).share.startswith("Daily Yacht 2026-06-07: ")  # type: ignore[union-attr]


def test_without_the_rule_sets_table_the_coach_plays_later(frozen_clock, monkeypatch):
    today, _ = daily_services.daily_days_ensure(now=frozen_clock.now())
    monkeypatch.setattr(daily_services, "advisor_if_ready", lambda rules, folder: None)
    day = daily_services.daily_coach_play(day_id=today.pk)
    assert day.coach_total is None and day.coach_card is None


def test_a_game_finished_after_its_day_is_unranked(ann, frozen_clock):
    game = daily_services.daily_play(player=ann)
    frozen_clock.moment = datetime(2026, 6, 2, 0, 5, tzinfo=UTC)
    play_out(game, ann)
    day = DailyDay.objects.get(date=MONDAY)
    assert reads.leaderboard(day) == [] and reads.place_of(DailyEntry.objects.get()) is None


def test_the_record_counts_streaks_of_days_in_a_row(alice, frozen_clock, monkeypatch):
    ann = player_of(alice)
    for offset in (-6, -5, -4, -2, -1, 0):
        frozen_clock.moment = datetime(2026, 6, 1, 12, tzinfo=UTC) + timedelta(days=offset)
        play_out(daily_services.daily_play(player=ann), ann)
    record = reads.daily_record(alice.pk, MONDAY)
    assert (record.played, record.current_streak, record.best_streak) == (6, 3, 3)
    assert record.best_score == max(
        e.game.seats.get().total for e in DailyEntry.objects.select_related("game")
    )
    assert reads.daily_record(alice.pk, MONDAY + timedelta(days=1)).current_streak == 3
    assert reads.daily_record(alice.pk, MONDAY + timedelta(days=2)).current_streak == 0


# -- reminders ------------------------------------------------------------------------------


def test_reminders_go_once_a_day_to_those_who_asked_and_have_not_played(
    alice, bob, carol, frozen_clock
):
    for user in (alice, bob):
        daily_services.daily_reminder_set(user_id=user.pk, remind=True)
    daily_services.daily_reminder_set(user_id=carol.pk, remind=False)
    daily_services.daily_play(player=player_of(bob))  # bob has played today

    morning = datetime(2026, 6, 1, 11, 59, tzinfo=UTC)
    assert daily_services.daily_reminders_send(now=morning) == 0
    assert daily_services.daily_reminders_send(now=frozen_clock.now()) == 1
    assert daily_services.daily_reminders_send(now=frozen_clock.now()) == 0
    item = InboxItem.objects.get()
    assert (item.user_id, item.kind) == (alice.pk, "daily")
    assert daily_services.daily_reminders_send(now=frozen_clock.now() + timedelta(days=1)) == 2
    entry = InboxEntry(
        id=item.pk, kind="daily", read=False, created=item.created_at, sender=None, game=None,
        details=item.details,
    )  # fmt: skip
    with translation.override("uz"):
        assert "kunlik" in entry_text(entry).lower()


@pytest.mark.django_db(transaction=True)
def test_two_processes_making_the_day_and_starting_twice_make_one_of_each(frozen_clock):
    user = get_user_model().objects.create_user(username="twice", password=PASSWORD)
    me = player_of(user)
    results = at_once([lambda: daily_services.daily_play(player=me)] * 2)
    assert all(isinstance(r, Game) for r in results), results
    assert results[0].pk == results[1].pk  # type: ignore[union-attr]
    assert DailyDay.objects.count() == 2 and DailyEntry.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_remind_once(frozen_clock):
    user = get_user_model().objects.create_user(username="forgetful", password=PASSWORD)
    daily_services.daily_reminder_set(user_id=user.pk, remind=True)
    now = frozen_clock.now()
    results = at_once([lambda: daily_services.daily_reminders_send(now=now)] * 2)
    assert sorted(results) == [0, 1], results  # type: ignore[type-var]
    assert InboxItem.objects.filter(kind="daily").count() == 1
    assert DailyReminder.objects.get().last_reminded == MONDAY
