"""Practice answers: a person's accuracy on the practice positions, kept on their account."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from ..models import PracticeRecord
from .errors import NotAllowed


@transaction.atomic
def practice_answer(*, user_id: int | None, best: bool) -> PracticeRecord | None:
    """Count one answer (``best``: it was the best play) for the account ``user_id``."""
    if user_id is None:
        raise NotAllowed(gettext("Log in to keep your practice accuracy on your account."))
    record, _ = PracticeRecord.objects.get_or_create(user_id=user_id)
    PracticeRecord.objects.filter(pk=record.pk).update(
        answered=F("answered") + 1, best=F("best") + int(best)
    )
    record.refresh_from_db()
    return record
