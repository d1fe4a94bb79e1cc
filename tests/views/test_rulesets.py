"""Rule sets on the pages (issue 31): the create form, the rules pages, the leaderboard and
the history per rule set; a rule set nobody has gets a sentence and a 4xx, never a 500."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Rating
from games.rules import Rules, box_points
from tests.conftest import full_card
from tests.views.helpers import error_of_form, text

pytestmark = pytest.mark.django_db


def squeeze(response) -> str:
    return re.sub(r"\s+", " ", text(response))


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_a_table_opened_with_a_rule_set_plays_it(alice_client, ruleset):
    response = alice_client.post("/games/new/", {"seats": 1, "ruleset": ruleset})

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.ruleset == ruleset
    state = alice_client.get(f"/g/{game.code}/state.json").json()
    assert state["ruleset"] == ruleset and state["rules"]["ruleset"] == ruleset


def test_a_table_opened_without_a_rule_set_is_yahtzee(alice_client):
    assert alice_client.post("/games/new/", {"seats": 1}).status_code == 302
    assert Game.objects.get().ruleset == "yahtzee"


def test_an_unknown_rule_set_is_refused_with_a_sentence(alice_client):
    response = alice_client.post("/games/new/", {"seats": 1, "ruleset": "poker"})

    assert response.status_code == 400
    assert "Choose Yahtzee, Yatzy or Yacht." in error_of_form(response)
    assert not Game.objects.exists()


def test_upper_section_first_is_refused_outside_yahtzee(alice_client):
    response = alice_client.post(
        "/games/new/", {"seats": 1, "ruleset": "yacht", "upper_first": "on"}
    )

    assert response.status_code == 400
    assert "Upper section first is an option of Yahtzee only" in error_of_form(response)
    assert not Game.objects.exists()


def test_the_create_form_offers_the_rule_sets_and_marks_where_upper_first_applies(client):
    page = text(client.get("/"))

    options = re.findall(r'<option value="(\w+)"[^>]*? data-upper-first="(\w+)"', page)
    assert options == [("yahtzee", "true"), ("yatzy", "false"), ("yacht", "false")]
    assert "data-upper-first-option" in page
    for link in ("/rules/", "/rules/yatzy/", "/rules/yacht/"):
        assert f'href="{link}"' in page


@pytest.mark.parametrize("language", ["en", "te", "uz"])
@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_each_rule_set_has_its_rules_page_in_each_language(client, ruleset, language):
    client.cookies["django_language"] = language
    response = client.get(f"/rules/{ruleset}/")

    assert response.status_code == 200
    page = text(response)
    assert f'data-ruleset="{ruleset}"' in page
    assert 'aria-current="page"' in page
    assert f'<html lang="{language}"' in page


def test_the_yahtzee_rules_page_names_the_three_rule_sets(client):
    page = squeeze(client.get("/rules/"))

    assert "How to play Yahtzee" in page
    for link in ('href="/rules/yatzy/"', 'href="/rules/yacht/"'):
        assert link in page


def test_rules_of_no_such_rule_set_are_a_404_with_a_sentence(client):
    response = client.get("/rules/poker/")

    assert response.status_code == 404
    assert "There are no rules by that name" in text(response)
    assert client.get("/rules/yahtzee/").url == "/rules/"


def test_the_leaderboard_shows_one_rule_set_at_a_time(client, make_user):
    viking = make_user("viking")
    Rating.objects.create(user=viking, ruleset="yatzy", mu=30, sigma=1, ordinal=27, games=6)

    assert ">viking<" not in text(client.get("/leaderboard/"))
    page = squeeze(client.get("/leaderboard/?ruleset=yatzy"))
    assert ">viking<" in page
    assert '<a href="/leaderboard/?ruleset=yatzy" aria-current="page">' in page


@pytest.mark.parametrize("path", ["/leaderboard/?ruleset=poker", "/u/alice/?ruleset=chess"])
def test_a_page_asked_for_no_such_rule_set_answers_400_with_a_sentence(client, alice, path):
    response = client.get(path)

    assert response.status_code == 400
    assert "There is no such rule set: choose Yahtzee, Yatzy or Yacht." in text(response)


def test_the_history_page_lists_each_rule_sets_rating(client, alice):
    Rating.objects.create(user=alice, ruleset="yacht", mu=30, sigma=1, ordinal=12.5, games=3)
    Rating.objects.create(user=alice, ruleset="yahtzee", mu=30, sigma=1, ordinal=4.0, games=2)

    page = squeeze(client.get("/u/alice/"))
    assert "By rule set" in page
    assert "12.5 (3 rated games)" in page and "4.0 (2 rated games)" in page
    assert "Rating at Yahtzee" in page

    yacht = squeeze(client.get("/u/alice/?ruleset=yacht"))
    assert "Rating at Yacht" in yacht
    assert "Conservative rating 12.5 after 3 rated games." in yacht
    assert 'href="/leaderboard/?ruleset=yacht"' in yacht


@pytest.mark.parametrize("language", ["en", "te", "uz"])
@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_a_rules_page_gives_an_example_of_every_box_that_the_rules_score_as_it_says(
    client, ruleset, language
):
    client.cookies["django_language"] = language
    page = text(client.get(f"/rules/{ruleset}/"))

    examples = re.findall(r'data-box="(\w+)" data-dice="(\d{5})" data-points="(\d+)"', page)
    rules = Rules(ruleset=ruleset)
    assert [box for box, _, _ in examples] == [box.value for box in rules.boxes]
    for box, dice, points in examples:
        assert box_points(box, dice, rules) == int(points), (box, dice)


def chart_values(page: str) -> list[str]:
    """The values of the scores chart's points, oldest first."""
    chart = page.split('id="scores-chart"')[1].split("</figure>")[0]
    return re.findall(r"<circle[^>]*><title>([\d.]+)</title>", chart)


def test_the_scores_chart_keeps_to_one_rule_set_once_several_were_played(
    client, alice, finished_game
):
    for chance in (30, 20):
        finished_game((alice, full_card(chance=chance)))
    yacht = finished_game((alice, full_card(chance=12)))
    Game.objects.filter(pk=yacht.pk).update(ruleset="yacht")

    page = client.get("/u/alice/").content.decode()
    assert "Scores at Yahtzee over time" in page and chart_values(page) == ["30", "20"]
    assert 'href="/u/alice/?ruleset=yacht#scores-chart"' in page

    page = client.get("/u/alice/?ruleset=yacht").content.decode()
    assert "Scores at Yacht over time" in page and chart_values(page) == ["12"]


def test_one_rule_sets_player_sees_every_score_in_the_chart(client, alice, finished_game):
    for chance in (30, 20):
        yacht = finished_game((alice, full_card(chance=chance)))
        Game.objects.filter(pk=yacht.pk).update(ruleset="yacht")

    page = client.get("/u/alice/").content.decode()
    assert "Scores over time" in page and chart_values(page) == ["30", "20"]
    assert "#scores-chart" not in page.split('id="scores-chart"')[0]
