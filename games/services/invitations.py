"""Invitations to a table: sent by someone seated at a table still in its lobby (or with the
new table's form), to an account whose settings allow it; ended when the table starts or
closes, which the invited person's inbox entry then says.

A refusal says why without revealing a block: to the sender a block reads like the
receiver's setting.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games.clock import clock
from games.models import Block, Game, InboxItem, Invitation, InvitationsFrom, Player
from games.services.errors import GameError, NotAllowed, StaleAction
from games.services.friends import Person, are_friends, person_named, settings_of
from games.services.inbox import InboxNotice, inbox_add, tell
from games.services.writes import locked_game


def check_may_invite(sender_id: int, receiver: Person) -> None:
    """Refused unless ``receiver``'s setting lets ``sender_id`` invite them, and no block
    stands between the two (worded as the setting would be, so a block stays unseen)."""
    _, takes = settings_of(receiver.id)
    blocked = Block.between(sender_id, receiver.id)
    if takes == InvitationsFrom.FRIENDS and (blocked or not are_friends(sender_id, receiver.id)):
        raise NotAllowed(
            gettext("%(name)s takes invitations from friends only.") % {"name": receiver.name}
        )
    if blocked or takes == InvitationsFrom.NOBODY:
        raise NotAllowed(
            gettext("%(name)s does not take invitations to tables.") % {"name": receiver.name}
        )


@transaction.atomic
def invitation_send(*, code: str, player: Player, username: object) -> Person:
    """``player``, seated at table ``code`` in its lobby, invites ``username`` to it."""
    if player.user_id is None:
        raise NotAllowed(gettext("Sign in to invite people to a table."))
    game = locked_game(code)
    seats = list(game.seats.all())
    if not any(player.owns(seat) for seat in seats):
        raise NotAllowed(gettext("Only someone seated at this table can invite people to it."))
    if game.status != Game.Status.LOBBY:
        raise StaleAction(gettext("The game has already started: nobody more can be invited."))
    receiver = person_named(username)
    if receiver.id == player.user_id:
        raise GameError(gettext("You are at this table already."))
    if any(seat.user_id == receiver.id for seat in seats):
        raise StaleAction(
            gettext("%(name)s is already seated at this table.") % {"name": receiver.name}
        )
    check_may_invite(player.user_id, receiver)
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(
                game=game, sender_id=player.user_id, receiver_id=receiver.id
            )
    except IntegrityError:
        raise StaleAction(
            gettext("%(name)s is already invited to this table.") % {"name": receiver.name}
        ) from None
    inbox_add(
        user_id=receiver.id,
        kind=InboxItem.Kind.INVITATION,
        sender_id=player.user_id,
        game_id=game.pk,
        invitation_id=invitation.pk,
        notice=InboxNotice(user_id=receiver.id, invitation=(player.name, game.code)),
    )
    return receiver


def invitations_send(*, code: str, player: Player, usernames: list[str]) -> list[str]:
    """Invite each of ``usernames`` (the new table's form), each on its own: the refusals,
    as sentences, for those that could not be invited."""
    refusals = []
    for username in dict.fromkeys(name.strip() for name in usernames if name.strip()):
        try:
            invitation_send(code=code, player=player, username=username)
        except GameError as error:
            refusals.append(str(error))
    return refusals


def invitations_end(game: Game, ending: Invitation.Ending) -> None:
    """The table started or closed (called by ``lobby.game_start`` and ``absence.abandon``
    in their transaction): its open invitations end, and their inbox entries say so."""
    receivers = list(
        Invitation.objects.filter(game=game, ended_at=None).values_list("receiver_id", flat=True)
    )
    if not receivers:
        return
    Invitation.objects.filter(game=game, ended_at=None).update(ended_at=clock.now(), ending=ending)
    for receiver in receivers:
        tell(InboxNotice(user_id=receiver))
