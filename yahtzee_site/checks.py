"""System checks for a production start (``manage.py check --deploy``).

With ``DJANGO_DEBUG=0`` static files come from whitenoise's manifest storage, which looks
every ``{% static %}`` name up in ``staticfiles.json``; without ``collectstatic`` that file
is missing and every page answers 500 ("Missing staticfiles manifest entry"). The check
below says so before the server starts (``make serve`` runs it after ``collectstatic``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core import checks
from django.core.files.storage import storages


@checks.register(checks.Tags.staticfiles, deploy=True)
def static_manifest_present(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    storage = storages["staticfiles"]
    if not isinstance(storage, ManifestFilesMixin):
        return []  # files are served as they are (DJANGO_DEBUG=1): no manifest needed
    if storage.manifest_storage.exists(storage.manifest_name):
        return []
    location = storage.manifest_storage.path(storage.manifest_name)
    return [
        checks.Error(
            f"The static files manifest {location} is missing: with this storage every "
            "page that links a static file would answer 500.",
            hint="Run `manage.py collectstatic --noinput` before starting the server "
            "(`make serve` does).",
            obj="STORAGES['staticfiles']",
            id="yahtzee_site.E001",
        )
    ]
