"""Issue 16 item 3: an ``Outgoing.attachment`` (the battle map) reaches Discord as a
file upload — through the real client, command tree and discord.py's multipart
requests, answered by the double (doubles.py: ``payload_json`` + ``files[n]``,
Discord's refusals of a file) — and the text goes alone when Discord refuses it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.core import Core
from bot.messages import Attachment, Outgoing
from rules.dice.source import ScriptedSource
from tests.adapters.discord import doubles
from tests.adapters.discord.doubles import (
    CHANNEL_ID,
    DiscordApi,
    command_payload,
    guild_message,
    invoke,
    make_client,
)
from tests.adapters.discord.test_discord_delivery import ScriptedCore
from tests.conftest import make_settings

CHANNEL = str(CHANNEL_ID)
ALICE, GM = 501, 503
PNG = b"\x89PNG\r\n\x1a\n" + b"picture" * 10
MAP = Attachment("field.png", PNG, "picture")


async def test_field_png_uploads_the_picture_with_the_board(tmp_path: Path) -> None:
    """The real core's `.field png`: one reply, the board in a code block and the PNG."""
    core = await Core.open(make_settings(tmp_path), dice=ScriptedSource([15]))
    try:
        api = DiscordApi()
        client = make_client(core, api, message_content=True, locale="zh-Hant")
        for user, name, line in ((901, "Gm", ".gm"), (601, "Alice", ".st 靈巧 2 體力 8"),
                                 (601, "Alice", ".battle join"), (901, "Gm", ".battle start"),
                                 (901, "Gm", ".place Alice B2")):
            await client.on_message(guild_message(client, user, name, line))
        api.requests.clear()
        await client.on_message(guild_message(client, 901, "Gm", ".field png"))
        [reply] = api.messages()
        assert reply.content.startswith("```\n") and "a=Alice@B2" in reply.content
        [(name, data)] = reply.files
        assert name == "field.png" and data.startswith(b"\x89PNG\r\n\x1a\n")
        assert reply.data["attachments"] == [{"id": 0, "filename": "field.png"}]
        assert reply.data["allowed_mentions"] == {"parse": []}
        assert reply.data["message_reference"]["message_id"]  # still the command's reply
    finally:
        await core.close()


async def test_slash_command_response_followup_and_dm_carry_the_file() -> None:
    core = ScriptedCore([Outgoing("channel", CHANNEL, "the board", attachment=MAP),
                         Outgoing("private", CHANNEL, "your copy", user=str(ALICE),
                                  attachment=MAP),
                         Outgoing("private", CHANNEL, "the GM's copy", user=str(GM),
                                  attachment=MAP)])
    api = DiscordApi()
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    response, followup, dm = api.messages()
    assert (response.body["type"], response.content, response.files) == (
        4, "the board", [("field.png", PNG)])
    assert (followup.ephemeral, followup.content, followup.files) == (
        True, "your copy", [("field.png", PNG)])
    assert api.dms() == [(GM, "the GM's copy")] and dm.files == [("field.png", PNG)]


async def test_a_file_without_text_is_sent_alone() -> None:
    api = DiscordApi()
    client = make_client(ScriptedCore([Outgoing("channel", CHANNEL, "", attachment=MAP)]),
                         api, message_content=True)
    await client.on_message(guild_message(client, ALICE, "Alice", ".r d20"))
    [message] = api.messages()
    assert message.content == "" and message.files == [("field.png", PNG)]


async def test_no_attach_files_permission_sends_the_text_alone() -> None:
    api = DiscordApi(no_files_channels={CHANNEL_ID})
    client = make_client(ScriptedCore([Outgoing("channel", CHANNEL, "the board",
                                                 attachment=MAP)]), api, message_content=True)
    await client.on_message(guild_message(client, ALICE, "Alice", ".r d20"))
    [refused] = api.refused()
    assert refused.files == [("field.png", PNG)]
    [sent] = api.messages()
    assert (sent.content, sent.files) == ("the board", [])
    assert sent.data["message_reference"]["message_id"]  # the text is still the reply


async def test_a_file_over_the_upload_limit_sends_the_text_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doubles, "UPLOAD_LIMIT", len(PNG) - 1)
    api = DiscordApi()
    core = ScriptedCore([Outgoing("private", CHANNEL, "the GM's copy", user=str(GM),
                                  attachment=MAP)])
    client = make_client(core, api, message_content=True)
    await client.on_message(guild_message(client, ALICE, "Alice", ".r d20"))
    assert [(r.path.split("/")[-1], r.files != []) for r in api.refused()] == [
        ("messages", True)]
    assert api.dms() == [(GM, "the GM's copy")]
    assert api.files() == []


def test_read_multipart_matches_files_to_their_attachment_entries() -> None:
    """The double reads a multipart request the way Discord documents it."""
    import io
    import json

    form: list[dict[str, Any]] = [
        {"name": "payload_json", "value": json.dumps(
            {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]})},
        {"name": "files[0]", "value": io.BytesIO(b"abc"), "filename": "a.png",
         "content_type": "application/octet-stream"}]
    assert doubles.read_multipart(form) == (
        {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}, [("a.png", b"abc")])
    with pytest.raises(AssertionError):
        doubles.read_multipart([form[0]])  # an attachment entry without its file part
