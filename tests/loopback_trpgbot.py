"""``trpgbot run`` with discord.py pointed at a loopback Discord (the tests' fake,
tests/adapters/discord/fake_discord.py): for tests that run the bot as a real
process. discord.py has no setting for its API and gateway addresses, so this entry
sets the same two class attributes the in-process tests patch
(tests/adapters/discord/conftest.py) from ``TEST_DISCORD_API`` and
``TEST_DISCORD_GATEWAY``, then runs the real command line, nothing else changed.

Run as ``python -m tests.loopback_trpgbot`` with the repository on ``PYTHONPATH``.
"""

from __future__ import annotations

import os

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.cli import main

if __name__ == "__main__":
    Route.BASE = os.environ["TEST_DISCORD_API"]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["TEST_DISCORD_GATEWAY"])
    raise SystemExit(main(["run"]))
