"""Daphne, as the site runs it, hands a POST's body to Django unread (and unparsed)."""

import asyncio

import pytest
from daphne.http_protocol import HTTPFactory
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport
from twisted.web import http

import yahtzee_site.asgi  # noqa: F401  (installs what the server process runs)


class ApplicationStandIn:
    """Daphne's server, as far as one request needs it: records what reaches the site."""

    root_path = ""
    request_buffer_size = 8192
    proxy_forwarded_address_header = None

    def __init__(self) -> None:
        self.scopes: list[dict] = []
        self.queue: asyncio.Queue = asyncio.Queue()

    def protocol_connected(self, protocol) -> None:
        pass

    def create_application(self, protocol, scope: dict) -> asyncio.Queue:
        self.scopes.append(scope)
        return self.queue


def post(body: bytes, content_type: bytes) -> tuple[ApplicationStandIn, list[dict]]:
    server = ApplicationStandIn()
    channel = HTTPFactory(server).buildProtocol(IPv4Address("TCP", "127.0.0.1", 50000))
    channel.makeConnection(StringTransport())
    head = f"POST /g/ABCD/roll/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
    channel.dataReceived(head.encode() + b"Content-Type: " + content_type + b"\r\n\r\n" + body)
    messages = []
    while not server.queue.empty():
        messages.append(server.queue.get_nowait())
    return server, messages


@pytest.fixture
def content_type_parse_forbidden(monkeypatch):
    def refuse(line: bytes) -> bytes:
        raise AssertionError(f"Twisted parsed the form's Content-Type {line!r}")

    monkeypatch.setattr(http, "_parseContentType", refuse)


@pytest.mark.parametrize(
    "content_type",
    [b"application/x-www-form-urlencoded; charset=UTF-8", b"multipart/form-data; boundary=x"],
)
def test_a_posted_form_reaches_the_site_whole_and_is_parsed_by_django_alone(
    content_type, content_type_parse_forbidden
):
    body = b"version=7&category=chance" if b"urlencoded" in content_type else b"--x--\r\n"
    server, messages = post(body, content_type)
    [scope] = server.scopes
    assert scope["method"] == "POST" and scope["path"] == "/g/ABCD/roll/"
    assert (b"content-type", content_type) in scope["headers"]
    assert b"".join(m["body"] for m in messages) == body
    assert not messages[-1]["more_body"]
