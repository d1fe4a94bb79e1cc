"""The static files as production stores them (yahtzee_site/static_files.py): collected into
a temporary STATIC_ROOT by ``collectstatic``, hashed and compressed, then served to pages.

A page's scripts are ES modules that load each other by relative ``import``: a browser asks
for exactly the names written in the files, so in production those must be the hashed names
(cached for good, changed on every deploy that changes them), and the files must be there.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

PRODUCTION_STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "yahtzee_site.static_files.HashedStaticFilesStorage"},
}
# `import "./x.js";` and `import { a, b } from "./x.js";`, as written or as rewritten.
IMPORT = re.compile(r"""^import\s*(?:\{[^}]*\}\s*from\s*)?["']([^"']+)["']\s*;""", re.MULTILINE)
HASHED = re.compile(r"\.[0-9a-f]{12}\.js$")
SOURCE = Path(settings.BASE_DIR) / "static"


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """``collectstatic`` as ``make serve`` runs it, into a temporary STATIC_ROOT; the root and
    its manifest (plain name -> hashed name). Collected once: it compresses every file."""
    root = tmp_path_factory.mktemp("static_root")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION_STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
        manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
        yield root, manifest


@pytest.fixture
def production_static(collected: tuple[Path, dict[str, str]]) -> Iterator[dict[str, str]]:
    """Pages render their static URLs from the collected manifest."""
    root, manifest = collected
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION_STORAGES):
        yield manifest


def imports_of(path: Path) -> list[str]:
    return IMPORT.findall(path.read_text())


def modules_loaded_from(root: Path, entry: str) -> set[str]:
    """Every module a browser fetches for the entry module ``entry`` (a path under ``root``),
    following the imports as a browser does; fails at an import of a file that is not there
    or that is not a hashed name."""
    loaded: set[str] = set()
    waiting = [entry]
    while waiting:
        name = waiting.pop()
        if name in loaded:
            continue
        loaded.add(name)
        assert HASHED.search(name), f"{name} is loaded by its plain name"
        for target in imports_of(root / name):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            assert (root / resolved).is_file(), f"{name} imports {target}: no such file"
            waiting.append(resolved)
    return loaded


def plain(manifest: dict[str, str], hashed: set[str]) -> set[str]:
    by_hashed = {value: key for key, value in manifest.items()}
    return {by_hashed[name] for name in hashed}


def test_the_room_page_loads_every_one_of_its_modules_by_hashed_name(
    collected: tuple[Path, dict[str, str]],
):
    root, manifest = collected
    loaded = modules_loaded_from(root, manifest["js/room.js"])
    room_modules = {f"js/room/{path.name}" for path in (SOURCE / "js" / "room").glob("*.js")}
    assert plain(manifest, loaded) == {"js/room.js", "js/seeds.js", *room_modules}


def test_the_home_page_loads_its_module_by_hashed_name(collected: tuple[Path, dict[str, str]]):
    root, manifest = collected
    loaded = modules_loaded_from(root, manifest["js/home.js"])
    assert plain(manifest, loaded) == {"js/home.js", "js/seeds.js"}


def test_a_module_is_served_under_a_new_name_when_a_module_it_imports_changes(
    collected: tuple[Path, dict[str, str]], tmp_path: Path
):
    """The entry module's hashed name covers the modules below it: a deploy that changes
    only ``room/board.js`` gives ``room.js`` a new name too, so no cached page mixes them."""
    _, before = collected
    source = shutil.copytree(SOURCE, tmp_path / "source")
    board = source / "js" / "room" / "board.js"
    board.write_text(board.read_text() + "\n// changed\n")
    root = tmp_path / "root"
    with override_settings(
        STATIC_ROOT=root, STORAGES=PRODUCTION_STORAGES, STATICFILES_DIRS=[source]
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
    after = json.loads((root / "staticfiles.json").read_text())["paths"]
    assert after["js/room/layout.js"] == before["js/room/layout.js"]  # imports nothing
    for name in ("js/room/board.js", "js/room/keys.js", "js/room.js"):
        assert after[name] != before[name], name
    assert after["js/home.js"] == before["js/home.js"]


def test_vendored_scripts_are_stored_as_they_came(collected: tuple[Path, dict[str, str]]):
    """The module rewriting is for the site's own scripts: htmx and its ws extension (whose
    comments name ``import("../htmx")`` types) are stored byte for byte."""
    root, manifest = collected
    for name in ("vendor/htmx-2.0.11.min.js", "vendor/htmx-ext-ws-2.0.4.js"):
        assert (root / manifest[name]).read_bytes() == (SOURCE / name).read_bytes()


def script_sources(page: str) -> list[tuple[str, str]]:
    """``(type, src)`` of each ``<script src>`` on the page (type "" for a classic script)."""
    found = []
    for tag in re.findall(r"<script\b[^>]*>", page):
        src = re.search(r'\ssrc="([^"]+)"', tag)
        kind = re.search(r'\stype="([^"]+)"', tag)
        if src:
            found.append((kind.group(1) if kind else "", src.group(1)))
    return found


@pytest.mark.django_db
def test_the_home_page_in_production_loads_its_hashed_entry_module(
    production_static: dict[str, str],
):
    page = Client().get("/").content.decode()
    assert ("module", f"/static/{production_static['js/home.js']}") in script_sources(page)


def test_the_room_page_in_production_loads_its_hashed_entry_module(
    production_static: dict[str, str], make_game: Any, ann: Any
):
    game = make_game(ann)
    page = Client().get(game.get_absolute_url()).content.decode()
    assert ("module", f"/static/{production_static['js/room.js']}") in script_sources(page)
