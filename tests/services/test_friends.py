"""Friends, blocks, settings, invitations and the inbox, through the services."""

from __future__ import annotations

import pytest

from games import services
from games.models import (
    Block,
    FriendRequest,
    Friendship,
    InboxItem,
    Invitation,
    SocialSettings,
)
from games.services import GameError, NotAllowed, PersonNotFound, StaleAction
from tests.conftest import version_of

pytestmark = pytest.mark.django_db


def befriend(a, b) -> None:
    services.friend_request(user_id=a.pk, username=b.username)
    services.friend_accept(user_id=b.pk, username=a.username)


def counts() -> tuple[int, int, int, int, int]:
    return (
        Friendship.objects.count(),
        FriendRequest.objects.count(),
        Block.objects.count(),
        Invitation.objects.count(),
        InboxItem.objects.count(),
    )


def kinds(user) -> list[str]:
    return list(InboxItem.objects.filter(user=user).order_by("id").values_list("kind", flat=True))


def test_a_request_then_an_acceptance_makes_friends_both_ways(alice, bob):
    them, at_once = services.friend_request(user_id=alice.pk, username="bob")
    assert (them.name, at_once) == ("bob", False)
    assert kinds(bob) == ["friend_request"]
    services.friend_accept(user_id=bob.pk, username="alice")
    assert Friendship.objects.filter(user=alice, friend=bob).exists()
    assert Friendship.objects.filter(user=bob, friend=alice).exists()
    assert not FriendRequest.objects.exists()
    assert kinds(alice) == ["friend_accepted"]
    assert kinds(bob) == []  # the answered request left the inbox


def test_requesting_someone_who_already_asked_you_makes_you_friends(alice, bob):
    services.friend_request(user_id=bob.pk, username="alice")
    _them, at_once = services.friend_request(user_id=alice.pk, username="bob")
    assert at_once
    assert Friendship.objects.count() == 2 and not FriendRequest.objects.exists()


@pytest.mark.parametrize(
    ("name", "error", "words"),
    [
        ("alice", GameError, "That is you."),
        ("nobody-here", PersonNotFound, "There is no player named nobody-here."),
        ("", GameError, "Type the username of a player."),
    ],
)
def test_refused_requests_change_nothing(alice, bob, name, error, words):
    before = counts()
    with pytest.raises(error, match=words):
        services.friend_request(user_id=alice.pk, username=name)
    assert counts() == before


def test_a_request_to_a_friend_or_a_second_one_is_refused(alice, bob):
    services.friend_request(user_id=alice.pk, username="bob")
    with pytest.raises(StaleAction, match="already asked bob"):
        services.friend_request(user_id=alice.pk, username="bob")
    services.friend_accept(user_id=bob.pk, username="alice")
    before = counts()
    with pytest.raises(StaleAction, match="already friends"):
        services.friend_request(user_id=alice.pk, username="bob")
    assert counts() == before


def test_nobody_may_ask_an_account_that_takes_no_requests(alice, bob):
    services.social_settings_set(
        user_id=bob.pk, friend_requests_from="nobody", invitations_from="friends"
    )
    with pytest.raises(NotAllowed, match="bob does not take friend requests"):
        services.friend_request(user_id=alice.pk, username="bob")
    assert not FriendRequest.objects.exists()


def test_a_block_ends_the_friendship_and_the_requests_and_reads_like_a_setting(alice, bob, carol):
    befriend(alice, bob)
    services.friend_request(user_id=carol.pk, username="alice")
    services.user_block(user_id=alice.pk, username="bob")
    services.user_block(user_id=alice.pk, username="carol")
    assert not Friendship.objects.exists() and not FriendRequest.objects.exists()
    assert kinds(alice) == []  # carol's request is gone from the inbox
    # The blocked person is refused with the same words as a "nobody" setting.
    with pytest.raises(NotAllowed, match="alice does not take friend requests"):
        services.friend_request(user_id=bob.pk, username="alice")
    with pytest.raises(NotAllowed, match="You blocked bob"):
        services.friend_request(user_id=alice.pk, username="bob")
    assert not FriendRequest.objects.exists()
    with pytest.raises(StaleAction):
        services.user_block(user_id=alice.pk, username="bob")
    services.user_unblock(user_id=alice.pk, username="bob")
    assert not Block.objects.filter(blocker=alice, blocked=bob).exists()
    with pytest.raises(StaleAction):
        services.user_unblock(user_id=alice.pk, username="bob")


def test_decline_cancel_and_remove(alice, bob, carol):
    services.friend_request(user_id=alice.pk, username="bob")
    services.friend_decline(user_id=bob.pk, username="alice")
    assert not FriendRequest.objects.exists() and kinds(bob) == []
    with pytest.raises(StaleAction, match="no friend request from alice"):
        services.friend_accept(user_id=bob.pk, username="alice")
    services.friend_request(user_id=alice.pk, username="carol")
    services.friend_cancel(user_id=alice.pk, username="carol")
    assert not FriendRequest.objects.exists() and kinds(carol) == []
    services.friend_request(user_id=alice.pk, username="carol")
    services.friend_remove(user_id=alice.pk, username="carol")  # cancels a sent request too
    assert not FriendRequest.objects.exists()
    befriend(alice, bob)
    services.friend_remove(user_id=bob.pk, username="alice")
    assert not Friendship.objects.exists()
    with pytest.raises(StaleAction):
        services.friend_remove(user_id=bob.pk, username="alice")


def test_a_strangers_request_cannot_be_accepted_by_a_third(alice, bob, carol):
    services.friend_request(user_id=alice.pk, username="bob")
    with pytest.raises(StaleAction):
        services.friend_accept(user_id=carol.pk, username="alice")
    assert not Friendship.objects.exists()


def test_settings_are_saved_and_bad_choices_refused(alice):
    services.social_settings_set(
        user_id=alice.pk, friend_requests_from="nobody", invitations_from="everyone"
    )
    row = SocialSettings.objects.get(user=alice)
    assert (row.friend_requests_from, row.invitations_from) == ("nobody", "everyone")
    with pytest.raises(GameError):
        services.social_settings_set(
            user_id=alice.pk, friend_requests_from="aliens", invitations_from="everyone"
        )
    assert SocialSettings.objects.get(user=alice).friend_requests_from == "nobody"


# -- invitations ------------------------------------------------------------------------------


def test_friends_only_by_default(make_game, ann, alice, bob):
    game = make_game(ann, seats=3)
    with pytest.raises(NotAllowed, match="bob takes invitations from friends only"):
        services.invitation_send(code=game.code, player=ann, username="bob")
    befriend(alice, bob)
    services.invitation_send(code=game.code, player=ann, username="bob")
    item = InboxItem.objects.get(user=bob, kind="invitation")
    assert item.game == game and item.sender == alice and item.invitation is not None
    with pytest.raises(StaleAction, match="already invited"):
        services.invitation_send(code=game.code, player=ann, username="bob")


def test_settings_everyone_and_nobody(make_game, ann, bob, carol):
    game = make_game(ann, seats=3)
    services.social_settings_set(
        user_id=bob.pk, friend_requests_from="everyone", invitations_from="everyone"
    )
    services.social_settings_set(
        user_id=carol.pk, friend_requests_from="everyone", invitations_from="nobody"
    )
    services.invitation_send(code=game.code, player=ann, username="bob")
    with pytest.raises(NotAllowed, match="carol does not take invitations"):
        services.invitation_send(code=game.code, player=ann, username="carol")
    assert Invitation.objects.count() == 1


def test_a_block_stops_invitations_without_saying_so(make_game, ann, alice, bob):
    services.social_settings_set(
        user_id=alice.pk, friend_requests_from="everyone", invitations_from="everyone"
    )
    services.user_block(user_id=alice.pk, username="bob")
    game = make_game(services.Player(name="bob", user_id=bob.pk), seats=2)
    before = counts()
    with pytest.raises(NotAllowed) as refusal:
        services.invitation_send(
            code=game.code, player=services.Player(name="bob", user_id=bob.pk), username="alice"
        )
    assert "block" not in str(refusal.value)
    assert counts() == before


def test_a_block_withdraws_open_invitations(make_game, ann, alice, bob):
    befriend(alice, bob)
    game = make_game(ann, seats=2)
    services.invitation_send(code=game.code, player=ann, username="bob")
    services.user_block(user_id=bob.pk, username="alice")
    assert not Invitation.objects.exists() and kinds(bob) == []


def test_only_a_seated_account_invites_and_only_in_the_lobby(
    make_game, ann, ben, alice, bob, carol
):
    befriend(alice, carol)
    befriend(bob, carol)
    game = make_game(ann, seats=3)
    with pytest.raises(NotAllowed, match="Only someone seated"):
        services.invitation_send(code=game.code, player=ben, username="carol")
    services.game_join(code=game.code, player=ben, version=version_of(game))
    with pytest.raises(StaleAction, match="already seated"):
        services.invitation_send(code=game.code, player=ann, username="bob")
    services.game_start(code=game.code, player=ann, version=version_of(game))
    with pytest.raises(StaleAction, match="already started"):
        services.invitation_send(code=game.code, player=ben, username="carol")
    assert not Invitation.objects.exists()


def test_the_start_ends_the_invitations(make_game, ann, alice, bob):
    befriend(alice, bob)
    game = make_game(ann, seats=2)
    services.invitation_send(code=game.code, player=ann, username="bob")
    services.game_start(code=game.code, player=ann, version=version_of(game))
    invitation = Invitation.objects.get()
    assert invitation.ended_at is not None and invitation.ending == "started"


def test_the_new_tables_form_invites_each_name_on_its_own(make_game, ann, alice, bob, carol):
    befriend(alice, bob)
    game = make_game(ann, seats=3)
    refusals = services.invitations_send(
        code=game.code, player=ann, usernames=["bob", "carol", "bob", "", "zed"]
    )
    assert refusals == [
        "carol takes invitations from friends only.",
        "There is no player named zed.",
    ]
    assert list(Invitation.objects.values_list("receiver__username", flat=True)) == ["bob"]


# -- the inbox ---------------------------------------------------------------------------------


def test_dismiss_only_ones_own_entry(alice, bob):
    services.friend_request(user_id=alice.pk, username="bob")
    item = InboxItem.objects.get(user=bob)
    with pytest.raises(services.GameNotFound):
        services.inbox_dismiss(user_id=alice.pk, item_id=item.pk)
    assert InboxItem.objects.filter(pk=item.pk).exists()
    services.inbox_dismiss(user_id=bob.pk, item_id=item.pk)
    assert not InboxItem.objects.exists()


def test_your_turn_once_per_turn_at_slow_tables_only(make_game, ann, ben, alice, bob, take_turn):
    daily = make_game(ann, ben, start=True, starter=0, pace="daily")
    assert kinds(alice) == ["your_turn"] and kinds(bob) == []
    take_turn(daily, ann, "12345", "chance")
    assert kinds(bob) == ["your_turn"]
    assert InboxItem.objects.get(user=bob).details == {"turn": 1}
    live = make_game(ann, ben, start=True, starter=0, pace="live")
    take_turn(live, ann, "12345", "chance")
    assert InboxItem.objects.filter(game=live).count() == 0


def test_no_your_turn_for_guests_or_computer_players(make_game, ann, take_turn):
    game = make_game(ann, seats=2, pace="relaxed")
    services.game_add_bot(code=game.code, player=ann, version=version_of(game), level="beginner")
    services.game_start(code=game.code, player=ann, version=version_of(game))
    assert set(InboxItem.objects.values_list("user_id", flat=True)) <= {ann.user_id}


def test_each_seated_account_gets_the_result(make_game, ann, ben, alice, bob, play_out):
    game = make_game(ann, ben, start=True, starter=0)
    play_out(game, [ann, ben], lambda seat, turn: "66666" if seat == 0 else "12345")
    results = {item.user_id: item.details for item in InboxItem.objects.filter(kind="game_over")}
    assert results[alice.pk]["place"] == 1 and results[bob.pk]["place"] == 2
    assert results[alice.pk]["players"] == 2 and results[alice.pk]["score"] > 0


def test_a_closed_table_ends_its_invitations_and_the_entry_says_so(make_game, ann, alice, bob):
    from games.selectors import inbox_entries
    from games.services.absence import abandon

    befriend(alice, bob)
    game = make_game(ann, seats=2)
    services.invitation_send(code=game.code, player=ann, username="bob")
    assert inbox_entries(bob.pk)[0].joinable
    abandon(game, list(game.seats.all()))
    invitation = Invitation.objects.get()
    assert invitation.ending == "closed" and invitation.ended_at is not None
    entry = inbox_entries(bob.pk)[0]
    assert not entry.joinable
    assert entry.text == f"alice invited you to table {game.code}; that table was closed."
