"""Reads about accounts: the language an account chose."""

from __future__ import annotations

from games.models.accounts import Profile


def account_language(*, user_id: int) -> str:
    """The language an account chose ("" when it never chose one)."""
    found = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return found or ""
