"""Entry point placeholder until the bot package lands."""

import sys

sys.exit("The Discord bot is not built yet: the bot/ package arrives with issue #6.")
