"""A computer player's number among its level at the table, so that its name can be said
in each reader's language; existing seats take the number their stored name ends with."""

import re

from django.db import migrations, models


def number_the_computer_players(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for seat in Seat.objects.exclude(bot="").only("pk", "name"):
        ending = re.search(r" (\d+)$", seat.name)
        Seat.objects.filter(pk=seat.pk).update(bot_number=int(ending[1]) if ending else 1)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_account_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_number",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(number_the_computer_players, migrations.RunPython.noop),
    ]
