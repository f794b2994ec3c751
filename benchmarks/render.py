"""Renderer speed and sizes: ``python benchmarks/render.py [--save DIR]``.

Prints, per position, the median time to render + encode a board, the median
time Pillow needs just to encode the finished image, their ratio and the PNG
size; then the size and time of a 200-action animated replay. ``--save`` also
writes every picture (for looking at them). Targets (issue 4): a typical board
at most 60 KiB, render + encode at most 25 ms and at most 1.5x encode-only,
a 200-move replay at most 8 MiB.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
import renderer
from engine.bakers.position import EMPTY, Position
from engine.cards import parse_card
from engine.solver import solve

BK = "BK1-C4-AAAAA24"
CA = "CA1-AAAAA24"


def median_ms(
    fns: list[Callable[[], object]], runs: int, clock: Callable[[], float] = time.perf_counter
) -> list[float]:
    """Median ms of each function; runs are interleaved so background load hits all alike.
    ``clock=time.thread_time`` counts this thread's CPU time only (steadier on a busy box)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, out in zip(fns, times, strict=True):
            t = clock()
            fn()
            out.append(clock() - t)
    return [statistics.median(t) * 1000 for t in times]


def _encode(image: object, level: int) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def random_actions(code: str, count: int, seed: int = 7) -> list[str]:
    """A legal action log of ``count`` entries: random moves with an undo now and then."""
    game, rng, actions = engine.new_game(code), random.Random(seed), []
    while len(actions) < count:
        moves = game.legal_moves()
        if game.undo_depth and (not moves or rng.random() < 0.1):
            try:
                game.undo()
                actions.append("undo")
                continue
            except engine.IllegalMove:
                pass
        if not moves:
            break
        game.play(rng.choice(moves))
        actions.append(game.moves[-1])
    return actions


def bakers_mid_game() -> engine.Game:
    game = engine.new_game(BK)
    game.replay(solve(game, time_limit=10).moves[:40])
    return game


def bakers_long_column() -> engine.Game:
    """A 19-card column (6 dealt cards under a full K-A run), the longest the rules allow."""
    game = engine.new_game(BK)
    spades = [parse_card(r + "S") for r in "KQJT98765432A"]
    others = [c for c in game.position.all_cards() if c not in spades]
    cols = [others[i * 6 : i * 6 + 6] for i in range(6)] + [others[36:], []]
    cols[0] += spades
    game.position = Position(cols, [EMPTY] * 4, [0] * 4)
    return game


def bakers_won() -> engine.Game:
    game = engine.new_game(BK)
    game.replay(solve(game, time_limit=10).moves)
    return game


def calculation_mid_game() -> engine.Game:
    game, rng = engine.new_game(CA), random.Random(5)
    for _ in range(24):
        moves = game.legal_moves()
        home = [m for m in moves if "f" in m]
        game.play(rng.choice(home or moves))
    return game


def calculation_long_piles() -> engine.Game:
    """Every stock card onto waste piles 1 and 2: two piles of 24."""
    game = engine.new_game(CA)
    k = 0
    while game.turned is not None:
        game.play(f"sw{1 + k % 2}")
        k += 1
    return game


POSITIONS: dict[str, Callable[[], engine.Game]] = {
    "bakers start": lambda: engine.new_game(BK),
    "bakers mid-game (40 moves, last move marked)": bakers_mid_game,
    "bakers 19-card column": bakers_long_column,
    "bakers won": bakers_won,
    "calculation start": lambda: engine.new_game(CA),
    "calculation mid-game (24 moves)": calculation_mid_game,
    "calculation two 24-card waste piles": calculation_long_piles,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--save", type=Path, help="write each picture into this folder")
    args = ap.parse_args()
    print(
        f"PNG compress_level={renderer.PNG_LEVEL}, {renderer.WIDTH}x{renderer.HEIGHT} px, {args.runs} runs each"
    )
    print(f"{'':46} {'wall clock (ms)':^26} {'CPU time of this thread (ms)':^34}")
    print(
        f"{'position':46} {'render+enc':>10} {'encode':>7} {'ratio':>6}  "
        f"{'render+enc':>10} {'encode':>7} {'ratio':>6} {'draw':>6} {'PNG KiB':>8}"
    )
    for name, build in POSITIONS.items():
        game = build()
        png = renderer.render_png(game)  # warms the sprite caches, as in a running bot
        image = renderer.render_image(game)
        fns = [
            lambda g=game: renderer.render_png(g),
            lambda im=image: renderer.encode_png(im),
            lambda g=game: renderer.render_image(g),
        ]
        total, encode, _ = median_ms(fns, args.runs)
        cpu_total, cpu_encode, cpu_draw = median_ms(fns, args.runs, time.thread_time)
        print(
            f"{name:46} {total:10.2f} {encode:7.2f} {total / encode:6.2f}  "
            f"{cpu_total:10.2f} {cpu_encode:7.2f} {cpu_total / cpu_encode:6.2f} {cpu_draw:6.2f}"
            f" {len(png) / 1024:8.1f}"
        )
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            slug = name.split(" (")[0].replace(" ", "-")
            (args.save / f"{slug}.png").write_bytes(png)
    game = bakers_mid_game()
    image = renderer.render_image(game)
    print("zlib level for the mid-game board (PNG_LEVEL picks one):")
    for level in (1, 3, 6, 9):
        ms = median_ms([lambda lv=level: _encode(image, lv)], args.runs)[0]
        print(f"  compress_level={level}: encode {ms:6.2f} ms, {len(_encode(image, level)) / 1024:5.1f} KiB")
    for fn in (renderer.bakers.background, renderer.cards.card_sprite, renderer.text.text_sprite):
        fn.cache.clear()
    cold = time.perf_counter()
    renderer.render_png(game)
    print(f"first board from cold caches (sprites drawn): {(time.perf_counter() - cold) * 1000:.0f} ms")
    for code in (BK, CA):
        actions = random_actions(code, 200)
        for fmt in ("gif", "png"):
            t = time.perf_counter()
            data = renderer.render_replay(code, actions, fmt=fmt)
            print(
                f"replay {code} {len(actions)} actions as {fmt.upper()}: {len(data) / 2**20:.2f} MiB "
                f"in {time.perf_counter() - t:.2f} s"
            )
            if args.save:
                (args.save / f"replay-{code}.{fmt}").write_bytes(data)


if __name__ == "__main__":
    main()
