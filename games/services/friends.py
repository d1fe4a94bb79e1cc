"""Friends, friend requests, blocks and who may reach an account (its social settings).

A friendship is mutual: a request, then an acceptance (or a request to someone who already
asked you). A block removes the friendship and the requests between the two, and from then
on neither reaches the other. Every write is one transaction that locks the two accounts'
rows (lower id first), so two requests crossing each other cannot both be stored. The
refusals are sentences for the person and change nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from games.models import (
    Block,
    FriendRequest,
    FriendRequestsFrom,
    Friendship,
    InboxItem,
    Invitation,
    InvitationsFrom,
    SocialSettings,
)
from games.services.errors import GameError, GameNotFound, NotAllowed, StaleAction
from games.services.inbox import InboxNotice, inbox_add, inbox_remove, tell

# What Django's username validator allows (as games/converters.py has it for links).
USERNAME = re.compile(r"[\w.@+-]{1,150}")


class PersonNotFound(GameNotFound):
    """No account has that username."""


@dataclass(frozen=True)
class Person:
    id: int
    name: str


def person_named(username: object) -> Person:
    """The account with this username (as typed: exact, else the one that matches ignoring
    case), or a refusal."""
    name = " ".join(str(username or "").split())
    if not name or len(name) > 150:
        raise GameError(gettext("Type the username of a player."))
    if not USERNAME.fullmatch(name):  # no account could have it (a NUL byte, a space…)
        raise PersonNotFound(gettext("There is no player named %(name)s.") % {"name": name})
    users = get_user_model().objects.filter(is_active=True)
    row = users.filter(username=name).values_list("id", "username").first()
    if row is None:
        matches = list(users.filter(username__iexact=name).values_list("id", "username")[:2])
        row = matches[0] if len(matches) == 1 else None
    if row is None:
        raise PersonNotFound(gettext("There is no player named %(name)s.") % {"name": name})
    return Person(id=row[0], name=row[1])


def _lock_pair(a: int, b: int) -> None:
    list(get_user_model().objects.select_for_update().filter(pk__in=(a, b)).order_by("pk"))


def are_friends(a: int, b: int) -> bool:
    return Friendship.objects.filter(user_id=a, friend_id=b).exists()


def settings_of(user_id: int) -> tuple[str, str]:
    """(friend_requests_from, invitations_from): an account without a row has the defaults."""
    row = (
        SocialSettings.objects.filter(user_id=user_id)
        .values_list("friend_requests_from", "invitations_from")
        .first()
    )
    return row or (FriendRequestsFrom.EVERYONE, InvitationsFrom.FRIENDS)


def _other(user_id: int, username: object) -> Person:
    other = person_named(username)
    if other.id == user_id:
        raise GameError(gettext("That is you."))
    return other


def _befriend(a: int, b: int) -> None:
    Friendship.objects.bulk_create(
        [Friendship(user_id=a, friend_id=b), Friendship(user_id=b, friend_id=a)],
        ignore_conflicts=True,
    )
    FriendRequest.objects.filter(
        Q(sender_id=a, receiver_id=b) | Q(sender_id=b, receiver_id=a)
    ).delete()
    inbox_remove(user_id=a, kind=InboxItem.Kind.FRIEND_REQUEST, sender_id=b)
    inbox_remove(user_id=b, kind=InboxItem.Kind.FRIEND_REQUEST, sender_id=a)


@transaction.atomic
def friend_request(*, user_id: int, username: object) -> tuple[Person, bool]:
    """Ask ``username`` to be friends. Returns (them, True) if that made you friends at once
    (they had asked you), else (them, False): the request waits for their answer."""
    other = _other(user_id, username)
    _lock_pair(user_id, other.id)
    if Block.objects.filter(blocker_id=user_id, blocked_id=other.id).exists():
        raise NotAllowed(
            gettext("You blocked %(name)s. Unblock them first.") % {"name": other.name}
        )
    if are_friends(user_id, other.id):
        raise StaleAction(gettext("You and %(name)s are already friends.") % {"name": other.name})
    blocked_by_them = Block.objects.filter(blocker_id=other.id, blocked_id=user_id).exists()
    # (A block deletes requests: ``not blocked_by_them`` is only a safeguard.)
    if (
        not blocked_by_them
        and FriendRequest.objects.filter(sender_id=other.id, receiver_id=user_id).exists()
    ):
        _befriend(user_id, other.id)
        inbox_add(user_id=other.id, kind=InboxItem.Kind.FRIEND_ACCEPTED, sender_id=user_id)
        return other, True
    if FriendRequest.objects.filter(sender_id=user_id, receiver_id=other.id).exists():
        raise StaleAction(
            gettext("You already asked %(name)s; they have not answered yet.")
            % {"name": other.name}
        )
    takes, _ = settings_of(other.id)
    if blocked_by_them or takes == FriendRequestsFrom.NOBODY:
        # The same sentence for a block as for the setting: a block is never revealed.
        raise NotAllowed(gettext("%(name)s does not take friend requests.") % {"name": other.name})
    FriendRequest.objects.create(sender_id=user_id, receiver_id=other.id)
    inbox_add(user_id=other.id, kind=InboxItem.Kind.FRIEND_REQUEST, sender_id=user_id)
    return other, False


@transaction.atomic
def friend_accept(*, user_id: int, username: object) -> Person:
    """Accept ``username``'s request: you are friends."""
    other = _other(user_id, username)
    _lock_pair(user_id, other.id)
    if not FriendRequest.objects.filter(sender_id=other.id, receiver_id=user_id).exists():
        raise StaleAction(
            gettext("There is no friend request from %(name)s.") % {"name": other.name}
        )
    _befriend(user_id, other.id)
    inbox_add(user_id=other.id, kind=InboxItem.Kind.FRIEND_ACCEPTED, sender_id=user_id)
    return other


@transaction.atomic
def friend_decline(*, user_id: int, username: object) -> Person:
    """Decline ``username``'s request (they are not told)."""
    other = _other(user_id, username)
    if not FriendRequest.objects.filter(sender_id=other.id, receiver_id=user_id).delete()[0]:
        raise StaleAction(
            gettext("There is no friend request from %(name)s.") % {"name": other.name}
        )
    inbox_remove(user_id=user_id, kind=InboxItem.Kind.FRIEND_REQUEST, sender_id=other.id)
    return other


@transaction.atomic
def friend_cancel(*, user_id: int, username: object) -> Person:
    """Withdraw the request you sent ``username``."""
    other = _other(user_id, username)
    if not FriendRequest.objects.filter(sender_id=user_id, receiver_id=other.id).delete()[0]:
        raise StaleAction(
            gettext("You have no request waiting with %(name)s.") % {"name": other.name}
        )
    inbox_remove(user_id=other.id, kind=InboxItem.Kind.FRIEND_REQUEST, sender_id=user_id)
    return other


@transaction.atomic
def friend_remove(*, user_id: int, username: object) -> Person:
    """End the friendship with ``username`` (both ways); with no friendship, withdraw the
    request you sent them, if any."""
    other = _other(user_id, username)
    _lock_pair(user_id, other.id)
    removed, _ = Friendship.objects.filter(
        Q(user_id=user_id, friend_id=other.id) | Q(user_id=other.id, friend_id=user_id)
    ).delete()
    if removed:
        return other
    return friend_cancel(user_id=user_id, username=other.name)


@transaction.atomic
def user_block(*, user_id: int, username: object) -> Person:
    """Block ``username``: no friendship, no requests and no open invitations between you
    any more, and neither reaches nor sees the other."""
    other = _other(user_id, username)
    _lock_pair(user_id, other.id)
    if Block.objects.filter(blocker_id=user_id, blocked_id=other.id).exists():
        raise StaleAction(gettext("You already blocked %(name)s.") % {"name": other.name})
    Block.objects.create(blocker_id=user_id, blocked_id=other.id)
    pair = Q(user_id=user_id, friend_id=other.id) | Q(user_id=other.id, friend_id=user_id)
    Friendship.objects.filter(pair).delete()
    FriendRequest.objects.filter(
        Q(sender_id=user_id, receiver_id=other.id) | Q(sender_id=other.id, receiver_id=user_id)
    ).delete()
    for a, b in ((user_id, other.id), (other.id, user_id)):
        inbox_remove(user_id=a, kind=InboxItem.Kind.FRIEND_REQUEST, sender_id=b)
        inbox_remove(user_id=a, kind=InboxItem.Kind.FRIEND_ACCEPTED, sender_id=b)
    # Open invitations either way go, with their inbox entries.
    invitations = Invitation.objects.filter(ended_at=None).filter(
        Q(sender_id=user_id, receiver_id=other.id) | Q(sender_id=other.id, receiver_id=user_id)
    )
    if invitations.delete()[0]:  # their inbox entries go with them (on delete cascade)
        tell(InboxNotice(user_id=user_id))
        tell(InboxNotice(user_id=other.id))
    return other


@transaction.atomic
def user_unblock(*, user_id: int, username: object) -> Person:
    """Lift your block of ``username`` (you are not friends again: ask anew)."""
    other = _other(user_id, username)
    if not Block.objects.filter(blocker_id=user_id, blocked_id=other.id).delete()[0]:
        raise StaleAction(gettext("You have not blocked %(name)s.") % {"name": other.name})
    return other


@transaction.atomic
def social_settings_set(*, user_id: int, friend_requests_from: str, invitations_from: str) -> None:
    """Who may send ``user_id`` friend requests, and who may invite them to tables."""
    if friend_requests_from not in FriendRequestsFrom.values:
        raise GameError(gettext("Choose who may send you friend requests."))
    if invitations_from not in InvitationsFrom.values:
        raise GameError(gettext("Choose who may invite you to tables."))
    SocialSettings.objects.update_or_create(
        user_id=user_id,
        defaults={
            "friend_requests_from": friend_requests_from,
            "invitations_from": invitations_from,
        },
    )
