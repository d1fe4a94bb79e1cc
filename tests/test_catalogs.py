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
    texts += [path.read_text() for path in (ROOT / "templates" / "rules").glob("**/uz.html")]
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


# -- no text a person reads outside the translation tags -----------------------------------

TEMPLATES = ROOT / "templates"
# Written once per language on purpose (the rules' prose): not checked here.
PER_LANGUAGE = {
    f"rules/{folder}{language}.html"
    for folder in ("", "yatzy/", "yacht/")
    for language in ("en", "te", "uz")
}
# Being changed on other branches while the catalogs were made: the sweep after the merge
# marks their text, translates it, and takes each off this list (the test insists).
NOT_YET_SWEPT: set[str] = set()

BLOCKS = re.compile(
    r"\{%\s*(blocktranslate|blocktrans)\b.*?\{%\s*(endblocktranslate|endblocktrans)\s*%\}"
    r"|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}",
    re.S,
)
TRANSLATE = re.compile(r"\{%\s*(translate|trans)\s.*?%\}", re.S)
OTHER_TAGS = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
WORD = re.compile(r"[A-Za-z]{2,}")


def untranslated_text(source: str) -> list[str]:
    """The words in a template that a person reads and no translation tag covers."""
    from html.parser import HTMLParser

    source = TRANSLATE.sub("", BLOCKS.sub("", source))
    source = OTHER_TAGS.sub("", source)
    found: list[str] = []

    class Reader(HTMLParser):
        hidden = 0

        def handle_starttag(self, tag, attrs):
            if tag in {"script", "style"}:
                self.hidden += 1
            for name, value in attrs:
                if name in {"aria-label", "title", "placeholder", "alt"} and value:
                    found.append(value)

        def handle_endtag(self, tag):
            if tag in {"script", "style"}:
                self.hidden -= 1

        def handle_data(self, data):
            if not self.hidden:
                found.append(data)

    Reader().feed(source)
    return [text.strip() for text in found if WORD.search(text)]


def template_names() -> list[str]:
    return sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize(
    "name", [n for n in template_names() if n not in PER_LANGUAGE | NOT_YET_SWEPT]
)
def test_every_word_of_a_template_is_marked_for_translation(name):
    assert untranslated_text((TEMPLATES / name).read_text()) == []


@pytest.mark.parametrize("name", sorted(NOT_YET_SWEPT))
def test_templates_waiting_for_the_sweep_are_still_listed_for_a_reason(name):
    """Once the sweep has marked a template's text, take it off NOT_YET_SWEPT."""
    assert untranslated_text((TEMPLATES / name).read_text()) != []


def test_the_template_check_finds_english_outside_the_tags():
    source = (
        '{% load i18n %}<p title="Roll again">{% translate "Keep" %} Kept</p>'
        "{% blocktranslate %}Round {{ n }}{% endblocktranslate %}<script>x = 'Hello'</script>"
    )
    assert untranslated_text(source) == ["Roll again", "Kept"]
