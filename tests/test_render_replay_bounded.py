"""Replays of long games: bounded frames, bytes and memory (issue 15), decoded with Pillow."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import tracemalloc
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

import engine
import renderer
from renderer import replay
from tests.test_render_replay import BK, CA, random_actions

ROOT = Path(__file__).resolve().parents[1]


@cache
def long_log(code: str, count: int) -> tuple[str, ...]:
    actions = random_actions(code, count, seed=15)
    assert len(actions) == count
    return tuple(actions)


def board_rgb(code: str, actions: tuple[str, ...] | list[str]) -> bytes:
    """The board as a replay frame shows it: full height (a still board is cropped to its content)."""
    from renderer.boards import board_for
    from renderer.labels import resolve

    game = engine.replay(code, actions)
    im = board_for(game).render(game, None, resolve(None)).convert("RGB")
    return im.tobytes()


def frame_size(code: str) -> tuple[int, int]:
    """A replay's frames all have its game's full board size (the tallest a position can need)."""
    from renderer.boards import board_for
    from renderer.labels import resolve

    game = engine.new_game(code)
    size: tuple[int, int] = board_for(game).render(game, None, resolve(None)).size
    return size


def frame_rgb(im: Image.Image, index: int) -> bytes:
    im.seek(index)
    return im.convert("RGB").tobytes()


@pytest.mark.slow
@pytest.mark.parametrize(("code", "fmt"), [(BK, "gif"), (CA, "png")])
def test_a_long_replay_keeps_the_frame_cap_the_byte_cap_and_both_ends(code: str, fmt: str) -> None:
    actions = long_log(code, 2000)
    data = renderer.render_replay(code, actions, fmt=fmt)
    assert len(data) <= replay.MAX_BYTES < 8 * 2**20
    im = Image.open(io.BytesIO(data))
    assert im.format == ("GIF" if fmt == "gif" else "PNG")
    assert (im.size, im.n_frames) == (frame_size(code), replay.MAX_FRAMES)
    assert frame_rgb(im, 0) == board_rgb(code, [])
    assert frame_rgb(im, im.n_frames - 1) == board_rgb(code, actions)
    im.seek(0)
    assert im.info["duration"] == replay.FIRST_MS
    im.seek(im.n_frames - 1)
    assert im.info["duration"] == replay.LAST_MS


def test_every_sampled_frame_shows_the_position_it_stands_for() -> None:
    """The frames of a sampled replay, decoded, are exactly the boards pick_frames chose."""
    actions = long_log(BK, 600)
    data = renderer.render_replay(BK, actions, max_frames=40)
    frames = replay.pick_frames(len(actions) + 1, replay._scan(BK, actions), 40)
    im = Image.open(io.BytesIO(data))
    assert im.n_frames == len(frames) == 40
    for j in (0, 1, 17, 38, 39):
        assert frame_rgb(im, j) == board_rgb(BK, actions[: frames[j]]), j


def test_apng_frames_decode_to_the_boards() -> None:
    actions = random_actions(BK, 30)
    im = Image.open(io.BytesIO(renderer.render_replay(BK, actions, fmt="png")))
    assert im.n_frames == 31
    for j in (0, 1, 2, 15, 30):
        assert frame_rgb(im, j) == board_rgb(BK, actions[:j]), j


def test_sampling_keeps_the_first_the_last_and_every_foundation_move() -> None:
    actions = long_log(BK, 2000)
    key = replay._scan(BK, actions)
    assert key and len(key) < replay.MAX_FRAMES - 2
    frames = replay.pick_frames(len(actions) + 1, key, replay.MAX_FRAMES)
    assert len(frames) == replay.MAX_FRAMES == len(set(frames)) and frames == sorted(frames)
    assert frames[0] == 0 and frames[-1] == len(actions)
    assert set(key) <= set(frames)
    gaps = [b - a for a, b in itertools.pairwise(frames)]
    assert max(gaps) <= 3 * len(actions) // replay.MAX_FRAMES  # the rest is spread, not bunched


def test_pick_frames_rules() -> None:
    assert replay.pick_frames(5, [2], 10) == [0, 1, 2, 3, 4]
    assert replay.pick_frames(1, [], 2) == [0]
    assert replay.pick_frames(100, [10, 20, 30], 2) == [0, 99]
    too_many_keys = list(range(1, 99))
    picked = replay.pick_frames(100, too_many_keys, 12)
    assert len(picked) == 12 and picked[0] == 0 and picked[-1] == 99
    assert replay.pick_frames(1000, [500], 5) == [0, 250, 500, 749, 999]


def test_a_tight_byte_cap_drops_frames_before_shrinking_them() -> None:
    actions = long_log(BK, 2000)
    cap = 250_000
    data = renderer.render_replay(BK, actions, max_bytes=cap)
    assert len(data) <= cap
    im = Image.open(io.BytesIO(data))
    assert im.size == frame_size(BK)
    assert 2 < im.n_frames < replay.MAX_FRAMES
    assert frame_rgb(im, 0) == board_rgb(BK, [])
    assert frame_rgb(im, im.n_frames - 1) == board_rgb(BK, actions)


def test_a_cap_below_two_full_frames_gives_smaller_frames() -> None:
    actions = long_log(CA, 200)
    full = len(renderer.render_replay(CA, actions, max_frames=2))
    data = renderer.render_replay(CA, actions, max_bytes=full - 1)
    assert len(data) < full
    im = Image.open(io.BytesIO(data))
    assert im.size in (
        (renderer.WIDTH // 2, renderer.HEIGHT // 2),
        (renderer.WIDTH // 4, renderer.HEIGHT // 4),
    )
    assert im.n_frames >= 2


def test_an_impossible_cap_is_a_clear_value_error() -> None:
    with pytest.raises(replay.ReplayTooLarge, match="cannot fit in 500 bytes") as caught:
        renderer.render_replay(BK, ["1a", "2b"], max_bytes=500)
    assert isinstance(caught.value, ValueError) and caught.value.max_bytes == 500


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_bytes": 0}, "max_bytes"),
        ({"max_bytes": 2.5}, "max_bytes"),
        ({"max_frames": 1}, "max_frames"),
        ({"max_frames": True}, "max_frames"),
    ],
)
def test_bad_limits_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        renderer.render_replay(BK, ["1a"], **kwargs)  # type: ignore[arg-type]


def test_too_many_actions_are_refused_before_any_work() -> None:
    def endless() -> object:
        while True:
            yield "1a"

    with pytest.raises(ValueError, match="at most"):
        renderer.render_replay(BK, endless())  # type: ignore[arg-type]


def test_traced_memory_does_not_grow_with_the_game() -> None:
    """Python-side peak: the output (held once in the buffer, once returned) plus a few MiB.

    Pixel buffers live outside tracemalloc (Pillow's own allocator); the RSS test below
    covers them. Before issue 15 the traced peak alone was 29.7 MiB at 2,000 actions.
    """
    peaks = {}
    for count in (200, 2000):
        actions = long_log(BK, count)
        renderer.render_replay(BK, actions[:5])  # warm the caches outside the measurement
        tracemalloc.start()
        try:
            data = renderer.render_replay(BK, actions)
            peaks[count] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peaks[count] <= 2 * len(data) + 4 * 2**20, (count, peaks[count], len(data))
    assert peaks[2000] <= 2 * replay.MAX_BYTES + 4 * 2**20


RSS_PROBE = """
import resource, sys
import engine, renderer
from tests.test_render_replay import random_actions
actions = random_actions(sys.argv[1], int(sys.argv[2]), seed=15)
renderer.render_png(engine.new_game(sys.argv[1]))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
data = renderer.render_replay(sys.argv[1], actions)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) // 1024, len(data))
"""


@pytest.mark.processes
def test_peak_rss_of_a_3000_action_replay_stays_small() -> None:
    """The whole process (pixels included) grows by less than 64 MiB: two frames (~0.8 MiB each),
    the output (<= 7.5 MiB, held twice at the end) and allocator slack. Before issue 15 it
    grew by ~1.6 MiB per action: 3.2 GiB at 2,000 actions."""
    done = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, BK, "3000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    growth_mib, size = map(int, done.stdout.split())
    assert size <= replay.MAX_BYTES
    assert growth_mib < 64, growth_mib
