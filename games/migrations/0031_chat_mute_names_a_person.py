"""A chat mute names the person muted (``ChatMute.person``), not only a seat number: a
lobby renumbers its seats when someone leaves, and a mute by number then silenced whoever
sat down there next. A message's and a mute's seat may be None: the person left the table.

The existing mutes get the person in the muted seat now (for a deleted account's seat,
whoever last spoke from it); a mute of nobody, or a second mute of the same person by the
same viewer, goes. Each message's and mute's seat becomes the one its person sits in now,
or None when that number is someone else's by now."""

from typing import Any

from django.db import migrations, models


def key_of(seat: Any) -> str:
    """games.models.seat_person_key, as it stands today."""
    if seat.bot:
        return ""
    if seat.user_id is not None:
        return f"u:{seat.user_id}"
    return f"g:{seat.guest}" if seat.guest else ""


def follow(seat: int | None, person: str, where: dict[str, int], held: dict[int, str]) -> int | None:
    if person in where:
        return where[person]
    return None if seat is None or held.get(seat) else seat


def fill(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    ChatMessage = apps.get_model("games", "ChatMessage")
    ChatMute = apps.get_model("games", "ChatMute")
    games = set(ChatMessage.objects.values_list("game_id", flat=True).distinct())
    games |= set(ChatMute.objects.values_list("game_id", flat=True).distinct())
    for game_id in sorted(games):
        keys = [(key_of(seat), seat.position) for seat in Seat.objects.filter(game_id=game_id)]
        where = {key: position for key, position in keys if key}
        held = {position: key for key, position in keys if key}
        messages = list(ChatMessage.objects.filter(game_id=game_id).order_by("-pk"))
        spoke = {}  # the last author who spoke from each seat number
        for message in messages:
            spoke.setdefault(message.seat, message.author)
        kept = set()
        for mute in ChatMute.objects.filter(game_id=game_id).order_by("pk"):
            mute.person = held.get(mute.seat) or spoke.get(mute.seat, "")
            if not mute.person or (mute.viewer, mute.person) in kept:
                mute.delete()
                continue
            kept.add((mute.viewer, mute.person))
            mute.seat = follow(mute.seat, mute.person, where, held)
            mute.save(update_fields=["person", "seat"])
        moved = []
        for message in messages:
            seat = follow(message.seat, message.author, where, held)
            if seat != message.seat:
                message.seat = seat
                moved.append(message)
        ChatMessage.objects.bulk_update(moved, ["seat"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("games", "0030_push_tournament_winner")]

    operations = [
        migrations.RemoveConstraint(model_name="chatmute", name="one_mute_per_seat"),
        migrations.AddField(
            model_name="chatmute",
            name="person",
            field=models.CharField(default="", max_length=80),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="chatmute",
            name="seat",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="chatmessage",
            name="seat",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
