"""The skeleton's commands through a real Core on a real SQLite database."""

from __future__ import annotations

from bot.config import Settings
from bot.core import Core
from bot.messages import Incoming
from tests.support import Table


async def test_first_gm_claims_and_others_cannot(table: Table) -> None:
    assert "成為本頻道的 GM" in await table.text("gm1", ".gm")
    assert "GM：gm1" in await table.text("p1", ".gm")
    assert "已經有 GM" in await table.text("p1", ".gm claim")
    assert "只有本頻道的 GM" in await table.text("p1", ".gm add p2")
    assert "1234 已加入" in await table.text("gm1", ".gm add <@1234>")
    assert "p2 已加入" in await table.text("gm1", ".gm add @p2")
    assert "gm1、1234、p2" in await table.text("p1", ".gm list")
    await table.say("1234", ".pc", display_name="Carol")  # the added GM speaks
    assert "gm1、Carol、p2" in await table.text("p1", ".gm list")
    assert "p2 已不再是" in await table.text("gm1", ".gm del p2")
    assert "不是本頻道的 GM" in await table.text("gm1", ".gm del p2")


async def test_characters_new_list_switch_rename_delete(table: Table) -> None:
    assert "還沒有角色" in await table.text("u", ".pc")
    assert "「艾莉絲」" in await table.text("u", ".pc new 艾莉絲")
    await table.text("u", ".pc new 鮑伯")
    assert await table.text("u", ".pc list") == "你的角色：\n・艾莉絲\n▶ 鮑伯"
    assert "艾莉絲" in await table.text("u", ".pc switch 艾莉絲")
    assert await table.text("u", ".pc") == "目前使用的角色：艾莉絲"
    assert "改名為「愛麗絲」" in await table.text("u", ".pc rename 愛麗絲")
    assert "已經有名為「鮑伯」" in await table.text("u", ".pc rename 鮑伯")
    assert "已刪除角色「鮑伯」" in await table.text("u", ".pc del 鮑伯")
    assert await table.text("u", ".pc list") == "你的角色：\n▶ 愛麗絲"
    # another user's characters are separate
    assert "還沒有角色" in await table.text("v", ".pc list")


async def test_st_sets_without_spaces_and_folds_aliases(table: Table) -> None:
    await table.text("u", ".pc new 艾莉絲")
    await table.text("u", ".st 敏捷60力量50")
    await table.text("u", ".st 灵巧 12 观察=5")
    await table.text("u", ".st DEX+2 體質:7")
    assert await table.text("u", ".st show") == "艾莉絲：敏捷:60 力量:50 靈巧:14 觀察:5 體質:7"
    assert await table.text("u", ".st show 观察") == "艾莉絲：觀察:5"
    assert "已從 艾莉絲 刪除：力量" in await table.text("u", ".st del 力量")
    assert "沒有「力量」" in await table.text("u", ".st show 力量")


async def test_deleting_the_active_character_asks_to_pick_another(table: Table) -> None:
    await table.text("u", ".pc new A")
    await table.text("u", ".pc new B")
    await table.text("u", ".pc del B")
    assert ".pc switch" in await table.text("u", ".pc")
    assert ".pc switch" in await table.text("u", ".st 觀察 5")
    assert await table.text("u", ".pc list") == "你的角色：\n・A"


async def test_st_creates_a_character_named_after_the_user(table: Table) -> None:
    assert await table.text("小明", ".st 觀察 3") == "小明 的數值已更新：觀察:3"
    assert await table.text("小明", ".pc") == "目前使用的角色：小明"


async def test_st_refuses_garbage_and_changes_nothing(table: Table) -> None:
    await table.text("u", ".st 觀察 3")
    assert "看不懂" in await table.text("u", ".st 觀察 1e5")
    assert "看不懂" in await table.text("u", ".st 觀察 5.5")
    assert "力量:10 靈巧:12" in await table.text("u", ".st str10dex12")
    assert "看不懂" in await table.text("u", ".st 觀察 4 靈巧")
    assert "看不懂" in await table.text("u", ".st 觀察 4 ++")
    assert "沒有「理智」" in await table.text("u", ".st 理智-3")
    assert await table.text("u", ".st show") == "u：觀察:3 力量:10 靈巧:12"


async def test_sheet_survives_a_new_process_on_the_same_database(
    any_settings: Settings,
) -> None:
    settings = any_settings
    first = await Core.open(settings)
    await Table(first).text("u", ".st 觀察 5 靈巧 12")
    await first.close()
    second = await Core.open(settings)
    try:
        assert await Table(second).text("u", ".st show") == "u：觀察:5 靈巧:12"
    finally:
        await second.close()


async def test_system_and_lang(table: Table) -> None:
    assert "plurk" in await table.text("u", ".system")
    assert "沒有「nope」" in await table.text("u", ".system nope")
    assert await table.text("u", ".lang en") == "This channel now replies in en."
    assert "Only a GM" not in await table.text("u", ".lang zh-Hans")
    await table.text("gm", ".gm")  # a GM exists from now on: settings are the GM's
    assert "只有本频道的 GM" in await table.text("u", ".lang en")
    assert await table.text("gm", ".lang zh-tw") == "本頻道的回覆語言改為 zh-Hant。"


async def test_full_width_prefixes_route_the_same(table: Table) -> None:
    assert await table.text("u", "。ｐｃ　ｎｅｗ　Ａ") == "已建立角色「A」並設為使用中。"
    assert await table.text("u", "．pc") == "目前使用的角色：A"
    assert await table.text("u", "/pc") == "目前使用的角色：A"


async def test_non_commands_and_unknown_commands_are_ignored(table: Table) -> None:
    assert await table.say("u", "hello") == []
    assert await table.say("u", "...好吧") == []
    assert await table.say("u", ". pc") == []
    for other_bots_command in (".rabbit", ".passive", ".rules", ".reset", ".start", ".scene"):
        assert await table.say("u", other_bots_command) == [], other_bots_command


async def test_help_lists_every_command_in_messages_that_fit(table: Table) -> None:
    from bot import router
    from bot.handlers.help import HELP_MESSAGE_LIMIT

    for locale in ("zh-Hant", "en"):
        await table.say("u", f".lang {locale}")
        outs = await table.say("u", ".help all")
        assert all(o.to == "channel" and len(o.text) <= HELP_MESSAGE_LIMIT for o in outs)
        listing = "\n" + "\n".join(o.text for o in outs)
        for cmd in router.commands():
            assert f"\n.{cmd.names[0]} — " in listing, (locale, cmd.names[0])
    await table.say("u", ".lang zh-Hant")
    assert (await table.text("u", ".help st")).startswith(".st\n角色卡數值")


async def test_plain_help_names_every_command_in_one_short_message(table: Table) -> None:
    from bot import router

    short = await table.text("u", ".help")
    assert len(short) <= 360  # one Plurk response
    names = short.splitlines()[1].split()
    assert sorted(names) == sorted(f".{cmd.names[0]}" for cmd in router.commands())
    assert names[:3] == [".r", ".rh", ".ra"]


async def test_a_replayed_platform_message_is_answered_once(core: Core) -> None:
    message = Incoming("plurk", "p1", "u", ".pc new A", message_id="r42")
    assert len(await core.handle(message)) == 1
    assert await core.handle(message) == []


async def test_undeliverable_private_message_is_kept_and_announced_without_text(
    table: Table,
) -> None:
    await table.text("gm", ".gm")
    from bot.messages import Outgoing

    secret = Outgoing("private", "table", "SECRET 17", user="gm", secret=True)
    notice = await table.core.private_delivery_failed("console", secret)
    assert len(notice) == 1 and notice[0].to == "channel"
    assert "SECRET" not in notice[0].text and "17" not in notice[0].text
    outs = await table.say("gm", ".gm pending")
    assert [(o.to, o.user, o.text) for o in outs if o.to == "private"] == [
        ("private", "gm", "SECRET 17")]
    assert all("SECRET" not in o.text for o in outs if o.to == "channel")
    again = await table.say("gm", ".gm pending")
    assert [o.text for o in again] == ["沒有待補送給你的私訊。"]
