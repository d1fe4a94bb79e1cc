"""How production stores the static files: whitenoise's compressed, hashed copies, with the
site's JavaScript modules (``static/js/``) importing each other by their hashed names too.

Django rewrites ``url()`` in CSS by default but leaves JavaScript alone unless told
(``support_js_module_import_aggregation``, Django 4.2+). Without it ``js/room.js`` would be
served under its hashed name, cached for good, while asking for ``room/board.js`` by its
plain name, which whitenoise lets a browser keep for a minute: just after a deploy a page
could run a new module with an old one, and every page load asks for each module again.

Django's switch applies its module patterns to every ``.js`` file collected, and they take
the type annotations in htmx's ws extension (``@type {import("../htmx")...}``, in
``static/vendor/``, as in django-htmx's files) for module paths that do not exist:
collectstatic fails. So the same patterns apply here to the site's own scripts only; the
vendored files are stored as they came. The patterns are Django's (a private attribute):
``tests/test_static_files.py`` collects the files and fails if they stop being applied.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

_, MODULE_PATTERNS = CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/*.js", MODULE_PATTERNS))
