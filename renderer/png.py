"""PNG encoding that compresses only the parts of a picture it has not seen lately.

The output is a plain PNG (8-bit palette, filter type 0 on every row, one
IDAT chunk). Its rows are cut into bands of ``BAND`` rows; each band is
deflated on its own, with the band above it as the preset dictionary, and
ends on a sync flush. So a band's compressed bytes depend only on (zlib
level, band above, band), and the segments concatenate into one valid zlib
stream (back-references into the band above are references into earlier
output, which any inflater resolves). Segments are kept in a small LRU keyed
by a digest of those two bands: a picture that differs from a recent one in
a few bands (a selection's highlight, the few cards a move changed, the
header's counters) deflates only those bands and the band below each. The
bytes produced never depend on what is in the cache.

Filter type 0 (no filter) is what libpng recommends for palette images; on
these boards it compresses as well as Pillow's adaptive filtering and skips
its per-row work.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

BAND = 24  # rows per independently compressed band
SEGMENTS = 4096  # compressed bands kept (a few KiB each at most; ~40 boards' worth)
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KiB window, no preset dictionary for the reader
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed Huffman codes, just end-of-block)

_lock = threading.Lock()
_segments: OrderedDict[bytes, bytes] = OrderedDict()
counts = {"hit": 0, "miss": 0}  # bands served from the cache / deflated (benchmarks read them)


def clear() -> None:
    """Forget every cached segment (tests and benchmarks measure from cold)."""
    with _lock:
        _segments.clear()
        counts.update(hit=0, miss=0)


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))


def _deflate(level: int, above: memoryview, band: memoryview) -> bytes:
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, bytes(above))
    return c.compress(band) + c.flush(zlib.Z_SYNC_FLUSH)


def encode(im: Image.Image, level: int = 3) -> bytes:
    """``im`` (a "P" image) as PNG bytes; ``ValueError`` for another mode."""
    if im.mode != "P":
        raise ValueError(f"encode takes a palette ('P') image, not {im.mode!r}")
    w, h = im.size
    rows = Image.new("P", (w + 1, h), 0)  # column 0 is each row's filter byte: 0, none
    rows.paste(im, (1, 0))
    raw = rows.tobytes()
    view = memoryview(raw)
    step = (w + 1) * BAND
    pieces = [_ZLIB_HEADER]
    above_key = b""
    prefix = bytes([level])
    for start in range(0, len(raw), step):
        band = view[start : start + step]
        band_key = hashlib.sha1(band).digest()
        key = prefix + above_key + band_key
        with _lock:
            segment = _segments.get(key)
            if segment is not None:
                _segments.move_to_end(key)
                counts["hit"] += 1
        if segment is None:
            segment = _deflate(level, view[max(0, start - step) : start], band)
            with _lock:
                _segments[key] = segment
                counts["miss"] += 1
                if len(_segments) > SEGMENTS:
                    _segments.popitem(last=False)
        pieces.append(segment)
        above_key = band_key
    pieces.append(_LAST_BLOCK)
    pieces.append(struct.pack(">I", zlib.adler32(raw)))
    highest = im.getextrema()[1]  # (lowest, highest) palette index in use
    colours = highest + 1 if isinstance(highest, int) else 256
    palette = bytes(im.getpalette("RGB") or [0, 0, 0])[: 3 * colours]
    palette += bytes(3 * colours - len(palette))
    header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(pieces)),
            _chunk(b"IEND", b""),
        )
    )
