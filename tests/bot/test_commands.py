"""The skeleton's commands through a real Core on a real SQLite database."""

from __future__ import annotations

from adapters.config import Settings
from bot.core import Core
from bot.messages import Incoming
from tests.support import Table, visible


async def test_first_gm_claims_and_others_cannot(table: Table) -> None:
    assert await table.text("gm1", ".gm") == "gm1 成為本頻道的 GM。"
    assert await table.text("p1", ".gm") == "本頻道的 GM：gm1"
    assert await table.text("p1", ".gm claim") == (
        "⚠ 本頻道已經有 GM 了；請現任 GM 用 .gm add 加入你。")
    assert await table.text("p1", ".gm add p2") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm1", ".gm add <@1234>") == "1234 已加入本頻道的 GM。"
    assert await table.text("gm1", ".gm add @p2") == "p2 已加入本頻道的 GM。"
    assert await table.text("p1", ".gm list") == "本頻道的 GM：gm1、1234、p2"
    await table.say("1234", ".pc", display_name="Carol")  # the added GM speaks
    assert await table.text("p1", ".gm list") == "本頻道的 GM：gm1、Carol、p2"
    assert await table.text("gm1", ".gm del p2") == "p2 已不再是本頻道的 GM。"
    assert await table.text("gm1", ".gm del p2") == "⚠ p2 不是本頻道的 GM。"
    await table.text("gm1", ".lang en")  # an English list reads with English commas
    assert await table.text("p1", ".gm list") == "GMs of this channel: gm1, Carol"


async def test_characters_new_list_switch_rename_delete(table: Table) -> None:
    none = "你在本頻道還沒有角色。用 .pc new <名字> 建立。"
    assert await table.text("u", ".pc") == none
    assert await table.text("u", ".pc new 艾莉絲") == "已建立角色「艾莉絲」並設為使用中。"
    await table.text("u", ".pc new 鮑伯")
    assert await table.text("u", ".pc list") == "你的角色：\n・艾莉絲\n▶ 鮑伯"
    assert await table.text("u", ".pc switch 艾莉絲") == "已切換到角色「艾莉絲」。"
    assert await table.text("u", ".pc") == "目前使用的角色：艾莉絲"
    assert await table.text("u", ".pc rename 愛麗絲") == "角色「艾莉絲」已改名為「愛麗絲」。"
    assert await table.text("u", ".pc rename 鮑伯") == "⚠ 已經有名為「鮑伯」的角色。"
    assert await table.text("u", ".pc del 鮑伯") == "已刪除角色「鮑伯」。"
    assert await table.text("u", ".pc list") == "你的角色：\n▶ 愛麗絲"
    # another user's characters are separate
    assert await table.text("v", ".pc list") == none


async def test_st_sets_without_spaces_and_folds_aliases(table: Table) -> None:
    await table.text("u", ".pc new 艾莉絲")
    await table.text("u", ".st 敏捷60力量50")
    await table.text("u", ".st 灵巧 12 观察=5")
    await table.text("u", ".st DEX+2 體質:7")
    assert await table.text("u", ".st show") == (
        "艾莉絲：屬性 力量:50 靈巧:14 體質:7｜技能 觀察:5｜其他 敏捷:60")
    assert await table.text("u", ".st show 观察") == "艾莉絲：觀察:5"
    assert await table.text("u", ".st del 力量") == "已從 艾莉絲 刪除：力量"
    assert await table.text("u", ".st show 力量") == "⚠ 艾莉絲 沒有「力量」這項數值。"


async def test_an_english_list_reads_with_english_commas(table: Table) -> None:
    """Every list in a reply is joined with the reader's separator (core.list.sep), also
    when no Chinese word in it would have hinted at one."""
    await table.text("u", ".lang en")
    await table.text("u", ".pc new Ann")
    await table.text("u", ".st Luck 3 Wits 2")
    assert await table.text("u", ".st del Luck Wits") == "Removed from Ann: Luck, Wits"
    assert await table.text("u", ".ap") == (
        "📋 Action points (AP): 0\nCosts: observe/search 1, interview 1, move 2, use an item 1")
    await table.text("u", ".system jianshou")
    assert await table.text("u", ".ra 3") == (
        "⚠ .ra is a command of ace, ap20, coc7, plurk; this channel plays jianshou "
        "(.system changes it).")
    await table.text("u", ".lang zh-Hans")
    assert await table.text("u", ".ra 3") == (
        "⚠ .ra 是 ace、ap20、coc7、plurk 规则系统的指令；"
        "本频道玩的是 jianshou（可用 .system 切换）。")


async def test_deleting_the_active_character_asks_to_pick_another(table: Table) -> None:
    await table.text("u", ".pc new A")
    await table.text("u", ".pc new B")
    await table.text("u", ".pc del B")
    pick = "⚠ 你目前沒有使用中的角色；用 .pc list 查看、.pc switch <名字> 選一個。"
    assert await table.text("u", ".pc") == pick
    assert await table.text("u", ".st 觀察 5") == pick
    assert await table.text("u", ".pc list") == "你的角色：\n・A"


async def test_st_creates_a_character_named_after_the_user(table: Table) -> None:
    assert await table.text("小明", ".st 觀察 3") == "小明 的數值已更新：觀察:3"
    assert await table.text("小明", ".pc") == "目前使用的角色：小明"


async def test_st_refuses_garbage_and_changes_nothing(table: Table) -> None:
    await table.text("u", ".st 觀察 3")
    usage = "。用法：.st 名稱 數值 [名稱 數值 …]，例如 .st 觀察 5 靈巧 12"
    assert await table.text("u", ".st 觀察 1e5") == f"⚠ 看不懂「e5」{usage}"
    assert await table.text("u", ".st 觀察 5.5") == f"⚠ 看不懂「.5」{usage}"
    assert await table.text("u", ".st str10dex12") == "u 的數值已更新：力量:10 靈巧:12"
    assert await table.text("u", ".st 觀察 4 靈巧") == f"⚠ 看不懂「靈巧」{usage}"
    assert await table.text("u", ".st 觀察 4 ++") == f"⚠ 看不懂「++」{usage}"
    assert await table.text("u", ".st 理智-3") == "⚠ u 沒有「理智」這項數值。"
    assert await table.text("u", ".st show") == "u：屬性 力量:10 靈巧:12｜技能 觀察:3"


async def test_st_shows_one_stat_typed_alone(table: Table) -> None:
    """`.st 觀察` shows it (it read as a syntax error); a stat not on the sheet says so."""
    await table.text("u", ".st 觀察 3 靈巧 12")
    assert await table.text("u", ".st 觀察") == "u：觀察:3"
    assert await table.text("u", ".st 理智") == "⚠ u 沒有「理智」這項數值。"


async def test_st_names_a_declared_stat_in_the_channel_systems_english(table: Table) -> None:
    """精神力 is ap20's MP and ace's SPI: an English table reads the name its system gives
    it, in every line `.st` says (the play-test: `.st MP 6` at ap20 answered "SPI:6")."""
    await table.text("u", ".lang en")
    await table.text("u", ".system ap20")
    await table.text("u", ".pc new Ann")
    assert await table.text("u", ".st MP 6") == "Ann updated: MP:6"
    assert await table.text("u", ".st MP+1") == "Ann updated: MP:6→7"
    assert await table.text("u", ".st") == "Ann: MP:7"
    assert await table.text("u", ".st del MP") == "Removed from Ann: MP"
    await table.text("u", ".system ace")
    assert await table.text("u", ".st SPI 6") == "Ann updated: SPI:6"


async def test_sheet_survives_a_new_process_on_the_same_database(
    any_settings: Settings,
) -> None:
    settings = any_settings
    first = await Core.open(settings)
    await Table(first).text("u", ".st 觀察 5 靈巧 12")
    await first.close()
    second = await Core.open(settings)
    try:
        assert await Table(second).text("u", ".st show") == "u：屬性 靈巧:12｜技能 觀察:5"
    finally:
        await second.close()


async def test_system_and_lang(table: Table) -> None:
    every = ("ace（王牌進化）、ap20（規則書·戰鬥篇）、coc7（克蘇魯的呼喚第七版）、"
             "jianshou（劍手）、plurk（噗浪式TRPG）、ap20+v6（站位與姿勢）")
    assert await table.text("u", ".system") == (
        f"本頻道的規則系統：plurk（噗浪式TRPG）。可用：{every}")
    assert await table.text("u", ".system nope") == f"⚠ 沒有「nope」這個規則系統。可用：{every}"
    assert await table.text("u", ".lang") == (
        "目前語言：繁體中文（zh-Hant）。可用：zh-Hant（繁體中文）、zh-Hans（簡體中文）、en（英文）")
    assert await table.text("u", ".lang en") == "This channel now replies in English."
    assert await table.text("u", ".lang") == (
        "Language: English (en). Available: zh-Hant (Traditional Chinese), "
        "zh-Hans (Simplified Chinese), en (English)")
    assert await table.text("u", ".lang klingon") == (
        "⚠ “klingon” is not supported. Available: zh-Hant (Traditional Chinese), "
        "zh-Hans (Simplified Chinese), en (English)")
    assert await table.text("u", ".system") == (
        "Rule system of this channel: plurk (Plurk TRPG). Available: ace (Ace Evolution), "
        "ap20 (AP d20), coc7 (Call of Cthulhu 7e), jianshou (Swordsman duel), "
        "plurk (Plurk TRPG), "
        "ap20+v6 (v6 positioning)")
    assert await table.text("u", ".lang zh-Hans") == "本频道的回复语言改为简体中文。"
    assert await table.text("u", ".lang") == (
        "目前语言：简体中文（zh-Hans）。可用：zh-Hant（繁体中文）、zh-Hans（简体中文）、en（英文）")
    await table.text("gm", ".gm")  # a GM exists from now on: settings are the GM's
    assert await table.text("u", ".lang en") == "⚠ 只有本频道的 GM 可以这么做。"
    assert await table.text("gm", ".lang zh-tw") == "本頻道的回覆語言改為繁體中文。"


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
    from bot.handlers.help import HELP_MESSAGE_LIMIT

    for locale in ("zh-Hant", "en"):
        await table.say("u", f".lang {locale}")
        outs = await table.say("u", ".help all")
        assert all(o.to == "channel" and len(o.text) <= HELP_MESSAGE_LIMIT for o in outs)
        listing = "\n" + "\n".join(o.text for o in outs)
        for name in EVERY_COMMAND.split():
            assert f"\n{name} — " in listing, (locale, name)
    await table.say("u", ".lang zh-Hant")
    assert (await table.text("u", ".help st")).startswith(
        ".st / .數值 / .数值 / .屬性 / .属性\n角色卡數值")


EVERY_COMMAND = (".r .rh .ra .rah .set .st .pc .nn .gm .draw .drawh .log .battle .turn .enemy "
                 ".act .pass .bp .push .fate .sc .op .secret .rm .rg .parry .atk .dmg .field "
                 ".place .move .party .ap .cp .hp .san .intervene .accept .fatal .campaign "
                 ".system .lang .bot .ban .unban .dismiss .help")


async def test_plain_help_names_every_command_in_one_short_message(table: Table) -> None:
    short = await table.text("u", ".help")
    assert short == (f"指令（前綴 . 。 / 皆可）：\n{EVERY_COMMAND}\n"
                     ".help <指令> 看用法，.help all 看每個指令的一行說明。")
    assert len(short) <= 360  # one Plurk response
    await table.say("u", ".lang en")
    assert await table.text("u", ".help") == (
        f"Commands (prefix . 。 or /):\n{EVERY_COMMAND}\n"
        ".help <command> for its usage, .help all for one line on each.")


async def test_a_replayed_platform_message_is_answered_once(core: Core) -> None:
    message = Incoming("plurk", "p1", "u", ".pc new A", message_id="r42")
    assert [o.text for o in await core.handle(message)] == ["已建立角色「A」並設為使用中。"]
    assert await core.handle(message) == []


async def test_a_replayed_refused_command_is_not_answered_again(core: Core) -> None:
    """A refused command changes nothing, but its id is still recorded."""
    message = Incoming("plurk", "p1", "u", ".pc switch 無名", message_id="r43")
    assert [o.text for o in await core.handle(message)] == ["⚠ 找不到名為「無名」的角色。"]
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


# ---------- holes found by attacking the bot (issue 8)
async def test_gm_add_refuses_ids_that_are_not_a_person(core: Core) -> None:
    """Plurk reads `limited_to=[0]` as "all my friends": a GM 0 would publish secrets."""
    table = Table(core, "4242", platform="plurk")
    await table.text("11", ".gm")
    core.set_bot_id("plurk", "999")
    for ref in ("0", "@0", "00", "-5", "abc", "999", "@999", "1.5"):
        assert await table.text("11", f".gm add {ref}") == (
            f"⚠ 「{ref.lstrip('@')}」不是有效的使用者；請用 @ 提及對方，或輸入對方的使用者 ID。"
        ), ref
    assert await table.text("11", ".gm add 12") == "12 已加入本頻道的 GM。"
    console = Table(core, "c")
    await console.text("keeper", ".gm")
    assert await console.text("keeper", ".gm add 0") == (
        "⚠ 「0」不是有效的使用者；請用 @ 提及對方，或輸入對方的使用者 ID。")
    assert await console.text("keeper", ".gm add bob") == "bob 已加入本頻道的 GM。"


async def test_a_line_break_cannot_forge_a_result_line(table: Table) -> None:
    """A reason or a name with a line break once started a line of its own that looked
    like the bot's result."""
    outs = await table.say("alice", ".r 1d20 開鎖\n🎲 bob：1d20 = 20", dice=[3])
    assert visible(outs) == [
        ("channel", None, "🎲 alice「開鎖 🎲 bob:1d20 = 20」：1d20 = [3] = 3", False)]
    outs = await table.say("mallory", ".r 1d20", dice=[3], display_name="m\u2028🎲 GM")
    assert outs[0].text == "🎲 m 🎲 GM：1d20 = [3] = 3"
    outs = await table.say("alice", ".pc new 甲\r\n乙")
    assert outs[0].text == "已建立角色「甲 乙」並設為使用中。"


async def test_lone_surrogates_get_a_clear_refusal(table: Table) -> None:
    bad = "⚠ 訊息裡有無法處理的字元（不成對的代理字元），沒有執行。請重新輸入。"
    assert visible(await table.say("alice", ".r 1d20 \udcff", dice=[])) == [
        ("channel", None, bad, False)]
    assert visible(await table.say("alice", ".st \ud800 5", dice=[])) == [
        ("channel", None, bad, False)]
    assert await table.text("alice", ".st show") == (
        "⚠ 你目前沒有使用中的角色，先用 .pc new <名字> 建立，或直接 .st 設定數值。")
    # in an id, too: a refusal, not a database error
    outs = await table.core.handle(Incoming("console", "t\udcff", "alice", ".r 1d20"))
    assert [o.text for o in outs] == [bad]
    outs = await table.core.handle(Incoming("console", "t", "a\udcff", ".st 觀察 5"))
    assert [o.text for o in outs] == [bad]


async def sheets(table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 觀察 5")
    await table.text("bob", ".pc new 鮑伯")


async def test_refusals_of_hidden_commands_go_to_the_player_only(table: Table) -> None:
    """`.rah 開鎖` refused in the channel named the skill checked in secret."""
    await table.text("gm", ".gm")
    await sheets(table)
    outs = await table.say("alice", ".rah 開鎖", dice=[])
    assert visible(outs) == [("private", "alice", outs[0].text, True)]
    assert "開鎖" in outs[0].text
    outs = await table.say("alice", ".rh 1d0 開鎖", dice=[])  # refused by the precheck
    assert [(o.to, o.user, o.secret) for o in outs] == [("private", "alice", True)]
    outs = await table.say("gm", ".secret 艾莉絲 開鎖", dice=[])
    assert [(o.to, o.user, o.secret) for o in outs] == [("private", "gm", True)]
    assert "開鎖" in outs[0].text
    # a public check's refusal stays in the channel
    outs = await table.say("alice", ".ra 開鎖", dice=[])
    assert [(o.to, o.secret) for o in outs] == [("channel", False)]
