"""What a race's messages say: the lobby, the standings, the result (text only, no Discord).

The race's public messages are in its language (the server's, else its creator's);
each game front words the progress (``GameFront.race_progress``).
"""

from __future__ import annotations

import datetime as dt

from bot.games import front_for
from bot.languages.i18n import Translator
from bot.play.race_standings import RaceView, Standing
from storage import RaceRecord

MEDALS = ("🥇", "🥈", "🥉")
# A card's text under its title: Discord allows 4000 characters in all over a v2 message,
# and the title and the buttons' labels take their share.
MESSAGE_LIMIT = 2000


def fit(head: list[str], players: list[str], tail: list[str], limit: int = MESSAGE_LIMIT) -> str:
    """The lines in one message: the last players are left out (and counted) if it would be too long."""
    for keep in range(len(players), -1, -1):
        left = len(players) - keep
        lines = [*head, *players[:keep], *([f"… (+{left})"] if left else []), *tail]
        text = "\n".join(lines)
        if len(text) <= limit:
            return text
    return "\n".join(head)[:limit]


def stamp(moment: dt.datetime, style: str = "R") -> str:
    """Discord's timestamp markup: every player sees it in their own time zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def clock(seconds: int) -> str:
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes}:{rest:02d}"


def title(tr: Translator, view: RaceView) -> str:
    race = view.race
    front = front_for(race.kind)
    game = front.title(tr)
    cells = front.cells_of(race.variant)
    if cells:
        game += " · " + front.option_words(tr, cells, "race")
    return tr("race.title", game=game)


def player_line(tr: Translator, kind: str, place: int, s: Standing) -> str:
    mark = MEDALS[place - 1] if place <= len(MEDALS) and s.status == "won" else f"**{place}.**"
    if s.status == "waiting":
        words = tr("race.status.waiting")
    else:
        progress = front_for(kind).race_progress(tr, s.home)
        parts = [progress, tr.n("board.moves", s.moves), clock(s.seconds)]
        status = {"won": "race.status.won", "lost": "race.status.lost", "resigned": "race.status.resigned"}
        if s.status in status:
            parts.insert(0, tr(status[s.status]))
        words = " · ".join(parts)
    return f"{mark} <@{s.user_id}> — {words}"


def lobby_text(tr: Translator, view: RaceView) -> str:
    race = view.race
    minutes = race.time_limit // 60
    lines = [
        tr("race.lobby.by", creator=f"<@{race.creator_id}>"),
        tr("race.lobby.when", start=stamp(race.starts_at), limit=tr.n("race.minutes", minutes)),
        tr.n(
            "race.lobby.players",
            len(view.players),
            players=", ".join(f"<@{p.user_id}>" for p in view.players),
        ),
        *([tr("race.friendly")] if race.chosen else []),
        tr("race.lobby.how"),
    ]
    return "\n".join(lines)


def standings_text(tr: Translator, view: RaceView) -> str:
    race = view.race
    head = []
    if race.status == "running" and race.ends_at is not None:
        head.append(tr("race.running", end=stamp(race.ends_at)))
    elif race.status == "finished":
        head.append(tr("race.finished"))
    if race.chosen:
        head.append(tr("race.friendly"))
    players = [player_line(tr, race.kind, n, s) for n, s in enumerate(view.standings, 1)]
    return fit(head, players, [tr("race.running.how")] if race.status == "running" else [])


def cancelled_text(tr: Translator, view: RaceView) -> str:
    race = view.race
    if race.cancelled_by == "too_few":
        return tr.n("race.cancelled.too_few", len(view.players))
    if race.cancelled_by == "empty":
        return tr("race.cancelled.empty")
    return tr("race.cancelled.by_creator")


def message_blocks(tr: Translator, view: RaceView) -> tuple[str, str]:
    """The lobby message as it should read now (lobby, standings, final standings, cancelled):
    its title and the text beneath it."""
    status = view.race.status
    if status == "lobby":
        return title(tr, view), lobby_text(tr, view)
    if status == "cancelled":
        return title(tr, view), cancelled_text(tr, view)
    return title(tr, view), standings_text(tr, view)


def result_blocks(tr: Translator, view: RaceView) -> tuple[str, str]:
    """The result post: the winner (its title), everyone's place, and the deal for anyone to try."""
    race = view.race
    front = front_for(race.kind)
    first = view.standings[0] if view.standings else None
    if first is not None and first.status == "won":
        head = tr("race.result.winner", title=title(tr, view), winner=f"<@{first.user_id}>")
    else:
        head = tr("race.result.no_winner", title=title(tr, view))
    players = [player_line(tr, race.kind, n, s) for n, s in enumerate(view.standings, 1)]
    tail = [tr("race.result.code", code=race.code, command=front.command)]
    if race.chosen:
        tail.append(tr("race.friendly"))
    return head, fit([], players, tail)


def message_text(tr: Translator, view: RaceView) -> str:
    """The lobby message's title and text as one text (what the length checks read)."""
    return "\n".join(message_blocks(tr, view))


def result_text(tr: Translator, view: RaceView) -> str:
    return "\n".join(result_blocks(tr, view))


def race_board(tr: Translator, kind: str, records: list[RaceRecord]) -> tuple[str, str]:
    """``/leaderboard period:races``: the channel's players by races won (an embed's title and text)."""
    lines = [
        tr("lb.race_line", rank=n, player=f"<@{r.user_id}>", won=r.won, played=r.played)
        for n, r in enumerate(records, 1)
    ]
    return tr("lb.title.races", game=front_for(kind).title(tr)), "\n".join(lines) or tr("lb.empty")
