"""What the fronts of the eight-column games share (Jeu du Boulanger's layout: columns 1-8,
free cells a-d, four foundations): one press a move, Home in one press, the menu, the
solver's hints and verdicts, words for places and moves. Each game's front subclasses
``TableauFront`` with its kind, its command, its option and its words.

Buttons: columns 1-4 and 5-8 on rows one and two (each labelled with its top
card), the free cells in play and Home on row three, Undo and Hint on row four.
A press on a place plays that card's double tap at once (the SPEC order: its
foundation, the longest column it fits on, an empty column, a free cell); the
board says what it did and Undo takes it back. Home sends every card that can
go home as one action (Finish when that wins). Any other move is one choice in
the select menu on row five ("Another move…"). Boards drawn before one-press
play carried a selection: such a press still means source then destination.
"""

from __future__ import annotations

import re
import time
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import engine
import storage
from bot.games.base import (
    Advice,
    ButtonSpec,
    GameFront,
    HintWorker,
    Pile,
    Press,
    Style,
    Table,
    Verdict,
    VerdictWorker,
)
from bot.games.front.results import scored_result_words
from bot.languages.i18n import Translator, t
from bot.play.feedback import UserFeedback
from engine.cards import SUIT_SYMBOLS, card_label, card_text, make_card, rank_text
from engine.game import BATCH
from engine.tableau import TableauGame, TableauMove
from engine.tableau.notation import CELL_LETTERS, COLUMN, FOUNDATION

if TYPE_CHECKING:
    from engine.solver import Hint

G = TypeVar("G", bound=TableauGame[Any])
HOME = "h"
_NOTATION_START = frozenset("12345678" + CELL_LETTERS)
# How the engine's messages name this game's places (``localise_params``).
_ENGINE_PLACE = re.compile(
    r"^(?:column (?P<column>[1-8])|free cell (?P<cell>[a-d])|(?P<home>its foundation))$"
)


def tableau_hint(code: str, moves: tuple[str, ...], seconds: float, autoplay: bool | None = None) -> Advice:
    """Worker: the solver's advice for a position of an eight-column game (``autoplay``: the
    player's setting of a game that has one, for a move they can make next)."""
    from engine.solver import Refused, hint_code

    started = time.monotonic()
    found = hint_code(code, moves, seconds, autoplay)
    if isinstance(found, Refused):
        return Advice("unknown")
    if found.status != "lost" or found.undos is not None:
        return Advice(found.status, found.move, found.undos)
    left = seconds - (time.monotonic() - started)
    return Advice("lost", deal_winnable=deal_winnable(code, moves, found, left, autoplay))


def deal_winnable(
    code: str, moves: tuple[str, ...], lost: Hint, seconds: float, autoplay: bool | None
) -> bool | None:
    """Whether the deal of a lost position could be won from its start, None when not known:
    the hint's search back (``lost``) proved it when it went all the way to the start,
    else the start is solved within ``seconds``."""
    from engine.solver import LOST, WINNABLE, Refused, solve_code

    if lost.exhausted and reaches_start(code, moves):
        return False
    if seconds <= 0:
        return None
    solved = solve_code(code, (), seconds, autoplay)
    if isinstance(solved, Refused):
        return None
    return {WINNABLE: True, LOST: False}.get(solved.verdict)


def reaches_start(code: str, moves: tuple[str, ...]) -> bool:
    """Whether undo can take the game ``code`` + ``moves`` back to its deal (the engine keeps
    a bounded number of undos)."""
    depth = 0
    for action in moves:
        depth = depth - 1 if action.strip().lower() == engine.UNDO else depth + 1
    return engine.replay(code, moves).undo_depth == depth


def tableau_verdict(
    code: str,
    moves: tuple[str, ...],
    seconds: float,
    nodes: int,
    back: bool,
    known: tuple[Hashable, ...] = (),
    within: int | None = None,
) -> Verdict:
    """Worker: can the position still be won? The solver decides within the budget; with
    ``back``, a lost position's undos back to a winnable one are searched too; ``known``
    (marks of winnable positions, the last verdict's line) ends the search at the first of
    them it reaches; ``within``: the undos back to the first of them."""
    from engine.solver import Refused, standing_code

    line = tuple(k for k in known if isinstance(k, bytes))  # this front's marks are the solver's keys
    found = standing_code(code, moves, seconds, nodes, back=back, known=line, within=within)
    if isinstance(found, Refused):
        return Verdict("unknown")
    return Verdict(found.verdict, tuple(found.line), found.undos, found.nodes)


EMPTY_TEXT = "--"  # an empty pile in the console's text board


def tableau_text_board(game: TableauGame[Any]) -> str:
    """The console's text board: the foundations' top cards (``h``, spades, hearts, diamonds,
    clubs), the free cells in play, the columns bottom to top, each named as a move names it."""

    def shown(card: int | None) -> str:
        return EMPTY_TEXT if card is None else card_label(card)

    found = [shown(make_card(suit, n) if n else None) for suit, n in enumerate(game.foundation_counts())]
    places = game.places()
    cells = [f"{p}: {shown(game.top_card(p))}" for p in places if not p.isdigit()]
    columns = [
        f"{p}: {' '.join(map(card_label, game.cards_at(p))) or EMPTY_TEXT}" for p in places if p.isdigit()
    ]
    return "\n".join([f"{HOME}: {' '.join(found)}", "  ".join(cells), *columns])


def place_words(tr: Translator, kind: str, index: int) -> str:
    """A column, a free cell or the foundation, in the player's words."""
    if kind == COLUMN:
        return tr("place.column", n=index + 1)
    if kind == FOUNDATION:
        return tr("place.foundation")
    return tr("place.cell", letter=CELL_LETTERS[index])


def tableau_table(tr: Translator, game: TableauGame[Any]) -> Table:
    """An eight-column game's table for the Activity's page: the free cells in play and the four
    suits' foundations on the first row (each suit's pile takes a drop as ``h``), the eight
    columns below, any run of a column picked up (the engine decides whether it may move)."""
    piles = [
        Pile(
            place,
            "cell",
            float(i),
            0.0,
            tuple(map(card_text, game.cards_at(place))),
            drop=place,
            drag="top",
            label=place,
            name=place_words(tr, "f", i),
        )
        for i, place in enumerate(p for p in game.places() if not p.isdigit())
    ]
    for suit, count in enumerate(game.foundation_counts()):
        top = (card_text(make_card(suit, count)),) if count else ()
        piles.append(
            Pile(
                HOME,
                "foundation",
                4.0 + suit,
                0.0,
                top,
                drop=HOME,
                label=SUIT_SYMBOLS[suit],
                name=place_words(tr, FOUNDATION, 0),
                suit=card_text(make_card(suit, 1))[1],
            )
        )
    for i, place in enumerate(p for p in game.places() if p.isdigit()):
        piles.append(
            Pile(
                place,
                "column",
                float(i),
                1.25,
                tuple(map(card_text, game.cards_at(place))),
                fan=True,
                drop=place,
                drag="run",
                label=place,
                name=place_words(tr, COLUMN, i),
            )
        )
    run = game.home_run()
    if game.home_finishes(run):
        home = tr("button.finish")
    else:
        home = tr("button.home_run", n=len(run)) if run else tr("button.home")
    return Table(tuple(piles), width=8.0, height=2.25, home=home, home_ready=bool(run))


class TableauFront(GameFront[G]):
    """A front for an eight-column game: a subclass names its kind, command, words and option."""

    selections = "12345678" + CELL_LETTERS  # boards drawn before one-press play carried one
    notation_examples = "3h, a5, 27, 18v2"
    button_names = "1-8, a-d (a card's one-press move), home"
    uses_selection = False
    in_activity = True
    picture_keys: ClassVar[dict[str, str]] = {"foundations": "picture.foundations"}
    # Its catalogue keys beyond ``key()``'s: a leaderboard line's score, /stats' best lines.
    score_key: ClassVar[str]
    best_won_key: ClassVar[str]
    best_not_won_key: ClassVar[str]

    def variant(self, cells: int | None) -> str:
        """Its cell count, in digits ("4"): boards of different cell counts never mix."""
        return "" if cells is None else str(cells)

    def cells_of(self, variant: str) -> int | None:
        return int(variant) if variant.isdigit() else None

    def localise_params(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
        """The engine names its places in English ("column 3", "free cell a", "its foundation")."""
        match = _ENGINE_PLACE.match(str(params.get("place", "")))
        if match is None:
            return params
        if match["column"]:
            place = t(language, "place.column", n=int(match["column"]))
        elif match["cell"]:
            place = t(language, "place.cell", letter=match["cell"])
        else:
            place = t(language, "place.foundation")
        return {**params, "place": place}

    # -- buttons -------------------------------------------------------------------------
    def press_place(self, game: G, sel: str, act: str) -> Press:
        places = game.places()
        if (act not in places and act != HOME) or (sel and sel not in places):
            raise UserFeedback("error.unknown_button")
        if act == HOME:
            if sel:  # a board from before one-press play: its selected card home
                return Press("play", sel + HOME)
            run = game.home_run()
            if not run:
                raise UserFeedback("error.nothing_home")
            return Press("play", BATCH.join(run))
        if sel and sel != act:  # a board from before one-press play: source, then destination
            return Press("play", self._notation(game, sel, act))
        if game.is_empty(act):
            if act.isdigit():
                raise UserFeedback("error.empty_column", place=int(act))
            raise UserFeedback("error.empty_cell", place=act)
        return Press("play", self.one_press(game, act))

    def one_press(self, game: G, place: str) -> str:
        """The move one press on ``place`` plays (notation): the engine's double tap (its
        foundation, the longest column it fits on, an empty column, a free cell);
        ``IllegalMove`` when the card has nowhere to go."""
        return game.double_tap_target(place)

    def one_presses(self, game: G) -> dict[str, str]:
        """Every place's one-press move at once ({place: notation}; a place whose card has
        nowhere to go is left out): the engine's double taps, from one listing of the moves."""
        return game.double_tap_targets()

    @staticmethod
    def _notation(game: G, src: str, dst: str) -> str:
        """Source then destination; into an empty column, the longest run that may move."""
        if src.isdigit() and dst.isdigit() and game.is_empty(dst):
            count = game.most_to_empty(src)
            if count > 1:
                return f"{src}{dst}v{count:x}"
        return src + dst

    def place_buttons(self, tr: Translator, game: G, sel: str) -> list[ButtonSpec]:
        out: list[ButtonSpec] = []
        for i, place in enumerate(game.places()):
            card = game.top_card(place)
            top = card_label(card) if card is not None else tr("button.empty")
            row = i // 4 if place.isdigit() else 2
            style: Style = "primary" if sel == place else "secondary"
            out.append(ButtonSpec(place, f"{place} · {top}", row, style))
        run = game.home_run()
        if game.home_finishes(run):
            home = tr("button.finish")
        else:
            home = tr("button.home_run", n=len(run)) if run else tr("button.home")
        out.append(ButtonSpec(HOME, home, 2, "success", disabled=not run))
        return out

    def ranked_moves(self, tr: Translator, game: G) -> list[tuple[str, str]]:
        """Home first, then onto a column, into the first empty column, and one free cell per
        source (another empty column or free cell would only repeat it)."""
        return [(m.notation, self.describe_move(tr, m)) for m in self._ranked(game)]

    @staticmethod
    def _ranked(game: G) -> list[TableauMove]:
        moves = game.legal_move_objects()
        home = [m for m in moves if m.dst_kind == FOUNDATION]
        onto = [m for m in moves if m.dst_kind == COLUMN and not m.to_empty]
        first_empty = min((m.dst for m in moves if m.to_empty), default=None)
        empty = sorted((m for m in moves if m.to_empty and m.dst == first_empty), key=lambda m: -len(m.cards))
        cells: dict[tuple[str, int], TableauMove] = {}
        for m in moves:
            if m.dst_kind == "f":
                cells.setdefault((m.src_kind, m.src), m)
        return [*home, *onto, *empty, *cells.values()]

    def move_menu(self, tr: Translator, game: G) -> list[tuple[str, str]]:
        """Every useful move a button press does not play: not any place's one-press move
        (a card's move home among them when its press sends it home). A move home stays when
        the card's press builds it elsewhere (a game whose press keeps a card not yet safe to
        send home on the columns), so that one card can go home without Home sending every other."""
        one_press = set(self.one_presses(game).values())
        options = [m for m in self._ranked(game) if m.notation not in one_press]
        # Every size of group into an empty column would crowd the free cells out of the 25
        # choices: the largest group of each source stays in place, the smaller ones go last.
        seen: set[str] = set()
        first: list[TableauMove] = []
        smaller: list[TableauMove] = []
        for move in options:
            if move.to_empty:
                (smaller if move.notation[0] in seen else first).append(move)
                seen.add(move.notation[0])
            else:
                first.append(move)
        # Words only for the choices shown (each is a few look-ups in the catalogue).
        return [(m.notation, self.describe_move(tr, m)) for m in [*first, *smaller][: self.menu_size]]

    # -- the Activity -----------------------------------------------------------------------
    def table(self, tr: Translator, game: G) -> Table:
        return tableau_table(tr, game)

    def drop(self, game: G, source: str, target: str, count: int) -> str:
        """Source then destination (``3h``, ``a5``); a run of several cards between columns
        names its size (``18v2``). The engine judges it."""
        places = game.places()
        if source not in places or (target not in places and target != HOME) or not 1 <= count <= 52:
            raise UserFeedback("error.unknown_button")
        return f"{source}{target}v{count:x}" if count > 1 else source + target

    def double_tap(self, game: G, place: str) -> str:
        """The place's press in the chat (``press_place``: this game's ``one_press``)."""
        if place not in game.places():
            raise UserFeedback("error.unknown_button")
        return self.press_place(game, "", place).value

    def home_move(self, game: G) -> str:
        return self.press_place(game, "", HOME).value

    def selected_place(self, tr: Translator, sel: str) -> str:
        if sel.isdigit():
            return place_words(tr, COLUMN, int(sel) - 1)
        return place_words(tr, "f", CELL_LETTERS.index(sel))

    # -- words ---------------------------------------------------------------------------
    def describe_move(self, tr: Translator, move: TableauMove) -> str:
        """``7♥ from column 3 to column 5``; a group names its size and range."""
        src = place_words(tr, move.src_kind, move.src)
        top = card_label(move.cards[-1])
        if len(move.cards) > 1:
            what = tr.n("move.group", len(move.cards), low=card_label(move.cards[0]), high=top)
        else:
            what = top
        if move.dst_kind == FOUNDATION:
            return tr("move.home", what=what, src=src)
        return tr("move.to", what=what, src=src, dst=place_words(tr, move.dst_kind, move.dst))

    def describe_action(self, tr: Translator, moves: tuple[TableauMove, ...]) -> str:
        if len(moves) > 1 and all(m.dst_kind == FOUNDATION for m in moves):
            cards = ", ".join(card_label(m.cards[0]) for m in moves)
            return tr.n("move.home_run", len(moves), cards=cards)
        return super().describe_action(tr, moves)

    def alt_text(self, tr: Translator, game: G) -> str:
        empty = tr("alt.empty")
        found = ", ".join(
            f"{SUIT_SYMBOLS[s]} {rank_text(n, ten='10') if n else empty}"
            for s, n in enumerate(game.foundation_counts())
        )
        cells = ", ".join(
            f"{p} {card_label(c) if (c := game.top_card(p)) is not None else empty}"
            for p in game.places()
            if not p.isdigit()
        )
        columns = "; ".join(
            f"{p}: {' '.join(map(card_label, game.cards_at(p))) or empty}"
            for p in game.places()
            if p.isdigit()
        )
        return tr(
            self.key("alt"),
            cells=game.cells,
            score=game.score,
            moves=game.move_count,
            found=found,
            free=cells,
            columns=columns,
        )

    def text_board(self, tr: Translator, game: G) -> str:
        return tableau_text_board(game)

    def claims_notation(self, text: str) -> bool:
        return text.strip().lower()[:1] in _NOTATION_START

    # -- endings, hints, rankings -----------------------------------------------------------
    def share_squares(self, tr: Translator, game: G) -> str:
        """The free cells it was played with; for a game not won, first how far each suit got
        (a win's four green squares would say nothing)."""
        cells = f"· {tr.n('board.cells', game.cells)}"
        if game.is_won:
            return cells
        suits = "".join("🟩" if n == 13 else ("🟨" if n else "⬛") for n in game.foundation_counts())
        return f"{suits} {cells}"

    @property
    def hint_worker(self) -> HintWorker:
        return tableau_hint

    @property
    def verdict_worker(self) -> VerdictWorker:
        return tableau_verdict

    def mark(self, game: G) -> Hashable:
        """The solver's key of the position (columns in any order, cells in any slot)."""
        from engine.solver import position_key

        return position_key(game.position)

    def known_line(self, game: G) -> tuple[Hashable, ...] | None:
        """The keys of the positions the deal's known solution (``solution``) passes through,
        checked here: a solution that does not replay to a win gives None."""
        moves = None if game.moves else self.solution(game.game_code)
        if moves is None:
            return None
        from engine.solver import line_keys

        keys = line_keys(game.position, moves)
        return None if keys is None else tuple(keys)

    def solution(self, code: engine.GameCode) -> tuple[str, ...] | None:
        """The moves of a known win of the deal ``code`` (None: none known)."""
        return None

    def result_words(self, tr: Translator, best: storage.FinishedGame) -> list[str]:
        """A win and its moves; a game not won, its cards home and moves (what ranks it); then
        the reference score, which never ranks."""
        cells = self.cells_of(best.variant) or self.cell_choices[0]
        return scored_result_words(tr, best, tr(self.score_key, score=best.score, cells=cells))

    def best_line(self, tr: Translator, best: storage.FinishedGame) -> str:
        if best.won:
            return tr(self.best_won_key, moves=best.move_count, score=best.score)
        return tr(self.best_not_won_key, home=best.home or 0, moves=best.move_count)

    def ranking_rule(self, tr: Translator) -> str:
        return tr(self.key("lb.rule"))
