"""PNG encoding that deflates only the bands of rows it has not seen lately.

The output is a plain PNG (8-bit palette, filter type 0 on every row, one
IDAT chunk). The rows are cut into bands of ``BAND`` rows; each band is
deflated on its own (no dictionary) and ends on a sync flush, so its
compressed bytes depend on its pixels alone and the segments concatenate
into one valid zlib stream; the stream's Adler-32 is combined from the
bands' own. Segments are kept in a small LRU keyed by a SHA-1 digest of the
band's pixels: a picture that differs from a recent one in a few bands (a
selection's highlight, the few cards a move changed, the header's counters)
deflates only those bands. The bytes produced never depend on what is in the
cache, only on the picture.

Filter type 0 (no filter) is what libpng recommends for palette images; on
these boards it compresses as well as Pillow's adaptive filtering. Cutting
the stream into independent bands costs ~5 % of the size.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

BAND = 32  # rows per independently compressed band
SEGMENTS = 4096  # compressed bands kept (a few KiB each at most; some 200 boards' worth)
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KiB window, no preset dictionary
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed Huffman codes, just end-of-block)
_BASE = 65521  # Adler-32's modulus

Segment = tuple[bytes, int, int]  # deflated band, Adler-32 of its filtered rows, their length

_lock = threading.Lock()
_segments: OrderedDict[bytes, Segment] = OrderedDict()
counts = {"hit": 0, "miss": 0}  # bands served from the cache / deflated (tests and benchmarks read them)


def clear() -> None:
    """Forget every cached segment (tests and benchmarks measure from cold)."""
    with _lock:
        _segments.clear()
        counts.update(hit=0, miss=0)


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))


def _adler_combine(a: int, b: int, b_len: int) -> int:
    """Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    rem = b_len % _BASE
    s1 = ((a & 0xFFFF) + (b & 0xFFFF) + _BASE - 1) % _BASE
    s2 = (rem * (a & 0xFFFF) + (a >> 16) + (b >> 16) + _BASE - rem) % _BASE
    return s1 | (s2 << 16)


def _deflate(level: int, pixels: memoryview, width: int) -> Segment:
    """One band: each row behind its filter byte (0), deflated and sync-flushed."""
    rows = b"\x00" + b"\x00".join(pixels[i : i + width] for i in range(0, len(pixels), width))
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(rows) + c.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows)


def encode(im: Image.Image, level: int = 3) -> bytes:
    """``im`` (a "P" image) as PNG bytes; ``ValueError`` for another mode."""
    if im.mode != "P":
        raise ValueError(f"encode takes a palette ('P') image, not {im.mode!r}")
    w, h = im.size
    view = memoryview(im.tobytes())
    step = w * BAND
    pieces = [_ZLIB_HEADER]
    adler = 1
    prefix = bytes([level])
    for start in range(0, len(view), step):
        band = view[start : start + step]
        key = prefix + hashlib.sha1(band).digest()
        with _lock:
            segment = _segments.get(key)
            if segment is not None:
                _segments.move_to_end(key)
                counts["hit"] += 1
        if segment is None:
            segment = _deflate(level, band, w)
            with _lock:
                _segments[key] = segment
                counts["miss"] += 1
                if len(_segments) > SEGMENTS:
                    _segments.popitem(last=False)
        data, band_adler, length = segment
        pieces.append(data)
        adler = _adler_combine(adler, band_adler, length)
    pieces.append(_LAST_BLOCK)
    pieces.append(struct.pack(">I", adler))
    palette = bytes(im.getpalette("RGB") or [0, 0, 0])  # every entry set (finding the used ones costs more)
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
