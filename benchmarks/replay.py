"""Replay memory, time and size: ``python benchmarks/replay.py [--legacy] [--actions 200 2000 5000]``.

Each case runs in a fresh child process (so one case's peak cannot hide
another's) that builds a seeded random legal action log (about one action in
ten an undo), warms the sprite caches with one board, then renders the replay
and reports: wall time, output size, frame count, the process's peak RSS
(``ru_maxrss``) before and after the call, and, in a second child, the peak of
Python-traced memory (``tracemalloc``; Pillow's pixel buffers are allocated
outside Python's allocator, so this counts bytes objects, buffers and lists
only, which is why RSS is the headline figure).

``--legacy`` measures the implementation before issue 15 (every frame kept in
memory, then one Pillow ``save(save_all=True)``), kept below verbatim so the
"before" figures stay reproducible; its children run under an address-space
limit (``--legacy-limit-gib``, default 12) so a long game fails with
MemoryError instead of taking the shared machine down.
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import renderer  # noqa: E402
from tests.actions import random_actions  # noqa: E402

CODES = {"bakers": "BK1-C4-AAAAA24", "calculation": "CA1-AAAAA24"}


def legacy_render_replay(code: str, moves: list[str], fmt: str = "gif") -> bytes:
    """renderer/replay.py as of aff2731: all frames in a list, then one Pillow save."""
    from renderer.boards import board_for
    from renderer.labels import resolve

    words = resolve(None)
    game = engine.new_game(code)
    board = board_for(game)
    frames = [board.render(game, None, words)]
    for action in moves:
        game.play(action)
        frames.append(board.render(game, None, words))
    durations = [1200] + [450] * (len(frames) - 2) + [4000]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        "GIF" if fmt == "gif" else "PNG",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
    )
    return buf.getvalue()


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def child(game: str, count: int, fmt: str, legacy: bool, traced: bool) -> dict[str, object]:
    code = CODES[game]
    actions = random_actions(code, count, seed=7)
    renderer.render_png(engine.new_game(code))  # warm caches, as in a running bot
    render = legacy_render_replay if legacy else renderer.render_replay
    before = rss_mib()
    if traced:
        tracemalloc.start()
    t = time.perf_counter()
    try:
        data = render(code, actions, fmt=fmt)
    except MemoryError:
        return {"error": "MemoryError", "rss_before": before, "rss_peak": rss_mib()}
    seconds = time.perf_counter() - t
    out: dict[str, object] = {"actions": len(actions), "seconds": round(seconds, 2)}
    if traced:
        out["traced_peak_mib"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
        tracemalloc.stop()
    from PIL import Image

    out |= {
        "bytes": len(data),
        "frames": Image.open(io.BytesIO(data)).n_frames,
        "rss_before": round(before, 1),
        "rss_peak": round(rss_mib(), 1),
    }
    return out


def run_child(args: list[str], limit_gib: float | None) -> dict[str, object]:
    def limit() -> None:
        if limit_gib:
            cap = int(limit_gib * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    done = subprocess.run(
        [sys.executable, __file__, "--child", *args],
        capture_output=True,
        text=True,
        preexec_fn=limit,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, nargs="+", default=[200, 2000, 5000])
    ap.add_argument("--games", nargs="+", default=list(CODES), choices=list(CODES))
    ap.add_argument("--formats", nargs="+", default=["gif"], choices=["gif", "png"])
    ap.add_argument("--legacy", action="store_true", help="measure the pre-issue-15 implementation")
    ap.add_argument("--legacy-limit-gib", type=float, default=12.0)
    ap.add_argument("--no-traced", action="store_true", help="skip the tracemalloc runs")
    ap.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        game, count, fmt, legacy, traced = args.child
        print(json.dumps(child(game, int(count), fmt, legacy == "1", traced == "1")))
        return
    limit = args.legacy_limit_gib if args.legacy else None
    print(f"{'legacy' if args.legacy else 'current'} implementation")
    print(
        f"{'game':12} {'fmt':4} {'actions':>7} {'frames':>6} {'MiB out':>8} {'s':>6} "
        f"{'RSS before':>10} {'RSS peak':>9} {'growth':>7} {'traced peak':>11}"
    )
    for game in args.games:
        for fmt in args.formats:
            for count in args.actions:
                flags = ["1" if args.legacy else "0"]
                r = run_child([game, str(count), fmt, *flags, "0"], limit)
                if "error" in r:
                    print(f"{game:12} {fmt:4} {count:7} failed: {r['error']} {r}")
                    continue
                traced = "-"
                if not args.no_traced:
                    t = run_child([game, str(count), fmt, *flags, "1"], limit)
                    traced = f"{t['traced_peak_mib']} MiB" if "traced_peak_mib" in t else str(t.get("error"))
                growth = float(r["rss_peak"]) - float(r["rss_before"])  # type: ignore[arg-type]
                print(
                    f"{game:12} {fmt:4} {r['actions']:7} {r['frames']:6} "
                    f"{int(r['bytes']) / 2**20:8.2f} {r['seconds']:6} "  # type: ignore[call-overload]
                    f"{r['rss_before']:10} {r['rss_peak']:9} {growth:7.1f} {traced:>11}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
