"""Engine speed: moves applied per second, legal-move listings per second on
mid-game positions, and the time to rebuild a 150-move game from code + moves.

Run: ``.venv/bin/python benchmarks/engine.py`` (target: rebuild median < 2 ms).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine


def random_game(deal: int, length: int, rng: random.Random) -> engine.Game:
    """A game of ``length`` random legal actions (about one in ten an undo)."""
    game = engine.new_game(engine.code_for("bakers", deal, 4))
    while len(game.moves) < length:
        legal = game.legal_moves()
        if game.undo_depth and (not legal or rng.random() < 0.1):
            game.undo()
        elif legal:
            # Mostly purposeful play (home first, fewer cell moves) so positions stay lively.
            home = [m for m in legal if m.endswith("h")]
            tableau = [m for m in legal if m[-1].isdigit() or "v" in m]
            pool = home or (tableau if tableau and rng.random() < 0.8 else legal)
            game.play(rng.choice(pool))
        else:
            break
    return game


def mid_game_positions(deals: range) -> list[engine.Game]:
    """Positions a real player meets: a third of the way along the solver's winning line."""
    from engine.solver import solve

    out = []
    for deal in deals:
        game = engine.new_game(engine.code_for("bakers", deal, 4))
        result = solve(game, time_limit=5.0)
        if result.verdict != "winnable":
            continue
        for move in result.moves[: len(result.moves) // 3]:
            game.play(move)
        out.append(game)
    return out


def main() -> None:
    rng = random.Random(2026)
    games = [random_game(deal, 150, rng) for deal in range(200)]
    logs = [(g.code, g.moves) for g in games if len(g.moves) == 150]

    rebuild = []
    for code, moves in logs:
        for _ in range(5):
            t0 = time.perf_counter()
            engine.replay(code, moves)
            rebuild.append(time.perf_counter() - t0)
    rebuild.sort()
    total_actions = sum(len(m) for _, m in logs) * 5
    moves_per_s = total_actions / sum(rebuild)

    mid = mid_game_positions(range(1, 101))
    t0 = time.perf_counter()
    rounds = 0
    listed = 0
    while time.perf_counter() - t0 < 2.0:
        for g in mid:
            listed += len(g.legal_moves())
        rounds += len(mid)
    listing_s = time.perf_counter() - t0

    print(f"games rebuilt: {len(logs)} x 5 (150 actions each, ~10% undo)")
    print(
        f"rebuild 150-action game: median {statistics.median(rebuild) * 1e3:.2f} ms, "
        f"p95 {rebuild[int(len(rebuild) * 0.95)] * 1e3:.2f} ms (target median < 2 ms)"
    )
    print(f"moves applied (parse + check + apply, via replay): {moves_per_s:,.0f} /s")
    print(
        f"legal-move listings on {len(mid)} mid-game positions: {rounds / listing_s:,.0f} /s "
        f"({listed / rounds:.1f} moves per listing)"
    )


if __name__ == "__main__":
    main()
