"""A push service stand-in for the tests: a local HTTPS server with a throwaway self-signed
certificate (trusted through ``REQUESTS_CA_BUNDLE``), which checks each push's VAPID
signature (an ES256 JWT against the site's public key) and decrypts its payload with the
browser side's keys it holds (the ECDH private key and the auth secret), as a browser would.
"""

from __future__ import annotations

import base64
import json
import secrets
import ssl
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for "localhost" and its key, written to ``folder``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "push-cert.pem", folder / "push-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@dataclass
class Device:
    """The browser side of one subscription: its keys, and what reached it."""

    token: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    received: list[dict[str, Any]] = field(default_factory=list)
    # Statuses to answer next (then 201): 503, 404, 410 ...
    answers: deque[int] = field(default_factory=deque)

    @property
    def p256dh(self) -> str:
        return b64(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )


class PushServiceStandIn:
    def __init__(self, folder: Path, vapid_public_key: str, subject: str) -> None:
        self.cert, key = self_signed(folder)
        self.vapid_public_key = vapid_public_key
        self.subject = subject
        self.devices: dict[str, Device] = {}
        self.refused: list[str] = []
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                status = stand_in.receive(self)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.host = f"localhost:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def new_device(self) -> Device:
        token = secrets.token_urlsafe(12)
        device = Device(token, ec.generate_private_key(ec.SECP256R1()), secrets.token_bytes(16))
        self.devices[token] = device
        return device

    def subscription(self, device: Device) -> dict[str, Any]:
        """The subscription as a browser's ``PushSubscription.toJSON()`` gives it."""
        return {
            "endpoint": f"https://{self.host}/push/{device.token}",
            "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)},
        }

    # -- what a push service checks ------------------------------------------------------------

    def check_vapid(self, authorization: str) -> None:
        """``vapid t=<JWT>, k=<public key>``: signed by the site's key, for this origin."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme.lower() == "vapid", authorization
        parts = dict(item.strip().split("=", 1) for item in rest.split(","))
        assert parts["k"] == self.vapid_public_key
        header, claims, signature = parts["t"].split(".")
        assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64(signature)
        assert len(raw) == 64
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        public = ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), unb64(self.vapid_public_key)
        )
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        values = json.loads(unb64(claims))
        assert values["aud"] == f"https://{self.host}"
        assert values["sub"] == self.subject
        assert time.time() < values["exp"] <= time.time() + 24 * 3600

    def receive(self, request: BaseHTTPRequestHandler) -> int:
        token = request.path.rsplit("/", 1)[-1]
        device = self.devices.get(token)
        body = request.rfile.read(int(request.headers.get("Content-Length", "0")))
        if device is None:
            return 404
        if device.answers:
            return device.answers.popleft()
        try:
            self.check_vapid(request.headers.get("Authorization", ""))
            assert request.headers.get("Content-Encoding") == "aes128gcm"
            assert int(request.headers["TTL"]) > 0
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
        except (AssertionError, InvalidSignature, KeyError, ValueError) as error:
            self.refused.append(repr(error))
            return 403
        device.received.append(json.loads(plain))
        return 201
