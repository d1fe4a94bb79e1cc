"""Reads about the people around an account: its friends and their status, its requests and
blocks, its inbox, its social settings, where it stands with another account."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q

from games.models import (
    Block,
    Connection,
    FriendRequest,
    FriendRequestsFrom,
    Friendship,
    Game,
    InboxItem,
    Invitation,
    InvitationsFrom,
    LastSeen,
    Seat,
    SiteConnection,
    SocialSettings,
)
from games.viewmodels.social import (
    FriendsView,
    FriendView,
    InboxEntry,
    PersonBox,
    Relation,
    SettingsView,
    Status,
)

INBOX_PAGE = 100  # the newest entries an inbox shows


def inbox_unread(user_id: int) -> int:
    return InboxItem.objects.filter(user_id=user_id, read=False).count()


def inbox_entries(user_id: int, limit: int = INBOX_PAGE) -> list[InboxEntry]:
    """The newest entries of ``user_id``'s inbox, newest first."""
    rows = (
        InboxItem.objects.filter(user_id=user_id)
        .order_by("-created_at", "-id")
        .values(
            "id",
            "kind",
            "read",
            "created_at",
            "sender__username",
            "game__code",
            "game__status",
            "details",
            "invitation__ending",
            "invitation__ended_at",
        )[:limit]
    )
    return [
        InboxEntry(
            id=row["id"],
            kind=row["kind"],
            read=row["read"],
            created=row["created_at"],
            sender=row["sender__username"],
            game=row["game__code"],
            details=row["details"] if isinstance(row["details"], dict) else {},
            ending=row["invitation__ending"] or "",
            joinable=row["kind"] == InboxItem.Kind.INVITATION
            and row["invitation__ended_at"] is None
            and row["game__status"] == Game.Status.LOBBY,
        )
        for row in rows
    ]


def social_settings(user_id: int) -> SettingsView:
    """Who may reach ``user_id``: the defaults without a row."""
    row = (
        SocialSettings.objects.filter(user_id=user_id)
        .values_list("friend_requests_from", "invitations_from")
        .first()
    )
    requests_from, invitations_from = row or (
        FriendRequestsFrom.EVERYONE.value,
        InvitationsFrom.FRIENDS.value,
    )
    return SettingsView(
        requests_from=requests_from,
        invitations_from=invitations_from,
        request_choices=tuple((c.value, str(c.label)) for c in FriendRequestsFrom),
        invitation_choices=tuple((c.value, str(c.label)) for c in InvitationsFrom),
    )


def person_box(viewer_id: int | None, username: str) -> PersonBox | None:
    """The history page's friend box for a signed-in viewer, or None."""
    if viewer_id is None:
        return None
    user_id = user_id_named(username)
    if user_id is None:
        return None
    standing = relation(viewer_id, user_id)
    lobbies = tuple(open_lobbies_of(viewer_id)[:3]) if standing != Relation.SELF else ()
    return PersonBox(name=username, relation=standing, lobbies=lobbies)


def friends_view(user_id: int) -> FriendsView:
    """The friends page: each friend with their status, the requests both ways, the blocks."""
    friends = list(
        Friendship.objects.filter(user_id=user_id)
        .order_by("friend__username")
        .values_list("friend_id", "friend__username")
    )
    ids = [friend_id for friend_id, _ in friends]
    blocked_pairs = Block.pairs_among([user_id, *ids])  # a safeguard: a block ends friendships
    hidden = {next(iter(pair - {user_id})) for pair in blocked_pairs if user_id in pair}
    tables = _tables_of(ids, user_id)
    online = set(SiteConnection.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    seen = dict(LastSeen.objects.filter(user_id__in=ids).values_list("user_id", "at"))
    views = []
    for friend_id, name in friends:
        if friend_id in hidden:
            continue
        if friend_id in tables:
            code = tables[friend_id]
            views.append(FriendView(name=name, status=Status.AT_TABLE, table=code or None))
        elif friend_id in online:
            views.append(FriendView(name=name, status=Status.ON_SITE))
        else:
            views.append(FriendView(name=name, status=Status.AWAY, last_seen=seen.get(friend_id)))
    return FriendsView(
        friends=tuple(views),
        received=tuple(
            FriendRequest.objects.filter(receiver_id=user_id)
            .order_by("-created_at")
            .values_list("sender__username", flat=True)
        ),
        sent=tuple(
            FriendRequest.objects.filter(sender_id=user_id)
            .order_by("-created_at")
            .values_list("receiver__username", flat=True)
        ),
        blocked=tuple(
            Block.objects.filter(blocker_id=user_id)
            .order_by("blocked__username")
            .values_list("blocked__username", flat=True)
        ),
    )


def _tables_of(friend_ids: list[int], viewer_id: int) -> dict[int, str]:
    """The friends with a table's page open at a seat of theirs, each with the table's code
    when the viewer may follow them there (a public table, or one the viewer sits at too),
    else ""."""
    open_page = Connection.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("position"))
    viewer_seated = Seat.objects.filter(game_id=OuterRef("game_id"), user_id=viewer_id)
    rows = (
        Seat.objects.filter(
            user_id__in=friend_ids, game__status__in=(Game.Status.LOBBY, Game.Status.PLAYING)
        )
        .exclude(status=Seat.Status.LEFT)
        .filter(Exists(open_page))
        .annotate(shared=Exists(viewer_seated))
        .order_by("-game__created_at")
        .values_list("user_id", "game__code", "game__is_public", "shared")
    )
    tables: dict[int, str] = {}
    for user_id, code, public, shared in rows:
        if public or shared:
            if not tables.get(user_id):
                tables[user_id] = code
        else:
            tables.setdefault(user_id, "")
    return tables


def relation(viewer_id: int | None, user_id: int) -> str:
    """Where the viewer stands with ``user_id`` (a Relation)."""
    if viewer_id is None:
        return Relation.NONE
    if viewer_id == user_id:
        return Relation.SELF
    if Block.objects.filter(blocker_id=viewer_id, blocked_id=user_id).exists():
        return Relation.BLOCKED
    if Friendship.objects.filter(user_id=viewer_id, friend_id=user_id).exists():
        return Relation.FRIENDS
    asked = FriendRequest.objects.filter(
        Q(sender_id=viewer_id, receiver_id=user_id) | Q(sender_id=user_id, receiver_id=viewer_id)
    ).values_list("sender_id", flat=True)
    for sender in asked:
        return Relation.SENT if sender == viewer_id else Relation.RECEIVED
    return Relation.NONE


def user_id_named(username: str) -> int | None:
    return (
        get_user_model()
        .objects.filter(username=username, is_active=True)
        .values_list("id", flat=True)
        .first()
    )


def open_lobbies_of(user_id: int) -> list[str]:
    """The codes of the tables in their lobby where ``user_id`` is seated, newest first (the
    history page's "Invite to a table")."""
    return list(
        Game.objects.filter(status=Game.Status.LOBBY, seats__user_id=user_id)
        .order_by("-created_at")
        .values_list("code", flat=True)[:10]
    )


def social_data(user_id: int) -> dict[str, object]:
    """What the site keeps about an account's people, as plain JSON values (for "Download
    your data"): its settings, friends, requests both ways, blocks, invitations both ways
    and inbox."""

    def moment(value: object) -> str | None:
        return value.isoformat() if value is not None else None  # type: ignore[attr-defined]

    requests_from, invitations_from = (
        SocialSettings.objects.filter(user_id=user_id)
        .values_list("friend_requests_from", "invitations_from")
        .first()
    ) or (FriendRequestsFrom.EVERYONE.value, InvitationsFrom.FRIENDS.value)
    invitations = Invitation.objects.filter(Q(sender_id=user_id) | Q(receiver_id=user_id))
    return {
        "settings": {"friend_requests_from": requests_from, "invitations_from": invitations_from},
        "friends": [
            {"username": name, "since": moment(since)}
            for name, since in Friendship.objects.filter(user_id=user_id)
            .order_by("since")
            .values_list("friend__username", "since")
        ],
        "friend_requests_sent": list(
            FriendRequest.objects.filter(sender_id=user_id).values_list(
                "receiver__username", flat=True
            )
        ),
        "friend_requests_received": list(
            FriendRequest.objects.filter(receiver_id=user_id).values_list(
                "sender__username", flat=True
            )
        ),
        "blocked": list(
            Block.objects.filter(blocker_id=user_id).values_list("blocked__username", flat=True)
        ),
        "invitations": [
            {
                "game": code,
                "from": sender,
                "to": receiver,
                "at": moment(at),
                "ended": ending or None,
            }
            for code, sender, receiver, at, ending in invitations.order_by(
                "created_at"
            ).values_list(
                "game__code", "sender__username", "receiver__username", "created_at", "ending"
            )
        ],
        "inbox": [
            {**entry.as_json(), "details": entry.details}
            for entry in inbox_entries(user_id, limit=10_000)
        ],
    }
