"""The row's dice and held dice in the engine's own serialisation (JSON lists), so that a
game is stored the way ``GameState.to_dict`` writes it: ``"12345"`` becomes
``[1, 2, 3, 4, 5]`` (``""``: null) and ``"01000"`` becomes ``[false, true, false, ...]``."""

import json

from django.db import migrations, models

import games.models


def to_json_text(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("id", "dice", "held").iterator():
        dice = [int(d) for d in game.dice] if game.dice else None
        held = [h == "1" for h in (game.held or "00000")]
        Game.objects.filter(pk=game.pk).update(dice=json.dumps(dice), held=json.dumps(held))


def to_digit_text(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("id", "dice", "held").iterator():
        dice = json.loads(game.dice) if game.dice else None
        held = json.loads(game.held) if game.held else [False] * 5
        Game.objects.filter(pk=game.pk).update(
            dice="".join(map(str, dice)) if dice else "",
            held="".join("1" if h else "0" for h in held),
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0003_coach")]

    operations = [
        migrations.AlterField("game", "dice", models.TextField(blank=True)),
        migrations.AlterField("game", "held", models.TextField(default="00000")),
        migrations.RunPython(to_json_text, to_digit_text),
        migrations.AlterField("game", "dice", models.JSONField(blank=True, null=True)),
        migrations.AlterField("game", "held", models.JSONField(default=games.models.no_holds)),
    ]
