"""``python -m engine``'s contract under fuzzing (issue 15).

Bad input exits 2 with one line on stderr and nothing on stdout; success exits
0 (``play``, ``solve`` and ``hint`` print one JSON object); never a traceback.
About 3,000 seeded cases call ``engine.__main__.main`` in-process with captured
streams, and 20 of them go through a real ``python -m engine`` subprocess.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.__main__ import main
from engine.bakers import BakersGame
from engine.cli_args import MAX_ARG_CHARS, MAX_TIME_LIMIT
from engine.codes import MAX_DEAL

ROOT = Path(__file__).resolve().parents[1]
SEED = 15
CASES = 3000
SUBPROCESS_CASES = 20
QUICK = "0.02"  # the budget every fuzzed solve/hint ends with, so a valid case stays fast

ODD_CHARS = [
    *"abcdefghwvxyzAHV0123456789-_ .,;:/\\'\"`~!?#%&*()[]{}<>|+=@$^",
    "²", "³", "¹", "٣", "۴", "५", "০", "௧", "１", "９", "Ⅻ", "½", "⁴", "₂",  # digits Python's isdigit / int() accept
    "ß", "ﬁ", "ı", "ǆ", "Ω", "é", "e\u0301", "\u200f", "\u202e", "\ufeff", "\u00a0", "\u3000",
    "♠", "♥", "🂡", "😀", "\t", "\n", "\r", "\x0b", "\x1b", "\x7f", "\udcff", "\ud800", "\0",
]  # fmt: skip
ODD_TIMES = [
    "0", "-1", "-0", "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "1e-400", "1e309", "61",
    "1e3", str(MAX_TIME_LIMIT + 0.001), "9" * 400, "9" * 30, "0x10", "1_0", "١", "٠.٠٢", "５", "",
    " ", "abc", "1.2.3", "+", ".", "e5", "0.02s", "+0.01", ".01", " 0.01 ", "1e-3",
]  # fmt: skip
ODD_NODES = ["0", "-5", "1", "50", "1e6", "99999999999999999999", "٣", "nan", "", "1000000000", "2000"]


def mutate(rng: random.Random, text: str) -> str:
    """One to three random edits: replace, insert, delete, case, repeat or truncate."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(7)
        i = rng.randrange(len(text) + 1)
        if op == 0 and text:
            text = text[: min(i, len(text) - 1)] + rng.choice(ODD_CHARS) + text[min(i, len(text) - 1) + 1 :]
        elif op == 1:
            text = text[:i] + rng.choice(ODD_CHARS) + text[i:]
        elif op == 2 and text:
            text = text[:i] + text[i + 1 :]
        elif op == 3:
            text = text.lower() if rng.random() < 0.5 else text.swapcase()
        elif op == 4:
            text = text * rng.choice([2, 5, 40])
        elif op == 5:
            text = text[:i]
        else:
            text = text[:i] + str(rng.choice([10**20, 2**64, -1, 10**400 % 97, 255])) + text[i:]
    return text


def a_code(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.45:
        code = engine.code_for("bakers", rng.randrange(MAX_DEAL + 1), rng.choice([4, 2, 1]))
    else:
        code = engine.code_for("calculation", rng.randrange(MAX_DEAL + 1))
    r = rng.random()
    if r < 0.55:
        return code
    if r < 0.9:
        return mutate(rng, code)
    return rng.choice(
        ["", " ", "-", "BK", "CA1", "BK1-C4-", "x" * (MAX_ARG_CHARS + 1), "BK²-C4-AAAAA24", "CA٣-AAAAA24"]
    )


def some_moves(rng: random.Random, code: str) -> list[str]:
    """A legal prefix of random moves (when the code is valid), then perhaps odd ones."""
    moves: list[str] = []
    try:
        game = engine.new_game(code)
    except ValueError:
        game = None
    if game is not None:
        for _ in range(rng.choice([0, 1, 3, 10, 40])):
            legal = game.legal_moves()
            if legal and rng.random() < 0.9:
                moves.append(game.play(rng.choice(legal)).notation)
            elif game.undo_depth:
                with contextlib.suppress(engine.IllegalMove):  # Calculation never un-turns a card
                    game.undo()
                    moves.append("undo")
    for _ in range(rng.choice([0, 0, 1, 1, 2, 4])):
        base = rng.choice([*moves[-3:], "1a", "3h", "18v2", "a5", "sf1", "w2f3", "sw4", "undo", "27"])
        odd = rng.random()
        if odd < 0.7:
            base = mutate(rng, base)
        elif odd < 0.85:
            base = rng.choice(
                ["UNDO", " undo ", "undö", "18v99999999999999999999", "9" * 33, "1" * 300, "１a", "١a", "3h²"]
            )
        moves.insert(rng.randrange(len(moves) + 1), base)
    return moves


def a_case(rng: random.Random) -> list[str]:
    r = rng.random()
    if r < 0.05:  # junk commands and options
        return [mutate(rng, rng.choice(["deal", "play", "solve", "hint", "--x", "-"]))] + [
            mutate(rng, "x") for _ in range(rng.randrange(3))
        ]
    command = "play" if r < 0.62 else "deal" if r < 0.75 else "solve" if r < 0.9 else "hint"
    code = a_code(rng)
    argv = [command, code]
    if command == "deal":
        return argv + ([mutate(rng, "x")] if rng.random() < 0.1 else [])
    argv += some_moves(rng, code)
    argv = [a for a in argv if a not in ("-h", "--help") and not a.startswith("--h")]
    if command in ("solve", "hint"):
        if rng.random() < 0.3:
            argv += ["--time-limit", rng.choice(ODD_TIMES)]
        elif command == "solve" and rng.random() < 0.2:
            argv += ["--node-limit", rng.choice(ODD_NODES), "--time-limit", QUICK]
        else:
            argv += ["--time-limit", QUICK]
        if not any(a.startswith("--time-limit") for a in argv[-2:]):
            argv += ["--time-limit", QUICK]
    return argv


def cases(count: int, seed: int = SEED) -> list[list[str]]:
    rng = random.Random(seed)
    return [a_case(rng) for _ in range(count)]


def check(argv: list[str], rc: int, out: str, err: str) -> None:
    where = f"argv={argv!r} rc={rc} stdout={out[:200]!r} stderr={err[:300]!r}"
    assert rc in (0, 2), where
    assert "Traceback" not in err, where
    if rc == 2:
        assert out == "", where
        assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("error: "), where
    elif argv[0] in ("play", "solve", "hint"):
        json.loads(out)
        assert err == "", where
    else:
        assert out and err == "", where


def run_in_process(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_fuzzed_calls_in_process_keep_the_contract() -> None:
    seen = {0: 0, 2: 0}
    for argv in cases(CASES):
        rc, out, err = run_in_process(argv)
        check(argv, rc, out, err)
        seen[rc] += 1
    assert seen[0] > CASES // 10 and seen[2] > CASES // 10, seen  # both sides are really exercised


@pytest.mark.processes
def test_fuzzed_calls_through_a_real_subprocess() -> None:
    rng = random.Random(SEED + 1)
    # a real command line cannot carry NUL or lone surrogates (the in-process cases have them)
    picked = [
        a
        for a in cases(400, SEED + 1)
        if not any(ch == "\0" or "\ud800" <= ch <= "\udfff" for x in a for ch in x)
    ]
    chosen = [
        *rng.sample(picked, SUBPROCESS_CASES - 4),
        ["play", "BK²-C4-AAAAA24"],
        ["deal", "BK²-C4-AAAAA24"],
        ["solve", "CA٣-AAAAA24", "--time-limit", QUICK],
        ["play", "BK1-C4-AAAAA24", "6h", "1a"],
    ]
    for argv in chosen:
        done = subprocess.run(
            [sys.executable, "-m", "engine", *argv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        check(argv, done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "BK1-C4-AAAAA24", "6h\0"],
        ["play", "BK1-C4-AAAAA24", "\udcff"],
        ["play", "BK1-C4-AAAAA24", *["1a", "undo"] * 6000],
        ["play", "BK1-C4-AAAAA24", "x" * 1000],
        ["solve", "BK1-C4-AAAAA24", "--time-limit", "1e308"],
        ["solve", "BK1-C4-AAAAA24", "--time-limit", "-inf"],
        ["solve", "BK1-C4-AAAAA24", "--time-limit", "nan"],
        ["solve", "BK1-C4-AAAAA24", "--time-limit", "9" * 150],
        ["solve", "BK1-C4-AAAAA24", "--node-limit", "10" + "0" * 30],
        ["hint", "BK1-C4-AAAAA24", "--time-limit", "3600"],
        ["deal", "BK²-C4-AAAAA24"],
        ["solve", "BK²-C4-AAAAA24"],
        ["play", "BK1-C4-AAAAA24", "18v" + "9" * 25],
        [],
        ["nope"],
    ],
)
def test_odd_input_is_exit_2_in_one_line(argv: list[str]) -> None:
    rc, out, err = run_in_process(argv)
    assert (rc, out) == (2, ""), (argv[:4], rc, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_internal_error_is_one_line_exit_1_with_a_debug_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object) -> str:
        raise RuntimeError("wires crossed")

    monkeypatch.setattr(BakersGame, "board_text", boom)
    rc, out, err = run_in_process(["deal", "BK1-C4-AAAAA24"])
    assert (rc, out) == (1, "")
    assert err.count("\n") == 1 and "internal error" in err and "RuntimeError: wires crossed" in err
    monkeypatch.setenv("BOULANGER_DEBUG", "1")
    rc, out, err = run_in_process(["deal", "BK1-C4-AAAAA24"])
    assert rc == 1 and "Traceback" in err and "wires crossed" in err


def test_help_still_works() -> None:
    rc, out, _ = run_in_process(["--help"])
    assert rc == 0 and "deal" in out and "hint" in out
    rc, out, _ = run_in_process(["solve", "--help"])
    assert rc == 0 and "--time-limit" in out


HINT_KEYS = ["move", "undo", "winnable"]
# A 4-cell deal 11 game that a player has lost: 5 undos lead back to a winnable position.
LOST_MOVES = [
    "2h", "6h", "8a", "7b", "34", "3c", "3d", "3h", "36", "b6", "3b", "3h", "53",
    "16", "b1", "3b", "d3", "b3", "7b", "7d", "b5", "8b", "27", "26", "b2", "3b",
]  # fmt: skip


def hint_json(argv: list[str]) -> dict[str, object]:
    rc, out, err = run_in_process(["hint", *argv])
    assert (rc, err) == (0, ""), (argv, rc, err)
    assert out.endswith("\n") and out.count("\n") == 1
    data = json.loads(out)
    assert list(data) == HINT_KEYS, data  # exactly these keys, nothing else
    assert data["move"] is None or isinstance(data["move"], str)
    assert isinstance(data["undo"], int) and not isinstance(data["undo"], bool) and data["undo"] >= 0
    assert data["winnable"] in (True, False, None)
    return data


def test_hint_answers_both_games() -> None:
    data = hint_json(["BK1-C4-AAAAA24", "--time-limit", "5"])
    assert data["undo"] == 0 and data["winnable"] is True
    assert engine.replay("BK1-C4-AAAAA24", [str(data["move"])])
    data = hint_json(["CA1-AAAAA24", "--time-limit", "1"])
    assert data["undo"] == 0 and data["winnable"] is None  # the hint player cannot know
    assert engine.replay("CA1-AAAAA24", [str(data["move"])])


def test_hint_shape_for_every_kind_of_answer() -> None:
    bakers = engine.code_for("bakers", 11, 4)
    assert hint_json([bakers, *LOST_MOVES, "--time-limit", "10"]) == {
        "move": None,
        "undo": 5,
        "winnable": False,
    }
    unwinnable = engine.code_for("bakers", 2, 4)
    assert hint_json([unwinnable, "--time-limit", "10"]) == {"move": None, "undo": 0, "winnable": False}
    assert hint_json([engine.code_for("bakers", 29, 4), "--time-limit", "0.001"]) == {
        "move": None,
        "undo": 0,
        "winnable": None,
    }
    # a finished Calculation game: nothing to play, and now it is known
    game = engine.new_game(engine.code_for("calculation", 5))
    while game.outcome is not None or game.legal_moves():
        if game.outcome is not None:
            break
        game.play(game.hint(rollouts=8, seed=5) or "")
    assert hint_json([game.code, *game.moves]) == {"move": None, "undo": 0, "winnable": game.is_won}
    # a batched action (a Home press) in the moves, and after the hint's own move
    data = hint_json(["BK1-C4-AAAAA24", "6h,7a", "--time-limit", "5"])
    assert data["winnable"] is True and data["move"]


@pytest.mark.parametrize(
    "argv",
    [
        ["BK1-C4-AAAAA24", "zz"],
        ["BK1-C4-AAAAA24", "1h"],
        ["BK1-C4-AAAA"],
        ["CA1-AAAAA24", "w1f9"],
        ["BK1-C4-AAAAA24", "--time-limit", "0"],
        ["BK1-C4-AAAAA24", "6h,zz"],
        [],
    ],
)
def test_hint_bad_input_is_exit_2(argv: list[str]) -> None:
    rc, out, err = run_in_process(["hint", *argv])
    assert (rc, out) == (2, ""), (argv, rc, out, err)
    assert err.count("\n") == 1 and err.startswith("error: ")


@pytest.mark.processes
@pytest.mark.parametrize(
    ("stdout", "says"),
    [("closed", "standard output is closed"), ("/dev/full", "No space left on device")],
)
def test_a_closed_or_full_stdout_is_one_line_and_exit_1_not_a_traceback(stdout, says):
    """Issue 25: ``python -m engine … >&-`` and ``> /dev/full``."""
    root = Path(__file__).resolve().parent.parent
    command = [sys.executable, "-m", "engine", "deal", "BK1-C4-AAAAA24"]
    if stdout == "closed":
        done = subprocess.run(
            ["bash", "-c", '"$@" >&-', "-", *command], cwd=root, capture_output=True, text=True, timeout=60
        )
    else:
        with open(stdout, "w") as full:
            done = subprocess.run(
                command, cwd=root, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
            )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"error: could not write the output: {says}"], done.stderr
