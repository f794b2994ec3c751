"""Klondike's front: the stock, the waste, Home and the seven piles as buttons, one press a
move (``bot.games.klondike.presses``), the menu for every other move, draw one or three (the
code's option, ``D1``/``D3``: boards, races and the stock of deals are per draw), the picture
(``renderer.games.klondike``), what the player sees in words (``bot.games.klondike.words``).

A new game, and the daily, is a deal the thoughtful solver has won knowing every card
(``bot.games.klondike.deals``; ``any_deal`` deals any shuffle). The lost-deal warning is the
thoughtful solver's verdict (``engine.klondike.standing``: the bot knows the deal; the board says
only that it is lost and the undos back); a hint is the blind hint player's
(``engine.klondike.hints``: what the player has seen, nothing more).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import ClassVar

import engine
import storage
from bot.games.base import (
    Advice,
    ButtonSpec,
    GameFront,
    HintWorker,
    Press,
    Style,
    Verdict,
    VerdictWorker,
    WinnableFinder,
)
from bot.games.front.options import OptionPlace
from bot.games.front.results import scored_result_words
from bot.games.klondike import deals, presses
from bot.games.klondike.table import KlondikeTable
from bot.games.klondike.words import alt_text, describe_move, selected_words
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine.cards import card_label
from engine.game import BATCH
from engine.klondike import KlondikeGame, KlondikeMove
from engine.klondike.notation import HOME, PILE_DIGITS, STOCK, WASTE
from engine.klondike.record import KLONDIKE

_NOTATION_START = frozenset(PILE_DIGITS + STOCK + WASTE + HOME)
DAILY_DRAW = 1  # the daily draws one card: the default, and the deals most players win


def klondike_verdict(
    code: str,
    moves: tuple[str, ...],
    seconds: float,
    nodes: int,
    back: bool,
    known: tuple[Hashable, ...] = (),
    within: int | None = None,
) -> Verdict:
    """Worker: can the position still be won? The thoughtful solver decides, knowing every
    card, within Klondike's own budget of positions (``standing.VERDICT_NODES``: its positions
    cost more than the eight-column games', whose count ``nodes`` is) and ``seconds``; the
    answer says only "lost" and the undos back, never a card."""
    from engine.klondike.standing import VERDICT_NODES, standing

    try:
        game = engine.replay(code, moves)
    except engine.EngineError:
        return Verdict("unknown")
    assert isinstance(game, KlondikeGame)
    line = tuple(k for k in known if isinstance(k, bytes))  # this front's marks are the solver's keys
    found = standing(game, seconds, min(nodes, VERDICT_NODES), back=back, known=line, within=within)
    return Verdict(found.verdict, tuple(found.line), found.undos, found.nodes)


def klondike_hint(code: str, moves: tuple[str, ...], seconds: float) -> Advice:
    """Worker: the blind hint player's move (``KlondikeGame.hint``: it is handed
    ``seen_state()`` only, so it cannot read a card the player has not seen), within
    ``seconds`` of CPU. With no move left but turning the stock for nothing, the game is lost
    (the board shows it already): the answer then gives the undos back to a winnable position,
    as the lost-deal warning would (the thoughtful solver's, ``engine.klondike.standing``),
    when found."""
    from engine.klondike.standing import VERDICT_NODES, standing

    try:
        game = engine.replay(code, moves)
    except engine.EngineError:
        return Advice("unknown")
    assert isinstance(game, KlondikeGame)
    if game.is_won:
        return Advice("won")
    move = None if game.is_lost else game.hint(time_limit=seconds)
    if move is not None:
        return Advice("move", move)
    found = standing(game, seconds, VERDICT_NODES, back=True)
    return Advice("lost", undos=found.undos)


class KlondikeFront(KlondikeTable, GameFront[KlondikeGame]):
    record = KLONDIKE  # its kind, letter, command, names and draws (``engine.klondike.record``)
    accent_colour = 0xB22222  # a card back's red
    stock_cells = (1, 3)  # new games of either draw come from the stock of proven deals
    selections = presses.SOURCES
    notation_examples = "s, w3, 35, hs3"
    button_names = "s (stock), w (waste), 1-7, home"
    picture_keys: ClassVar[dict[str, str]] = {
        "klondike.stock": "picture.stock",
        "klondike.waste": "picture.klondike.waste",
        "klondike.foundations": "picture.foundations",
    }

    # -- the option: the draw -------------------------------------------------------------
    def variant(self, cells: int | None) -> str:
        """The draw in digits ("1", "3"): boards of the two draws never mix."""
        return "" if cells is None else str(cells)

    def cells_of(self, variant: str) -> int | None:
        return int(variant) if variant.isdigit() else None

    def option_words(self, tr: Translator, value: int, where: OptionPlace = "board") -> str:
        """``draw 3``, wherever the draw is shown."""
        return tr("board.klondike.draw", draw=value)

    # -- proven-winnable deals -----------------------------------------------------------
    @property
    def winnable_finder(self) -> WinnableFinder:
        return deals.find_winnable

    def shipped_deals(self, cells: int) -> tuple[int, ...]:
        return deals.shipped(cells)

    def daily_code(self, draw: int) -> engine.GameCode:
        """A deal the solver wins drawing one card (the default), the first of a few drawn from
        the day's ``draw``; if none is proven within the budget, the last one tried (the
        daily is then any deal, as for a game without a solver)."""
        rng = random.Random(draw)
        deal = deals.winnable_deal(DAILY_DRAW, rng, deals.DAILY_NODES, deals.DAILY_TRIES)
        return self.code(self.random_deal(rng) if deal is None else deal, DAILY_DRAW)

    # -- buttons -------------------------------------------------------------------------
    def press_place(self, game: KlondikeGame, sel: str, act: str) -> Press:
        if act == STOCK:
            return Press("play", STOCK)
        if act == HOME:
            return Press("play", sel + HOME if sel else self.home_move(game))
        if act not in presses.SOURCES:
            raise UserFeedback("error.unknown_button")
        if sel and sel != act:
            if act == WASTE:
                raise UserFeedback("error.klondike.to_waste")
            return Press("play", sel + act)  # the engine says why when it does not fit
        if not sel and presses.needs_choice(game, act):
            return Press("select", act)
        move = presses.one_press(game, act)
        if move is None:
            raise self._stuck(game, act)
        return Press("play", move)

    @staticmethod
    def _stuck(game: KlondikeGame, place: str) -> UserFeedback:
        """Why a press on ``place`` plays nothing: it is empty, or its card has nowhere to go."""
        seen = game.seen_state()
        if place == WASTE:
            return UserFeedback("error.klondike.waste_stuck" if seen.waste else "error.klondike.empty_waste")
        pile = int(place)
        if not seen.piles[pile - 1]:
            return UserFeedback("error.klondike.empty_pile", pile=pile)
        return UserFeedback("error.klondike.pile_stuck", pile=pile)

    def home_move(self, game: KlondikeGame) -> str:
        run = game.home_run()
        if not run:
            raise UserFeedback("error.nothing_home")
        return BATCH.join(run)

    def place_buttons(self, tr: Translator, game: KlondikeGame, sel: str) -> list[ButtonSpec]:
        seen = game.seen_state()
        if seen.stock:
            stock = tr("button.klondike.stock", n=len(seen.stock))
        else:
            stock = tr("button.klondike.turn_over")
        turnable = bool(seen.stock or seen.waste)
        waste = card_label(seen.waste[-1]) if seen.waste else tr("button.empty")
        run = game.home_run()
        if game.home_finishes(run):
            home = tr("button.finish")
        else:
            home = tr("button.home_run", n=len(run)) if run else tr("button.home")
        out = [
            ButtonSpec(STOCK, stock, 0, "primary", disabled=not turnable, keeps_selection=False),
            ButtonSpec(WASTE, tr("button.klondike.waste", card=waste), 0, self._style(sel, WASTE)),
            ButtonSpec(HOME, home, 0, "success", disabled=not run and not sel),
        ]
        for i, (pile, down) in enumerate(zip(seen.piles, seen.face_down, strict=True)):
            place = PILE_DIGITS[i]
            top = card_label(pile[-1]) if len(pile) > down else tr("button.empty")
            out.append(ButtonSpec(place, f"{place} · {top}", 1 + i // 4, self._style(sel, place)))
        return out

    @staticmethod
    def _style(sel: str, place: str) -> Style:
        return "primary" if sel == place else "secondary"

    def move_menu(self, tr: Translator, game: KlondikeGame) -> list[tuple[str, str]]:
        """Every legal move a press does not play, the most useful first."""
        pressed = set(presses.one_presses(game).values())
        options = [m for m in presses.ranked(game) if m.notation not in pressed]
        return [(m.notation, describe_move(tr, m)) for m in options[: self.menu_size]]

    def selected_place(self, tr: Translator, sel: str) -> str:
        return selected_words(tr, sel)

    def claims_notation(self, text: str) -> bool:
        return text.strip().lower()[:1] in _NOTATION_START

    # -- words and picture -------------------------------------------------------------------
    def help(self, tr: Translator) -> str:
        return tr(self.key("help"))

    def describe_move(self, tr: Translator, move: KlondikeMove) -> str:
        return describe_move(tr, move)

    def describe_action(self, tr: Translator, moves: tuple[KlondikeMove, ...]) -> str:
        if len(moves) > 1 and all(m.dst_kind == HOME for m in moves):
            cards = ", ".join(card_label(m.cards[0]) for m in moves)
            return tr.n("move.home_run", len(moves), cards=cards)
        return super().describe_action(tr, moves)

    def ranked_moves(self, tr: Translator, game: KlondikeGame) -> list[tuple[str, str]]:
        return [(m.notation, describe_move(tr, m)) for m in presses.ranked(game)]

    def alt_text(self, tr: Translator, game: KlondikeGame) -> str:
        return alt_text(tr, game)

    def text_board(self, tr: Translator, game: KlondikeGame) -> str:
        """What the player sees: face-down cards as ``##``, the stock as a count."""
        return game.seen_text().rstrip()

    # -- endings, hints, rankings -----------------------------------------------------------
    @property
    def hint_worker(self) -> HintWorker:
        return klondike_hint

    @property
    def verdict_worker(self) -> VerdictWorker:
        return klondike_verdict

    def mark(self, game: KlondikeGame) -> Hashable:
        """The solver's key of the position (piles in any order), compared with a verdict's line."""
        from engine.klondike.standing import mark

        return mark(game.position)

    def share_squares(self, tr: Translator, game: KlondikeGame) -> str:
        """The draw it was played with; for a game not won, first how far each suit got."""
        draw = tr("share.klondike.draw", draw=game.draw)
        if game.is_won:
            return draw
        suits = "".join("🟩" if n == 13 else ("🟨" if n else "⬛") for n in game.seen_state().foundations)
        return f"{suits} {draw}"

    def result_words(self, tr: Translator, best: storage.FinishedGame) -> list[str]:
        """A win and its moves; a game not won, its cards home and moves (what ranks it); then
        the score, which never ranks."""
        draw = self.cells_of(best.variant) or self.cell_choices[0]
        return scored_result_words(tr, best, tr("lb.klondike_score", score=best.score, draw=draw))

    def best_line(self, tr: Translator, best: storage.FinishedGame) -> str:
        if best.won:
            return tr("stats.best_klondike", moves=best.move_count, score=best.score)
        return tr("stats.best_klondike_not_won", home=best.home or 0, moves=best.move_count)

    def ranking_rule(self, tr: Translator) -> str:
        return tr(self.key("lb.rule"))
