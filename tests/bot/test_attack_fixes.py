"""Holes found by attacking the bot (issue 8), each closed and held shut by a test:
secrets of hidden checks, GM ids, hidden refusals, forged lines and broken text."""

from __future__ import annotations

from bot.core import Core
from bot.messages import Incoming, Outgoing, PlatformDie
from tests.support import Table

NOT_YOURS = "⚠ 只有該角色的玩家或 GM 可以這麼做。"


def visible(outs: list[Outgoing]) -> list[tuple[str, str | None, str, bool]]:
    return [(o.to, o.user, o.text, o.secret) for o in outs]


async def sheets(table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 觀察 5")
    await table.text("bob", ".pc new 鮑伯")


async def test_item2_fate_on_anothers_hidden_check_tells_the_asker_nothing(
    table: Table,
) -> None:
    """Without GMs, bob's `.fate @alice` after alice's `.rah` once said "the raw die was
    12" — and silence (a call going through) said it was a crit or a fumble. Since
    issue 22 another player's fate check is a GM's to call even without GMs: bob is
    refused before her check is looked at, with the same words whatever it was."""
    await sheets(table)
    for die in (12, 20, 1):  # an ordinary result, a crit, a fumble: the same answer
        await table.say("alice", ".rah 觀察", dice=[die])
        for line in (".fate @alice", ".fate 艾莉絲 roll", ".fate @alice >=10"):
            outs = await table.say("bob", line, dice=[])
            assert visible(outs) == [("channel", None, NOT_YOURS, False)], (die, line)
    # the roller herself still may (no GM here: she calls and rolls her own)
    await table.say("alice", ".rah 觀察", dice=[20])
    outs = await table.say("alice", ".fate", dice=[15])
    assert [o.to for o in outs] == ["channel", "private"]


async def test_item2_a_gm_may_still_act_on_a_hidden_check(table: Table) -> None:
    await table.text("gm", ".gm")
    await sheets(table)
    await table.say("alice", ".rah 觀察", dice=[12])
    outs = await table.say("gm", ".fate 艾莉絲", dice=[])
    assert visible(outs)[1] == (
        "private", "gm", "⚠ 只有大成功或大失敗之後可以進行命運檢定（這次原始骰是 12）。", True)
    outs = await table.say("bob", ".fate 艾莉絲", dice=[])
    assert visible(outs) == [("channel", None, "⚠ 只有本頻道的 GM 可以這麼做。", False)]


async def test_item3_gm_add_refuses_ids_that_are_not_a_person(core: Core) -> None:
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


HIDDEN_DICE = "⚠ 噗浪骰的結果大家都看得到；暗骰或暗中檢定請讓機器人擲骰（不要附骰子表情）。"


async def test_item5_hidden_roll_with_emoticon_dice_is_refused_privately(core: Core) -> None:
    """`.rh 1d20+5 (dice20)` on Plurk once announced the emoticon value in the thread."""
    table = Table(core, "777", platform="plurk")
    die = (PlatformDie(20, 13, "(dice20)"),)
    for line in (".rh 1d20+5 (dice20)", ".rh (dice20)+5", ".rah 觀察 (dice20)"):
        outs = await table.say("11", line, dice=[], platform_dice=die)
        assert visible(outs) == [("private", "11", HIDDEN_DICE, True)], line
    # a public roll still uses (and names) the player's own die
    outs = await table.say("11", ".r (dice20)+5", dice=[], platform_dice=die)
    assert outs[0].text == "🎲 11：1d20+5 = [13]+5 = 18\n（使用了玩家自己的噗浪骰：(dice20) 13）"


async def test_item6_refusals_of_hidden_commands_go_to_the_player_only(table: Table) -> None:
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


async def test_item13_a_line_break_cannot_forge_a_result_line(table: Table) -> None:
    """A reason or a name with a line break once started a line of its own that looked
    like the bot's result."""
    outs = await table.say("alice", ".r 1d20 開鎖\n🎲 bob：1d20 = 20", dice=[3])
    assert visible(outs) == [
        ("channel", None, "🎲 alice「開鎖 🎲 bob:1d20 = 20」：1d20 = [3] = 3", False)]
    outs = await table.say("mallory", ".r 1d20", dice=[3], display_name="m\u2028🎲 GM")
    assert outs[0].text == "🎲 m 🎲 GM：1d20 = [3] = 3"
    outs = await table.say("alice", ".pc new 甲\r\n乙")
    assert outs[0].text == "已建立角色「甲 乙」並設為使用中。"


async def test_item10_lone_surrogates_get_a_clear_refusal(table: Table) -> None:
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
