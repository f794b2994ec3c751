"""A logging filter that takes secrets out of every log record, whatever library logs them.

At ``LOG_LEVEL=DEBUG`` discord.py logs every REST URL and every gateway event:
interaction tokens (valid for 15 minutes: anyone holding one can answer or edit
as the bot) appear in ``/interactions/<id>/<token>/callback``, in
``/webhooks/<application id>/<token>/…`` and in the ``"token"`` field of
INTERACTION_CREATE events. The filter rewrites the message, its arguments,
the formatted traceback and the stack, so a handler never sees them.
"""

from __future__ import annotations

import logging
import re
import traceback

HIDDEN = "[redacted]"

_PATTERNS = (
    # /webhooks/<id>/<token> and /interactions/<id>/<token>/callback
    re.compile(r"(/webhooks/\d+/)[^/?\s'\"]+"),
    re.compile(r"(/interactions/\d+/)[^/?\s'\"]+"),
    # "token": "…" or 'token': '…' in a logged payload (JSON or a dict's repr)
    re.compile(r"""(["']token["']\s*:\s*["'])[^"']+"""),
    # an interaction token wherever else it turns up (they start with base64 "interaction")
    re.compile(r"()aW50ZXJhY3Rpb24[A-Za-z0-9_\-.]+"),
    # an Authorization header
    re.compile(r"""((?:["']?Authorization["']?\s*[:=]\s*["']?)Bot\s+)[^\s'"]+""", re.IGNORECASE),
)


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` without interaction or webhook tokens, nor any of ``secrets`` (the bot token)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, HIDDEN)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + HIDDEN, text)
    return text


class Redactor(logging.Filter):
    """Install on every handler (a logger's filter misses records propagated from child loggers)."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: keep what there is, redacted
            message = f"{record.msg} {record.args}"
        record.msg = redact(message, self.secrets)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
            record.exc_info = None  # formatters would format it again, unredacted
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


def install(*secrets: str) -> Redactor:
    """Add one ``Redactor`` to every handler of the root logger; returns it."""
    redactor = Redactor(*secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor)
    return redactor
