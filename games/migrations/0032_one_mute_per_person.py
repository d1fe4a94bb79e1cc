"""One mute per viewer and person at a table (0030 filled ``ChatMute.person``); apart
from 0030, so PostgreSQL alters the table in a transaction of its own."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0031_chat_mute_names_a_person")]

    operations = [
        migrations.AddConstraint(
            model_name="chatmute",
            constraint=models.UniqueConstraint(
                fields=("game", "viewer", "person"), name="one_mute_per_person"
            ),
        ),
    ]
