"""Daphne, as the site runs it, hands a posted form to the site whole, for Django to parse."""

import asyncio
import io

from daphne.http_protocol import HTTPFactory
from django.core.handlers.asgi import ASGIRequest
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport

import yahtzee_site.asgi  # noqa: F401  (the site as the server process loads it)


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


def test_a_posted_form_reaches_the_site_whole_and_django_reads_its_fields():
    body = b"version=7&category=chance"
    content_type = b"application/x-www-form-urlencoded; charset=UTF-8"
    server, messages = post(body, content_type)
    [scope] = server.scopes
    assert scope["method"] == "POST" and scope["path"] == "/g/ABCD/roll/"
    assert (b"content-type", content_type) in scope["headers"]
    assert b"".join(m["body"] for m in messages) == body
    assert not messages[-1]["more_body"]

    request = ASGIRequest(scope, io.BytesIO(body))
    assert request.POST.dict() == {"version": "7", "category": "chance"}


def test_a_posted_multipart_form_reaches_the_site_whole():
    body = b'--x\r\nContent-Disposition: form-data; name="version"\r\n\r\n7\r\n--x--\r\n'
    server, messages = post(body, b"multipart/form-data; boundary=x")
    [scope] = server.scopes
    assert b"".join(m["body"] for m in messages) == body
    assert ASGIRequest(scope, io.BytesIO(body)).POST.dict() == {"version": "7"}
