"""The console's commands about the player rather than one game: records, rankings, languages,
settings and rules (``stats``, ``leaderboard``, ``language``, ``settings``, ``rules``).
"""

from __future__ import annotations

from typing import Any

from bot.games import GameFront, front_named, fronts
from bot.languages.i18n import Translator
from bot.languages.language import LANGUAGES, set_warns_lost, use_language, warns_lost
from bot.play import dailycodes, game_settings
from bot.play.service import GameService

# The console's games are played at one table (a server and channel id of its own), so that
# `leaderboard` ranks them like a channel's board.
CONSOLE_TABLE = 1


def named(args: list[str]) -> GameFront[Any] | None:
    """The game the first word names (``boulanger``, ``bakers``, ``calculation`` …), if any."""
    return front_named(args[0]) if args else None


class RecordCommands:
    """Mixed into ``bot.play.console.Console``, which prints (``say``) and holds the rest."""

    service: GameService
    user_id: int
    tr: Translator

    def say(self, text: str) -> None:
        raise NotImplementedError

    async def cmd_stats(self, args: list[str]) -> None:
        today = dailycodes.utc_today(self.service.clock())
        for front in fronts():
            s = await self.service.store.player_stats(self.user_id, front.kind, today=today)
            played = self.tr("stats.played", played=s.played, won=s.won, rate=f"{s.win_rate * 100:.0f}")
            streak = self.tr("stats.streak", current=s.current_streak, best=s.best_streak)
            self.say(f"{front.title(self.tr)}: {played} · {streak}")

    async def cmd_leaderboard(self, args: list[str]) -> None:
        front = named(args) or fronts()[0]
        period = args[1] if len(args) > 1 else "all"
        if period not in ("all", "week", "daily"):
            self.say("! leaderboard GAME [all|week|daily]")
            return
        today = dailycodes.utc_today(self.service.clock())
        scope: dict[str, Any] = {"channel_id": CONSOLE_TABLE, "period": period}
        if period == "daily":
            scope["daily_date"] = today
        entries = await self.service.store.leaderboard(front.kind, limit=10, **scope)
        title = front.title(self.tr)
        self.say(self.tr(f"lb.title.{period}", game=title, date=today.isoformat()))
        for e in entries:
            record = self.tr("lb.record", won=e.won, played=e.played)
            words = " · ".join([*front.result_words(self.tr, e.best), record])
            self.say(f"  {e.rank}. player {e.user_id} · {words}")
        if not entries:
            self.say("  " + self.tr("lb.empty"))

    async def cmd_language(self, args: list[str]) -> None:
        if not args or args[0] not in LANGUAGES:
            self.say(f"! language {'|'.join(LANGUAGES)}")
            return
        self.tr = Translator(args[0])
        use_language(args[0])
        self.say(self.tr("language.set"))

    async def cmd_settings(self, args: list[str]) -> None:
        """``settings [lost_warning on|off]``: like /settings, what is given changes
        (``settings LANGUAGE`` is ``language``)."""
        if args and args[0] in LANGUAGES:
            await self.cmd_language(args)
            return
        tokens = [c.token for c in game_settings.every_choice()]
        if args[:1] == ["lost_warning"] and args[1:2] in (["on"], ["off"]):
            await set_warns_lost(self.service.store, self.user_id, args[1] == "on")
        elif len(args) == 1 and args[0] in tokens:  # a game's own setting: GAME.SETTING.VALUE
            await game_settings.choose(self.service.store, self.user_id, args[0])
        elif args:
            self.say(f"settings [lost_warning on|off] | settings {'|'.join(tokens)} | settings LANGUAGE")
            return
        on = await warns_lost(self.service.store, self.user_id)
        self.say(self.tr(f"settings.lost_warning.{'on' if on else 'off'}"))
        for line in await game_settings.lines(self.tr, self.service.store, self.user_id):
            self.say(line)

    async def cmd_rules(self, args: list[str]) -> None:
        self.say((named(args) or fronts()[0]).rules(self.tr))
