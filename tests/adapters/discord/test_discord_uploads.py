"""A file sent with a Discord command reaches the core as ``Incoming.attachment`` (a 剑手
deck for `.js deck file`) — issue 24 — and is fetched only when it can matter: the
message is a command, the file a text file (JSON, YAML, text) and its declared size
within 256 KiB. A text file too large, or one Discord will not hand over, is refused
with the reason in the table's language; nothing of it is fetched.

Through the real client (``on_message``), discord.py's own ``Message`` and
``Attachment`` objects and the real core. The CDN is the one HTTP request discord.py
makes here (``Attachment.read`` → ``HTTPClient.get_from_cdn``): the double answers it
as Discord's CDN does — the bytes, or HTTP 404 (``discord.NotFound``) for a file gone.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord.client import TrpgDiscordClient
from adapters.uploads import MAX_UPLOAD_BYTES
from bot.core import Core
from tests.adapters.discord.doubles import DiscordApi, FakeResponse, make_client
from tests.adapters.discord.test_discord_chatter import chat
from tests.conftest import make_settings

GM = 600000000000000901
DECK = resources.files("rules.systems.jianshou").joinpath("decks/sample.json").read_bytes()
_ids = itertools.count(700000000000000000)


@dataclass
class Cdn:
    """Discord's CDN: every file's bytes by URL; a URL it does not hold is HTTP 404."""

    files: dict[str, bytes] = field(default_factory=dict)
    fetched: list[str] = field(default_factory=list)

    async def get_from_cdn(self, url: str) -> bytes:
        self.fetched.append(url)
        if url not in self.files:
            raise discord.NotFound(FakeResponse(404, "Not Found"), "asset not found")  # type: ignore[arg-type]
        return self.files[url]

    def upload(self, name: str, data: bytes, *, size: int | None = None,
               content_type: str | None = "application/json", kept: bool = True) -> dict[str, Any]:
        """An attachment of a Message payload (id, filename, size, url, content type);
        ``kept=False``: the CDN no longer has it."""
        url = f"https://cdn.discordapp.com/attachments/1/{next(_ids)}/{name}"
        if kept:
            self.files[url] = data
        payload = {"id": str(next(_ids)), "filename": name,
                   "size": len(data) if size is None else size, "url": url, "proxy_url": url}
        if content_type is not None:
            payload["content_type"] = content_type
        return payload


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[Core]:
    opened = await Core.open(make_settings(tmp_path))
    yield opened
    await opened.close()


async def table(core: Core, locale: str = "en") -> tuple[TrpgDiscordClient, DiscordApi, Cdn]:
    """The client with the GM's jianshou table ready, in ``locale``."""
    api, cdn = DiscordApi(), Cdn()
    client = make_client(core, api, message_content=True)
    client.http.get_from_cdn = cdn.get_from_cdn  # type: ignore[method-assign]
    for line in (".gm", ".system jianshou", f".lang {locale}"):
        await client.on_message(chat(client, GM, "Gm", line))
    api.requests.clear()
    return client, api, cdn


async def say(client: TrpgDiscordClient, api: DiscordApi, content: str,
              *uploads: dict[str, Any]) -> list[str]:
    api.requests.clear()
    await client.on_message(chat(client, GM, "Gm", content, attachments=list(uploads)))
    return [request.content for request in api.messages()]


async def test_a_deck_file_sent_with_the_command_is_loaded(core: Core) -> None:
    client, api, cdn = await table(core)
    picture = cdn.upload("map.png", b"\x89PNG", content_type="image/png")
    deck = cdn.upload("deck.json", DECK)
    [reply] = await say(client, api, ".js deck file", picture, deck)
    assert reply.startswith("✅") and "(61 cards)" in reply
    assert cdn.fetched == [deck["url"]]  # the text file only, not the picture before it


async def test_a_file_is_not_fetched_for_chatter_or_a_picture(core: Core) -> None:
    client, api, cdn = await table(core)
    assert await say(client, api, "這是我的牌組", cdn.upload("deck.json", DECK)) == []
    assert await say(client, api, "...嗯", cdn.upload("notes.txt", b"x")) == []
    # a picture beside a roll: the roll runs, the picture is not fetched
    [roll] = await say(client, api, ".r 1d20",
                       cdn.upload("art.png", b"\x89PNG", content_type="image/png"))
    assert "1d20" in roll
    assert cdn.fetched == []


async def test_a_file_over_the_limit_is_refused_before_any_byte(core: Core) -> None:
    """The declared size decides: the file is never fetched, and the GM reads why."""
    client, api, cdn = await table(core)
    big = cdn.upload("big deck.json", DECK, size=MAX_UPLOAD_BYTES + 1)
    [refusal] = await say(client, api, ".js deck file", big)
    assert refusal == ("⚠ big deck.json was not read: it is 257 KiB, and a file sent with "
                       "a command is read up to 256 KiB.")
    assert cdn.fetched == []
    # at the limit it is read
    [loaded] = await say(client, api, ".js deck file",
                         cdn.upload("deck.json", DECK, size=MAX_UPLOAD_BYTES))
    assert "⚠" not in loaded


async def test_a_file_larger_than_declared_is_not_passed_on(core: Core) -> None:
    client, api, cdn = await table(core)
    lying = cdn.upload("deck.json", b" " * (MAX_UPLOAD_BYTES + 1), size=10)
    [refusal] = await say(client, api, ".js deck file", lying)
    assert refusal.startswith("⚠ deck.json was not read: it is 1 KiB")  # as declared


async def test_a_file_discord_will_not_hand_over_is_said_so_in_the_tables_language(
        core: Core) -> None:
    client, api, cdn = await table(core, locale="zh-Hant")
    gone = cdn.upload("牌組.yaml", b"", content_type=None, kept=False)
    [refusal] = await say(client, api, ".js deck file", gone)
    assert refusal.startswith("⚠ 無法從這個平台取得「牌組.yaml」；請改貼上它的內容")
    assert cdn.fetched == [gone["url"]]
