"""Issue 24 on QQ: a 剑手 deck uploaded to the group reaches the uploader's next command
(`.js deck file`) as ``Incoming.attachment`` — fetched then, with ``get_file``, only for
a text file whose declared size fits; a file too large, or one the implementation does
not hand over, is said so first and the command runs without it. Through the real
``serve`` (nonebot, the reverse WebSocket) and the OneBot peer, which posts the
``group_upload`` notice and answers ``get_file`` as NapCat does (peer.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from nonebot.adapters.onebot.v11 import (
    GroupMessageEvent,
    GroupUploadNoticeEvent,
    PrivateMessageEvent,
)
from nonebot.compat import type_validate_python

from adapters.onebot import uploads as qq_uploads
from adapters.onebot.convert import ZERO_WIDTH_SPACE, incoming_from_event
from adapters.uploads import MAX_UPLOAD_BYTES
from tests.adapters.onebot.harness import TOKEN, RunningBot, onebot_settings, start_bot, stop_bot
from tests.adapters.onebot.peer import (
    OneBotPeer,
    group_event,
    group_upload_event,
    message_text,
    private_event,
)

GROUP, GM, BOB = 20000, 30009, 30002
DECK = resources.files("rules.systems.jianshou").joinpath("decks/sample.json").read_bytes()

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[RunningBot]:
    running = await start_bot(onebot_settings(tmp_path))
    yield running
    await stop_bot(running)


def said(actions: list[dict[str, Any]]) -> list[str]:
    return [message_text(a["params"]).replace(ZERO_WIDTH_SPACE, "") for a in actions
            if a["action"] == "send_group_msg"]


def fetches(peer: OneBotPeer) -> list[dict[str, Any]]:
    return [a["params"] for a in peer.actions if a["action"] == "get_file"]


async def jianshou_table(peer: OneBotPeer) -> None:
    for line in (".gm", ".system jianshou"):
        await peer.say(group_event(GROUP, GM, line, nickname="gm"))


async def upload(peer: OneBotPeer, user: int, name: str, data: bytes,
                 size: int | None = None) -> str:
    """A member uploads a file: the notice, then a moment for the bot to take it in."""
    notice = peer.upload_to_group(GROUP, user, name, data, size=size)
    await peer.post(notice)
    await asyncio.sleep(0.2)
    return str(notice["file"]["id"])


async def test_an_uploaded_deck_is_read_by_the_uploaders_next_command(bot: RunningBot) -> None:
    async with OneBotPeer(bot.url, token=TOKEN) as peer:
        await jianshou_table(peer)
        file_id = await upload(peer, GM, "deck.json", DECK)
        # chatter and another member's command leave it waiting; nothing is fetched
        await peer.post(group_event(GROUP, GM, "牌组传好了", nickname="gm"))
        await peer.say(group_event(GROUP, BOB, ".r 1d20", nickname="bob"))
        assert fetches(peer) == []
        sent = await peer.say(group_event(GROUP, GM, ".js deck file", nickname="gm"), expect=2)
        assert [a["action"] for a in sent] == ["get_file", "send_group_msg"]
        assert sent[0]["params"]["file_id"] == file_id
        [loaded] = said(sent)
        assert "✅" in loaded and "61" in loaded
        # taken once: the next command has no file
        [again] = said(await peer.say(group_event(GROUP, GM, ".js deck file", nickname="gm")))
        assert again.startswith("⚠") and len(fetches(peer)) == 1


async def test_a_file_over_the_limit_is_said_so_before_any_fetch(bot: RunningBot) -> None:
    async with OneBotPeer(bot.url, token=TOKEN) as peer:
        await jianshou_table(peer)
        await upload(peer, GM, "big.json", DECK, size=MAX_UPLOAD_BYTES + 1)
        sent = await peer.say(group_event(GROUP, GM, ".js deck file", nickname="gm"), expect=2)
        notice, usage = said(sent)
        assert notice == "⚠ 没有读取「big.json」：它有 257 KiB，随指令发来的文件最多读 256 KiB。"
        assert usage.startswith("⚠") and "big.json" not in usage  # the command ran without it
        assert fetches(peer) == []


@pytest.mark.parametrize("lacking", ["base64", "get_file"])
async def test_a_file_the_implementation_does_not_hand_over_is_said_so(
        bot: RunningBot, lacking: str, caplog: pytest.LogCaptureFixture) -> None:
    """NapCat without ``enableLocalFile2Url`` (no ``base64``), or an implementation without
    ``get_file``: the user is told to paste, the operator warned."""
    async with OneBotPeer(bot.url, token=TOKEN) as peer:
        peer.file_base64 = lacking != "base64"
        peer.get_file_action = lacking != "get_file"
        await jianshou_table(peer)
        await upload(peer, GM, "deck.json", DECK)
        sent = await peer.say(group_event(GROUP, GM, ".js deck file", nickname="gm"), expect=3)
        assert [a["action"] for a in sent] == ["get_file", "send_group_msg", "send_group_msg"]
        notice, _usage = said(sent)
        assert notice.startswith("⚠ 无法从这个平台取得「deck.json」；请改为粘贴它的内容")
        [warning] = [r for r in caplog.records if r.name == "adapters.onebot.uploads"]
        assert warning.levelno == logging.WARNING and "deck.json" in warning.getMessage()


async def test_a_picture_upload_is_never_kept_or_fetched(bot: RunningBot) -> None:
    async with OneBotPeer(bot.url, token=TOKEN) as peer:
        await jianshou_table(peer)
        await upload(peer, GM, "地图.png", b"\x89PNG\r\n\x1a\n")
        [usage] = said(await peer.say(group_event(GROUP, GM, ".js deck file", nickname="gm")))
        assert usage.startswith("⚠") and fetches(peer) == []


def notice_event(user: int, name: str = "deck.json", group: int = GROUP) -> GroupUploadNoticeEvent:
    return type_validate_python(GroupUploadNoticeEvent,
                                group_upload_event(group, user, f"/{user}-{name}", name, 10))


def test_an_upload_waits_for_its_window_once_and_in_bounded_memory() -> None:
    now = [0.0]
    kept = qq_uploads.Uploads(clock=lambda: now[0])
    kept.offer(notice_event(GM))
    now[0] = qq_uploads.UPLOAD_WINDOW + 0.1
    assert kept.take(str(GROUP), str(GM)) is None  # too late
    kept.offer(notice_event(GM, "old.json"))
    kept.offer(notice_event(GM, "new.yaml"))  # the last upload counts
    taken = kept.take(str(GROUP), str(GM))
    assert taken is not None and taken.offer.name == "new.yaml"
    assert kept.take(str(GROUP), str(GM)) is None  # once
    for user in range(qq_uploads.KEPT + 1):
        kept.offer(notice_event(user))
    assert kept.take(str(GROUP), "0") is None  # the oldest left first
    assert kept.take(str(GROUP), str(qq_uploads.KEPT)) is not None


def test_a_group_command_is_told_files_come_before_it_a_private_one_none() -> None:
    """What a command that wanted a file can tell the user (``Incoming.uploads``)."""
    group = type_validate_python(GroupMessageEvent, group_event(GROUP, GM, ".js deck file"))
    private = type_validate_python(PrivateMessageEvent, private_event(GM, ".js deck file"))
    assert incoming_from_event(group, ".js deck file").uploads == "before"
    assert incoming_from_event(private, ".js deck file").uploads == "none"
