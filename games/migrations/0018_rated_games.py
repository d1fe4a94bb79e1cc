"""Rated or casual (issue 27): a game stored before the choice existed reads as rated if it
moved a rating (a seat has a rating after it), else casual."""

from typing import Any

from django.db import migrations, models


def settle(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    moved = Seat.objects.filter(rating_after__isnull=False).values("game_id")
    Game.objects.exclude(pk__in=moved).update(rated=False)


class Migration(migrations.Migration):
    dependencies = [("games", "0017_fill_seat_history_figures")]

    operations = [
        migrations.AddField(
            model_name="game", name="rated", field=models.BooleanField(default=True)
        ),
        migrations.RunPython(settle, migrations.RunPython.noop),
    ]
