"""Storage knows no game by name: any kind in ``engine.GAMES`` is stored and ranked by its own rule."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

import engine
import storage
from engine import Finish, Game, GameCode, IllegalMove, Outcome, codes
from storage import ranking


@dataclass(frozen=True)
class TallyMove:
    notation: str

    def describe(self) -> str:
        return self.notation


class TallyGame(Game[TallyMove]):
    """A made-up third game: ``+`` adds a point, ``-`` takes one away; three points win."""

    kind: ClassVar[str] = "tally"
    title: ClassVar[str] = "Tally"
    code_prefix: ClassVar[str] = "TL"

    def __init__(self, code: GameCode) -> None:
        super().__init__(code)
        self.points = 0

    @property
    def score(self) -> int:
        return self.points

    @property
    def outcome(self) -> Outcome | None:
        return Outcome("won", "three") if self.points >= 3 else None

    def iter_legal_moves(self) -> Iterator[TallyMove]:
        yield TallyMove("+")
        yield TallyMove("-")

    def board_text(self) -> str:
        return str(self.points)

    @property
    def cards_home(self) -> int:
        return self.points

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        """No rule of its own beyond storage's default: higher score first, then fewer moves."""
        return ranking.higher_score_first(finish)

    def _find(self, text: str) -> TallyMove | None:
        return TallyMove(text) if text in ("+", "-") else None

    def _resolve(self, text: str) -> TallyMove:
        if text not in ("+", "-"):
            raise IllegalMove(f"{text!r} is not a tally move", "malformed")
        return TallyMove(text)

    def _play(self, text: str) -> TallyMove:
        move = self._resolve(text)
        self.points += 1 if text == "+" else -1
        return move

    def _take_back(self, move: TallyMove) -> TallyMove:
        self.points -= 1 if move.notation == "+" else -1
        return move


class ShortestTallyGame(TallyGame):
    """The same game with its own ranking rule: fewest moves first, whatever the score."""

    kind: ClassVar[str] = "shortest-tally"
    code_prefix: ClassVar[str] = "TS"

    @classmethod
    def rank_key(cls, finish: Finish) -> int:
        return finish.move_count


@pytest.fixture
def registered() -> Iterator[None]:
    """Both made-up games in the engine's registry for one test, removed after."""
    for cls in (TallyGame, ShortestTallyGame):
        assert cls.kind not in engine.GAMES
        engine.register(cls)
    try:
        yield
    finally:
        for cls in (TallyGame, ShortestTallyGame):
            engine.GAMES.pop(cls.kind, None)
            for table in (codes.SPECS, codes.KIND_PREFIXES, codes.VERSIONS):
                table.pop(cls.kind, None)
            codes.GAME_PREFIXES.pop(cls.code_prefix, None)


async def play(store, kind: str, user: int, moves: list[str]) -> storage.GameRow:
    """Play ``moves`` on the engine game, storing each one as the bot does; finish when it ends."""
    game = engine.GAMES[kind](GameCode(kind, 1, user))
    row = await store.create_game(kind, f"TL1-{user:07d}", user, 10, 100)
    for move in moves:
        game.play(move)
        finish = None if game.outcome is None else game.outcome.result
        row = await store.append_move(
            row.id, row.version, move, score=game.score, move_count=game.move_count, finish=finish
        )
    if row.is_active:
        row = await store.finish_game(
            row.id, row.version, "resigned", score=game.score, move_count=game.move_count
        )
    return row


async def test_a_kind_registered_at_run_time_is_created_moved_finished_and_ranked(store, registered):
    won = await play(store, "tally", 1, ["+", "+", "-", "+", "+"])
    assert (won.status, won.score, won.move_count, won.moves) == ("won", 3, 5, ("+", "+", "-", "+", "+"))
    assert (await store.get_game(won.id)).moves == won.moves
    quick = await play(store, "tally", 2, ["+", "+", "+"])
    resigned = await play(store, "tally", 3, ["+"])
    assert (await store.get_result(resigned.id)).status == "resigned"

    # Tally's rule is the default one: higher score first, then fewer moves.
    board = await store.leaderboard("tally", channel_id=100)
    assert [(e.user_id, e.best.game_id, e.best.score) for e in board] == [
        (2, quick.id, 3),
        (1, won.id, 3),
        (3, resigned.id, 1),
    ]
    assert await store.leaderboard_size("tally", guild_id=10) == 3
    stats = await store.player_stats(1, "tally")
    assert (stats.played, stats.won, stats.best.game_id, stats.best_score) == (1, 1, won.id, 3)
    assert await store.active_game(1, "tally") is None


async def test_a_kind_with_its_own_rank_key_is_ranked_by_it(store, registered):
    long_win = await play(store, "shortest-tally", 1, ["+", "-", "+", "+", "+"])
    short_loss = await play(store, "shortest-tally", 2, ["+"])
    board = await store.leaderboard("shortest-tally", channel_id=100)
    assert [e.best.game_id for e in board] == [short_loss.id, long_win.id]
    assert ranking.rank_key("shortest-tally", Finish("won", 3, 7)) == 7


async def test_one_active_game_per_kind_holds_for_new_kinds_too(store, registered):
    first = await store.create_game("tally", "TL1-0000001", 5, None, None)
    with pytest.raises(storage.ActiveGameExists) as caught:
        await store.create_game("tally", "TL1-0000002", 5, None, None)
    assert caught.value.existing == first
    # Another kind is another slot.
    await store.create_game("shortest-tally", "TL1-0000003", 5, None, None)
    assert {g.kind for g in await store.active_games(5)} == {"tally", "shortest-tally"}


async def test_a_kind_the_engine_does_not_know_is_refused(store):
    known = ", ".join(sorted(engine.GAMES))
    with pytest.raises(storage.InvalidValue, match=f"kind must be one of {known}, not 'tally'"):
        await store.create_game("tally", "TL1-0000001", 5, None, None)
    with pytest.raises(storage.InvalidValue, match="kind must be one of"):
        await store.leaderboard(None, channel_id=1)


def test_the_default_rule_puts_higher_scores_first_then_fewer_moves():
    def key(status: str, score: int, moves: int) -> int:
        return ranking.higher_score_first(Finish(status, score, moves))

    assert key("lost", 10, 500) < key("won", 9, 1)
    assert key("won", 10, 5) < key("lost", 10, 6)
    # Out-of-range values are clamped into a key that fits a signed 64-bit column.
    extremes = [key(s, score, moves) for s in ("won", "lost") for score in (0, 2**63) for moves in (0, 2**63)]
    assert all(0 <= k < 2**63 for k in extremes)
