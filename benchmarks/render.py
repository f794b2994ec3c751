"""Renderer speed and sizes: ``python benchmarks/render.py [--save DIR]``.

Prints, per position, the median time to render + encode a board, the median
time just to encode the finished image, their ratio and the PNG size, all with
``renderer.png``'s band cache emptied before each call (a picture never seen:
every band deflated); Pillow's own encoder on the same image for comparison;
then the select-render (the same board with a source highlighted, the plain
board encoded just before, as after a move) and the move-render (the board
after a move, the board before it with the source selected encoded just
before, as in a two-press move); then the size and time of a 200-action
animated replay. ``--save`` also writes every picture (for looking at them).
``--versus-pillow`` (issue 26) prints only the pictures as the bot sends them against a
bare Pillow encode of the same image: per board kind and per press of a played game,
the CPU of ``renderer.render_png`` (drawing and encoding, the encoder's caches as a
running bot leaves them) over Pillow's ``Image.save(format="PNG", compress_level=3)``
of the same image (the palette image the bot's PNG holds), and both sizes; then whole
games (``GAMES``: Baker's, FreeCell, Calculation, each in both decks), every board sent.
``--games-at-once N`` draws N games in turn, a random move each (issue 26: the column-sprite
memo must hold every game's columns), and prints the CPU a board.
Targets (issue 4): a typical board at most 60 KiB, render + encode at most
25 ms and at most 1.5x encode-only, a 200-move replay at most 8 MiB.
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
from tests.actions import random_actions

BK = "BK1-C4-AAAAA24"
CA = "CA1-AAAAA24"
FC = "FC1-C4-MS1"
# The games --versus-pillow plays through: (code, title, deck); Baker's on the solver's
# line, the others a seeded random one (``_plays``).
GAMES = [
    (BK, "Baker's", "two"),
    (BK, "Baker's", "four"),
    (FC, "FreeCell", "two"),
    (FC, "FreeCell", "four"),
    (CA, "Calculation", "two"),
    (CA, "Calculation", "four"),
]


def median_ms(
    fns: list[Callable[[], object]],
    runs: int,
    clock: Callable[[], float] = time.perf_counter,
    setup: Callable[[], object] = renderer.png.clear,
) -> list[float]:
    """Median ms of each function; runs are interleaved so background load hits all alike.
    ``setup`` runs untimed before each call (by default: empty the PNG band cache).
    ``clock=time.thread_time`` counts this thread's CPU time only (steadier on a busy box)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, out in zip(fns, times, strict=True):
            setup()
            t = clock()
            fn()
            out.append(clock() - t)
    return [statistics.median(t) * 1000 for t in times]


def _pillow(image: object, level: int = 3) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=level)  # type: ignore[attr-defined]
    return buf.getvalue()


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


def calculation_48_card_pile() -> engine.Game:
    """Every stock card onto waste pile 1: the longest pile there can be."""
    game = engine.new_game(CA)
    while game.turned is not None:
        game.play("sw1")
    return game


POSITIONS: dict[str, Callable[[], engine.Game]] = {
    "bakers start": lambda: engine.new_game(BK),
    "bakers mid-game (40 moves, last move marked)": bakers_mid_game,
    "bakers 19-card column": bakers_long_column,
    "bakers won": bakers_won,
    "calculation start": lambda: engine.new_game(CA),
    "calculation mid-game (24 moves)": calculation_mid_game,
    "calculation two 24-card waste piles": calculation_long_piles,
    "calculation 48-card waste pile": calculation_48_card_pile,
}
SOURCE = {"bakers": "1", "calculation": "s"}  # what a select-render highlights


def save_phone_pictures(folder: Path) -> None:
    """A few boards as a phone shows them: scaled to 500 px wide, as Discord does."""
    from PIL import Image

    long_column = bakers_long_column()
    boards = {
        "phone-bakers-deal": (engine.new_game(BK), {}),
        "phone-bakers-19-card-column": (long_column, {"highlight": "1"}),
        "phone-bakers-four-colour": (bakers_mid_game(), {"deck": "four"}),
        "phone-calculation-48-card-pile": (calculation_48_card_pile(), {}),
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, (game, options) in boards.items():
        im = renderer.render_image(game, **options).convert("RGB")
        small = im.resize((500, round(im.height * 500 / im.width)), Image.Resampling.LANCZOS)
        small = small.quantize(colors=128, dither=Image.Dither.NONE)
        small.save(folder / f"{name}.png", optimize=True)
        print(f"{folder / name}.png: {small.width}x{small.height}")


def _plays(code: str, presses: int) -> list[tuple[engine.Game, object]]:
    """The boards a player is sent over ``presses`` presses: a select (the source
    highlighted), then the move (the board after it), and so on; Baker's follows the
    solver's line, FreeCell and Calculation a seeded random one."""
    game = engine.new_game(code)
    if code.startswith("BK"):
        line = solve(game, time_limit=10).moves
    else:
        line = random_actions(code, presses, seed=3)
        line = [a for a in line if a != "undo"]
    boards: list[tuple[engine.Game, object]] = [(engine.replay(code, []), None)]
    for notation in line[: presses // 2]:
        move = next(m for m in game.legal_move_objects() if m.notation == notation)
        boards.append((engine.replay(code, list(game.moves)), (move.src_kind, move.src)))
        game.play(notation)
        boards.append((engine.replay(code, list(game.moves)), None))
    return boards


def versus_pillow(runs: int) -> None:
    """Each board as the bot sends it (``render_png``: draw + encode, caches as in a running
    bot) against a bare Pillow encode of the same image; CPU time of this thread."""
    other = {"BK": "BK1-C4-AAAAAIS", "CA": "CA1-AAAAAIS"}

    def cases() -> dict[str, tuple[list[tuple[engine.Game, object]], int]]:
        """name: (boards rendered in order, index of the one measured); the ones before it
        are rendered untimed first, as the bot would have sent them."""
        out: dict[str, tuple[list[tuple[engine.Game, object]], int]] = {}
        for code, title in ((BK, "Baker's"), (CA, "Calculation")):
            warm = [(engine.new_game(other[code[:2]]), None)]  # another deal, sent before
            plays = _plays(code, 40)
            out[f"{title} start (another deal sent before)"] = (warm + plays[:1], 1)
            out[f"{title} start, nothing cached"] = (plays[:1], 0)
            mid = 20 if code == BK else 24  # a select press then its move, mid-game
            out[f"{title} mid-game select"] = (plays[: mid + 2], mid + 1)
            out[f"{title} mid-game move"] = (plays[: mid + 3], mid + 2)
        return out

    def one(boards: list[tuple[engine.Game, object]], at: int) -> tuple[float, float, int, int]:
        renderer.png.clear()
        for g, h in boards[:at]:
            renderer.render_png(g, highlight=h)
        g, h = boards[at]
        t = time.thread_time()
        data = renderer.render_png(g, highlight=h)
        ours = time.thread_time() - t
        image = renderer.render_image(g, highlight=h)
        t = time.thread_time()
        plain = _pillow(image)
        pillow = time.thread_time() - t
        return ours, pillow, len(data), len(plain)

    print(f"CPU time of this thread, median of {runs}; ours = renderer.render_png as sent")
    print(f"{'board':52} {'ours ms':>8} {'Pillow ms':>9} {'ratio':>6} {'ours KiB':>9} {'Pillow KiB':>10}")
    for name, (boards, at) in cases().items():
        renderer.render_png(boards[at][0])  # sprites drawn once, as in a running bot
        samples = [one(boards, at) for _ in range(runs)]
        ours = statistics.median(s[0] for s in samples) * 1000
        pillow = statistics.median(s[1] for s in samples) * 1000
        print(
            f"{name:52} {ours:8.2f} {pillow:9.2f} {ours / pillow:6.2f} "
            f"{samples[0][2] / 1024:9.1f} {samples[0][3] / 1024:10.1f}"
        )
    for code, title, deck in GAMES:
        boards = _plays(code, 40)
        totals = []
        for _ in range(max(5, runs // 10)):
            renderer.png.clear()
            ours = pillow = 0.0
            size_ours = size_pillow = 0
            for g, h in boards:
                t = time.thread_time()
                data = renderer.render_png(g, highlight=h, deck=deck)
                ours += time.thread_time() - t
                image = renderer.render_image(g, highlight=h, deck=deck)
                t = time.thread_time()
                plain = _pillow(image)
                pillow += time.thread_time() - t
                size_ours += len(data)
                size_pillow += len(plain)
            totals.append((ours, pillow, size_ours, size_pillow))
        ours = statistics.median(t[0] for t in totals) * 1000 / len(boards)
        pillow = statistics.median(t[1] for t in totals) * 1000 / len(boards)
        name = f"{title} game, {deck}-colour deck, {len(boards)} boards (mean)"
        print(
            f"{name:52} {ours:8.2f} {pillow:9.2f} {ours / pillow:6.2f} "
            f"{totals[0][2] / len(boards) / 1024:9.1f} {totals[0][3] / len(boards) / 1024:10.1f}"
        )


def games_at_once(count: int, sprites: int | None = None, rounds: int = 15) -> None:
    """``count`` Baker's games of different deals, one random move each in turn, each board drawn
    and encoded as the bot sends it (``renderer.render_png``): what a bot with ``count`` players
    at once draws (``benchmarks/bot.py``'s 50). Prints the CPU a board and how many column
    sprites were drawn anew a board (the rest came from ``renderer.games.tableau``'s memo, of
    ``sprites`` entries: default ``COLUMN_SPRITES``; 256 before issue 26's third step)."""
    from renderer.games import tableau

    memo = tableau.column_sprite
    memo._limit = sprites or tableau.COLUMN_SPRITES

    rng = random.Random(1)
    games = [engine.new_game(engine.code_for("bakers", 1000 + i, 4)) for i in range(count)]
    for game in games:  # every game's first board, as its start sends it
        renderer.render_png(game)
    build = tableau.column_sprite._fn
    drawn = [0]

    def counting(*args: object) -> object:
        drawn[0] += 1
        return build(*args)  # type: ignore[arg-type]

    tableau.column_sprite._fn = counting  # type: ignore[assignment]
    cpu, boards = 0.0, 0
    try:
        for _ in range(rounds):
            for game in games:
                moves = game.legal_moves()
                if not moves:
                    continue
                game.play(rng.choice(moves))
                t0 = time.thread_time()
                renderer.render_png(game)
                cpu += time.thread_time() - t0
                boards += 1
    finally:
        tableau.column_sprite._fn = build
    print(
        f"{count} Baker's games drawn in turn, {boards} boards: {cpu / boards * 1000:.2f} ms of CPU a board, "
        f"{drawn[0] / boards:.1f} of 8 column sprites drawn anew a board "
        f"(memo of {memo._limit})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--save", type=Path, help="write each picture into this folder")
    ap.add_argument(
        "--phone", type=Path, help="write a few boards scaled to 500 px wide (docs/images) and stop"
    )
    ap.add_argument(
        "--versus-pillow", action="store_true", help="only the pictures as sent against Pillow's encode"
    )
    ap.add_argument(
        "--games-at-once",
        type=int,
        metavar="N",
        help="only N games drawn in turn, as a bot with N players at once draws them",
    )
    ap.add_argument("--column-sprites", type=int, metavar="K", help="with --games-at-once: the memo's size")
    args = ap.parse_args()
    if args.games_at_once:
        games_at_once(args.games_at_once, args.column_sprites)
        return
    if args.versus_pillow:
        versus_pillow(args.runs)
        return
    if args.phone:
        save_phone_pictures(args.phone)
        return
    print(f"PNG compress_level={renderer.PNG_LEVEL}, {renderer.WIDTH} px wide, {args.runs} runs each")
    print(f"{'':38} {'wall clock (ms)':^25} {'CPU time of this thread (ms)':^40}")
    print(
        f"{'position':38} {'size':>8} {'render+enc':>10} {'encode':>7} {'ratio':>6}  "
        f"{'render+enc':>10} {'encode':>7} {'ratio':>6} {'draw':>5} {'Pillow':>6} {'PNG KiB':>8}"
    )
    for name, build in POSITIONS.items():
        game = build()
        png = renderer.render_png(game)  # warms the sprite caches, as in a running bot
        image = renderer.render_image(game)
        fns = [
            lambda g=game: renderer.render_png(g),
            lambda im=image: renderer.encode_png(im),
            lambda g=game: renderer.render_image(g),
            lambda im=image: _pillow(im),
        ]
        total, encode, _, _ = median_ms(fns, args.runs)
        cpu_total, cpu_encode, cpu_draw, cpu_pillow = median_ms(fns, args.runs, time.thread_time)
        size = f"{image.width}x{image.height}"
        print(
            f"{name:38} {size:>8} {total:10.2f} {encode:7.2f} {total / encode:6.2f}  "
            f"{cpu_total:10.2f} {cpu_encode:7.2f} {cpu_total / cpu_encode:6.2f} {cpu_draw:5.2f}"
            f" {cpu_pillow:6.2f} {len(png) / 1024:8.1f}"
        )
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            slug = name.split(" (")[0].replace(" ", "-")
            (args.save / f"{slug}.png").write_bytes(png)
    print("select-render: the board with a source highlighted, the plain board encoded just before")
    print("move-render: the board after a move, the board before it (source selected) encoded just before")
    for name, build in (
        ("bakers start", lambda: engine.new_game(BK)),
        ("bakers mid-game", bakers_mid_game),
        ("calculation mid-game", calculation_mid_game),
    ):
        game = build()
        move = game.legal_move_objects()[0]
        src = (move.src_kind, move.src)
        after = engine.replay(game.code, [*game.moves, move.notation])
        full_ms, select_ms, move_ms = [], [], []
        for clock in (time.perf_counter, time.thread_time):
            full = median_ms([lambda g=game, h=src: renderer.render_png(g, highlight=h)], args.runs, clock)[0]
            select = median_ms(
                [lambda g=game, h=src: renderer.render_png(g, highlight=h)],
                args.runs,
                clock,
                setup=lambda g=game: (renderer.png.clear(), renderer.render_png(g)),
            )[0]
            moved = median_ms(
                [lambda g=after: renderer.render_png(g)],
                args.runs,
                clock,
                setup=lambda g=game, h=src: (renderer.png.clear(), renderer.render_png(g, highlight=h)),
            )[0]
            full_ms.append(full)
            select_ms.append(select)
            move_ms.append(moved)
        renderer.png.clear()
        renderer.render_png(game)
        before = dict(renderer.png.counts)
        renderer.render_png(game, highlight=src)
        bands = before["miss"]
        fresh = renderer.png.counts["miss"] - before["miss"]
        print(
            f"  {name:22} full render {full_ms[0]:5.2f} ms (CPU {full_ms[1]:5.2f}), "
            f"select-render {select_ms[0]:5.2f} ms (CPU {select_ms[1]:5.2f}, {fresh} of {bands} bands deflated), "
            f"move-render {move_ms[0]:5.2f} ms (CPU {move_ms[1]:5.2f})"
        )
    game = bakers_mid_game()
    image = renderer.render_image(game)
    print("zlib-ng level for the mid-game board (PNG_LEVEL picks one):")
    for level in (1, 3, 6, 9):
        ms = median_ms([lambda lv=level: renderer.png.encode(image, lv)], args.runs)[0]
        data = renderer.png.encode(image, level)
        print(f"  compress_level={level}: encode {ms:6.2f} ms, {len(data) / 1024:5.1f} KiB")
    for fn in (renderer.games.tableau.background, renderer.cards.card_sprite, renderer.text.text_sprite):
        fn.cache.clear()
    renderer.png.clear()
    cold = time.perf_counter()
    renderer.render_png(game)
    print(f"first board from cold caches (sprites drawn): {(time.perf_counter() - cold) * 1000:.0f} ms")
    for code in (BK, CA):
        actions = random_actions(code, 200, seed=7)
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
