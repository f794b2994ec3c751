"""PNG encoding that deflates only the bands of rows it has not seen lately.

The output is a plain PNG (8-bit palette, filter type 0 on every row, one
IDAT chunk). The rows are cut into bands: where the board's layout says
(``Image.info["bands"]``, from ``band_starts``: the header, each row of labels or
cards, one band per fan step down the piles), else every ``BAND`` rows. Each band
is deflated on its own (no dictionary) and ends on a full flush, so its
compressed bytes depend on its pixels alone and the segments concatenate
into one valid zlib stream; the stream's Adler-32 is combined from the
bands' own. Segments are kept in a small LRU keyed by a 128-bit XXH3 digest
of the band's pixels: a picture that differs from a recent one in a few bands (a
selection's highlight, the few cards a move changed, the header's counters)
deflates only those bands. The bytes produced never depend on what is in the
cache, only on the picture and its bands.

What each step costs (issue 26, ``benchmarks/render.py --versus-pillow``, where a
board as sent costs less CPU than Pillow's own encode of it): the bands are
deflated by zlib-ng (``zlib_ng``), whose level 3 is faster than zlib's and ~5 %
smaller on these boards; bands along the layout re-deflate ~20 % fewer rows a
Baker's press than fixed 32-row bands (a card put on a column changes exactly its four fan
steps); the rows come out of Pillow in one raw-encoder call on a crop one pixel
wider whose first column (outside the picture, so 0) is the filter byte
(``Image.tobytes`` hands them over in 64 KiB pieces, ~10x slower); a band's key
costs ~0.7 us (SHA-1's cost ~17 us); each thread reuses one compressor (making
one costs ~30 us).

Filter type 0 (no filter) is what libpng recommends for palette images; on
these boards it compresses 5-20 % better than Up or Sub (measured again with
zlib-ng). Cutting the stream into independent bands costs
~5 % of the size.
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from collections.abc import Sequence

import xxhash
from PIL import Image
from zlib_ng import zlib_ng

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
    return (
        struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib_ng.crc32(data, zlib_ng.crc32(tag)))
    )


def _adler_combine(a: int, b: int, b_len: int) -> int:
    """Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    rem = b_len % _BASE
    s1 = ((a & 0xFFFF) + (b & 0xFFFF) + _BASE - 1) % _BASE
    s2 = (rem * (a & 0xFFFF) + (a >> 16) + (b >> 16) + _BASE - rem) % _BASE
    return s1 | (s2 << 16)


_local = threading.local()  # each thread's compressors, one per level


def _deflate(level: int, rows: bytes | memoryview) -> Segment:
    """One band (its rows, each behind its filter byte), deflated and flushed.

    A full flush ends the band on a byte boundary (the same empty stored block a sync
    flush writes) and, with all input consumed, resets the compressor to its fresh
    state (hash chains cleared, window position 0): the band's bytes are those of a
    new compressor's, and the thread's compressor is reused (making one costs ~30 us,
    a fifth of deflating a band)."""
    compressors: dict[int, zlib_ng._Compress] | None = getattr(_local, "compressors", None)
    if compressors is None:
        compressors = _local.compressors = {}
    c = compressors.get(level)
    if c is None:
        c = compressors[level] = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -15)
    return c.compress(rows) + c.flush(zlib_ng.Z_FULL_FLUSH), zlib_ng.adler32(rows), len(rows)


def _filtered_rows(im: Image.Image) -> bytes:
    """The image's rows, each behind a 0 (filter type "none"): a crop one pixel wider on the
    left (Pillow fills what lies outside the image with 0), read in one raw-encoder call."""
    w, h = im.size
    wide = im.im.crop((-1, 0, w, h))
    encoder = Image._getencoder("P", "raw", "P")
    try:
        encoder.setimage(wide, (0, 0, w + 1, h))
        _, status, data = encoder.encode((w + 1) * h + 1)
    finally:
        encoder.cleanup()
    if status != 1 or len(data) != (w + 1) * h:  # 1: all written
        raise RuntimeError(f"raw encoder status {status}, {len(data)} bytes for a {w}x{h} image")
    return data


def band_starts(layout: Sequence[int], fan_from: int, step: int, height: int) -> tuple[int, ...]:
    """Bands that follow a board's layout: a cut at each row of ``layout`` (where a strip of
    the picture begins: header, labels, a row of cards), each stretch cut evenly into
    bands of about ``BAND`` rows, then one band per ``step`` rows from ``fan_from`` down (a fan's step, so a
    card put on a pile changes the fewest bands). For ``Image.info["bands"]``."""
    cuts = {0}
    edges = [*sorted({y for y in layout if 0 < y < fan_from}), fan_from]
    top = 0
    for edge in edges:
        n = max(1, round((edge - top) / BAND))
        cuts.update(top + (edge - top) * k // n for k in range(n))
        top = edge
    cuts.update(range(fan_from, height, step))
    return tuple(sorted(y for y in cuts if y < height))


_starts: dict[object, tuple[list[int], list[int]]] = {}  # (bands given, height): starts, ends


def _bands(im: Image.Image) -> tuple[list[int], list[int]]:
    """The rows where ``im``'s bands start and end: its board's own (``info["bands"]``) or
    every ``BAND`` rows; kept per layout and height (a board has few), unless the rows
    given are not a tuple of integers (a list, say: worked out afresh each time)."""
    h = im.height
    given = im.info.get("bands")
    key: object = h if given is None else (given, h) if isinstance(given, tuple) else None
    try:
        found = _starts.get(key) if key is not None else None
    except TypeError:  # a tuple holding something unhashable
        key = found = None
    if found is None:
        if isinstance(given, (tuple, list)):
            starts = sorted({0, *(y for y in given if isinstance(y, int) and 0 < y < h)})
        else:
            starts = list(range(0, h, BAND))
        found = (starts, [*starts[1:], h])
        if key is not None:
            if len(_starts) >= 256:
                _starts.clear()
            _starts[key] = found
    return found


def encode(im: Image.Image, level: int = 3) -> bytes:
    """``im`` (a "P" image) as PNG bytes; ``ValueError`` for another mode. Its bands start at
    the rows of ``im.info["bands"]`` if set (``band_starts``), else every ``BAND`` rows."""
    if im.mode != "P":
        raise ValueError(f"encode takes a palette ('P') image, not {im.mode!r}")
    w, h = im.size
    rows = memoryview(_filtered_rows(im))  # bands are views, not copies
    starts, ends = _bands(im)
    pieces = [_ZLIB_HEADER]
    adler = 1
    prefix = bytes([level])
    for top, bottom in zip(starts, ends, strict=True):
        band = rows[top * (w + 1) : bottom * (w + 1)]
        key = prefix + xxhash.xxh3_128_digest(band)
        with _lock:
            segment = _segments.get(key)
            if segment is not None:
                _segments.move_to_end(key)
                counts["hit"] += 1
        if segment is None:
            segment = _deflate(level, band)
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
    im.load()  # a palette changed since is written to the image's core first
    palette = (
        im.im.getpalette("RGB", "RGB") or b"\0\0\0"
    )  # every entry set (finding the used ones costs more)
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
