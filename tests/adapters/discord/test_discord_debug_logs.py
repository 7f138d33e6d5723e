"""DEBUG logs hold no secret on Discord: the real client and command tree
with a real Core, Discord's HTTP API answered by the doubles
(tests/adapters/discord/doubles.py); slash commands carry an interaction token.
``serve`` is not called, so not even ``protect_secrets_in_logs`` holds discord.py's
loggers: every one of them is at DEBUG."""

from __future__ import annotations

import pytest

from adapters.config import Settings
from bot.core import Core
from tests.adapters.debug_logs import (
    HIDDEN_DIE,
    SECRET_DIE,
    assert_no_secret_logged,
    first_start,
    open_every_log,
    stored_checks,
)
from tests.adapters.discord.doubles import (
    DiscordApi,
    command_payload,
    guild_message,
    invoke,
    make_client,
)
from tests.support import strict_dice

GM, BOB = 701, 702  # the GM's DMs are closed at first
INTERACTION_TOKEN = command_payload("gm", GM, "Keeper")["token"]


async def test_debug_logs_hold_no_secret_on_discord(
    settings: Settings, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_every_log(caplog, monkeypatch)
    first_start(settings)
    core = await Core.open(settings, dice=strict_dice([HIDDEN_DIE, SECRET_DIE]))
    try:
        api = DiscordApi(closed_dms={GM})
        client = make_client(core, api, message_content=True)
        await invoke(client, api, command_payload("gm", GM, "Keeper"))
        await invoke(client, api, command_payload("pc", BOB, "Bob", args="new 鮑伯"))
        await invoke(client, api, command_payload("st", BOB, "Bob", values="觀察 5"))
        await client.on_message(guild_message(client, BOB, "Bob", ".rah 觀察"))
        await client.on_message(guild_message(client, GM, "Keeper", ".secret 鮑伯 觀察"))
        assert len(api.refused()) == 2  # the GM's copies, kept for `.gm pending`
        api.closed_dms.clear()
        await invoke(client, api, command_payload("gm", GM, "Keeper", action="pending"))
        stored = await stored_checks(core)
    finally:
        await core.close()
    kept = api.ephemeral()  # `/gm pending` answers the GM ephemerally
    assert any(f"1d20={HIDDEN_DIE}" in text for text in kept)
    assert any(f"1d20={SECRET_DIE}" in text for text in kept)
    secrets = [r.content for r in api.refused()] + [text for _, text in api.dms()] + kept
    assert not any(f"1d20={die}" in text for text in api.public()
                   for die in (HIDDEN_DIE, SECRET_DIE))
    assert_no_secret_logged(caplog, secrets=secrets, stored=stored,
                            tokens=[INTERACTION_TOKEN])
