"""A client's mistake is one warning line in the log, never a traceback; a fault of the
server's still logs its traceback at ERROR.

The tests read what the console handler of ``settings.LOGGING`` writes (its stream swapped
for a string), so they check the settings' configuration as the server runs it.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from yahtzee_site.client_error_logs import ClientErrorsAsWarnings

pytestmark = pytest.mark.django_db


def broken_view(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the dice fell off the table")


# The site's pages, and one that fails as a bug would (see test_a_server_error_...).
urlpatterns = [path("broken/", broken_view), path("", include("yahtzee_site.urls"))]


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    """What the site's console handler writes during the test."""
    (console,) = [
        handler
        for handler in logging.getLogger().handlers
        if any(isinstance(f, ClientErrorsAsWarnings) for f in handler.filters)
    ]
    assert isinstance(console, logging.StreamHandler)
    written = io.StringIO()
    before = console.setStream(written)
    yield written
    console.setStream(before)


def form(fields: int) -> str:
    return "&".join(["keep=1"] * fields)


def assert_one_warning_line(text: str, *words: str) -> None:
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert lines[0].startswith("WARNING "), text
    assert "Traceback" not in text and "ERROR" not in text
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize("enforce_csrf_checks", [False, True])
def test_ten_thousand_fields_get_400_and_one_warning_line(log, enforce_csrf_checks):
    client = Client(enforce_csrf_checks=enforce_csrf_checks)
    # With the checks on (as served), a CSRF cookie has the middleware read the form.
    client.cookies["csrftoken"] = "a" * 32
    response = client.post(
        "/practice/", form(10_000), content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert_one_warning_line(log.getvalue(), "400 TooManyFieldsSent POST /practice/")


def test_too_many_files_get_400_and_one_warning_line(log, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    files = [SimpleUploadedFile(f"{n}.txt", b"1") for n in range(3)]
    assert Client().post("/practice/", {"keep": files}).status_code == 400
    assert_one_warning_line(log.getvalue(), "TooManyFilesSent")


def test_a_body_too_big_gets_400_and_one_warning_line(log, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    response = Client().post(
        "/practice/", form(500), content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert_one_warning_line(log.getvalue(), "RequestDataTooBig")


def test_a_host_not_allowed_gets_400_and_one_warning_line(log):
    assert Client().get("/rules/", headers={"host": "evil.example"}).status_code == 400
    assert_one_warning_line(log.getvalue(), "DisallowedHost", "evil.example")


def test_a_broken_multipart_body_gets_400_and_one_warning_line(log):
    response = Client().post("/practice/", b"--x\r\n", content_type="multipart/form-data")
    assert response.status_code == 400
    assert_one_warning_line(log.getvalue(), "MultiPartParserError", "/practice/")


def test_a_path_cannot_break_the_line(log):
    response = Client().get("/nowhere%0Aforged-line/", headers={"host": "evil.example"})
    assert response.status_code == 400
    assert_one_warning_line(log.getvalue(), r"/nowhere\nforged-line/")


@pytest.mark.urls(__name__)
def test_a_server_error_still_logs_its_traceback_at_error(log):
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    text = log.getvalue()
    assert text.startswith("ERROR django.request: Internal Server Error: /broken/")
    assert "Traceback" in text
    assert "RuntimeError: the dice fell off the table" in text


def test_every_handler_a_django_record_reaches_writes_it_through_the_filter():
    # Django's own console (DEBUG on) and e-mail handlers would see the ERROR and its
    # traceback before the site's handler turned it into a warning.
    logger: logging.Logger | None = logging.getLogger("django.security.TooManyFieldsSent")
    reached = []
    while logger is not None:
        reached += [h for h in logger.handlers if not type(h).__module__.startswith("_pytest")]
        logger = logger.parent if logger.propagate else None
    assert reached
    for handler in reached:
        assert any(isinstance(f, ClientErrorsAsWarnings) for f in handler.filters), handler
