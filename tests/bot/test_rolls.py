"""`.r`, `.rh` and `.set` through the core, with scripted dice."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.core import Core
from bot.messages import PlatformDie
from tests.orm import Channel, sessions
from tests.support import Table, visible


async def test_roll_reports_total_and_every_die(table: Table) -> None:
    outs = await table.say("u", ".r 2d6+3 開鎖", dice=[4, 5])
    assert len(outs) == 1 and outs[0].to == "channel"
    assert outs[0].data is not None
    assert outs[0].data["total"] == 12 and outs[0].data["dice"] == [4, 5]
    assert outs[0].data["reason"] == "開鎖"
    assert "12" in outs[0].text and "開鎖" in outs[0].text


async def test_full_width_command_is_the_same_roll(table: Table) -> None:
    plain = await table.say("u", ".r 2d6+3", dice=[2, 6])
    wide = await table.say("u", "。ｒ　２ｄ６＋３", dice=[2, 6])
    assert [o.data for o in wide] == [o.data for o in plain]
    assert [o.text for o in wide] == [o.text for o in plain]
    assert plain[0].data["total"] == 11


async def test_commands_glued_to_their_argument(table: Table) -> None:
    assert (await table.say("u", ".rd20", dice=[7]))[0].data["total"] == 7
    assert (await table.say("u", ".r3d6", dice=[1, 2, 3]))[0].data["total"] == 6
    assert (await table.say("u", ".rd%", dice=[42]))[0].data["total"] == 42
    private = [o for o in await table.say("u", ".rhd6", dice=[4]) if o.to == "private"]
    assert private[0].data["total"] == 4


async def test_bare_roll_uses_the_channel_default_die(table: Table) -> None:
    assert (await table.say("u", ".r", dice=[17]))[0].data["total"] == 17
    assert "d100" in await table.text("u", ".set 100")
    outs = await table.say("u", ".r 找線索", dice=[87])
    assert outs[0].data["total"] == 87 and outs[0].data["reason"] == "找線索"
    assert "d100" in await table.text("u", ".set")


async def test_hidden_roll_reaches_roller_and_gm_only(table: Table) -> None:
    await table.text("keeper", ".gm")
    outs = await table.say("alice", ".rh 1d20 聆聽", dice=[17])
    channel = [o for o in outs if o.to == "channel"]
    private = {o.user: o for o in outs if o.to == "private"}
    assert len(channel) == 1
    assert "17" not in channel[0].text and "聆聽" not in channel[0].text
    assert channel[0].data == {"kind": "hidden_roll", "user": "alice"}
    assert set(private) == {"alice", "keeper"}
    for message in private.values():
        assert message.secret and "17" in message.text
        assert message.data["total"] == 17


async def test_hidden_roll_by_the_gm_is_sent_once(table: Table) -> None:
    await table.text("keeper", ".gm")
    outs = await table.say("keeper", ".rh 1d20", dice=[3])
    assert [(o.to, o.user) for o in outs] == [("channel", None), ("private", "keeper")]


async def _channels(core: Core) -> int:
    async with sessions(core) as session:
        return await session.scalar(select(func.count()).select_from(Channel))


async def test_limits_are_refused_before_any_work(table: Table) -> None:
    """Refusals happen in the precheck: no die rolled (the table's source would fail),
    no database row written — no database touched at all (its speed is bench/dice.py's
    subject, not a timed test's)."""
    deep = ".r " + "(" * 40 + "1" + ")" * 40
    lines = [".r 99999d99999", ".r 1d0", deep, ".r " + "1+" * 5000 + "1"]
    for line in lines:
        outs = await table.say("u", line, dice=[])
        assert len(outs) == 1 and outs[0].text.startswith("⚠"), (line[:20], outs)
        assert outs[0].data is None
    assert await _channels(table.core) == 0
    writer = table.core.writer
    table.core.writer = None
    try:
        for line in lines:
            [out] = await table.say("u", line, dice=[])
            assert out.text.startswith("⚠"), line[:20]
    finally:
        table.core.writer = writer


async def test_refused_roll_keeps_the_sheet(table: Table) -> None:
    await table.text("u", ".st 觀察 5")
    await table.say("u", ".r 1d0")
    assert await table.text("u", ".st show") == "u：觀察:5"


# ---------- a hole found by attacking the bot (issue 8)
HIDDEN_DICE = "⚠ 噗浪骰的結果大家都看得到；暗骰或暗中檢定請讓機器人擲骰（不要附骰子表情）。"


async def test_hidden_roll_with_emoticon_dice_is_refused_privately(core: Core) -> None:
    """`.rh 1d20+5 (dice20)` on Plurk once announced the emoticon value in the thread."""
    table = Table(core, "777", platform="plurk")
    die = (PlatformDie(20, 13, "(dice20)"),)
    for line in (".rh 1d20+5 (dice20)", ".rh (dice20)+5", ".rah 觀察 (dice20)"):
        outs = await table.say("11", line, dice=[], platform_dice=die)
        assert visible(outs) == [("private", "11", HIDDEN_DICE, True)], line
    # a public roll still uses (and names) the player's own die
    outs = await table.say("11", ".r (dice20)+5", dice=[], platform_dice=die)
    assert outs[0].text == "🎲 11：1d20+5 = [13]+5 = 18\n（使用了玩家自己的噗浪骰：(dice20) 13）"


async def test_set_coc_and_dnd_choose_the_die_of_bare_d(table: Table) -> None:
    """Issue 26 item 9: `.set coc` / `.set dnd` as in SealDice; `d`, `2d`, `d优势` and a
    roll without an expression then use that die."""
    assert "d100" in await table.text("u", ".set coc")
    outs = await table.say("u", ".r 2d 傷害", dice=[55, 7])
    assert outs[0].data["expression"] == "2d100" and outs[0].data["total"] == 62
    assert outs[0].data["reason"] == "傷害"
    outs = await table.say("u", ".r d优势+5", dice=[30, 80])
    assert outs[0].data["expression"] == "2d100kh1+5" and outs[0].data["total"] == 85
    assert "d20" in await table.text("u", ".set dnd")
    outs = await table.say("u", ".r d", dice=[20])
    assert outs[0].data["expression"] == "1d20" and outs[0].data["total"] == 20
    assert "d20" in await table.text("u", ".set DND")


async def test_set_refuses_an_unknown_game_word(table: Table) -> None:
    reply = await table.text("u", ".set gurps")
    assert ".set coc" in reply  # the usage names the accepted words
    assert "d20" in await table.text("u", ".set")  # nothing changed


async def test_coc_bonus_dice_roll_in_arithmetic_with_every_die_shown(table: Table) -> None:
    # units face 6 → 5, tens faces 3, 8, 1 → 2, 7, 0: readings 25, 75, 5; b2 keeps 5
    outs = await table.say("u", ".r b2*2 偵查", dice=[6, 3, 8, 1])
    data = outs[0].data
    assert (data["expression"], data["total"], data["reason"]) == ("b2*2", 10, "偵查")
    assert data["dice"] == [6, 3, 8, 1]
    assert "[(25), (75), 5]*2 = 10" in outs[0].text


async def test_glued_letters_are_refused_in_every_language(table: Table) -> None:
    # strict dice with an empty script: rolling anything would fail the test
    assert "「kill」緊貼在擲骰算式後面" in await table.text("u", ".r d20kill", dice=[])
    await table.text("u", ".lang zh-Hans")
    assert "原因前请加空格" in await table.text("u", ".r 3x")
    await table.text("u", ".lang en")
    assert "put a space before a reason" in await table.text("u", ".r 1d20+str")
