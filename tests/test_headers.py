"""Every answer carries a strict Content Security Policy and the other security headers.

The policy allows scripts, styles, images and sockets from the site only: no inline script
or style, no ``eval``. So the pages themselves must hold no inline script, no ``style``
attribute or element and no ``on...`` event handler, and htmx is told not to evaluate
anything nor to inject its indicator styles. Checked on a page, an htmx swap, a 404 and
the admin's log-in page.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from csp.constants import NONCE, SELF
from csp.exceptions import CSPNonceError
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.utils.module_loading import import_string

from tests.conftest import HTMX, version_of

pytestmark = pytest.mark.django_db


def policy_of(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, "the answer carries no Content-Security-Policy"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def assert_strict_policy(response) -> None:
    policy = policy_of(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    header = response.headers["Content-Security-Policy"]
    for loophole in ("'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "data:", "*"):
        assert loophole not in header.split(), loophole
    permissions = response.headers.get("Permissions-Policy", "")
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in permissions
    assert "clipboard-write=(self)" in permissions  # the "Copy link" button
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


class InlineCode(HTMLParser):
    """Collects whatever a strict policy would block: inline scripts, styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.htmx_config: dict | None = None
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self._in_script = True
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style={value!r} on <{tag}>")
            if name.startswith("on") or name.startswith("hx-on"):
                self.found.append(f"{name}= on <{tag}>")
            if (value or "").strip().lower().startswith(("javascript:", "js:")):
                self.found.append(f"{name}={value!r} on <{tag}>")
        if tag == "meta" and names.get("name") == "htmx-config":
            self.htmx_config = json.loads(names["content"] or "{}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


def inline_code(response) -> InlineCode:
    parser = InlineCode()
    parser.feed(response.content.decode())
    return parser


def test_a_page_has_a_strict_policy_and_no_inline_code(client: Client):
    response = client.get("/")
    assert response.status_code == 200
    assert_strict_policy(response)
    page = inline_code(response)
    assert page.found == []
    assert page.htmx_config is not None
    assert page.htmx_config["allowEval"] is False
    assert page.htmx_config["includeIndicatorStyles"] is False
    assert page.htmx_config["allowScriptTags"] is False


def test_the_game_page_and_an_htmx_swap_have_a_strict_policy_and_no_inline_code(
    make_game, alice_client, bob_client, dice
):
    game = make_game(alice_client, bob_client, start=True, starter=0)
    page = alice_client.get(f"/g/{game.code}/")
    assert page.status_code == 200
    assert_strict_policy(page)
    assert inline_code(page).found == []

    swap = alice_client.post(f"/g/{game.code}/roll/", {"version": version_of(game)}, headers=HTMX)
    assert swap.status_code == 200
    assert 'id="board"' in swap.content.decode()
    assert_strict_policy(swap)
    assert inline_code(swap).found == []


def test_an_error_page_has_a_strict_policy_and_no_inline_code(client: Client):
    response = client.get("/g/no-such-table/")
    assert response.status_code == 404
    assert_strict_policy(response)
    assert inline_code(response).found == []


@pytest.mark.parametrize("answer", ["page", "htmx swap", "error page"])
def test_production_adds_strict_transport_security(
    answer, make_game, alice_client, bob_client, dice, settings
):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    if answer == "page":
        response = Client().get("/", secure=True)
        assert response.status_code == 200
    elif answer == "htmx swap":
        game = make_game(alice_client, bob_client, start=True, starter=0)
        response = alice_client.post(
            f"/g/{game.code}/roll/", {"version": version_of(game)}, headers=HTMX, secure=True
        )
        assert response.status_code == 200
    else:
        response = Client().get("/g/no-such-table/", secure=True)
        assert response.status_code == 404
    assert response.headers["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    assert_strict_policy(response)


def test_the_admin_log_in_page_has_a_strict_policy_and_no_inline_code(client: Client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert_strict_policy(response)
    assert inline_code(response).found == []


def test_the_inline_code_finder_sees_what_the_policy_would_block():
    """The check above can fail: it finds each kind of inline code."""
    parser = InlineCode()
    parser.feed(
        '<script>alert(1)</script><style>p{}</style><p style="color:red" onclick="x()">'
        '<a href="javascript:x()">a</a><button hx-on:click="x()">b</button>'
        '<script src="/static/ok.js"></script>'
    )
    assert len(parser.found) == 6


# -- the policy as django-csp's middleware builds it -----------------------------------------


def site_csp_middleware():
    """The Content Security Policy middleware the site's settings list, as shipped."""
    from django.conf import settings

    [path] = [name for name in settings.MIDDLEWARE if name.startswith("csp.")]
    return import_string(path)


def csp_answer(**response_attributes):
    """What the site's CSP middleware makes of a plain 200 answer (with these attributes,
    as django-csp's decorators set them)."""
    response = HttpResponse("ok")
    for name, value in response_attributes.items():
        setattr(response, name, value)
    return site_csp_middleware()(lambda r: response)(RequestFactory().get("/"))


def test_every_page_gets_the_policy_of_the_settings_and_no_report_only_policy(client: Client):
    first, second = client.get("/"), client.get("/rules/")
    assert first.headers["Content-Security-Policy"] == build_policy()
    assert second.headers["Content-Security-Policy"] == build_policy()
    assert "Content-Security-Policy-Report-Only" not in first.headers


def test_a_change_to_the_policy_settings_is_served_at_once(client: Client, settings):
    client.get("/")  # a page under the policy of the settings before
    settings.CONTENT_SECURITY_POLICY = {
        "DIRECTIVES": {"default-src": ["'self'"], "img-src": ["'self'", "https://img.example"]}
    }
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    response = client.get("/")
    assert "img-src 'self' https://img.example" in response.headers["Content-Security-Policy"]
    assert response.headers["Content-Security-Policy-Report-Only"] == "default-src 'none'"


def test_a_path_excluded_in_the_settings_gets_no_policy(client: Client, settings):
    settings.CONTENT_SECURITY_POLICY = {
        **settings.CONTENT_SECURITY_POLICY,
        "EXCLUDE_URL_PREFIXES": ["/rules/"],
    }
    assert "Content-Security-Policy" not in client.get("/rules/").headers
    assert "Content-Security-Policy" in client.get("/").headers


def test_an_answer_with_a_policy_of_its_own_gets_it_not_the_settings_one():
    updated = csp_answer(_csp_update={"img-src": ["https://img.example"]})
    assert "https://img.example" in updated.headers["Content-Security-Policy"]
    replaced = csp_answer(_csp_replace={"img-src": ["'none'"]})
    assert "img-src 'none'" in replaced.headers["Content-Security-Policy"]
    assert "https://img.example" not in csp_answer().headers["Content-Security-Policy"]


def test_an_exempt_answer_or_one_that_set_its_own_header_is_left_alone():
    assert "Content-Security-Policy" in csp_answer().headers
    assert "Content-Security-Policy" not in csp_answer(_csp_exempt=True).headers

    response = HttpResponse("ok", headers={"Content-Security-Policy": "default-src 'none'"})
    answered = site_csp_middleware()(lambda r: response)(RequestFactory().get("/"))
    assert answered.headers["Content-Security-Policy"] == "default-src 'none'"


def test_a_page_that_used_a_nonce_gets_it_in_its_policy_and_none_can_be_asked_later(settings):
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": [SELF, NONCE]}}
    assert "'nonce-" not in csp_answer().headers["Content-Security-Policy"]  # none asked

    def page(request):
        return HttpResponse(f"<script nonce={request.csp_nonce}></script>")

    request = RequestFactory().get("/")
    response = site_csp_middleware()(page)(request)
    assert f"'nonce-{request._csp_nonce}'" in response.headers["Content-Security-Policy"]

    later = RequestFactory().get("/")
    site_csp_middleware()(lambda r: HttpResponse("ok"))(later)
    with pytest.raises(CSPNonceError):
        str(later.csp_nonce)
