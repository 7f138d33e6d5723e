"""nonebug tests of the matcher: which messages reach the core, and which OneBot
actions the core's replies become.

The core here is a stub that returns scripted ``Outgoing`` lists, so each test
pins one adapter behaviour (the loopback test runs the real Core).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from nonebot.adapters.onebot.v11 import Adapter, Bot, Message, MessageSegment
from nonebot.adapters.onebot.v11.exception import ActionFailed
from nonebug import App

from adapters.onebot import bridge
from adapters.onebot.server import ensure_plugin
from bot.config.onebot import OneBotSettings
from bot.messages import Incoming, Outgoing
from tests.adapters.onebot.peer import SELF_ID, group_event, private_event

GROUP, ALICE, BOB = 20000, 30001, 30002
OK = {"message_id": 1}


class StubCore:
    """Returns ``outs`` for every command; records what the adapter handed over."""

    def __init__(self, outs: list[Outgoing] | None = None) -> None:
        self.outs = outs or []
        self.incoming: list[Incoming] = []
        self.failed: list[Outgoing] = []
        self.acknowledged: list[Outgoing] = []

    async def delivered(self, outgoing: Outgoing) -> None:
        self.acknowledged.append(outgoing)

    async def undelivered(self, platform: str) -> list[Outgoing]:
        return []

    def set_bot_id(self, platform: str, user: str) -> None:
        pass

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        self.incoming.append(incoming)
        return self.outs

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        assert platform == "qq"
        self.failed.append(outgoing)
        return [Outgoing("channel", outgoing.channel, f"could not reach {outgoing.user}")]


@pytest.fixture
def matcher() -> Iterator[Any]:
    ensure_plugin()
    from adapters.onebot.trpg_plugin import trpg_command

    yield trpg_command


def install(core: StubCore, **settings: Any) -> None:
    bridge.install(bridge.OneBotBridge(core, OneBotSettings(**settings)))


@pytest.fixture(autouse=True)
def _no_bridge_left() -> Iterator[None]:
    yield
    active = bridge.active()
    if active is not None:
        bridge.uninstall(active)


def text(value: str) -> Message:
    return Message([MessageSegment.text(value)])


def event(payload: dict[str, Any]) -> Any:
    parsed = Adapter.json_to_event(payload)
    assert parsed is not None
    return parsed


@pytest.mark.parametrize("line", [".r 1d20", "。r 1d20", "．r", "/r d6", "  .gm"])
async def test_prefixed_messages_reach_the_core(app: App, matcher: Any, line: str) -> None:
    core = StubCore()
    install(core)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, line, card="愛麗絲",
                                                 message_id=7)))
        ctx.should_pass_rule(matcher)
    assert core.incoming == [Incoming(platform="qq", channel=str(GROUP), user=str(ALICE),
                                      text=line.strip(), display_name="愛麗絲",
                                      is_private=False, message_id=f"{GROUP}:7")]


@pytest.mark.parametrize("line", ["hello", "r 1d20", "1d20.", ""])
async def test_ordinary_chat_is_ignored(app: App, matcher: Any, line: str) -> None:
    core = StubCore()
    install(core)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, line)))
        ctx.should_not_pass_rule(matcher)
    assert core.incoming == []


async def test_nothing_is_handled_without_an_active_bridge(app: App, matcher: Any) -> None:
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".r")))
        ctx.should_not_pass_rule(matcher)


async def test_group_reply_is_a_text_segment_so_cq_codes_stay_literal(
        app: App, matcher: Any) -> None:
    echoed = "Alice rolls for [CQ:at,qq=all] &#91;x&#93;: 12"
    install(StubCore([Outgoing("channel", str(GROUP), echoed)]))
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".r d20 [CQ:at,qq=all]")))
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(echoed)}, OK)
    # what went out is one text segment, not an at segment parsed from the string
    sent = text(echoed)
    assert [segment.type for segment in sent] == ["text"]


async def test_at_sender_prefixes_group_replies(app: App, matcher: Any) -> None:
    install(StubCore([Outgoing("channel", str(GROUP), "done")]), at_sender=True)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".st 觀察 5")))
        expected = Message([MessageSegment.at(ALICE), MessageSegment.text(" done")])
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": expected}, OK)


async def test_long_replies_are_split_at_line_breaks(app: App, matcher: Any) -> None:
    first, second = "a" * 80, "b" * 80
    install(StubCore([Outgoing("channel", str(GROUP), f"{first}\n{second}")]),
            max_message_length=100)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".help")))
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(first)}, OK)
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(second)}, OK)


async def test_private_message_gets_a_private_reply(app: App, matcher: Any) -> None:
    core = StubCore([Outgoing("channel", f"dm:{ALICE}", "hi")])
    install(core)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(private_event(ALICE, ".help", nickname="Alice",
                                                   message_id=9)))
        ctx.should_call_api("send_private_msg", {"user_id": ALICE, "message": text("hi")}, OK)
    assert core.incoming[0].channel == f"dm:{ALICE}"
    assert core.incoming[0].is_private
    assert core.incoming[0].display_name == "Alice"


async def test_hidden_roll_group_gets_announcement_privates_get_result(
        app: App, matcher: Any) -> None:
    install(StubCore([
        Outgoing("channel", str(GROUP), "Alice rolled in secret"),
        Outgoing("private", str(GROUP), "1d20 = 17", user=str(ALICE), secret=True),
        Outgoing("private", str(GROUP), "Alice: 1d20 = 17", user=str(BOB), secret=True),
    ]))
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh 1d20")))
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text("Alice rolled in secret")}, OK)
        ctx.should_call_api("send_private_msg",
                            {"user_id": ALICE, "message": text("1d20 = 17")}, OK)
        ctx.should_call_api("send_private_msg",
                            {"user_id": BOB, "message": text("Alice: 1d20 = 17")}, OK)


async def test_non_friend_gets_a_temp_session_try_then_a_group_notice(
        app: App, matcher: Any) -> None:
    secret = Outgoing("private", str(GROUP), "1d20 = 17", user=str(BOB), secret=True)
    core = StubCore([secret])
    install(core)
    refused = ActionFailed(status="failed", retcode=200, message="not a friend")
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh 1d20")))
        ctx.should_call_api("send_private_msg", {"user_id": BOB, "message": text("1d20 = 17")},
                            exception=refused)
        ctx.should_call_api("send_private_msg", {"user_id": BOB, "group_id": GROUP,
                                                 "message": text("1d20 = 17")},
                            exception=refused)
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text(f"could not reach {BOB}")}, OK)
    assert core.failed == [secret]


async def test_temp_session_delivery_needs_no_notice(app: App, matcher: Any) -> None:
    core = StubCore([Outgoing("private", str(GROUP), "secret", user=str(BOB), secret=True)])
    install(core)
    refused = ActionFailed(status="failed", retcode=200)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh")))
        ctx.should_call_api("send_private_msg", {"user_id": BOB, "message": text("secret")},
                            exception=refused)
        ctx.should_call_api("send_private_msg", {"user_id": BOB, "group_id": GROUP,
                                                 "message": text("secret")}, OK)
    assert core.failed == []


async def test_without_temp_sessions_the_first_failure_is_reported(
        app: App, matcher: Any) -> None:
    core = StubCore([Outgoing("private", str(GROUP), "secret", user=str(BOB), secret=True)])
    install(core, temp_session=False)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh")))
        ctx.should_call_api("send_private_msg", {"user_id": BOB, "message": text("secret")},
                            exception=ActionFailed(status="failed", retcode=200))
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text(f"could not reach {BOB}")}, OK)
    assert len(core.failed) == 1


async def test_a_secret_is_never_posted_to_the_group(app: App, matcher: Any) -> None:
    install(StubCore([Outgoing("channel", str(GROUP), "the result is 17", secret=True),
                      Outgoing("channel", str(GROUP), "public")]))
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh")))
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text("public")}, OK)


async def test_the_bot_ignores_its_own_messages(app: App, matcher: Any) -> None:
    core = StubCore([Outgoing("channel", str(GROUP), "loop")])
    install(core)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, SELF_ID, ".r")))
    assert core.incoming == []
