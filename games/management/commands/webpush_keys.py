"""Print a new VAPID key pair (RFC 8292) for Web Push: set them as
``WEBPUSH_VAPID_PUBLIC_KEY`` and ``WEBPUSH_VAPID_PRIVATE_KEY`` (docs/deploy.md).

Both are base64url without padding: the public key as the browser's Push API takes it
(an uncompressed P-256 point), the private key as its 32 raw bytes.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_pair() -> tuple[str, str]:
    """(public, private) of a new P-256 key pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _text(public), _text(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push."

    def handle(self, *args: object, **options: object) -> None:
        public, private = new_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}")
