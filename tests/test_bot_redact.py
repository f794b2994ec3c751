"""The log filter: interaction and webhook tokens and the bot token never reach a handler."""

from __future__ import annotations

import logging

from bot.running.redact import HIDDEN, Redactor, redact


def test_urls_and_payloads_lose_their_tokens():
    text = (
        "POST https://discord.com/api/v10/interactions/123/abc.DEF-ghi_9/callback with x; "
        "PATCH /webhooks/456/tok-en_1/messages/@original; {'token': 'secret1', 'id': '1'} "
        '{"token": "secret2"} Authorization: Bot MTIz.abc.def'
    )
    out = redact(text)
    for secret in ("abc.DEF-ghi_9", "tok-en_1", "secret1", "secret2", "MTIz.abc.def"):
        assert secret not in out
    assert f"/interactions/123/{HIDDEN}/callback" in out and f"/webhooks/456/{HIDDEN}/messages" in out


def test_message_args_and_tracebacks_are_redacted(caplog):
    logger = logging.getLogger("test.redact")
    redactor = Redactor("bot-token-xyz")
    caplog.handler.addFilter(redactor)
    try:
        logger.warning("%s has returned %s", "/webhooks/1/wtoken/messages", "bot-token-xyz")
        try:
            raise RuntimeError("failed: /interactions/2/itoken/callback")
        except RuntimeError:
            logger.exception("boom")
        text = "\n".join(caplog.handler.format(r) for r in caplog.records)
    finally:
        caplog.handler.removeFilter(redactor)
    assert "wtoken" not in text and "bot-token-xyz" not in text and "itoken" not in text
    assert "RuntimeError" in text  # the traceback is still there, redacted
