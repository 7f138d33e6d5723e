"""One scripted table session, the same scripted dice, through every path: the core
directly (what the console adapter does), QQ over a loopback OneBot v11 peer,
Discord slash commands and Discord prefix commands. Each path must show the same
texts to the same audience — the same numbers in the channel, and the secret
result only in private."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.config import Settings
from adapters.discord.settings import DiscordSettings
from adapters.onebot.settings import OneBotSettings
from bot.core import Core
from bot.messages import Incoming
from rules.dice.source import ScriptedSource
from tests.adapters.discord.doubles import (
    DiscordApi,
    command_payload,
    guild_message,
    invoke,
    make_client,
    shown,
)
from tests.adapters.onebot.harness import TOKEN, free_port, start_bot, stop_bot
from tests.adapters.onebot.peer import OneBotPeer, group_event, message_text
from tests.support import strict_dice

pytestmark = pytest.mark.timeout(60)

# (speaker, line, slash command, slash options)
Step = tuple[str, str, str, dict[str, Any]]
SCRIPT: list[Step] = [
    ("GM", ".gm", "gm", {}),
    ("Player", ".st 觀察 5", "st", {"values": "觀察 5"}),
    ("Player", ".r 2d6+3", "roll", {"expression": "2d6+3"}),
    ("Player", ".rh 1d20", "rh", {"expression": "1d20"}),
    ("Player", ".ra 觀察", "check", {"skill": "觀察"}),
]
DICE = [4, 5, 17, 8]  # 2d6 → 4+5, the hidden d20 → 17, the check's d20 → 8 (+5 = 13)

IDS = {"GM": 7001, "Player": 7002}
GROUP = 88001

Transcript = list[tuple[str, str]]  # (audience, text): "channel" or "private:<speaker>"


def settings_for(tmp_path: Path) -> Settings:
    """Every platform in one locale, so the texts themselves can be compared."""
    return Settings(
        _env_file=None, data_dir=tmp_path,
        onebot=OneBotSettings(enabled=True, host="127.0.0.1", port=free_port(),
                              access_token=TOKEN, locale="zh-Hant"),
        discord=DiscordSettings(enabled=True, locale="zh-Hant"),
    )


def who(user_id: object) -> str:
    return next(name for name, number in IDS.items() if str(number) == str(user_id))


def dice() -> ScriptedSource:
    return strict_dice(DICE)


async def console_path(tmp_path: Path) -> Transcript:
    """The core as the console adapter drives it."""
    core = await Core.open(settings_for(tmp_path), dice=dice())
    transcript: Transcript = []
    try:
        for speaker, line, _, _ in SCRIPT:
            outs = await core.handle(Incoming("console", "table", str(IDS[speaker]), line,
                                              display_name=speaker))
            transcript += [("channel" if o.to == "channel" else f"private:{who(o.user)}",
                            o.text) for o in outs]
    finally:
        await core.close()
    return transcript


async def onebot_path(tmp_path: Path) -> Transcript:
    running = await start_bot(settings_for(tmp_path), dice=dice())
    transcript: Transcript = []
    try:
        async with OneBotPeer(running.url, token=TOKEN) as peer:
            for speaker, line, _, _ in SCRIPT:
                event = group_event(GROUP, IDS[speaker], line, nickname=speaker)
                for action in await peer.say(event, quiet=0.3):
                    params = action["params"]
                    audience = ("channel" if action["action"] == "send_group_msg"
                                else f"private:{who(params['user_id'])}")
                    transcript.append((audience, message_text(params)))
    finally:
        await stop_bot(running)
    return transcript


def discord_transcript(api: DiscordApi, speaker: str) -> Transcript:
    """What one command made visible: public posts, the invoker's ephemeral
    messages, and DMs, in request order."""
    transcript: Transcript = []
    for request in api.messages():
        if request.ephemeral:
            transcript.append((f"private:{speaker}", shown(request.content)))
        elif api.is_dm(request):
            user = api.dm_channels[int(request.path.split("/")[2])]
            transcript.append((f"private:{who(user)}", shown(request.content)))
        else:
            transcript.append(("channel", shown(request.content)))
    return transcript


async def discord_path(tmp_path: Path, *, slash: bool) -> Transcript:
    settings = settings_for(tmp_path)
    core = await Core.open(settings, dice=dice())
    transcript: Transcript = []
    try:
        api = DiscordApi()
        client = make_client(core, api, message_content=True, locale="zh-Hant")
        for speaker, line, command, options in SCRIPT:
            api.requests.clear()
            if slash:
                await invoke(client, api, command_payload(command, IDS[speaker], speaker,
                                                          **options))
            else:
                await client.on_message(guild_message(client, IDS[speaker], speaker, line))
            transcript += discord_transcript(api, speaker)
    finally:
        await core.close()
    return transcript


PATHS: dict[str, Callable[[Path], Awaitable[Transcript]]] = {
    "console": console_path,
    "onebot": onebot_path,
    "discord-slash": lambda tmp: discord_path(tmp, slash=True),
    "discord-prefix": lambda tmp: discord_path(tmp, slash=False),
}


@pytest.fixture(scope="module")
def reference() -> dict[str, Transcript]:
    return {}


@pytest.mark.parametrize("path", list(PATHS))
async def test_same_session_same_numbers(path: str, tmp_path: Path,
                                         reference: dict[str, Transcript]) -> None:
    transcript = await asyncio.wait_for(PATHS[path](tmp_path), 30)
    channel = [text for audience, text in transcript if audience == "channel"]
    assert any("GM" in text for text in channel)
    assert any("觀察:5" in text for text in channel)
    assert any("12" in text for text in channel)  # 2d6+3 = 4+5+3
    assert not any("17" in text for text in channel)  # the hidden d20
    private = {audience for audience, text in transcript if "17" in text}
    assert private == {"private:Player", "private:GM"}
    assert any("13" in text for text in channel)  # the check: 8 + 觀察 5
    expected = reference.setdefault("transcript", await console_path(tmp_path / "ref"))
    assert transcript == expected
