"""Compile the project's catalogs (locale/*/LC_MESSAGES/*.po) into .mo files with polib.

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``; this needs nothing outside
the virtual environment. The .mo files are committed (a fresh clone runs without any
system package); ``tests/test_catalogs.py`` checks they say what their .po files say.
"""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogs() -> list[Path]:
    """Every .po file of the project's own catalogs."""
    return sorted(
        path
        for directory in settings.LOCALE_PATHS
        for path in Path(directory).glob("*/LC_MESSAGES/*.po")
    )


def compile_catalog(po_path: Path) -> Path:
    mo_path = po_path.with_suffix(".mo")
    polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
    return mo_path


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (no gettext tools needed)."

    def handle(self, *args: object, **options: object) -> None:
        for po_path in catalogs():
            mo_path = compile_catalog(po_path)
            self.stdout.write(f"compiled {mo_path.relative_to(settings.BASE_DIR)}")
