"""renderer.png: valid PNGs with exactly the drawn pixels, no larger than Pillow's own
encode of the same image by more than the bands cost, whatever the cache holds; and the
palette paste the boards are assembled with."""

from __future__ import annotations

import io
import random
import threading
import zlib

import pytest
from PIL import Image
from zlib_ng import zlib_ng

import engine
import renderer
from renderer import layout as L
from renderer import png
from renderer.palette import new_canvas, put

BK, CA = "BK1-C4-AAAAA24", "CA1-AAAAA24"


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    im.load()  # checks every CRC and the zlib stream's Adler-32
    return im


def pillow_png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=renderer.PNG_LEVEL)
    return buf.getvalue()


def boards() -> list[tuple[engine.Game, object, str]]:
    mid = engine.replay(BK, ["1a", "2b", "3c"])
    pile = engine.new_game(CA)
    while pile.turned is not None:
        pile.play("sw1")
    return [
        (engine.new_game(BK), None, "two"),
        (mid, "3", "four"),
        (engine.replay(CA, ["sw1", "sw2"]), "s", "two"),
        (pile, None, "four"),
    ]


@pytest.mark.parametrize("case", range(4))
def test_boards_decode_to_the_drawn_pixels_within_the_size_bounds(case: int) -> None:
    game, highlight, deck = boards()[case]
    image = renderer.render_image(game, highlight=highlight, deck=deck)
    png.clear()
    data = renderer.render_png(game, highlight=highlight, deck=deck)
    back = decode(data)
    assert (back.mode, back.size) == ("P", image.size)
    assert back.tobytes() == image.tobytes()  # the same palette indices
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()
    # independent bands cost a little against one stream: never more than 10 %
    assert len(data) <= 1.10 * len(pillow_png(image))
    assert len(data) <= 60 * 1024
    assert renderer.render_png(game, highlight=highlight, deck=deck) == data  # every band cached now


@pytest.mark.parametrize("size", [(1, 1), (7, 33), (720, 64), (720, 65), (3, 200)])
def test_any_palette_image_round_trips(size: tuple[int, int]) -> None:
    """Heights on and off the band boundary, widths down to one pixel, every index used."""
    rng = random.Random(size[0] * 1000 + size[1])
    im = Image.frombytes("P", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1])))
    im.putpalette([rng.randrange(256) for _ in range(768)])
    png.clear()
    back = decode(png.encode(im, 3))
    assert back.size == size
    assert back.tobytes() == im.tobytes()
    assert back.convert("RGB").tobytes() == im.convert("RGB").tobytes()


def test_another_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        png.encode(Image.new("RGB", (4, 4)), 3)


def test_a_reused_compressor_deflates_a_band_as_a_fresh_one_does() -> None:
    """The thread's compressor is reset by each full flush: a band's bytes do not depend on
    the bands deflated before it (what makes the cached segments interchangeable)."""
    rng = random.Random(5)
    bands = [bytes(rng.choice(b"\x00\x01\x02\x07") for _ in range(721 * 32)) for _ in range(6)]
    bands.append(bytes(721 * 32))  # a long run, then noise again
    bands.append(bytes(rng.randrange(256) for _ in range(721 * 32)))
    for level in (1, 3, 6):
        fresh = []
        for band in bands:
            c = zlib_ng.compressobj(level, zlib_ng.DEFLATED, -15)
            fresh.append(c.compress(band) + c.flush(zlib_ng.Z_SYNC_FLUSH))
        order = list(range(len(bands)))
        for _ in range(3):
            rng.shuffle(order)
            for i in order:
                segment, adler, length = png._deflate(level, bands[i])
                assert segment == fresh[i]
                assert (adler, length) == (zlib.adler32(bands[i]), len(bands[i]))


def test_the_cache_serves_bands_another_thread_deflated() -> None:
    game = engine.replay(BK, ["1a"])
    png.clear()
    done: list[bytes] = []
    t = threading.Thread(target=lambda: done.append(renderer.render_png(game)))
    t.start()
    t.join()
    misses = png.counts["miss"]
    assert renderer.render_png(game) == done[0]
    assert png.counts["miss"] == misses and png.counts["hit"] == misses


def test_put_pastes_as_image_paste_does_clipped_at_the_edges() -> None:
    sprite = renderer.cards.card_sprite(5)
    for xy in [(10, 10), (-30, 5), (680, 420), (100, -50)]:
        ours, pillows = new_canvas((720, 460), L.FELT), new_canvas((720, 460), L.FELT)
        put(ours, sprite, xy)
        pillows.paste(sprite, xy)
        assert ours.tobytes() == pillows.tobytes()
