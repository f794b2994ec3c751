"""An animated replay of a game (GIF or APNG) for sharing a win, bounded in memory and bytes.

    data = render_replay(code, moves, fmt="gif", labels=words, max_bytes=MAX_BYTES)

Memory: frames are encoded one at a time straight into the output (our own
GIF / APNG container around Pillow's LZW encoder and zlib), so at most two
frames (the previous and the current board, ~0.8 MiB each) are alive besides
the output itself, whatever the game's length. Pillow's ``save_all`` keeps
every frame (and a delta copy of it) until the end: ~1.6 MiB per action.

Frame policy: a game of ``n`` actions has ``n + 1`` positions. Up to
``max_frames`` (default ``MAX_FRAMES``) positions, every one is a frame. Above
that, the frames are: the first and the final position, then every position
reached by a move that put a card on a foundation (the game's progress; when
there are more of those than room, as many as fit, spread evenly), then the
other positions spread evenly over the rest of the budget. Frames are shown
in game order; the first for ``FIRST_MS``, the last for ``LAST_MS``, the
others ``FRAME_MS`` each.

Byte cap: the output never exceeds ``max_bytes`` (default ``MAX_BYTES``,
7.5 MiB, under Discord's 8 MiB attachment limit). Encoding stops as soon as
the output would pass it and starts again with fewer frames (estimated from
the bytes per frame so far), then at half and quarter size; only when even
the first and last position at quarter size do not fit does it raise
``ReplayTooLarge`` (a ``ValueError``).

Each frame after the first is stored as the rectangle that changed, with the
unchanged pixels inside it transparent, on the boards' one shared palette.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, BinaryIO, Protocol

from PIL import GifImagePlugin, Image, ImageChops

import engine
from renderer import layout as L
from renderer.boards import board_for, words_of
from renderer.labels import Labels, check
from renderer.labels import resolve as resolve_labels
from renderer.palette import COLOURS, PALETTE_IMAGE, new_canvas

FRAME_MS = 450
FIRST_MS = 1200
LAST_MS = 4000
MAX_ACTIONS = 20_000  # far beyond any stored game; only the replay pass grows with it (~20 ms / 1,000)
MAX_FRAMES = 400
MIN_FRAMES = 2  # the first and the final position
MAX_BYTES = 7 * 2**20 + 2**19  # 7.5 MiB: under Discord's 8 MiB attachment limit, with room
SCALES = (1, 2, 4)  # frame size divisors tried in turn when the frames alone do not fit
FORMATS = {"gif": "GIF", "png": "PNG", "apng": "PNG"}
PNG_REPLAY_LEVEL = 6

_TRANSPARENT = len(COLOURS)  # the first palette entry no board uses
_PALETTE = bytes(PALETTE_IMAGE.getpalette() or [])[:768].ljust(768, b"\0")
# For shrunk frames: the boards' colours, the spare entries repeating the first, so that
# quantizing never picks the transparent index.
_SHRINK_PALETTE = Image.new("P", (1, 1))
_SHRINK_PALETTE.putpalette(_PALETTE[: 3 * _TRANSPARENT] + _PALETTE[:3] * (256 - _TRANSPARENT))
_UNCHANGED = [255] + [0] * 255  # point table: a zero delta (same palette index) -> mask on


class ReplayTooLarge(ValueError):
    """Even the smallest replay (first and final position, quarter size) exceeds ``max_bytes``."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(
            f"a replay cannot fit in {max_bytes} bytes: even the first and final position "
            f"at 1/{SCALES[-1]} size need more"
        )
        self.max_bytes = max_bytes


def render_replay(
    code: str,
    moves: Iterable[str],
    *,
    fmt: str = "gif",
    labels: Mapping[str, str] | None = None,
    max_bytes: int = MAX_BYTES,
    max_frames: int = MAX_FRAMES,
) -> bytes:
    """Replay ``moves`` (an action log: notations and ``"undo"``) from ``code``'s deal.

    ``fmt`` is ``"gif"`` or ``"png"`` (animated PNG). The result has at most
    ``max_frames`` frames (see the module's frame policy) and at most
    ``max_bytes`` bytes. Raises ``engine.EngineError`` (a bad code or an
    illegal action, naming it), ``ReplayTooLarge`` when ``max_bytes`` is too
    small for any replay, or ``ValueError`` (bad options, too many actions).
    """
    if not isinstance(fmt, str) or fmt.lower() not in FORMATS:
        raise ValueError(f"replay format {fmt!r} is not one of: {', '.join(FORMATS)}")
    kind = FORMATS[fmt.lower()]
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise ValueError(f"max_bytes must be a positive whole number of bytes, not {max_bytes!r}")
    if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < MIN_FRAMES:
        raise ValueError(f"max_frames must be a whole number of at least {MIN_FRAMES}, not {max_frames!r}")
    actions = []
    for action in moves:
        actions.append(action)
        if len(actions) > MAX_ACTIONS:
            raise ValueError(f"a replay has at most {MAX_ACTIONS} actions")
    given = check(labels)
    key = _scan(code, actions)
    words = resolve_labels(given, words_of(board_for(engine.new_game(code))))
    positions = len(actions) + 1
    for scale in SCALES:
        budget = min(positions, max_frames)
        while True:
            frames = pick_frames(positions, key, budget)
            sink = _Sink(max_bytes)
            try:
                _encode(kind, sink, _render(code, actions, frames, words, scale), len(frames))
            except _Overflow as full:
                if len(frames) <= MIN_FRAMES or full.frames == 0:  # fewer frames cannot help: shrink them
                    break
                budget = _smaller_budget(budget, full, max_bytes)
                continue
            return sink.getvalue()
    raise ReplayTooLarge(max_bytes)


def _smaller_budget(budget: int, full: _Overflow, max_bytes: int) -> int:
    """The next try's frame count: the first frame's bytes, plus what the later frames cost
    each so far, aiming at 90% of the cap; at least a quarter fewer than ``budget``."""
    later = (full.size - full.first) / max(full.frames - 1, 1)
    estimate = 1 + int((max_bytes * 0.9 - full.first) / max(later, 1.0))
    return max(MIN_FRAMES, min(estimate, budget * 3 // 4))


def pick_frames(positions: int, key: Sequence[int], budget: int) -> list[int]:
    """Which of ``positions`` positions (0 = the deal) become frames, in order (see the module doc).

    ``key`` lists the positions that must stay when there is room (foundation moves).
    """
    last = positions - 1
    if positions <= budget:
        return list(range(positions))
    chosen = {0, last}
    keys = sorted(set(key) - chosen)
    room = max(0, budget - len(chosen))
    chosen.update(_spread(keys, room))
    rest = [i for i in range(1, last) if i not in chosen]
    chosen.update(_spread(rest, budget - len(chosen)))
    return sorted(chosen)


def _spread(items: Sequence[int], k: int) -> list[int]:
    """``k`` of ``items`` spread evenly (each the middle of its share), or all of them."""
    n = len(items)
    if k >= n:
        return list(items)
    if k <= 0:
        return []
    return [items[(2 * j + 1) * n // (2 * k)] for j in range(k)]


def _scan(code: str, actions: Sequence[str]) -> list[int]:
    """Play the whole log once: validate it and list the positions a foundation move reached
    (the engine's ``cards_home`` grew)."""
    game = engine.new_game(code)
    board_for(game)  # ValueError for a kind without a board, before any work
    key: list[int] = []
    before = game.cards_home
    for i, action in enumerate(actions, 1):
        _play(game, i, action)
        now = game.cards_home
        if now > before:
            key.append(i)
        before = now
    return key


def _play(game: engine.Game[Any], i: int, action: str) -> None:
    try:
        game.play(action)
    except engine.IllegalMove as exc:
        raise engine.IllegalMove(
            f"action {i} ({action!r}) failed: {exc}", exc.reason, index=i, **exc.params
        ) from exc


def _render(
    code: str, actions: Sequence[str], frames: Sequence[int], words: Labels, scale: int
) -> Iterator[tuple[Image.Image, int]]:
    """The chosen positions' boards (already validated by ``_scan``) with their durations."""
    game = engine.new_game(code)
    board = board_for(game)
    last = len(frames) - 1
    done = 0
    for j, position in enumerate(frames):
        while done < position:
            done += 1
            game.play(actions[done - 1])
        im = board.render(game, None, words)
        if scale > 1:
            im = im.convert("RGB").reduce(scale).quantize(palette=_SHRINK_PALETTE, dither=Image.Dither.NONE)
        yield im, (LAST_MS if j == last else FIRST_MS if j == 0 else FRAME_MS)


# -- the encoders ---------------------------------------------------------------------------------


class _Overflow(Exception):
    """The output would pass the cap: ``size`` bytes, after ``frames`` whole frames, the first
    of which ended at byte ``first``."""

    def __init__(self, size: int, frames: int, first: int) -> None:
        self.size = size
        self.frames = frames
        self.first = first


class _Sink:
    """An in-memory output that refuses to grow past ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.frames = 0
        self.first = 0  # output size once the first frame is written
        self._buf = io.BytesIO()

    def write(self, data: bytes) -> int:
        size = self._buf.tell() + len(data)
        if size > self.limit:
            raise _Overflow(size, self.frames, self.first)
        return self._buf.write(data)

    def size(self) -> int:
        return self._buf.tell()

    def getvalue(self) -> bytes:
        return self._buf.getvalue()


class _Writer(Protocol):
    def frame(self, im: Image.Image, box: tuple[int, int], ms: int, first: bool) -> None: ...
    def close(self) -> None: ...


def _encode(kind: str, sink: _Sink, frames: Iterator[tuple[Image.Image, int]], count: int) -> None:
    """Write ``count`` frames as they come, keeping only the previous one for the difference."""
    writer: _Writer | None = None
    previous: Image.Image | None = None
    for im, ms in frames:
        if writer is None:
            writer = _GifWriter(sink, im.size) if kind == "GIF" else _ApngWriter(sink, im.size, count)
        if previous is None:
            writer.frame(im, (0, 0), ms, True)
        else:
            region, box = _changed(previous, im)
            writer.frame(region, box, ms, False)
        previous = im
        sink.frames += 1
        if sink.frames == 1:
            sink.first = sink.size()
    assert writer is not None
    writer.close()


def _changed(previous: Image.Image, im: Image.Image) -> tuple[Image.Image, tuple[int, int]]:
    """The rectangle of ``im`` that differs from ``previous``, unchanged pixels transparent."""
    delta = ImageChops.subtract_modulo(im, previous)  # same palette: 0 where the index is equal
    bbox = delta.getbbox()
    if bbox is None:  # an identical position: one transparent pixel keeps the frame count exact
        dot = new_canvas((1, 1), L.FELT)
        dot.putpixel((0, 0), _TRANSPARENT)
        return dot, (0, 0)
    region = im.crop(bbox)
    region.paste(_TRANSPARENT, (0, 0), delta.crop(bbox).point(_UNCHANGED, "1"))
    return region, (bbox[0], bbox[1])


class _GifWriter:
    """GIF89a: one global table (the shared palette), looping, frames drawn over the previous."""

    def __init__(self, out: BinaryIO | _Sink, size: tuple[int, int]) -> None:
        self.out = out
        out.write(b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0) + _PALETTE)
        out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop forever

    def frame(self, im: Image.Image, box: tuple[int, int], ms: int, first: bool) -> None:
        flags = 1 << 2 | (0 if first else 1)  # disposal "leave in place"; transparency after the first
        self.out.write(struct.pack("<3sBHBB", b"!\xf9\x04", flags, round(ms / 10), _TRANSPARENT, 0))
        for chunk in GifImagePlugin.getdata(im, box):  # image descriptor + LZW data, no extension
            self.out.write(bytes(chunk))

    def close(self) -> None:
        self.out.write(b";")


class _ApngWriter:
    """Animated PNG, palette mode: the first frame is the default image, later ones blend over."""

    def __init__(self, out: BinaryIO | _Sink, size: tuple[int, int], count: int) -> None:
        self.out = out
        self.seq = 0
        out.write(b"\x89PNG\r\n\x1a\n")
        self._chunk(b"IHDR", struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0))
        self._chunk(b"acTL", struct.pack(">II", count, 0))
        self._chunk(b"PLTE", _PALETTE)
        self._chunk(b"tRNS", b"\xff" * _TRANSPARENT + b"\0")

    def _chunk(self, tag: bytes, data: bytes) -> None:
        self.out.write(struct.pack(">I", len(data)) + tag + data)
        self.out.write(struct.pack(">I", zlib.crc32(data, zlib.crc32(tag))))

    def frame(self, im: Image.Image, box: tuple[int, int], ms: int, first: bool) -> None:
        w, h = im.size
        blend = 0 if first else 1  # APNG_BLEND_OP_OVER: transparent pixels keep the previous frame
        self._chunk(b"fcTL", struct.pack(">IIIIIHHBB", self.seq, w, h, box[0], box[1], ms, 1000, 0, blend))
        self.seq += 1
        raw = im.tobytes()
        packer = zlib.compressobj(PNG_REPLAY_LEVEL)
        data = b"".join(packer.compress(b"\0" + raw[y * w : (y + 1) * w]) for y in range(h)) + packer.flush()
        if first:
            self._chunk(b"IDAT", data)
        else:
            self._chunk(b"fdAT", struct.pack(">I", self.seq) + data)
            self.seq += 1

    def close(self) -> None:
        self._chunk(b"IEND", b"")


__all__ = ["FRAME_MS", "MAX_BYTES", "MAX_FRAMES", "ReplayTooLarge", "pick_frames", "render_replay"]
