"""Tower's front: a button per pile (press to send its top card home, or pick it up and drop it)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

import engine
import storage
from bot.games.base import Advice, ButtonSpec, GameFront, HintWorker, Press
from bot.languages.i18n import Translator
from bot.play.feedback import UserFeedback
from engine.cards import card_label
from tests.thirdgame.game import HOME, TowerGame, TowerMove, solve


def tower_hint(code: str, moves: tuple[str, ...], seconds: float) -> Advice:
    """Worker: the winning plan's next move."""
    if "tower" not in engine.GAMES:  # a worker process started afresh (not forked) registers it
        engine.register(TowerGame)
    game = engine.replay(code, moves)
    assert isinstance(game, TowerGame)
    if game.is_won:
        return Advice("won")
    move = solve(game)
    return Advice("move", move) if move else Advice("lost")


class TowerFront(GameFront[TowerGame]):
    kind = "tower"
    letter = "t"
    command = "tower"
    name = "Tower"
    commands_module = "tests.thirdgame.commands"
    has_daily = False
    has_replay = False  # no animation: the finished board has no buttons

    def daily_code(self, draw: int) -> engine.GameCode:
        return self.code(draw % (engine.codes.MAX_DEAL + 1), None)

    def press_place(self, game: TowerGame, sel: str, act: str) -> Press:
        if act not in game.places() or (sel and sel not in game.places()):
            raise UserFeedback("error.unknown_button")
        if not sel:
            if game.is_legal(act + HOME):
                return Press("play", act + HOME)
            if game.top_card(act) is None:
                raise UserFeedback("error.unknown_button")
            return Press("select", act)
        return Press("play", sel + act)

    def place_buttons(self, tr: Translator, game: TowerGame, sel: str) -> list[ButtonSpec]:
        out = []
        for place in game.places():
            card = game.top_card(place)
            label = f"{place} · {card_label(card) if card is not None else '-'}"
            out.append(ButtonSpec(place, label, 0, "primary" if sel == place else "secondary"))
        return out

    def highlight(self, sel: str) -> str:
        return sel

    def selected_place(self, tr: Translator, sel: str) -> str:
        return f"pile {sel}"

    def describe_move(self, tr: Translator, move: TowerMove) -> str:
        return move.describe()

    def alt_text(self, tr: Translator, game: TowerGame) -> str:
        piles = "; ".join(" ".join(map(card_label, pile)) or "-" for pile in game.position)
        return f"Tower: {game.home} spades home; piles {piles}"

    def claims_notation(self, text: str) -> bool:
        return text.strip()[:1] in ("1", "2", "3") and text.strip()[1:2] in ("h", "1", "2", "3")

    def share_squares(self, tr: Translator, game: TowerGame) -> str:
        return "🟩" if game.is_won else "🟨"

    @property
    def hint_worker(self) -> HintWorker:
        return tower_hint

    def result_words(self, tr: Translator, best: storage.FinishedGame) -> list[str]:
        return [f"tower {'won' if best.won else 'not won'} in {best.move_count}"]

    def best_line(self, tr: Translator, best: storage.FinishedGame) -> str:
        return f"best tower: {best.move_count} moves"

    def render(
        self,
        game: TowerGame,
        *,
        highlight: str | None,
        labels: object,
        deck: str = "two",
        tag: str | None = None,
        hide_code: bool = False,
    ) -> bytes:
        image = Image.new("RGB", (240, 120), "darkgreen")
        draw = ImageDraw.Draw(image)
        for i, pile in enumerate(game.position):
            draw.text((10 + 80 * i, 10), " ".join(map(card_label, pile)), fill="white")
        draw.text((10, 100), f"home {game.home}", fill="yellow")
        out = io.BytesIO()
        image.save(out, "PNG")
        return out.getvalue()
