"""Push an account's inbox changes to every page it has open, on every process.

``services.inbox`` tells :func:`tell` (registered in ``GamesConfig.ready``) once a change
has committed; the group ``user-<id>`` holds the account's site-wide sockets and the
sockets of the table pages it has open (games/live/site.py). Each socket renders the badge,
and an invitation's notice, in its own reader's language: the message carries only facts.
"""

from __future__ import annotations

from channels.layers import get_channel_layer

from games.live.broadcast import send_to_group
from games.services import InboxNotice


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def tell(notice: InboxNotice) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message: dict = {"type": "inbox.changed"}
    if notice.invitation is not None:
        sender, code = notice.invitation
        message["invitation"] = {"from": sender, "game": code}
    send_to_group(layer, user_group(notice.user_id), message)
