"""Fill the seat's history figures (0016) for the games that ended before they were kept:
the upper bonus from each finished seat's scorecard, the review's figures from each
reviewed game's stored review."""

from typing import Any

from django.db import migrations

from games.rules import Rules, Scorecard

BATCH = 500


def fill(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    seats = Seat.objects.filter(game__status="finished").select_related("game")
    changed = []
    for seat in seats.iterator(chunk_size=BATCH):
        rules = Rules(upper_first=seat.game.upper_first)
        seat.upper_bonus = Scorecard.from_dict(seat.scorecard or {}, rules).upper_bonus
        review = (seat.game.review or {}).get("seats", {}).get(str(seat.position))
        if review is not None:
            seat.review_decisions = len(review.get("decisions", ()))
            seat.review_loss = review.get("total_loss")
            skill = review.get("skill") or {}
            seat.play_worth = skill.get("play_worth")
            seat.luck = skill.get("luck")
        changed.append(seat)
        if len(changed) >= BATCH:
            Seat.objects.bulk_update(changed, FIELDS)
            changed = []
    Seat.objects.bulk_update(changed, FIELDS)


FIELDS = ["upper_bonus", "review_decisions", "review_loss", "play_worth", "luck"]


class Migration(migrations.Migration):
    dependencies = [("games", "0016_seat_history_figures")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
