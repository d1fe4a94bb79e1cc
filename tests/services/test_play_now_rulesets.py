""" "Play now" in every rule set: people are matched only with people who chose the same one,
their table is played by it, and the computer offered instead matches their rating in it."""

from __future__ import annotations

import pytest

from games.models import BotLevel, Game, Rating, Ticket
from games.selectors.play_now import computer_for, play_status, public_rating
from games.services import GameError
from games.services import play_now as queue
from games.services.play_now import Choices

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_two_people_who_chose_a_rule_set_play_a_table_of_it(ann, ben, ruleset):
    choices = Choices(pace="live", players=2, rated=True, ruleset=ruleset)
    queue.play_join(player=ann, choices=choices)
    ticket = queue.play_join(player=ben, choices=choices)
    assert ticket.status == Ticket.Status.MATCHED
    assert ticket.game.ruleset == ruleset
    assert ticket.game.status == Game.Status.PLAYING


def test_people_who_chose_different_rule_sets_are_not_matched(ann, ben):
    queue.play_join(player=ann, choices=Choices(pace="live", players=2, rated=True))
    queue.play_join(
        player=ben, choices=Choices(pace="live", players=2, rated=True, ruleset="yatzy")
    )
    assert not Game.objects.exists()
    assert Ticket.objects.filter(status="waiting").count() == 2


def test_an_unknown_rule_set_is_refused_and_nobody_waits(ann):
    with pytest.raises(GameError):
        queue.play_join(
            player=ann, choices=Choices(pace="live", players=2, rated=False, ruleset="farkle")
        )
    assert not Ticket.objects.exists()


def test_the_computer_instead_plays_the_chosen_rule_set_at_the_rating_kept_for_it(
    ann, frozen_clock
):
    # A strong Yatzy player who never played rated Yahtzee: the Yatzy rating decides.
    strongest = max(BotLevel, key=public_rating)
    Rating.objects.create(
        user_id=ann.user_id,
        ruleset="yatzy",
        mu=public_rating(strongest) + 30,
        sigma=1,
        ordinal=public_rating(strongest) + 27,
        games=20,
    )
    assert computer_for(ann, "yatzy").level == strongest
    assert computer_for(ann, "yahtzee").by_rating is False
    queue.play_join(
        player=ann, choices=Choices(pace="relaxed", players=2, rated=False, ruleset="yatzy")
    )
    assert play_status(ann, frozen_clock.now()).ruleset == "yatzy"
    frozen_clock.advance(seconds=3600)
    game = queue.play_computer(player=ann, level=computer_for(ann, "yatzy").level)
    assert game.ruleset == "yatzy"
    assert game.seats.filter(bot=strongest.value).exists()
