"""The loopback Discord (``fake_discord.py``) as a fixture: discord.py's REST base and
gateway pointed at it for one test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.adapters.discord.fake_discord import TOKEN, FakeDiscord


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(TOKEN)
    await fake.start()
    monkeypatch.setattr(Route, "BASE", fake.base)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway))
    yield fake
    await fake.close()
