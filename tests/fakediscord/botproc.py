"""Placeholder replaced below."""
class BotProcess:  # noqa
    pass
