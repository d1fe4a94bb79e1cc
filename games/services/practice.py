"""Practice answers: a person's accuracy on the practice positions, kept on their account.
Each position counts once: the first answer to it."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from games.models import PracticeAnswer, PracticeRecord
from games.services.errors import NotAllowed


@transaction.atomic
def practice_answer(
    *, user_id: int | None, game_id: int, seat: int, decision: int, best: bool
) -> tuple[PracticeRecord, bool]:
    """Count the answer of the account ``user_id`` to the position that is ``decision`` of
    ``seat``'s review in game ``game_id`` (``best``: it was the best play), unless they
    answered that position before. Returns their record and whether this answer counted."""
    if user_id is None:
        raise NotAllowed(gettext("Log in to keep your practice accuracy on your account."))
    record, _ = PracticeRecord.objects.select_for_update().get_or_create(user_id=user_id)
    _, first = PracticeAnswer.objects.get_or_create(
        user_id=user_id, game_id=game_id, seat=seat, decision=decision, defaults={"best": best}
    )
    if first:
        PracticeRecord.objects.filter(pk=record.pk).update(
            answered=F("answered") + 1, best=F("best") + int(best)
        )
        record.refresh_from_db()
    return record, first
