"""Calculation's front: foundations, waste piles and waste tops as buttons, the hint player.

Buttons: row one the four foundations (for the turned card, or for a selected
waste pile's top), row two the four waste piles (for the turned card), row
three each waste pile's top card: sent home when one foundation takes it,
selected when several do (then a foundation button chooses).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, ClassVar

import engine
import storage
from bot.games.base import Advice, ButtonSpec, GameFront, HintWorker, Pile, Press, Style, Table, WorkerPool
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine import cards
from engine.calculation import CalculationGame
from engine.calculation.notation import FOUNDATION, TURNED, WASTE
from engine.calculation.position import CalculationMove
from engine.calculation.record import CALCULATION
from engine.cards import card_label, card_text

PILES = ("1", "2", "3", "4")
CANDIDATES = 8  # the daily takes the first of these deals not proven unwinnable
PROOF_SECONDS = 1.0
HINT_CAP_SECONDS = 0.8  # the hint player's target is under 1 s a move
# Budget of the after-game search "could this deal have been won?".
PERFECT_SECONDS = 3.0
VERDICTS_KEPT = 256  # deals whose verdict is remembered (the button under a lost board asks again)


def calculation_hint(code: str, moves: tuple[str, ...], seconds: float) -> Advice:
    """Worker: the hint player's move (it sees only what the player sees)."""
    game = engine.replay(code, moves)
    assert isinstance(game, CalculationGame)
    if game.is_over:
        return Advice("won" if game.is_won else "lost")
    move = game.hint(time_limit=min(seconds, HINT_CAP_SECONDS))  # checked every 32 reshuffles
    return Advice("move", move) if move else Advice("lost")


def calculation_perfect(code: str, seconds: float) -> tuple[str, list[str]]:
    """Worker: could this deal have been won knowing the stock order? (verdict, winning moves)"""
    from engine.calculation.perfect import solve

    game = engine.new_game(code)
    assert isinstance(game, CalculationGame)
    result = solve(game, time_limit=seconds, from_start=True)
    return result.verdict, list(result.moves)


def _proven_unwinnable(code: engine.GameCode) -> bool:
    from engine.calculation.perfect import NOT_WINNABLE

    return calculation_perfect(str(code), PROOF_SECONDS)[0] == NOT_WINNABLE


def rank_text(rank: int) -> str:
    """A rank as the cards show it (``10``, not fc-solve's ``T``)."""
    return cards.rank_text(rank, ten="10")


def text_board(tr: Translator, game: CalculationGame) -> str:
    """The console's text board: each foundation (``f1`` counts by ones …) and the rank it
    needs next, the waste piles bottom to top, the turned card (``s``) and the stock left."""
    lines = []
    for i, pile in enumerate(game.foundations):
        need = game.needs(i)
        wants = tr("picture.done") if need is None else f"{tr('picture.next')} {rank_text(need)}"
        lines.append(f"{FOUNDATION}{i + 1} +{i + 1}: {' '.join(map(card_label, pile))}  ({wants})")
    for i, pile in enumerate(game.waste):
        lines.append(f"{WASTE}{i + 1}: {' '.join(map(card_label, pile)) or '--'}")
    turned = card_label(game.turned) if game.turned is not None else "--"
    lines.append(f"{TURNED}: {turned}  ({tr('picture.stock')} {game.stock_count})")
    return "\n".join(lines)


def place_words(tr: Translator, kind: str, index: int) -> str:
    if kind == TURNED:
        return tr("place.turned")
    if kind == WASTE:
        return tr("place.waste", n=index + 1)
    return tr("place.calc_foundation", n=index + 1)


class CalculationFront(GameFront[CalculationGame]):
    record = CALCULATION
    accent_colour = 0x3B7DD8  # a ledger's blue
    selections = "".join(PILES)  # a waste pile whose top card fits several foundations
    picture_keys: ClassVar[dict[str, str]] = {
        "stock": "picture.stock",
        "turned": "picture.turned",
        "next": "picture.next",
        "done": "picture.done",
    }
    notation_examples = "sf2, w3, w1f4"
    button_names = "f1-f4, w1-w4, p1-p4"
    dead_end_is_final = True  # undo never turns a card back: a dead end cannot be undone
    explains_losses = True
    in_activity = True

    def help(self, tr: Translator) -> str:
        return tr(self.key("help"))

    def __init__(self) -> None:
        self._verdicts: OrderedDict[str, tuple[str, list[str]]] = OrderedDict()  # by code

    def localise_params(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
        """The engine gives the rank a foundation needs as a number: shown as on the cards."""
        if isinstance(params.get("needs"), int):
            return {**params, "needs": rank_text(params["needs"])}
        return params

    def daily_code(self, draw: int) -> engine.GameCode:
        """The first of the draw's candidates that the perfect search does not prove unwinnable.

        A slow machine can only turn a proof into "unknown", which keeps the same
        candidate, so the choice does not depend on speed except for a rare unwinnable deal.
        """
        span = engine.codes.MAX_DEAL + 1
        candidates = [self.code((draw + i * 0x9E3779B1) % span, None) for i in range(CANDIDATES)]
        return next((c for c in candidates if not _proven_unwinnable(c)), candidates[0])

    # -- buttons -------------------------------------------------------------------------
    def press_place(self, game: CalculationGame, sel: str, act: str) -> Press:
        kind, pile = act[:1], act[1:]
        if pile not in PILES or kind not in ("f", "w", "p") or (sel and sel not in PILES):
            raise UserFeedback("error.unknown_button")
        if kind == "f":
            return Press("play", (f"w{sel}" if sel else "s") + act)
        if kind == "w":
            return Press("play", "s" + act)
        if game.is_empty(f"w{pile}"):
            raise UserFeedback("error.empty_waste", n=int(pile))
        fits = [f"w{pile}f{i}" for i in PILES if game.is_legal(f"w{pile}f{i}")]
        if not fits:
            raise UserFeedback("error.waste_no_fit", n=int(pile))
        if len(fits) == 1 or sel == pile:
            return Press("play", fits[0])
        return Press("select", pile)

    def place_buttons(self, tr: Translator, game: CalculationGame, sel: str) -> list[ButtonSpec]:
        source = f"w{sel}" if sel else "s"
        out: list[ButtonSpec] = []
        for i, n in enumerate(PILES):
            need = game.needs(i)
            label = (
                tr("button.foundation", n=i + 1, need=rank_text(need))
                if need
                else tr("button.foundation_full", n=i + 1)
            )
            out.append(ButtonSpec(f"f{n}", label, 0, disabled=not game.is_legal(f"{source}f{n}")))
        no_turned = game.turned is None
        for i, n in enumerate(PILES):
            label = tr("button.waste", n=i + 1)
            out.append(ButtonSpec(f"w{n}", label, 1, disabled=no_turned, keeps_selection=False))
        for i, n in enumerate(PILES):
            card = game.top_card(f"w{n}")
            fits = card is not None and any(game.is_legal(f"w{n}f{j}") for j in PILES)
            label = (
                tr("button.waste_top", n=i + 1, card=card_label(card))
                if card is not None
                else tr("button.waste_empty", n=i + 1)
            )
            style: Style = "primary" if sel == n else "secondary"
            out.append(ButtonSpec(f"p{n}", label, 2, style, disabled=not fits))
        return out

    # -- the Activity -----------------------------------------------------------------------
    def table(self, tr: Translator, game: CalculationGame) -> Table:
        """The four foundations on the first row with the turned card and the stock beside
        them, the four waste piles fanned below; only top cards are picked up."""
        piles = []
        for i, pile in enumerate(game.foundations):
            need = game.needs(i)
            label = (
                tr("button.foundation", n=i + 1, need=rank_text(need))
                if need
                else tr("button.foundation_full", n=i + 1)
            )
            piles.append(
                Pile(
                    f"f{i + 1}",
                    "foundation",
                    float(i),
                    0.0,
                    tuple(map(card_text, pile[-1:])),
                    drop=f"f{i + 1}",
                    label=label,
                    name=f"{place_words(tr, FOUNDATION, i)}, {label}",
                )
            )
        turned = () if game.turned is None else (card_text(game.turned),)
        piles.append(
            Pile(
                TURNED,
                "turned",
                4.5,
                0.0,
                turned,
                drag="top",
                label=tr("picture.turned"),
                name=place_words(tr, TURNED, 0),
            )
        )
        stock = f"{tr('picture.stock')} {game.stock_count}"
        piles.append(Pile("", "stock", 5.5, 0.0, ("",) if game.stock_count else (), label=stock, name=stock))
        for j, pile in enumerate(game.waste):
            piles.append(
                Pile(
                    f"w{j + 1}",
                    "waste",
                    float(j),
                    1.35,
                    tuple(map(card_text, pile)),
                    fan=True,
                    drop=f"w{j + 1}",
                    drag="top",
                    label=f"{j + 1}",
                    name=place_words(tr, WASTE, j),
                )
            )
        return Table(tuple(piles), width=6.5, height=2.35)

    def drop(self, game: CalculationGame, source: str, target: str, count: int) -> str:
        sources = {TURNED, *(f"w{n}" for n in PILES)}
        targets = {*(f"w{n}" for n in PILES), *(f"f{n}" for n in PILES)}
        if source not in sources or target not in targets or count != 1:
            raise UserFeedback("error.unknown_button")
        return source + target

    def double_tap(self, game: CalculationGame, place: str) -> str:
        """A waste pile's top card: home, as its button in the chat (the first foundation that
        takes it); the turned card: the first foundation that takes it."""
        if place == TURNED:
            if game.turned is None:
                raise UserFeedback("error.no_turned_card")
            fits = [f"sf{n}" for n in PILES if game.is_legal(f"sf{n}")]
            if not fits:
                raise UserFeedback("error.turned_no_fit")
            return fits[0]
        if place[:1] != WASTE or place[1:] not in PILES:
            raise UserFeedback("error.unknown_button")
        pile = place[1:]
        if game.is_empty(place):
            raise UserFeedback("error.empty_waste", n=int(pile))
        fits = [f"w{pile}f{i}" for i in PILES if game.is_legal(f"w{pile}f{i}")]
        if not fits:
            raise UserFeedback("error.waste_no_fit", n=int(pile))
        return fits[0]

    def highlight(self, sel: str) -> str:
        return f"w{sel}"

    def selected_place(self, tr: Translator, sel: str) -> str:
        return place_words(tr, WASTE, int(sel) - 1)

    # -- words ---------------------------------------------------------------------------
    def describe_move(self, tr: Translator, move: CalculationMove) -> str:
        src = place_words(tr, move.src_kind, move.src)
        dst = place_words(tr, move.dst_kind, move.dst)
        return tr("move.to", what=card_label(move.card), src=src, dst=dst)

    def ranked_moves(self, tr: Translator, game: CalculationGame) -> list[tuple[str, str]]:
        """Foundation moves first (they score), then the turned card's waste piles."""
        moves = sorted(game.legal_move_objects(), key=lambda m: m.dst_kind != FOUNDATION)
        return [(m.notation, self.describe_move(tr, m)) for m in moves]

    def text_board(self, tr: Translator, game: CalculationGame) -> str:
        return text_board(tr, game)

    def alt_text(self, tr: Translator, game: CalculationGame) -> str:
        empty = tr("alt.empty")
        needs = ", ".join(
            f"{i + 1}: {rank_text(need) if (need := game.needs(i)) is not None else 'K ✓'}" for i in range(4)
        )
        waste = "; ".join(
            f"{i + 1}: {' '.join(map(card_label, pile)) or empty}" for i, pile in enumerate(game.waste)
        )
        turned = card_label(game.turned) if game.turned is not None else empty
        return tr(
            "alt.calculation",
            score=game.score,
            needs=needs,
            waste=waste,
            turned=turned,
            stock=game.stock_count,
        )

    def claims_notation(self, text: str) -> bool:
        return text.strip().lower()[:1] in (TURNED, WASTE, FOUNDATION)

    # -- endings, hints, rankings -----------------------------------------------------------
    def share_squares(self, tr: Translator, game: CalculationGame) -> str:
        """How far each foundation got; nothing for a win (52/52 says it all)."""
        if game.is_won:
            return ""
        squares = []
        for i, pile in enumerate(game.foundations):
            squares.append("🟩" if game.needs(i) is None else ("🟨" if len(pile) > 1 else "⬛"))
        return "".join(squares)

    async def after_game(self, tr: Translator, row: storage.GameRow, solver: WorkerPool | None) -> str | None:
        """For a lost deal: whether it could have been won, and how (perfect information)."""
        if row.status == "won" or solver is None:
            return None
        from engine.calculation.perfect import NOT_WINNABLE, WINNABLE

        known = self._verdicts.get(row.code)
        if known is None:
            try:
                known = await solver.run(
                    calculation_perfect, row.code, PERFECT_SECONDS, timeout=PERFECT_SECONDS + 10
                )
            except TimeoutError:
                return None
            self._verdicts[row.code] = known
            while len(self._verdicts) > VERDICTS_KEPT:
                self._verdicts.popitem(last=False)
        verdict, moves = known
        if verdict == WINNABLE:
            text = " ".join(moves)
            if len(text) > 1500:
                text = text[:1500].rsplit(" ", 1)[0] + " …"
            return tr("after.winnable", moves=text)
        if verdict == NOT_WINNABLE:
            return tr("after.not_winnable")
        return None

    @property
    def hint_worker(self) -> HintWorker:
        return calculation_hint

    def result_words(self, tr: Translator, best: storage.FinishedGame) -> list[str]:
        return [tr("lb.cards_home", score=best.score), tr.n("board.moves", best.move_count)]

    def best_line(self, tr: Translator, best: storage.FinishedGame) -> str:
        return tr("stats.best_calculation", score=best.score)

    def ranking_rule(self, tr: Translator) -> str:
        return tr("lb.rule.calculation")
