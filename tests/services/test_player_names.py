"""Names people can trust at a table (games/services/player_names.py): one form of each name,
none two alike, invisible characters removed, computer players' names in every language."""

from __future__ import annotations

import pytest

from games import services
from games.models import BotLevel
from games.services import GameError
from tests.conftest import guest_player, version_of

pytestmark = pytest.mark.django_db


# -- names people can trust ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("A\u200bnn", "Ann"),  # zero-width space
        ("\u202eBob", "Bob"),  # right-to-left override
        ("Bea\u2066\u2069", "Bea"),  # bidi isolates
        ("Zo\u00eb", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # combining diaeresis, composed
        ("\uff21\uff4e\uff4e", "Ann"),  # fullwidth letters
        ("  Ann \t\n  Lee  ", "Ann Lee"),
        ("Ann\x00\x07", "Ann"),
        ("Ann\ud800", "Ann"),  # a lone surrogate
        ("\u200d Gus \u200c", "Gus"),
        ("Rene\u200b\u0301", "Ren\u00e9"),  # a hidden character between a letter and its accent
    ],
)
def test_display_names_keep_only_what_can_be_seen(typed, shown):
    assert services.clean_name(typed) == shown


@pytest.mark.parametrize("typed", ["", "   ", "\u200b\u200b", "\u202e", "\x00\x01"])
def test_a_name_with_nothing_visible_is_refused(typed):
    with pytest.raises(GameError, match="Choose a display name"):
        services.clean_name(typed)


def test_a_guest_sits_down_under_a_clean_name(make_game, ann):
    table = make_game(ann, seats=2)
    joined = services.game_join(
        code=table.code, player=guest_player("\u202eGus\u200b"), version=version_of(table)
    )
    assert joined.seats[1].name == "Gus"


@pytest.mark.parametrize("name", ["alice", "ALICE", "Alice\u200b", "\uff41lice", " alice "])
def test_a_guest_cannot_sit_down_under_the_name_of_an_account_holder_at_the_table(
    make_game, ann, name
):
    table = make_game(ann, seats=3)
    with pytest.raises(GameError, match="already called"):
        services.game_join(code=table.code, player=guest_player(name), version=version_of(table))
    table.refresh_from_db()
    assert table.seats.count() == 1 and version_of(table) == table.version


def test_an_account_holder_whose_seat_shows_another_name_still_owns_it(make_game, ann):
    table = make_game(ann, seats=3)
    table.seats.update(name="Captain")  # a name shown that is not the username
    with pytest.raises(GameError, match="already called"):
        services.game_join(code=table.code, player=guest_player("Alice"), version=version_of(table))


def test_two_guests_at_one_table_cannot_carry_the_same_name(make_game, ann):
    table = make_game(ann, seats=3)
    services.game_join(code=table.code, player=guest_player("Gus"), version=version_of(table))
    table.refresh_from_db()
    with pytest.raises(GameError, match="already called gus"):
        services.game_join(code=table.code, player=guest_player("gus"), version=version_of(table))
    table.refresh_from_db()
    assert table.seats.count() == 2
    services.game_join(code=table.code, player=guest_player("Gus 2"), version=version_of(table))


def test_a_computer_player_does_not_take_a_guests_name(make_game, ann):
    table = make_game(ann, seats=3)
    services.game_join(
        code=table.code, player=guest_player("Casual bot"), version=version_of(table)
    )
    table.refresh_from_db()
    added = services.game_add_bot(
        code=table.code, player=ann, version=version_of(table), level=BotLevel.CASUAL
    )
    assert added.seats[-1].name == "Casual bot 2"
    names = list(table.seats.values_list("name", flat=True))
    assert len({n.casefold() for n in names}) == len(names)


def test_a_guest_who_signs_up_is_shown_under_the_account_name(make_game, ann, make_user):
    gus = guest_player("Gus")
    table = make_game(ann, gus, seats=2)
    before = version_of(table)
    account = make_user("augustus")

    assert services.guest_seats_claim(guest=gus.guest, user_id=account.pk) == 1

    table.refresh_from_db()
    seat = table.seats.get(position=1)
    assert (seat.name, seat.user_id, seat.guest) == ("augustus", account.pk, "")
    assert table.version == before + 1  # open pages are pushed the new name


def test_a_guest_who_signs_up_under_a_name_taken_at_the_table_keeps_the_seats_name(
    make_game, ann, make_user
):
    gus = guest_player("Gus")
    table = make_game(ann, guest_player("Ann"), gus, seats=3)
    account = make_user("ann")

    assert services.guest_seats_claim(guest=gus.guest, user_id=account.pk) == 1

    seats = list(table.seats.order_by("position"))
    assert [seat.name for seat in seats] == ["alice", "Ann", "Gus"]
    assert (seats[2].user_id, seats[2].guest) == (account.pk, "")  # the account's seat now


def test_sitting_down_under_a_taken_name_is_answered_with_a_sentence_not_an_error_page(
    make_game, ann, make_client
):
    table = make_game(ann, seats=3)
    browser = make_client()
    response = browser.post(
        f"/g/{table.code}/join/",
        {"version": version_of(table), "name": "ALICE\u200b"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert "already called ALICE" in response.content.decode()
    table.refresh_from_db()
    assert table.seats.count() == 1

    response = browser.post(
        f"/g/{table.code}/join/",
        {"version": version_of(table), "name": "Alison"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert list(table.seats.values_list("name", flat=True).order_by("position")) == [
        "alice",
        "Alison",
    ]
