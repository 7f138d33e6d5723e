"""The game log on QQ: every group message reaches the core, not only commands, so a
group that keeps a log (``.log on``) finds its chatter in ``.log export``; chatter gets
no reply; a command still runs once and other nonebot plugins still see chatter.

Through the real ``serve`` (nonebot, the reverse WebSocket) and the OneBot peer that
plays NapCat (peer.py), with the real Core; the matcher semantics (priority, block)
with nonebug and nonebot's real ``handle_event``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from nonebot import on_message
from nonebot.adapters.onebot.v11 import Adapter, Bot, MessageEvent
from nonebug import App

from adapters.onebot import bridge
from adapters.onebot.convert import chatter_text
from adapters.onebot.server import ensure_plugin
from adapters.onebot.settings import OneBotSettings
from bot.messages import Incoming, Outgoing
from rules.dice.source import ScriptedSource
from tests.adapters.onebot.harness import TOKEN, RunningBot, onebot_settings, start_bot, stop_bot
from tests.adapters.onebot.peer import (
    SELF_ID,
    OneBotPeer,
    at_segment,
    group_event,
    private_event,
    text_segment,
)

GROUP, OTHER_GROUP, GM, ALICE, BOB = 20000, 20001, 30009, 30001, 30002
OK = {"message_id": 1}

pytestmark = pytest.mark.timeout(60)


def image_segment(summary: str = "") -> dict[str, Any]:
    """A picture as NapCat reports it (a URL the bot never fetches)."""
    return {"type": "image", "data": {"file": "8A3F.jpg", "url": "https://example.invalid/p",
                                      "summary": summary, "sub_type": 0}}


def segments_event(group_id: int, user_id: int, segments: list[dict[str, Any]],
                   **fields: Any) -> dict[str, Any]:
    """A group message made of ``segments`` (any type)."""
    event = group_event(group_id, user_id, "", **fields)
    event["message"] = segments
    event["raw_message"] = "".join(s["data"].get("text", f"[CQ:{s['type']}]")
                                   for s in segments)
    return event


@pytest.fixture
async def scripted_bot(tmp_path: Path) -> AsyncIterator[RunningBot]:
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([15]))
    yield running
    await stop_bot(running)


def said_in(log: str, text: str) -> int:
    return log.count(text)


async def test_chatter_of_a_logging_group_is_in_the_exported_log(
        scripted_bot: RunningBot) -> None:
    async with OneBotPeer(scripted_bot.url, token=TOKEN) as peer:
        await peer.say(group_event(GROUP, GM, ".log on 第一夜", nickname="Keeper"))
        opening = group_event(GROUP, ALICE, "我推开门，走进去。", card="爱丽丝")
        chatter = [
            opening,
            segments_event(GROUP, BOB, [at_segment(ALICE, "爱丽丝"), text_segment("小心！")],
                           nickname="Bob"),
            segments_event(GROUP, ALICE, [image_segment()], card="爱丽丝"),
            segments_event(GROUP, BOB, [text_segment("看"), image_segment("[动画表情]")],
                           nickname="Bob"),
            # a full-width slash is no prefix of this bot's list: chatter, never `.r`
            group_event(GROUP, ALICE, "／r 1d20 别当真", card="爱丽丝"),
            group_event(GROUP, SELF_ID, "机器人自己的话"),  # the bot's own: never
            opening,  # replayed by the implementation (same message id): recorded once
        ]
        for event in chatter:
            assert await peer.say(event, expect=0) == []  # chatter gets no reply
        # a command still runs, once
        [roll] = await peer.say(group_event(GROUP, ALICE, ".r 1d20", card="爱丽丝"))
        assert roll["action"] == "send_group_msg"
        sent = await peer.say(group_event(GROUP, GM, ".log export", nickname="Keeper"),
                              expect=2)
        assert [a["action"] for a in sent] == ["send_group_msg", "upload_group_file"]
        [players] = peer.files
        log = players.data.decode()
    assert said_in(log, "我推开门，走进去。") == 1
    assert "@爱丽丝 小心！" in log and "[图片]" in log and "看[动画表情]" in log
    # as typed, with no invisible mark (issue 22 item 10; chatter is Incoming.kind now)
    assert "<p>／r 1d20 别当真</p>" in log and "\u200b" not in log
    assert "机器人自己的话" not in log
    assert log.index("我推开门") < log.index("／r 1d20") < log.index(".r 1d20")
    assert "爱丽丝" in log and "Bob" in log  # the speakers' names


async def test_chatter_where_nothing_is_logged_gets_no_reply(scripted_bot: RunningBot) -> None:
    async with OneBotPeer(scripted_bot.url, token=TOKEN) as peer:
        await peer.say(group_event(GROUP, GM, ".log on"), expect=1)
        for event in (group_event(OTHER_GROUP, ALICE, "大家好"),
                      group_event(OTHER_GROUP, ALICE, "...好吧"),
                      segments_event(OTHER_GROUP, BOB, [image_segment()]),
                      private_event(ALICE, "私聊一句")):
            assert await peer.say(event, expect=0) == []
        [off] = await peer.say(group_event(GROUP, GM, ".log off"))
        assert off["action"] == "send_group_msg"
        assert await peer.say(group_event(GROUP, ALICE, "停了以后的话"), expect=0) == []


# -- what reaches the core, and nonebot's priorities --------------------------------------


class RecordingCore:
    """Records what the bridge hands over; answers nothing."""

    def __init__(self) -> None:
        self.seen: list[Incoming] = []

    def set_bot_id(self, platform: str, user: str) -> None:
        pass

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        self.seen.append(incoming)
        return []

    async def delivered(self, outgoing: Outgoing) -> None:
        pass


@pytest.fixture
def core() -> Iterator[RecordingCore]:
    recording = RecordingCore()
    active = bridge.OneBotBridge(recording, OneBotSettings())  # type: ignore[arg-type]
    bridge.install(active)
    yield recording
    bridge.uninstall(active)


@pytest.fixture
def bystander() -> Iterator[tuple[Any, list[str]]]:
    """Another plugin's matcher after ours (priority 20): what it saw."""
    seen: list[str] = []
    matcher = on_message(priority=20, block=False)

    @matcher.handle()
    async def _(event: MessageEvent) -> None:
        seen.append(event.get_plaintext())

    yield matcher, seen
    matcher.destroy()


def event(payload: dict[str, Any]) -> Any:
    parsed = Adapter.json_to_event(payload)
    assert parsed is not None
    return parsed


async def test_chatter_reaches_the_core_once_and_other_plugins_still_see_it(
        app: App, core: RecordingCore, bystander: tuple[Any, list[str]]) -> None:
    ensure_plugin()
    from adapters.onebot.trpg_plugin import trpg_chatter, trpg_command

    other, seen = bystander
    assert (trpg_command.priority, trpg_command.block) == (10, True)
    assert (trpg_chatter.priority, trpg_chatter.block) == (10, False)
    async with app.test_matcher({10: [trpg_command, trpg_chatter], 20: [other]}) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, "我推开门", message_id=7)))
        ctx.should_not_pass_rule(trpg_command)
        ctx.should_pass_rule(trpg_chatter)
        ctx.should_pass_rule(other)  # not blocked: the next plugins see chatter
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".r 1d20", message_id=8)))
        ctx.should_pass_rule(trpg_command)
        ctx.should_not_pass_rule(trpg_chatter)
        # (a command is blocked, as before: `other` never sees it, below)
        ctx.receive_event(bot, event(private_event(ALICE, "私聊", message_id=9)))
        ctx.should_not_pass_rule(trpg_command)
        ctx.should_pass_rule(trpg_chatter)
        ctx.should_pass_rule(other)
        # a prefix the operator's list lacks: chatter, though the core would read a command
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, "／r 1d20", message_id=10)))
        ctx.should_not_pass_rule(trpg_command)
        ctx.should_pass_rule(trpg_chatter)
        ctx.should_pass_rule(other)
    assert [(i.text, i.kind, i.message_id, i.is_private) for i in core.seen] == [
        ("我推开门", "chatter", f"{GROUP}:7", False), (".r 1d20", "command", f"{GROUP}:8", False),
        ("私聊", "chatter", f"dm:{ALICE}@{SELF_ID}:9", True),
        ("／r 1d20", "chatter", f"{GROUP}:10", False)]
    assert seen == ["我推开门", "私聊", "／r 1d20"]


async def test_the_bots_own_chatter_and_empty_messages_stay_out(
        app: App, core: RecordingCore) -> None:
    ensure_plugin()
    from adapters.onebot.trpg_plugin import trpg_chatter

    async with app.test_matcher(trpg_chatter) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, SELF_ID, "我自己")))
        ctx.should_pass_rule(trpg_chatter)
        ctx.receive_event(bot, event(segments_event(
            GROUP, ALICE, [{"type": "face", "data": {"id": "14"}}])))  # a QQ face alone
        ctx.should_pass_rule(trpg_chatter)
    assert core.seen == []


def test_chatter_text_keeps_the_text_and_names_what_is_not() -> None:
    message = event(segments_event(GROUP, ALICE, [
        {"type": "reply", "data": {"id": "55"}}, at_segment(BOB, "Bob"),
        text_segment(" 看这个"), image_segment(), {"type": "face", "data": {"id": "14"}},
        at_segment("all"), at_segment(GM), text_segment("!"),
        {"type": "mface", "data": {"summary": "[开心]", "emoji_id": "x"}},
        image_segment("x" * 40)])).message
    assert chatter_text(message) == "@Bob 看这个[图片]@全体成员@30009 ![开心][图片]"

