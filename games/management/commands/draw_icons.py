"""Draw the site's app icons (static/icons/*.png) from the die of static/favicon.svg.

Run once after changing the die, and commit the PNGs::

    .venv/bin/python manage.py draw_icons

The die is drawn here in plain Python (no image library): the favicon's red rounded square
with five white pips, four samples a pixel each way for smooth edges. The maskable icon has
the die inside the safe zone (the middle 80 %) on the theme colour, so a launcher may cut
any shape out of it.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

RED = (0xB9, 0x1C, 0x1C)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4
# The favicon's drawing, on its 32-unit grid: the square (x, y, size, corner) and the pips.
SQUARE = (2.0, 2.0, 28.0, 6.0)
PIPS = ((10, 10), (22, 10), (16, 16), (10, 22), (22, 22))
PIP_RADIUS = 3.0


def _colour_at(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    """The die's colour at (x, y) on the 32-unit grid (alpha 0: outside)."""
    if maskable:  # the die shrunk into the safe zone, on a full red background
        x, y = (x - 3.2) / 0.8, (y - 3.2) / 0.8
    for cx, cy in PIPS:
        if (x - cx) ** 2 + (y - cy) ** 2 <= PIP_RADIUS**2:
            return (*WHITE, 255)
    left, top, size, corner = SQUARE
    nx = min(max(x, left + corner), left + size - corner)
    ny = min(max(y, top + corner), top + size - corner)
    inside = left <= x <= left + size and top <= y <= top + size
    if inside and (x - nx) ** 2 + (y - ny) ** 2 <= corner**2:
        return (*RED, 255)
    return (*RED, 255) if maskable else (0, 0, 0, 0)


def draw(size: int, *, maskable: bool = False) -> bytes:
    """The icon as a PNG file of ``size`` pixels square."""
    scale = 32.0 / size
    rows = []
    for row in range(size):
        line = bytearray([0])  # filter: none
        for column in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (column + (sx + 0.5) / SAMPLES) * scale
                    y = (row + (sy + 0.5) / SAMPLES) * scale
                    r, g, b, a = _colour_at(x, y, maskable)
                    total[0] += r * a
                    total[1] += g * a
                    total[2] += b * a
                    total[3] += a
            alpha = total[3]
            pixel = [round(c / alpha) if alpha else 0 for c in total[:3]]
            line += bytes([*pixel, round(alpha / SAMPLES**2)])
        rows.append(bytes(line))
    return _png(size, b"".join(rows))


def _png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),  # iOS shows no transparency: the full square
}


class Command(BaseCommand):
    help = "Draw the app icons (static/icons/) from the site's die."

    def handle(self, *args: object, **options: object) -> None:
        folder = Path(settings.BASE_DIR) / "static" / "icons"
        folder.mkdir(exist_ok=True)
        for name, (size, maskable) in ICONS.items():
            (folder / name).write_bytes(draw(size, maskable=maskable))
            self.stdout.write(f"static/icons/{name}")
