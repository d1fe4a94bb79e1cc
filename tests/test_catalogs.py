"""The translation catalogs stay complete: every message translated in Telugu and Uzbek,
no placeholder lost, up to date with the sources, compiled, and Uzbek in its own letters.

After changing any text a person reads: ``make messages``, translate what is new in
``locale/te`` and ``locale/uz``, ``make messages`` again (compiles the .mo files).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ["te", "uz"]
DOMAINS = ["django", "djangojs"]
# What `make messages` leaves out of the catalogs (kept equal to MESSAGES_FLAGS).
MAKEMESSAGES = ["-l", "te", "-l", "uz", "--no-location", "--no-obsolete"]
NOT_SCANNED = {".git", ".venv", "var", "tests", "bench", "staticfiles", "test-artifacts", "docs"}


def catalog_paths() -> list[Path]:
    return sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po"))


def entries(language: str) -> list[polib.POEntry]:
    found = []
    for domain in DOMAINS:
        path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            found.extend(polib.pofile(str(path)))
    return found


def test_both_languages_have_a_catalog():
    for language in LANGUAGES:
        assert (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    untranslated = [e.msgid for e in entries(language) if not e.translated()]
    fuzzy = [e.msgid for e in entries(language) if "fuzzy" in e.flags]

    assert untranslated == [], f"translate these in locale/{language}: {untranslated}"
    assert fuzzy == [], f"check and un-fuzzy these in locale/{language}: {fuzzy}"


PLACEHOLDER = re.compile(r"%\(\w+\)[sdirf]|%[sdirf]|\{\w*\}")
TAG = re.compile(r"</?[a-z]+")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_breaks_a_placeholder_or_a_link(language):
    broken = []
    for entry in entries(language):
        if entry.msgid_plural:
            forms = list(entry.msgstr_plural.values())
            # A language with one plural form uses it for every number.
            wanted = {tuple(placeholders(entry.msgid)), tuple(placeholders(entry.msgid_plural))}
        else:
            forms = [entry.msgstr]
            wanted = {tuple(placeholders(entry.msgid))}
        for form in forms:
            if tuple(placeholders(form)) not in wanted:
                broken.append((entry.msgid, form))
            if sorted(TAG.findall(form)) != sorted(TAG.findall(entry.msgid)):
                broken.append((entry.msgid, form))
    assert broken == []


def test_a_placeholder_check_would_catch_a_lost_name():
    assert placeholders("Table %(code)s") != placeholders("Stol")
    assert placeholders("%(count)d players") != placeholders("%(n)d oʻyinchi")


def test_uzbek_is_written_with_its_own_letters():
    """oʻ and gʻ take U+02BB, the tutuq belgisi U+02BC; never an ASCII apostrophe."""
    texts = [
        form
        for entry in entries("uz")
        for form in ([entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values())
    ]
    texts.append((ROOT / "templates" / "rules" / "uz.html").read_text())
    wrong = [t for t in texts if re.search(r"[oOgG]['‘’ʼ`]|['‘’`]", re.sub(r"\{%.*?%\}", "", t))]

    assert wrong == []
    assert any("oʻ" in t for t in texts) and any("gʻ" in t for t in texts)


@pytest.mark.parametrize("path", catalog_paths(), ids=lambda p: str(p.relative_to(ROOT)))
def test_compiled_catalogs_say_what_their_sources_say(path):
    mo_path = path.with_suffix(".mo")
    assert mo_path.exists(), "run `make messages` to compile the catalogs"

    def pairs(catalog):
        found = {}
        for e in catalog:
            if not e.msgid or "fuzzy" in e.flags:
                continue
            key = (e.msgctxt, e.msgid)
            value = tuple(sorted(e.msgstr_plural.items())) if e.msgid_plural else e.msgstr
            found[key] = value
        return found

    source = pairs(polib.pofile(str(path)))
    compiled = pairs(polib.mofile(str(mo_path)))
    assert compiled == source, "the .mo is older than its .po: run `make messages`"


def comparable(path: Path) -> str:
    return re.sub(r'^"POT-Creation-Date: .*\\n"\n', "", path.read_text(), flags=re.M)


def test_catalogs_are_up_to_date_with_the_sources(tmp_path):
    """What `make messages` would write equals what is committed (but for its date)."""
    if shutil.which("xgettext") is None:
        # A fresh clone needs no system package to run; CI (.ci/run) installs gettext.
        if os.environ.get("YAHTZEE_REQUIRE_GETTEXT"):
            pytest.fail("GNU gettext's xgettext is needed to check the catalogs")
        pytest.skip("needs GNU gettext's xgettext (apt-get install gettext)")
    copy = tmp_path / "site"

    def ignore(directory: str, names: list[str]) -> set[str]:
        here = Path(directory)
        skipped = {n for n in names if here == ROOT and n in NOT_SCANNED}
        if here == ROOT / "static":
            skipped.add("vendor")
        return skipped | {n for n in names if n.endswith((".pyc", ".mo", ".sqlite3"))}

    shutil.copytree(ROOT, copy, ignore=ignore)
    for domain in DOMAINS:
        result = subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, *MAKEMESSAGES],
            cwd=copy,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
    written = sorted(p.relative_to(copy) for p in (copy / "locale").glob("*/LC_MESSAGES/*.po"))
    committed = sorted(p.relative_to(ROOT) for p in catalog_paths())
    assert written == committed
    stale = [str(p) for p in committed if comparable(copy / p) != comparable(ROOT / p)]
    assert stale == [], f"run `make messages` and translate what is new: {stale}"
