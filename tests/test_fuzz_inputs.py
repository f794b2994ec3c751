"""Fuzzing every way a player's input reaches the bot: custom ids and the service's entry points.

Nothing a player (or a forger) sends may raise anything but ``UserFeedback``,
``engine.EngineError`` or ``storage.StorageError``, and each of those must have a text
in the catalogue (so the error ladder answers it, not "something went wrong").

* custom ids: strings generated from every ``DynamicItem`` template (and near misses:
  truncations, extensions, swapped characters, random text) must never make
  ``from_custom_id`` raise (discord.py would swallow it and leave the press unanswered);
  what they carry is checked when pressed (here: the question's request);
* the service: ``start/press/play/undo/resign/show/hint/game_for_move`` with random user
  ids, game ids (existing ones and any integer), versions, selections, actions and
  notations (huge and odd Unicode included), on one store that fills up as it goes.

The suite runs 10,100 examples in total (about 15 s on the 2-core machine);
``BOULANGER_FUZZ_EXAMPLES=N`` runs N examples per test instead, for a long run.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import engine
import storage
from bot.adapter.again import AgainButton, DailyButton, WinnableButton
from bot.adapter.cogs.leaderboard import PageButton
from bot.adapter.cogs.race import CreateChoice, DealButton, JoinChoice, RaceButton
from bot.adapter.confirm import StartChoice
from bot.adapter.errors import error_text
from bot.adapter.game_buttons import GameButtonBase
from bot.adapter.replays import ReplayButton
from bot.adapter.views import CardsButton, GameButton, MoveMenu
from bot.languages.i18n import template
from bot.play.feedback import UserFeedback
from bot.play.service import GameService
from bot.play.starting import StartRequest

pytestmark = pytest.mark.slow  # thousands of generated inputs (BOULANGER_FUZZ_EXAMPLES)

ITEMS = (
    GameButton,
    MoveMenu,
    CardsButton,
    ReplayButton,
    StartChoice,
    DailyButton,
    PageButton,
    AgainButton,
    WinnableButton,
    RaceButton,
    JoinChoice,
    CreateChoice,
    DealButton,
)
TEMPLATES = [item.custom_id_pattern for item in ITEMS]
# Bases the buttons above share, never registered with the client themselves (no id reaches
# them): their subclasses are the ones fuzzed.
BASES = (GameButtonBase,)


def is_ours(custom_id: str) -> bool:
    return any(t.fullmatch(custom_id) for t in TEMPLATES)


ALLOWED = (UserFeedback, engine.EngineError, storage.StorageError)


def examples(default: int) -> int:
    wanted = os.environ.get("BOULANGER_FUZZ_EXAMPLES")
    return int(wanted) if wanted else default


def fuzz(default: int) -> Any:
    return settings(
        max_examples=examples(default),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )


def has_text(error: BaseException) -> bool:
    """The error ladder has a catalogue text for it (not the bug reply, not a bare key)."""
    text = error_text("en", error)
    if text is None:
        return False
    if isinstance(error, UserFeedback):
        return template("en", error.key) != error.key
    if isinstance(error, engine.EngineError):
        return any(
            template("en", f"engine.{error.reason}{v}") != f"engine.{error.reason}{v}" for v in ("", ".alt")
        )
    return True


def check_allowed(error: BaseException) -> None:
    if not isinstance(error, ALLOWED):
        raise error
    assert has_text(error), f"{type(error).__name__} {error!r} has no catalogue text"


def run_sync(coro: Any) -> Any:
    """Drive a coroutine that never really waits (``from_custom_id``) without an event loop."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("from_custom_id awaited something")


# -- custom ids ---------------------------------------------------------------------------------
# Built from the templates' parts (``st.from_regex`` over the templates themselves is also
# run, fewer times: it is four times slower per example).
DIGITS = "0123456789"
number = st.one_of(st.text(DIGITS, min_size=1, max_size=22), st.integers(0, 2**80).map(str))
letter = st.sampled_from("abcdefghijklmnopqrstuvwxyz")
day = st.one_of(
    st.text(DIGITS, min_size=8, max_size=8), st.dates(dt.date(1000, 1, 1)).map(lambda d: d.strftime("%Y%m%d"))
)
built = st.one_of(
    st.builds(
        "g:{}:{}:{}:{}".format,
        number,
        number,
        st.sampled_from(["", *"0123456789abcd"]),
        st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=2),
    ),
    st.builds("r:{}".format, number),
    st.builds("k:{}".format, st.text(DIGITS, min_size=1, max_size=20)),  # a game id, as CARDS_ID bounds it
    st.builds(
        "n:{}:{}:{}:{}:{}:{}:{}:{}".format,
        st.sampled_from("sk"),
        number,
        number,
        number,
        letter,
        st.sampled_from("01234"),
        st.sampled_from(["", "a", "d", "ad"]),
        st.one_of(
            st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", max_size=40),
            st.sampled_from(["BK1-C4-AAAAA24", "CA1-AAAAA24", "BK1-C3-AAAAA24", "TW1-AAAAAAF"]),
        ),
    ).filter(lambda s: len(s) <= 100),  # Discord sends no longer custom id
    st.builds("d:{}:{}".format, letter, day),
    st.builds(
        "m:{}:{}".format, st.text(DIGITS, min_size=1, max_size=20), st.text(DIGITS, min_size=1, max_size=10)
    ),
    st.builds("a:{}:{}".format, letter, st.sampled_from(DIGITS)),
    st.builds("w:{}".format, st.text(DIGITS, min_size=1, max_size=20)),
    st.builds(
        "lb:{}:{}:{}:{}".format,
        letter,
        st.sampled_from("awd"),
        day,
        st.one_of(st.integers(-999999, 999999).map(str), st.text(DIGITS, min_size=1, max_size=6)),
    ),
    st.builds("q:{}:{}".format, st.text(DIGITS, min_size=1, max_size=20), st.sampled_from("jlsxm")),
    st.builds(
        "qy:{}:{}:{}".format,
        st.sampled_from("jk"),
        st.text(DIGITS, min_size=1, max_size=20),
        st.text(DIGITS, min_size=1, max_size=20),
    ),
    st.builds(
        "qc:{}:{}:{}:{}:{}:{}".format,
        st.text(DIGITS, min_size=1, max_size=20),
        letter,
        st.sampled_from("01234"),
        st.text(DIGITS, min_size=1, max_size=2),
        st.text(DIGITS, min_size=1, max_size=3),
        st.one_of(
            st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", max_size=40),
            st.sampled_from(["BK1-C4-AAAAA24", "CA1-AAAAA24", "BK1-C3-AAAAA24", ""]),
        ),
    ).filter(lambda s: len(s) <= 100),
    st.builds("qp:{}".format, st.text(DIGITS, min_size=1, max_size=20)),
)
from_templates = st.one_of(*(st.from_regex(t, fullmatch=True) for t in TEMPLATES)).filter(
    lambda s: len(s) <= 100
)
ids_matching = built
edits = st.lists(st.tuples(st.integers(0, 100), st.characters(codec="utf-8")), max_size=3)


@st.composite
def near_misses(draw: st.DrawFn) -> str:
    """A template's string, truncated, extended or with a few characters replaced; or any text."""
    if draw(st.booleans()):
        return draw(st.text(max_size=100))
    text = draw(ids_matching)
    how = draw(st.sampled_from(["cut", "extend", "replace"]))
    if how == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if how == "extend":
        return (text + draw(st.text(min_size=1, max_size=20)))[:100]  # Discord's longest custom id
    chars = list(text)
    for index, char in draw(edits):
        if chars:
            chars[index % len(chars)] = char
    return "".join(chars)[:100]


def parse(custom_id: str) -> None:
    """What discord.py does with a press: the matching template's ``from_custom_id``."""
    for item in ITEMS:
        match = item.custom_id_pattern.fullmatch(custom_id)
        if match is None:
            continue
        button = run_sync(item.from_custom_id(None, None, match))  # type: ignore[arg-type]
        assert button.custom_id == custom_id or item.custom_id_pattern.fullmatch(button.custom_id)
        if isinstance(button, StartChoice | CreateChoice):  # what it carries is read when pressed
            try:
                button._request() if isinstance(button, StartChoice) else button.request()
            except Exception as exc:
                check_allowed(exc)


def test_every_button_the_bot_registers_is_fuzzed() -> None:
    """A new ``DynamicItem`` (anywhere in ``bot``) must join ``ITEMS``, or it goes unfuzzed
    (a base of several, never registered, ``BASES``)."""
    import importlib
    import pkgutil

    import bot

    for module in pkgutil.walk_packages(bot.__path__, "bot."):
        if module.name not in ("bot.__main__",):
            importlib.import_module(module.name)

    def subclasses(cls: type) -> set[type]:
        found = set(cls.__subclasses__())
        return found.union(*(subclasses(c) for c in found))

    def name(cls: type) -> str:  # not the class itself: discord.py loads a cog anew per bot
        return f"{cls.__module__}.{cls.__qualname__}"

    ours = {name(c) for c in subclasses(discord.ui.DynamicItem) if c.__module__.startswith("bot.")}
    assert ours == {name(c) for c in ITEMS + BASES}


@fuzz(5000)
@given(built)
def test_every_template_parses_without_raising(custom_id: str) -> None:
    assert is_ours(custom_id)
    parse(custom_id)


@fuzz(500)
@given(from_templates)
def test_strings_from_the_templates_themselves_parse(custom_id: str) -> None:
    parse(custom_id)


@fuzz(2500)
@given(near_misses())
def test_near_misses_parse_or_are_left_to_the_unknown_button_answer(custom_id: str) -> None:
    if is_ours(custom_id):
        parse(custom_id)  # still a well-formed id: it must parse
    else:
        assert not any(t.fullmatch(custom_id) for t in TEMPLATES)  # answered by ``Presses.dropped``


# -- the service ------------------------------------------------------------------------------------
USERS = (11, 12, 13)
big_ints = st.one_of(
    st.integers(-3, 40),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**63 - 1, 2**63, 2**64, -(2**63) - 1]),
)
odd_text = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=30, max_size=300),
    st.sampled_from(
        ["6h", "61", "1a", "a1", "undo", "UNDO ", "sf1", "sw2", "w1f1", "18v2", "3h", " 6H ", "\x00", "🂡"]
    ),
    st.just("9" * 5000),
)
selections = st.one_of(st.sampled_from(["", "1", "6", "a", "d", "4"]), st.text(max_size=3))
actions = st.one_of(
    st.sampled_from(
        ["1", "6", "8", "a", "h", "u", "i", "x", "r", "f1", "w2", "p3", "9", "e", "p9", "zz", "f9"]
    ),
    st.text(max_size=3),
)


class World:
    """One store and service for the whole fuzz run (it fills up as examples play)."""

    def __init__(self, path: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.store: storage.Store = self.loop.run_until_complete(
            storage.open_store(path, synchronous="NORMAL")
        )
        self.service = GameService(self.store)  # no solver: a hint is "unavailable", quickly
        self.game_ids: list[int] = []

    def close(self) -> None:
        self.loop.run_until_complete(self.store.close())
        self.loop.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory):
    async def no_picture(self: GameService, row: Any, game: Any, *, selection: str = "") -> bytes:
        return b"png"  # the pictures are not what is fuzzed here

    mp = pytest.MonkeyPatch()
    mp.setattr(GameService, "render", no_picture)
    w = World(str(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"))
    try:
        yield w
    finally:
        w.close()
        mp.undo()


operations = st.sampled_from(
    [
        "start",
        "start",
        "press",
        "press",
        "press",
        "press",
        "play",
        "play",
        "undo",
        "resign",
        "show",
        "hint",
        "which",
    ]
)


@fuzz(2100)
@given(
    op=operations,
    aim=st.integers(0, 9),
    user=st.one_of(st.sampled_from(USERS), big_ints),
    pick=st.one_of(st.integers(0, 50), big_ints),
    version=st.one_of(st.integers(0, 5), big_ints),
    sel=selections,
    act=actions,
    notation=odd_text,
    kind=st.one_of(st.sampled_from(["bakers", "calculation", "bakers", "calculation"]), st.text(max_size=12)),
    cells=st.one_of(st.none(), st.sampled_from([4, 2, 1]), st.integers(-2, 6)),
    code=st.one_of(
        st.none(), st.none(), st.sampled_from(["BK1-C4-AAAAA24", "CA1-AAAAA24", "BK1-C2-AAAAA24"]), odd_text
    ),
)
def test_service_entry_points_answer_every_input(
    world: World, op: str, aim: int, user: int, pick: int, version: int, sel: str, act: str, notation: str,
    kind: str, cells: int | None, code: str | None,
) -> None:  # fmt: skip
    service = world.service
    ids = world.game_ids
    game_id = pick
    if aim < 8:  # mostly a game in play, its owner and its current version
        active = [r.id for u in USERS for r in world.loop.run_until_complete(world.store.active_games(u))]
        if not active:  # keep games in play to press on
            kinds = ("bakers", "calculation")
            started = world.loop.run_until_complete(
                service.start(StartRequest(USERS[aim % 3], kinds[pick % 2], cells=4 - pick % 2 * 4 or None))
            )
            ids.append(started.board.row.id)
            active = [started.board.row.id]
        pool = active if active and aim < 6 else ids
        game_id = pool[abs(pick) % len(pool)]
        row = world.loop.run_until_complete(world.store.get_game(game_id))
        version = row.version if aim < 5 else version
        user = row.owner_id if aim < 7 else user

    async def act_once() -> Any:
        if op == "start":
            who = USERS[abs(pick) % 3] if aim < 8 else user
            parsed = engine.parse_code(code) if code is not None else None
            started = await service.start(
                StartRequest(who, kind, cells=cells, code=parsed, any_deal=cells == 6)
            )
            ids.append(started.board.row.id)
            return started
        if op == "press":
            return await service.press(user, game_id, version, sel, act)
        if op == "play":
            return await service.play(user, game_id, notation, version=version if version % 3 else None)
        if op == "undo":
            return await service.undo(user, game_id)
        if op == "resign":
            return await service.resign(user, game_id)
        if op == "show":
            return await service.show(user, kind if cells is None else None)
        if op == "hint":
            return await service.hint(user, game_id)
        return await service.game_for_move(user, notation)

    try:
        world.loop.run_until_complete(act_once())
        event(f"{op}: done")
    except Exception as exc:
        event(f"{op}: {type(exc).__name__} {getattr(exc, 'key', getattr(exc, 'reason', ''))}")
        check_allowed(exc)


def test_the_fuzz_budget_is_at_least_ten_thousand_examples() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    total = sum(int(n) for n in re.findall(r"^@fuzz\((\d+)\)", source, flags=re.M))
    assert total >= 10_000
