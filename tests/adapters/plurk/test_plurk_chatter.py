"""The game log on Plurk: every response the feed brings from a thread reaches the core,
not only those addressed to the bot, so a thread that keeps a log (``.log on``) finds
its conversation in ``.log export``; it gets no reply and is never run as a command
without ``@<bot nick>``; the bot's own responses never reach the core.

The whole adapter against the fake Plurk with a real Core; what reaches the core with
a recording one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adapters.config import Settings
from adapters.plurk.listener import PlurkListener
from bot.messages import Incoming, Outgoing
from tests.adapters.plurk.fake_plurk import BOT_ID, FakePlurk
from tests.adapters.plurk.test_plurk_listener import (
    ALICE,
    BOB,
    GM,
    Bot,
    plurk_settings,
    wait_until,
)
from tests.support import NoMoreDice, strict_dice


@pytest.fixture
def settings(tmp_path: Path, fake: FakePlurk) -> Settings:
    fake.add_user(GM, "keeper", "Keeper")
    fake.add_user(ALICE, "alice", "Alice")
    fake.add_user(BOB, "bob", "Bob")
    fake.friends.update({GM})
    return Settings(_env_file=None, data_dir=tmp_path, plurk=plurk_settings(fake))


async def logging_thread(fake: FakePlurk) -> int:
    """A thread where the GM has started a game log (the bot answered both commands)."""
    pid = fake.add_plurk(GM, "第一夜")
    for line in (".gm", ".log on 第一夜"):
        count = len(fake.posts)
        fake.add_response(pid, GM, f"@dicebot {line}")
        await fake.wait_for_posts(count + 1)
    return pid


async def test_thread_chatter_is_in_the_exported_log(fake: FakePlurk, settings: Settings) -> None:
    bot = await Bot(fake, settings, dice=strict_dice([15])).start()
    try:
        pid = await logging_thread(fake)
        await bot.settle()
        before = len(fake.posts)
        for user, raw in ((ALICE, "我推開門走進去"),
                          (BOB, "小心 @alice"),
                          (ALICE, ".r 1d20 不是給機器人的"),  # no @dicebot: never run
                          (ALICE, "@dicebot 謝謝"),  # addressed, but no command
                          (BOT_ID, "機器人自己的話")):  # the bot's own: never
            fake.add_response(pid, user, raw)
        await bot.settle()
        assert len(fake.posts) == before  # chatter gets no reply
        fake.add_response(pid, ALICE, "@dicebot .r 1d20")  # a command still runs
        await fake.wait_for_posts(before + 1)
        await bot.settle()
        private_before = len(fake.private_posts())
        fake.add_response(pid, GM, "@dicebot .log export")
        await wait_until(lambda: len(fake.private_posts()) > private_before)
        await bot.settle()
        [gm_copy] = fake.private_posts()[private_before:]
        _, *responses = fake.posts_in(gm_copy.plurk_id)
        log = "\n".join(responses)  # Markdown, escaped for Plurk (`@` → `＠`)
    finally:
        await bot.close()
    assert log.count("我推開門走進去") == 1
    assert "小心 ＠alice" in log and "＠dicebot 謝謝" in log
    # as typed, with no invisible mark (issue 22 item 10; chatter is Incoming.kind now)
    assert "\n\\.r 1d20 不是給機器人的" in log and "\u200b" not in log
    assert "機器人自己的話" not in log
    assert log.index("我推開門") < log.index("不是給機器人的") < log.index("1d20 = ")


async def test_chatter_where_nothing_is_logged_gets_no_reply(
        fake: FakePlurk, settings: Settings) -> None:
    bot = await Bot(fake, settings, dice=NoMoreDice()).start()
    try:
        pid = fake.add_plurk(ALICE, "閒聊")
        fake.add_plurk(BOB, ".r 1d20 新噗")
        for raw in ("大家好", ".r 1d20", "(dice20) 擲著玩", "提到 @dicebot 而已"):
            fake.add_response(pid, ALICE, raw)
        await bot.settle()
        assert fake.posts == []
    finally:
        await bot.close()


# -- what reaches the core ------------------------------------------------------------------


class RecordingCore:
    def __init__(self) -> None:
        self.seen: list[Incoming] = []

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        self.seen.append(incoming)
        return []


def listener(fake: FakePlurk, core: RecordingCore) -> PlurkListener:
    """A listener that knows who it is, without a connection (nothing here calls Plurk:
    no command names another user)."""
    made = PlurkListener(core, plurk_settings(fake), None, None)  # type: ignore[arg-type]
    made.me_id, made.nick = BOT_ID, "dicebot"
    made.remember_users({str(ALICE): {"id": ALICE, "nick_name": "alice",
                                      "display_name": "Alice"}})
    return made


def response(rid: int, user: int, raw: str | None, content: str = "") -> dict[str, Any]:
    return {"id": rid, "plurk_id": 1, "user_id": user, "content_raw": raw,
            "content": content or raw or ""}


async def test_what_reaches_the_core(fake: FakePlurk) -> None:
    core = RecordingCore()
    plurk = listener(fake, core)
    await plurk.handle_response(1, response(2, ALICE, "閒聊一句"))
    await plurk.handle_response(1, response(3, ALICE, "@dicebot .r 1d20"))
    await plurk.handle_response(1, response(4, ALICE, "@DiceBot: 謝謝你"))
    await plurk.handle_response(1, response(5, ALICE, "。r 1d20"))
    await plurk.handle_response(1, response(6, BOT_ID, "我自己"))
    await plurk.handle_response(1, response(7, ALICE, None, '看 <a href="x">連結</a>'))
    await plurk.handle_response(1, response(8, ALICE, "  "))
    await plurk.handle_plurk({"plurk_id": 9, "owner_id": ALICE, "content_raw": "新的一噗"})
    await plurk.handle_plurk({"plurk_id": 10, "owner_id": ALICE,
                              "content_raw": "@dicebot .r d6"})
    assert [(i.channel, i.user, i.display_name, i.text, i.message_id, i.kind)
            for i in core.seen] == [
        ("1", str(ALICE), "Alice", "閒聊一句", "r2", "chatter"),
        ("1", str(ALICE), "Alice", ".r 1d20", "r3", "command"),
        ("1", str(ALICE), "Alice", "@DiceBot: 謝謝你", "r4", "chatter"),
        ("1", str(ALICE), "Alice", "。r 1d20", "r5", "chatter"),  # not addressed to the bot
        ("1", str(ALICE), "Alice", "看 連結", "r7", "chatter"),
        ("10", str(ALICE), "Alice", ".r d6", "p10", "command")]

