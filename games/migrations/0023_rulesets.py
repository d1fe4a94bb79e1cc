# Rule sets: a table plays Yahtzee, Yatzy or Yacht, and a rating is kept per rule set. The
# rows from before are Yahtzee (the fields' default), so existing games and ratings read as
# Yahtzee with no data step.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_play_now"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="ruleset",
            field=models.CharField(
                choices=[
                    ("yahtzee", "Yahtzee"),
                    ("yatzy", "Yatzy (Scandinavian)"),
                    ("yacht", "Yacht"),
                ],
                default="yahtzee",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="rating",
            name="ruleset",
            field=models.CharField(
                choices=[
                    ("yahtzee", "Yahtzee"),
                    ("yatzy", "Yatzy (Scandinavian)"),
                    ("yacht", "Yacht"),
                ],
                default="yahtzee",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="rating",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                fields=("user", "ruleset"), name="one_rating_per_ruleset"
            ),
        ),
    ]
