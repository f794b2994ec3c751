"""The eight-column board with free cells, shared by the games laid out like Jeu du Boulanger:
cells a-d and foundations on top, columns 1-8 below. Each game's board module
(``renderer.games.bakers`` …) is one line: ``TableauBoard(kind, title)``, registered as its
game's board; this module names no game.

Columns fan down ``layout.FAN`` px a card, so every card's corner shows whole;
the picture is as tall as its longest column needs (``height``), at least
``MIN_CARDS`` cards' worth, at most ``FULL_HEIGHT`` (a 19-card column, the
longest the rules allow; a longer made-up column is squeezed to fit).

Highlights: ``("c", i)`` selects column i (0-based; its ordered run is
marked), ``("f", i)`` free cell i. The last move is read from
``game.last_move``: its source label turns amber, the cards it put down get
an amber face.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.cards import SUIT_SYMBOLS
from engine.tableau import TableauGame
from renderer import header
from renderer import layout as L
from renderer.cache import cached
from renderer.cards import LAST, ON_HOME, PICK, PLAIN, TWO, card_sprite, paste_pile, slot_sprite, tray_sprite
from renderer.labels import Labels, Word
from renderer.palette import new_canvas, put
from renderer.png import band_starts
from renderer.text import overlay_pill, paste, pill_sprite, text_sprite

Game = TableauGame[Any]
TITLE_SIZE, TITLE_ROOM = L.TITLE_TEXT, 220  # a game title's font size and widest room in the header


def title_word(title: str) -> Word:
    """A board's title as one of its ``WORDS``."""
    return (title, TITLE_SIZE, TITLE_ROOM)


# The words every eight-column board draws besides its title: the foundations' caption.
WORDS: dict[str, Word] = {"foundations": ("foundations", L.LABEL_TEXT, 300)}

CELL_LETTERS = "abcd"
LETTER_Y = L.HEADER_H + 1  # cell letters, the foundations' caption
TOP_Y = LETTER_Y + L.LABEL_ROW  # cells and foundations
HOME_BOX = (  # the foundations' tray: their caption and the four of them, a rim around the cards
    L.MARGIN + 4 * (L.CARD_W + L.GAP) - L.HOME_PAD,
    LETTER_Y + 1,
    L.WIDTH - L.MARGIN + L.HOME_PAD,
    TOP_Y + L.CARD_H + L.HOME_PAD,
)
NUMBER_Y = HOME_BOX[3] + 2  # column numbers
TABLEAU_Y = NUMBER_Y + L.LABEL_ROW
LONGEST = 19  # 6 dealt cards under a king and its whole run down to the ace
MIN_CARDS = 5  # a board is never shorter than a column of 5 would make it
FULL_HEIGHT = TABLEAU_Y + (LONGEST - 1) * L.FAN + L.CARD_H + L.BOTTOM
TABLEAU_ROOM = FULL_HEIGHT - L.BOTTOM - TABLEAU_Y


def height(game: Game) -> int:
    """The picture's height: down to the longest column's last card (and a little felt)."""
    n = max(MIN_CARDS, *(len(col) for col in game.position.cols))
    if n > LONGEST:
        return FULL_HEIGHT
    return TABLEAU_Y + (n - 1) * L.FAN + L.CARD_H + L.BOTTOM


@cached()
def bands(height: int) -> tuple[int, ...]:
    """Where the PNG's bands start (``renderer.png.band_starts``): the header's two rows, the
    cell letters, the cells' row, the column numbers, then one band per card step down the
    columns, so a move or a pick re-deflates only the rows it touched."""
    return band_starts((L.HEADER_ROW, L.HEADER_H, TOP_Y, NUMBER_Y - 2, TABLEAU_Y), TABLEAU_Y, L.FAN, height)


def slot_x(i: int) -> int:
    """Left edge of place ``i`` in the 8-wide grid (columns; cells 0-3 and foundations 4-7)."""
    return L.MARGIN + i * (L.CARD_W + L.GAP)


def _label(canvas: Image.Image, text: str, i: int, y: int, fill: L.RGB | None = None) -> None:
    """A place's name centred over it: plain text, or on a coloured badge when marked."""
    ink = L.TEXT if fill is None or fill == L.PICK_EDGE else L.BLACK
    pill = pill_sprite(text, L.LABEL_TEXT, ink, fill or L.FELT, L.FELT)
    paste(canvas, pill, slot_x(i) + L.CARD_W // 2, y, "m")


@cached(limit=64)
def background(kind: str, cells: int, labels: Labels) -> Image.Image:
    """Everything that does not depend on the cards (the title is ``kind``'s word): read
    only, boards start from a copy."""
    canvas = new_canvas((L.WIDTH, FULL_HEIGHT), L.FELT)
    header.draw_static(canvas, dict(labels)[kind])
    for i in range(cells):
        _label(canvas, CELL_LETTERS[i], i, LETTER_Y)
        canvas.paste(slot_sprite(), (slot_x(i), TOP_Y))
    _home(canvas, dict(labels)["foundations"])
    for c in range(8):
        _label(canvas, str(c + 1), c, NUMBER_Y)
        canvas.paste(slot_sprite(), (slot_x(c), TABLEAU_Y))
    return canvas


def _home(canvas: Image.Image, caption: str) -> None:
    """The foundations' tray, its caption and each suit's empty place (a watermark of its suit)."""
    x0, y0, x1, y1 = HOME_BOX
    canvas.paste(tray_sprite(x1 - x0, y1 - y0), (x0, y0))
    paste(canvas, text_sprite(caption, L.LABEL_TEXT, L.HOME_RIM, L.HOME), (x0 + x1) // 2, LETTER_Y + 3, "m")
    for s in range(4):
        canvas.paste(slot_sprite(SUIT_SYMBOLS[s], 44, ON_HOME), (slot_x(4 + s), TOP_Y))


#: Column sprites kept (~25 KiB each: ~25 MiB): every column of some 120 games being played at
#: once. With 256, fifty players at once (``benchmarks/bot.py``) missed 7 columns of 8 a board.
COLUMN_SPRITES = 1024


@cached(limit=COLUMN_SPRITES)
def column_sprite(
    cards: tuple[int, ...], step: int, styles: tuple[tuple[int, str], ...], deck: str
) -> Image.Image:
    """A column's fanned cards as one sprite (read only): a press changes one or two of
    the eight columns, so the others are one paste each instead of one per card (issue 26).
    The cards cover the whole sprite, so it pastes exactly as they would one by one.
    ``styles`` are ``(position, LAST or PICK)`` pairs. At most ``COLUMN_SPRITES`` kept."""
    sprite = new_canvas((L.CARD_W, (len(cards) - 1) * step + L.CARD_H), L.FELT)
    paste_pile(sprite, 0, 0, cards, step, dict(styles), deck)
    return sprite


class _Marks:
    """Which cards get a marked face and which labels a badge, from the last move and the pick."""

    def __init__(self, game: Game, highlight: tuple[str, int] | None) -> None:
        pos = game.position
        self.cols: list[dict[int, str]] = [{} for _ in range(8)]  # column -> {position: style}
        self.cells: dict[int, str] = {}
        self.homes: dict[int, str] = {}
        self.labels: list[tuple[str, int, L.RGB]] = []  # (kind, index, badge colour)
        last = game.last_move
        if last is not None:
            self.labels.append((last.src_kind, last.src, L.LAST_EDGE))
            if last.dst_kind == "c":
                n = len(pos.cols[last.dst])
                self.cols[last.dst].update(dict.fromkeys(range(n - len(last.cards), n), LAST))
            elif last.dst_kind == "f":
                self.cells[last.dst] = LAST
            else:
                self.homes[last.dst] = LAST
        if highlight is not None:  # drawn after the last move: a pick wins where both apply
            kind, i = highlight
            self.labels.append((kind, i, L.PICK_EDGE))
            if kind == "c":
                n = len(pos.cols[i])
                self.cols[i].update(dict.fromkeys(range(n - pos.run_length(i), n), PICK))
            else:
                self.cells[i] = PICK


def render(
    kind: str,
    game: Game,
    highlight: tuple[str, int] | None,
    labels: Labels,
    deck: str = TWO,
    fit: bool = False,
    tag: str | None = None,
    hide_code: bool = False,
) -> Image.Image:
    """``kind``'s board (its title is that word of ``labels``), ``FULL_HEIGHT`` tall (a
    replay's frames), or ``height(game)`` with ``fit``; ``tag`` and ``hide_code`` as in
    ``header.draw_dynamic``."""
    pos = game.position
    words = dict(labels)
    base = background(kind, len(pos.cells), labels)
    canvas = base.crop((0, 0, L.WIDTH, height(game))) if fit else base.copy()
    canvas.info["bands"] = bands(canvas.height)
    header.draw_dynamic(canvas, game, words[kind], words, tag, hide_code)
    marks = _Marks(game, highlight)
    for i, card in enumerate(pos.cells):
        if card >= 0:
            put(canvas, card_sprite(card, marks.cells.get(i, PLAIN), deck=deck), (slot_x(i), TOP_Y))
    for s, count in enumerate(pos.found):
        if count:
            home = card_sprite(s * 13 + count - 1, marks.homes.get(s, PLAIN), ON_HOME, deck=deck)
            put(canvas, home, (slot_x(4 + s), TOP_Y))
    for c, col in enumerate(pos.cols):
        if col:
            step = L.fan_step(len(col), TABLEAU_ROOM) if len(col) > LONGEST else L.FAN
            styles = marks.cols[c]
            put(
                canvas,
                column_sprite(tuple(col), step, tuple(sorted(styles.items())) if styles else (), deck),
                (slot_x(c), TABLEAU_Y),
            )
    for kind, i, colour in marks.labels:
        if kind == "c":
            _label(canvas, str(i + 1), i, NUMBER_Y, colour)
        elif kind == "f":
            _label(canvas, CELL_LETTERS[i], i, LETTER_Y, colour)
    if game.is_won:
        _won_banner(canvas, words["won"], height(game))
    return canvas


def _won_banner(canvas: Image.Image, text: str, bottom: int) -> None:
    """WON over the empty columns, drawn over them (their outlines stay whole around it)."""
    height = pill_sprite(text, L.BANNER_TEXT, L.BLACK, L.WON, L.FELT).height
    overlay_pill(
        canvas, text, L.BANNER_TEXT, L.BLACK, L.WON, L.WIDTH // 2, (TABLEAU_Y + bottom - height) // 2
    )


def parse_highlight(game: Game, highlight: object) -> tuple[str, int] | None:
    """``("c", 0..7)``, ``("f", cell)`` or the notation names ``"1"``-``"8"``, ``"a"``-``"d"``."""
    if highlight is None:
        return None
    cells = len(game.position.cells)
    if isinstance(highlight, str):
        t = highlight.strip().lower()
        if len(t) == 1 and "1" <= t <= "8":
            return ("c", int(t) - 1)
        if len(t) == 1 and t in CELL_LETTERS[:cells]:
            return ("f", CELL_LETTERS.index(t))
    elif isinstance(highlight, tuple) and len(highlight) == 2 and isinstance(highlight[1], int):
        kind, i = highlight
        if (kind == "c" and 0 <= i < 8) or (kind == "f" and 0 <= i < cells):
            return (kind, i)
    letters = ", ".join(CELL_LETTERS[:cells])
    if isinstance(highlight, str):  # a name a person typed: answered in the board's words
        raise ValueError(
            f"{highlight!r} is not a place to select: name a column (1 to 8) or a free cell ({letters})"
        )
    raise ValueError(
        f"highlight {highlight!r} is not a place of this game: use ('c', 0-7) for a column "
        f"or ('f', 0-{cells - 1}) for a free cell (or their names 1-8, {letters})"
    )


class TableauBoard:
    """One game's eight-column board (a ``renderer.boards.Board``): its kind and its title;
    the layout, the highlights and the drawing are this module's."""

    FULL_HEIGHT = FULL_HEIGHT

    def __init__(self, kind: str, title: str) -> None:
        self.KIND = kind
        # its own words (the shared ones are in ``renderer.labels``): its title
        self.WORDS: dict[str, Word] = {kind: title_word(title), **WORDS}

    def background(self, cells: int, labels: Labels) -> Image.Image:
        """Everything that does not depend on the cards (cached; read only)."""
        return background(self.KIND, cells, labels)

    def render(
        self,
        game: Game,
        highlight: tuple[str, int] | None,
        labels: Labels,
        deck: str = TWO,
        fit: bool = False,
        tag: str | None = None,
        hide_code: bool = False,
    ) -> Image.Image:
        """The board (``render`` of this module, under this game's title)."""
        return render(self.KIND, game, highlight, labels, deck, fit, tag, hide_code)

    def height(self, game: Game) -> int:
        return height(game)

    def parse_highlight(self, game: Game, highlight: object) -> tuple[str, int] | None:
        return parse_highlight(game, highlight)

    def __repr__(self) -> str:
        return f"TableauBoard({self.KIND!r})"
