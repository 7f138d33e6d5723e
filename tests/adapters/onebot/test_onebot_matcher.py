"""nonebug tests of the matcher with the real Core (SQLite, scripted dice): which
messages reach the core, and which OneBot actions its replies become.

nonebug plays the OneBot implementation: every action the bot calls must be the
next expected one, and a refused private message is answered as NapCat answers
it (a failed action, ``tests/adapters/onebot/peer.py:failed``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from nonebot.adapters.onebot.v11 import Adapter, Bot, Message, MessageSegment
from nonebot.adapters.onebot.v11.exception import ActionFailed
from nonebug import App

from adapters.onebot import bridge
from adapters.onebot.server import ensure_plugin
from adapters.onebot.settings import OneBotSettings
from bot.core import Core
from bot.messages import Outgoing
from tests.adapters.onebot.peer import SELF_ID, failed, group_event, private_event
from tests.conftest import make_settings
from tests.support import strict_dice

GROUP, ALICE, BOB = 20000, 30001, 30002
OK = {"message_id": 1}
NOT_A_FRIEND = failed("user is not a friend")  # what NapCat answers for a non-friend

# the real core's zh-Hans texts (bot/locales/zh-Hans)
BOB_IS_GM = "Bob 成为本频道的 GM。"
ALICE_ROLLED_IN_SECRET = "🎲 Alice 进行了一次暗骰。"
ALICE_SECRET = "（暗骰）🎲 Alice：1d20 = [17] = 17"
ALICE_SECRET_FOR_GM = "（Alice 的暗骰）🎲 Alice：1d20 = [17] = 17"


def cannot_reach(name: str) -> str:
    return (f"无法私讯 {name}（可能尚未加机器人好友或关闭了私讯）。"
            "内容已保留，加好友后请输入 .gm pending 取回。")


Install = Callable[..., Awaitable[Core]]


@pytest.fixture
def matcher() -> Iterator[Any]:
    ensure_plugin()
    from adapters.onebot.trpg_plugin import trpg_command

    yield trpg_command


@pytest.fixture
async def install(tmp_path: Path) -> AsyncIterator[Install]:
    """``await install(17, at_sender=True)``: a real Core whose dice roll 17, behind an
    active bridge with those OneBot settings."""
    opened: list[Core] = []

    async def install_(*dice: int, **settings: Any) -> Core:
        core = await Core.open(make_settings(tmp_path),
                               dice=strict_dice(dice))
        opened.append(core)
        bridge.install(bridge.OneBotBridge(core, OneBotSettings(**settings)))
        return core

    yield install_
    active = bridge.active()
    if active is not None:
        bridge.uninstall(active)
    for core in opened:
        await core.close()


def text(value: str) -> Message:
    return Message([MessageSegment.text(value)])


def event(payload: dict[str, Any]) -> Any:
    parsed = Adapter.json_to_event(payload)
    assert parsed is not None
    return parsed


@pytest.mark.parametrize(("line", "dice", "reply"), [
    (".r 1d20", [17], "🎲 愛麗絲：1d20 = [17] = 17"),
    ("。r 1d20", [17], "🎲 愛麗絲：1d20 = [17] = 17"),
    ("．r", [17], "🎲 愛麗絲：1d20 = [17] = 17"),
    ("/r d6", [4], "🎲 愛麗絲：1d6 = [4] = 4"),
    ("  .gm", [], "愛麗絲 成为本频道的 GM。"),
])
async def test_prefixed_messages_reach_the_core_once(
        app: App, matcher: Any, install: Install, line: str, dice: list[int],
        reply: str) -> None:
    await install(*dice)
    message = event(group_event(GROUP, ALICE, line, card="愛麗絲", message_id=7))
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, message)
        ctx.should_pass_rule(matcher)
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(reply)}, OK)
    # the same event again (a reconnect replays it): its message id was recorded
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, message)
        ctx.should_pass_rule(matcher)


@pytest.mark.parametrize("line", ["hello", "r 1d20", "1d20.", ""])
async def test_ordinary_chat_is_ignored(app: App, matcher: Any, install: Install,
                                        line: str) -> None:
    await install()
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, line)))
        ctx.should_not_pass_rule(matcher)


async def test_nothing_is_handled_without_an_active_bridge(app: App, matcher: Any) -> None:
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".r")))
        ctx.should_not_pass_rule(matcher)


async def test_group_reply_is_a_text_segment_so_cq_codes_stay_literal(
        app: App, matcher: Any, install: Install) -> None:
    await install(12)
    reply = "🎲 Alice「[CQ:at,qq=all] &#91;x&#93;」：1d20 = [12] = 12"
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(
            GROUP, ALICE, ".r d20 [CQ:at,qq=all] &#91;x&#93;", nickname="Alice")))
        # one text segment: neither an at segment nor an unescaped CQ code
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(reply)}, OK)


async def test_at_sender_prefixes_group_replies(app: App, matcher: Any,
                                                install: Install) -> None:
    await install(at_sender=True)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".st 觀察 5", nickname="Alice")))
        expected = Message([MessageSegment.at(ALICE),
                            MessageSegment.text(" Alice 的数值已更新：观察:5")])
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": expected}, OK)


async def test_long_replies_are_split_at_line_breaks(app: App, matcher: Any,
                                                     install: Install) -> None:
    first, second, third = "甲" * 45, "乙" * 45, "丙" * 45
    await install(max_message_length=100)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        for name in (first, second, third):
            ctx.receive_event(bot, event(group_event(GROUP, ALICE, f".pc new {name}")))
            ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(
                f"已创建角色「{name}」并设为使用中。")}, OK)
        # "你的角色：\n・甲…\n・乙…\n▶ 丙…" is 147 characters: cut at the last line
        # break within 100
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".pc list")))
        ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(
            f"你的角色：\n・{first}\n・{second}")}, OK)
        ctx.should_call_api("send_group_msg", {"group_id": GROUP,
                                               "message": text(f"▶ {third}")}, OK)


async def test_private_message_gets_a_private_reply(app: App, matcher: Any,
                                                    install: Install) -> None:
    await install(17)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(private_event(ALICE, ".r d20", nickname="Alice",
                                                   message_id=9)))
        ctx.should_call_api("send_private_msg", {"user_id": ALICE, "message": text(
            "🎲 Alice：1d20 = [17] = 17")}, OK)


def claim_gm(ctx: Any, bot: Bot) -> None:
    """Bob becomes the group's GM."""
    ctx.receive_event(bot, event(group_event(GROUP, BOB, ".gm", nickname="Bob")))
    ctx.should_call_api("send_group_msg", {"group_id": GROUP, "message": text(BOB_IS_GM)}, OK)


async def test_hidden_roll_group_gets_announcement_privates_get_result(
        app: App, matcher: Any, install: Install) -> None:
    await install(17)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        claim_gm(ctx, bot)
        ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh 1d20", nickname="Alice")))
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text(ALICE_ROLLED_IN_SECRET)}, OK)
        ctx.should_call_api("send_private_msg",
                            {"user_id": ALICE, "message": text(ALICE_SECRET)}, OK)
        ctx.should_call_api("send_private_msg",
                            {"user_id": BOB, "message": text(ALICE_SECRET_FOR_GM)}, OK)


def alice_rolls_secretly_and_bob_is_no_friend(ctx: Any, bot: Bot) -> None:
    """Bob claims GM; Alice's `.rh 1d20` is announced, sent to her, and QQ refuses the
    GM's copy: Bob is not the bot's friend."""
    claim_gm(ctx, bot)
    ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh 1d20", nickname="Alice")))
    ctx.should_call_api("send_group_msg",
                        {"group_id": GROUP, "message": text(ALICE_ROLLED_IN_SECRET)}, OK)
    ctx.should_call_api("send_private_msg",
                        {"user_id": ALICE, "message": text(ALICE_SECRET)}, OK)
    ctx.should_call_api("send_private_msg",
                        {"user_id": BOB, "message": text(ALICE_SECRET_FOR_GM)},
                        exception=ActionFailed(**NOT_A_FRIEND))


async def test_non_friend_gets_a_temp_session_try_then_a_group_notice(
        app: App, matcher: Any, install: Install) -> None:
    await install(17)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        alice_rolls_secretly_and_bob_is_no_friend(ctx, bot)
        ctx.should_call_api("send_private_msg",
                            {"user_id": BOB, "group_id": GROUP,
                             "message": text(ALICE_SECRET_FOR_GM)},
                            exception=ActionFailed(**NOT_A_FRIEND))
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text(cannot_reach("Bob"))}, OK)
        # kept for `.gm pending`, which delivers it once Bob can be reached
        ctx.receive_event(bot, event(group_event(GROUP, BOB, ".gm pending", nickname="Bob")))
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text("已重新私讯补送 1 则消息。")}, OK)
        ctx.should_call_api("send_private_msg",
                            {"user_id": BOB, "message": text(ALICE_SECRET_FOR_GM)}, OK)


async def test_temp_session_delivery_needs_no_notice(app: App, matcher: Any,
                                                     install: Install) -> None:
    await install(17)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        alice_rolls_secretly_and_bob_is_no_friend(ctx, bot)
        ctx.should_call_api("send_private_msg",
                            {"user_id": BOB, "group_id": GROUP,
                             "message": text(ALICE_SECRET_FOR_GM)}, OK)


async def test_without_temp_sessions_the_first_failure_is_reported(
        app: App, matcher: Any, install: Install) -> None:
    await install(17, temp_session=False)
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        alice_rolls_secretly_and_bob_is_no_friend(ctx, bot)
        ctx.should_call_api("send_group_msg",
                            {"group_id": GROUP, "message": text(cannot_reach("Bob"))}, OK)


class ScriptedCore:
    """Answers every command with a secret addressed to the group, which the real core
    never does: only to prove the adapter's own guard."""

    def set_bot_id(self, platform: str, user: str) -> None:
        pass

    async def handle(self, incoming: Any, dice: Any = None) -> list[Outgoing]:
        return [Outgoing("channel", str(GROUP), "the result is 17", secret=True),
                Outgoing("channel", str(GROUP), "public")]

    async def delivered(self, outgoing: Outgoing) -> None:
        pass


async def test_a_secret_is_never_posted_to_the_group(app: App, matcher: Any) -> None:
    bridge.install(bridge.OneBotBridge(ScriptedCore(), OneBotSettings()))  # type: ignore[arg-type]
    try:
        async with app.test_matcher(matcher) as ctx:
            bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
            ctx.receive_event(bot, event(group_event(GROUP, ALICE, ".rh")))
            ctx.should_call_api("send_group_msg",
                                {"group_id": GROUP, "message": text("public")}, OK)
    finally:
        bridge.uninstall(bridge.active())  # type: ignore[arg-type]


async def test_the_bot_ignores_its_own_messages(app: App, matcher: Any,
                                                install: Install) -> None:
    await install()
    async with app.test_matcher(matcher) as ctx:
        bot = ctx.create_bot(base=Bot, self_id=str(SELF_ID))
        ctx.receive_event(bot, event(group_event(GROUP, SELF_ID, ".r")))
