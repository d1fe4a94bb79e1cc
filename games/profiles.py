"""What the site remembers about an account beyond Django's user: its language."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Blank: never chosen (the browser's language, else English, applies).
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'})"
