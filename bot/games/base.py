"""The shape every game front has: what the bot knows of one game, and nothing of Discord.

A front answers every game-specific question the rest of ``bot/`` asks: what a
board button means, which buttons a board gets, which place a selection
highlights, moves and places in words, the daily share squares, the hint
worker, the daily deal and the leaderboard line. Service,
views, replies, cogs and the daily poster ask the front of a game (through
``bot.games.front_for``) and never compare kinds themselves, so a new game is
its record, an engine module, a board and a front. A front's identity (kind,
letter, command, names, cell choices) is read from the record it names.

Fronts hold no state and import no Discord, so the service and the console use
them too; buttons are described as ``ButtonSpec`` data that ``bot.adapter.views`` turns
into discord.py components.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

import engine
import storage
from bot.languages.i18n import Translator, t
from bot.play.feedback import UserFeedback
from engine.record import GameRecord
from storage import Deck

G = TypeVar("G", bound="engine.Game[Any]")

Style = Literal["primary", "secondary", "success", "danger"]
PressAction = Literal["select", "play", "undo", "hint", "clear", "resign"]
AdviceStatus = Literal["move", "won", "lost", "unknown"]
VerdictStatus = Literal["winnable", "lost", "unknown"]

# The buttons every board has, whatever the game: their actions in custom ids.
UNDO, HINT, CLEAR, RESIGN = "u", "i", "x", "r"
CONTROLS: dict[str, PressAction] = {UNDO: "undo", HINT: "hint", CLEAR: "clear", RESIGN: "resign"}


@dataclass(frozen=True, slots=True)
class Press:
    """What a board button means in the current position."""

    action: PressAction
    value: str = ""  # the notation to play, or the place selected


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One board button as data: ``bot.adapter.views`` makes the discord.py component from it."""

    act: str
    label: str
    row: int
    style: Style = "secondary"
    disabled: bool = False
    keeps_selection: bool = True  # False: pressing it is meant to drop the selection


@dataclass(frozen=True, slots=True)
class GameSetting:
    """A choice a game's front offers its players in ``/settings`` (a rule they may turn off):
    kept per player under ``<kind>.<name>`` (``bot.play.game_settings``), one of ``values``,
    ``values[0]`` the default. Its words are the front's catalogue keys:
    ``choice.<kind>.<name>.<value>`` (the command's choice) and
    ``settings.<kind>.<name>.<value>`` (the line saying what it is)."""

    name: str
    values: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.values[0]


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint worker's answer; plain values, so it crosses the process pool."""

    status: AdviceStatus
    move: str | None = None
    undos: int | None = None  # for "lost": undos back to a winnable position, if found
    # For "lost" without undos: whether the deal could be won from its start, when known
    # (False: no move of the player lost it; True: it was winnable and no longer is).
    deal_winnable: bool | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a position can still be won (a verdict worker's answer; plain values, so it
    crosses the process pool). ``line``: the marks (``GameFront.mark``) of the positions a
    win from here passes through, so a move onto it needs no search; ``undos``, for "lost":
    the undos back to a winnable position, when known."""

    status: VerdictStatus
    line: tuple[Hashable, ...] = ()
    undos: int | None = None
    nodes: int = 0


@dataclass(frozen=True, slots=True)
class Pile:
    """One place of a game's table as the Activity's page draws it (``GameFront.table``).

    The page knows no game: it draws these piles where they say, lets a player pick up
    ``drag`` cards and drop them on any pile with a ``drop`` place, and sends the move back
    as places; the front turns it into notation and the engine decides."""

    place: str  # its notation name, the page's ``data-place`` ("3", "a", "h", "s", "w2", "f1")
    role: str  # "column", "cell", "foundation", "stock", "turned", "waste": how it looks
    x: float  # where, in card widths from the left …
    y: float  # … and card heights from the top
    cards: tuple[str, ...] = ()  # bottom first, fc-solve's text ("8S", "TD"); "" a face-down card
    fan: bool = False  # spread downwards (a column), else stacked (the top card shows)
    drop: str | None = None  # the place a card dropped here is sent to ("h" for a suit's pile)
    drag: Literal["none", "top", "run"] = "none"  # what may be picked up: the top card, any run
    label: str = ""  # drawn on the place when it is empty, or beside it ("+2", "needs 5", "12")
    name: str = ""  # the place in the player's words, for screen readers
    suit: str = ""  # the one suit this pile takes (fc-solve's letter: a suit's foundation), "" any


@dataclass(frozen=True, slots=True)
class Table:
    """A position as piles (``GameFront.table``), with the size it takes in cards."""

    piles: tuple[Pile, ...]
    width: float
    height: float
    home: str = ""  # the Home button's words (every card that can go home, one action); "": none
    home_ready: bool = False  # a card can go home now


def elapsed(seconds: int) -> str:
    """A game's time as a clock shows it: ``4:32``, ``1:02:03``."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# A worker run in the solver's process pool: (code, action log, seconds) → advice.
HintWorker = Callable[[str, tuple[str, ...], float], Advice]
# A worker deciding whether a position can still be won, run in the players' (hint) pool:
# (code, action log, seconds, node budget, search back for the undos, marks of positions
# known to be winnable, in their line's order: a search may stop on reaching one, the undos
# back to the first of them or None) → verdict.
VerdictWorker = Callable[[str, tuple[str, ...], float, int, bool, tuple[Hashable, ...], int | None], Verdict]
# A worker that finds proven-winnable deals: (cells, seed, wanted, seconds each, budget) → deals.
WinnableFinder = Callable[[int, int, int, float, float], list[int]]

R = TypeVar("R")


class WorkerPool(Protocol):
    """Where a front's slow searches run, off the event loop (``bot.play.solving.Solver``, passed in)."""

    async def run(self, fn: Callable[..., R], *args: Any, timeout: float | None = None) -> R: ...


class GameFront(ABC, Generic[G]):
    """Everything game-specific the bot does, for the engine game class ``G``."""

    # Its identity, read from the game's record (``__init_subclass__``): written nowhere else.
    record: ClassVar[GameRecord]
    kind: ClassVar[str]  # the engine's kind, the registry's key
    letter: ClassVar[str]  # one character naming the game inside custom ids
    command: ClassVar[str]  # the slash command that starts a game
    name: ClassVar[str]  # the English name in command choices (translated as ``choice.<kind>``)
    short_name: ClassVar[str]  # the English name in help texts ("Boulanger")
    accent_colour: ClassVar[int] = 0x5865F2  # the edge of its board's card (Components V2 container)
    cell_choices: ClassVar[tuple[int, ...]] = ()  # free-cell counts offered, the default first
    stock_cells: ClassVar[tuple[int, ...]] = ()  # cell counts dealt from the winnable stock
    selections: ClassVar[str] = ""  # the places a selection may hold, one character each
    # The words its board draws besides the shared ones: renderer label -> catalogue key
    # (its title is added under its kind).
    picture_keys: ClassVar[dict[str, str]] = {}
    notation_examples: ClassVar[str] = ""  # a few typed moves, for help texts: "3h, a5"
    button_names: ClassVar[str] = ""  # its board buttons as the console's ``press`` takes them
    has_daily: ClassVar[bool] = True
    has_replay: ClassVar[bool] = True  # a won game offers its animation (``render_replay``)
    uses_selection: ClassVar[bool] = True  # whether a press can select a place (and Clear it)
    dead_end_is_final: ClassVar[bool] = False  # no legal move left: the game is lost at once
    menu_size: ClassVar[int] = 25  # Discord's most options in a select menu
    explains_losses: ClassVar[bool] = False  # a lost game's board offers "how could it be won?"
    in_activity: ClassVar[bool] = False  # offered in the Activity (it has a ``table``)
    settings: ClassVar[tuple[GameSetting, ...]] = ()  # its players' own choices (``/settings``)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A front naming its game's ``record`` takes its identity and cell choices from it."""
        super().__init_subclass__(**kwargs)
        record: GameRecord | None = cls.__dict__.get("record")
        if record is None:
            return
        cls.kind, cls.letter, cls.command = record.kind, record.letter, record.command.name
        cls.name, cls.short_name = record.title, record.short_name
        cells = record.cells
        cls.cell_choices = cells.values if cells is not None else ()

    # -- texts ---------------------------------------------------------------------------
    def key(self, base: str) -> str:
        """This game's variant of a catalogue key: ``board.won`` → ``board.won.bakers``."""
        return f"{base}.{self.kind}"

    def title(self, tr: Translator) -> str:
        return tr(self.key("game"))

    def title_in(self, language: str) -> str:
        return t(language, self.key("game"))

    def rules(self, tr: Translator) -> str:
        return tr(self.key("rules"))

    def help(self, tr: Translator) -> str | None:
        """The game's own paragraph under /help (at most 1,024 characters), or None: the
        shared help text covers it."""
        return None

    def share_key(self, won: bool) -> str:
        return f"share.{self.kind}.{'won' if won else 'lost'}"

    def picture_words(self, language: str) -> dict[str, str]:
        """The words this game's board draws beyond the shared ones, in ``language``: its
        title (under its kind) and its ``picture_keys``."""
        words = {label: t(language, key) for label, key in self.picture_keys.items()}
        return {self.kind: self.title_in(language), **words}

    def localise_params(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
        """An engine error's params as players read them (its places in their language);
        a game whose errors name no places keeps them as they are."""
        return params

    def use_settings(self, game: G, values: Mapping[str, str]) -> None:
        """Give ``game`` its player's values of this game's ``settings`` (each name's value,
        its default when never chosen), before each move is played. A game without settings
        has nothing to do."""

    # -- starting ------------------------------------------------------------------------
    def check_cells(self, cells: int | None) -> int | None:
        """The free cells a new game gets (None for a game without them); refuses others."""
        if not self.cell_choices:
            return None
        chosen = self.cell_choices[0] if cells is None else cells
        if chosen not in self.cell_choices:
            raise UserFeedback(self.key("error.bad_cells"))  # names this game's counts
        return chosen

    def option_token(self, cells: int | None) -> str:
        """The game's option (its free cells) as custom ids carry it: its stored variant
        (``""`` for none)."""
        return self.variant(cells)

    def parse_option(self, token: str) -> int | None:
        """An option back from a custom id (``""`` or ``"0"``: none); ``UserFeedback`` for a token
        this game never writes (a forged id). ``check_cells`` then refuses a count not offered."""
        if token in ("", "0"):
            return None
        if not token.isdigit() or len(token) > 2:
            raise UserFeedback("error.unknown_button")
        return int(token)

    def code(self, deal: int, cells: int | None) -> engine.GameCode:
        return engine.make_code(self.kind, deal, cells)

    def random_deal(self, rng: random.Random) -> int:
        """Any of the game's deals, drawn from ``rng``: its codes' whole range (the project's
        35-bit deals, or a numbered range such as Microsoft's 1 to 1,000,000)."""
        deals = engine.codes.SPECS[self.kind].deals
        return rng.randint(deals.low, deals.high)

    # -- what storage keeps of the game's option --------------------------------------------
    def variant(self, cells: int | None) -> str:
        """The stored variant of a game with this option: storage only compares it (boards,
        races, the winnable stock are per variant). "" for a game without options."""
        return ""

    def cells_of(self, variant: str) -> int | None:
        """The free cells a stored ``variant`` stands for (None for a game without them)."""
        return None

    @abstractmethod
    def daily_code(self, draw: int) -> engine.GameCode:
        """A day's challenge from a fresh random ``draw`` (``dailycodes.draw``), drawn once a
        day and stored; may run a short search: call it off the event loop."""

    # -- the board's buttons -------------------------------------------------------------
    def press(self, game: G, sel: str, act: str) -> Press:
        """What pressing ``act`` means with ``sel`` selected; ``UserFeedback`` if nothing."""
        control = CONTROLS.get(act)
        if control is not None:
            return Press(control)
        if sel and sel not in self.selections:  # a forged id's selection
            raise UserFeedback("error.unknown_button")
        return self.press_place(game, sel, act)

    @abstractmethod
    def press_place(self, game: G, sel: str, act: str) -> Press:
        """A press on one of this game's own buttons (a place or a destination)."""

    def buttons(self, tr: Translator, game: G, sel: str) -> list[ButtonSpec]:
        """Every button of a board in play, its places first, then the shared controls."""
        places = self.place_buttons(tr, game, sel)
        row = max((b.row for b in places), default=-1) + 1
        return places + self.control_buttons(tr, game, sel, row)

    @abstractmethod
    def place_buttons(self, tr: Translator, game: G, sel: str) -> list[ButtonSpec]: ...

    def control_buttons(self, tr: Translator, game: G, sel: str, row: int) -> list[ButtonSpec]:
        out = [
            ButtonSpec(UNDO, tr("button.undo"), row, disabled=game.undo_depth == 0),
            ButtonSpec(HINT, tr("button.hint"), row, style="success"),
        ]
        if self.uses_selection:
            out.append(ButtonSpec(CLEAR, tr("button.clear"), row, disabled=not sel, keeps_selection=False))
        if game.is_lost:  # no legal move is left: offer to end it (recorded as lost)
            out.append(ButtonSpec(RESIGN, tr("button.end_game"), row, style="danger", keeps_selection=False))
        return out

    @abstractmethod
    def highlight(self, sel: str) -> str:
        """The renderer's name of the place a selection marks."""

    @abstractmethod
    def selected_place(self, tr: Translator, sel: str) -> str:
        """The selected place in words, for the line under the board."""

    # -- words ---------------------------------------------------------------------------
    @abstractmethod
    def describe_move(self, tr: Translator, move: Any) -> str:
        """A resolved engine move in the player's words."""

    def describe_action(self, tr: Translator, moves: tuple[Any, ...]) -> str:
        """The last action in words: one move, or a batch (several moves as one action)."""
        return "; ".join(self.describe_move(tr, move) for move in moves)

    def ranked_moves(self, tr: Translator, game: G) -> list[tuple[str, str]]:
        """(notation, words) of the legal moves, most useful first (``/move`` autocomplete)."""
        return [(m.notation, self.describe_move(tr, m)) for m in game.legal_move_objects()]

    def move_menu(self, tr: Translator, game: G) -> list[tuple[str, str]]:
        """The moves a board's select menu offers besides its buttons (none by default)."""
        return []

    @abstractmethod
    def alt_text(self, tr: Translator, game: G) -> str:
        """The picture's description for screen readers: the key facts of the position."""

    def text_board(self, tr: Translator, game: G) -> str:
        """The position as text, for the console: each pile named as a typed move names it,
        cards as players read them (``10♥``). By default the engine's own board text."""
        return game.board_text().rstrip()

    @abstractmethod
    def claims_notation(self, text: str) -> bool:
        """Whether a typed move looks like this game's notation (which game /move is for)."""

    # -- endings -------------------------------------------------------------------------
    @abstractmethod
    def share_squares(self, tr: Translator, game: G) -> str:
        """What a finished daily's share line shows beyond its outcome: spoiler-free facts
        that differ between players (progress squares, the free cells played with)."""

    async def after_game(self, tr: Translator, row: storage.GameRow, solver: WorkerPool | None) -> str | None:
        """A private note after a game ends (e.g. whether a lost deal could have been won)."""
        return None

    # -- hints ---------------------------------------------------------------------------
    @property
    @abstractmethod
    def hint_worker(self) -> HintWorker:
        """A module-level function (it must pickle) that advises on a position."""

    def hint_worker_for(self, game: G) -> HintWorker:
        """The worker advising on ``game``: ``hint_worker``, unless the advice depends on its
        player's settings (given to ``game`` by ``use_settings``), which a front's override
        passes to its worker (a ``functools.partial`` of a module-level function pickles)."""
        return self.hint_worker

    def shipped_deals(self, cells: int) -> tuple[int, ...]:
        """Proven-winnable deals shipped with the project (the stock's seed and fallback)."""
        return ()

    @property
    def winnable_finder(self) -> WinnableFinder | None:
        """For games dealt from a stock of proven-winnable deals: the worker that finds more."""
        return None

    # -- rankings ------------------------------------------------------------------------
    @abstractmethod
    def result_words(self, tr: Translator, best: storage.FinishedGame) -> list[str]:
        """A leaderboard entry's best result, as the parts of its line."""

    @abstractmethod
    def best_line(self, tr: Translator, best: storage.FinishedGame) -> str:
        """The best game's line in ``/stats``."""

    def effort_words(self, tr: Translator, result: storage.FinishedGame, *, undos: bool = False) -> list[str]:
        """A result's time, and its hints (and with ``undos`` its undos) when there were any:
        ``⏱ 4:32``, ``💡 2``, ``↩ 3``. Shown with every result; what ranks is the rank key."""
        out = [] if result.seconds is None else [tr("result.time", time=elapsed(result.seconds))]
        if result.hints:
            out.append(tr.n("result.hints", result.hints))
        if undos and result.undos:
            out.append(tr.n("result.undos", result.undos))
        return out

    def ranking_rule(self, tr: Translator) -> str | None:
        """The board's ranking in one plain sentence (None: the game does not say)."""
        return None

    # -- can the position still be won? (the board's warning) ------------------------------
    @property
    def verdict_worker(self) -> VerdictWorker | None:
        """The worker that decides whether a position can still be won (None: the game's
        boards never warn, e.g. one with hidden cards)."""
        return None

    def mark(self, game: G) -> Hashable | None:
        """A cheap mark of the position, equal for equal positions, compared with a verdict's
        ``line`` on the event loop (None when the game has no verdict worker)."""
        return None

    def known_line(self, game: G) -> tuple[Hashable, ...] | None:
        """For a game as dealt: the marks of the positions a known win of its deal passes
        through (a shipped solution), so its first verdict needs no whole new search; None
        when no win of the deal is known here."""
        return None

    # -- the Activity (bot/activity): the page draws the table and proposes moves ------------
    def table(self, tr: Translator, game: G) -> Table | None:
        """The position as piles for the Activity's page (a game with ``in_activity``)."""
        return None

    def drop(self, game: G, source: str, target: str, count: int) -> str:
        """The notation of dropping ``count`` cards of ``source``'s top on ``target`` (places as
        ``Pile.place`` / ``Pile.drop`` name them); the engine then says whether it is legal."""
        raise UserFeedback("error.unknown_button")

    def double_tap(self, game: G, place: str) -> str:
        """The notation a double tap on ``place`` plays: the same move as its press in the chat."""
        raise UserFeedback("error.unknown_button")

    def home_move(self, game: G) -> str:
        """What Home plays (every card that can go home, one action); ``UserFeedback`` if none."""
        raise UserFeedback("error.unknown_button")

    # -- races ---------------------------------------------------------------------------
    def race_progress(self, tr: Translator, home: int) -> str:
        """A race player's progress in words, from the cards on the foundations."""
        return tr.n("race.home", home)

    # -- the picture ---------------------------------------------------------------------
    def render(
        self,
        game: G,
        *,
        highlight: str | None,
        labels: Mapping[str, str] | None,
        deck: Deck = "two",
        tag: str | None = None,
        hide_code: bool = False,
    ) -> bytes:
        """The board picture as PNG bytes (called in a worker thread), in the player's deck;
        ``tag`` (a ``renderer.TAGS`` key: where the deal came from) and ``hide_code`` (a
        race's board) go to the header."""
        import renderer

        return renderer.render_png(
            game, highlight=highlight, labels=labels, deck=deck, tag=tag, hide_code=hide_code
        )

    def render_replay(
        self, code: str, moves: tuple[str, ...], *, labels: Mapping[str, str] | None, max_bytes: int
    ) -> bytes:
        """A won game as an animated GIF of at most ``max_bytes`` (called in a worker thread)."""
        import renderer

        return renderer.render_replay(code, moves, labels=labels, max_bytes=max_bytes)
