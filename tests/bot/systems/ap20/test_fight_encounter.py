"""ap20 on the encounter kit (issue 24) through a real Core: the fallen, who may set
what, who sees what, the shared `.init` words, and every number named.

The table of ``test_commands``: GM `gm`; `p1` plays 艾莉絲 (生命 18), `p2` 鮑伯 (生命
22); the GM's 哥布林 (hp 12, 護甲 2, 閃避 3). Order: 艾莉絲 18, 鮑伯 15, 哥布林 10.
"""

from __future__ import annotations

from tests.bot.systems.ap20.test_commands import data, gm_copy, prepare, started
from tests.support import Table


async def test_a_fighter_at_0_hp_is_passed_over_and_cannot_act(table: Table) -> None:
    await started(table)
    await table.text("gm", ".init set 鮑伯 hp=0")
    # down: no attack, no spend, no check — each refusal names why
    assert await table.text("p2", ".atk 哥布林 1d6") == "⚠ 鮑伯 已倒下，不能行動。"
    assert await table.text("p2", ".ap 迅捷") == "⚠ 鮑伯 已倒下，不能行動。"
    assert await table.text("p2", ".ra 敏捷") == "⚠ 鮑伯 已倒下，不能行動。"
    assert await table.text("gm", ".atk 哥布林 by=鮑伯") == "⚠ 鮑伯 已倒下，不能行動。"
    await table.text("gm", ".ap set 鮑伯 2")
    outs = await table.say("p1", ".pass")
    # the turn passes over 鮑伯 (no refill) and pings the GM, who plays 哥布林, next —
    # without its action points in the data
    assert outs[0].text == "（跳過：鮑伯（倒下））\n▶ 輪到 哥布林"
    assert outs[0].notify == ("gm",) and outs[0].data["turn"] == {
        "previous": "艾莉絲", "current": "哥布林", "round": 1, "new_round": False,
        "skipped": ["鮑伯"]}
    assert "鮑伯 2/6" in await table.text("p1", ".ap")
    # attacking the downed is allowed: armor only (AP-2)
    public, text, atk = await gm_copy(table, "gm", ".atk 鮑伯 1d4", [5, 1])
    assert atk["defense"]["armor_only"] == "incapacitated"
    assert text.splitlines()[0] == (
        "⚔ 哥布林→鮑伯：d20=5 +命中3+破甲1 = 9 ≥ 防禦 3（僅護甲：失能） → 命中")
    # the channel: 哥布林's hit is the GM's, 鮑伯's hurt is his player's
    assert public.splitlines()[:2] == ["⚔ 哥布林→鮑伯：d20=5（僅護甲：失能） → 命中",
                                       "💥 1d4=[1]=1 → 鮑伯 生命 0→0"]
    # the dead are no target and are marked on `.init`
    await table.text("gm", ".init set 鮑伯 +死亡")
    assert await table.text("gm", ".atk 鮑伯 1d4") == "⚠ 鮑伯 已經死亡，不能再被攻擊。"
    assert (await table.text("p1", ".init")).splitlines()[2] == (
        "  2. 鮑伯（我方）先攻 15｜生命 0｜死亡")  # the dead have no action points to show
    # healing the dead is the GM's, and says so
    assert await table.text("gm", ".init set 鮑伯 hp=10") == (
        "已更新：2. 鮑伯（我方）先攻 15｜生命 10｜死亡"
        "（仍是死亡：GM 用 -死亡 讓他回來）")
    assert await table.text("p2", ".init set 鮑伯 -死亡") == "⚠ 只有本頻道的 GM 可以這麼做。"
    outs = await table.say("gm", ".pass")
    assert outs[0].text == "▶ 第 2 輪開始，輪到 艾莉絲（行動力 6/6）"
    assert outs[0].notify == ("p1",)
    assert await table.text("p1", ".pass") == "（跳過：鮑伯（死亡））\n▶ 輪到 哥布林"
    assert await table.text("gm", ".init set 鮑伯 -死亡") == (
        "已更新：2. 鮑伯（我方）先攻 15｜行動力 2/6｜生命 10（GM 讓 鮑伯 起死回生）")


async def test_the_gm_sets_any_hp_within_its_maximum(table: Table) -> None:
    await started(table)
    assert await table.text("gm", ".init set 艾莉絲 hp=10") == (
        "已更新：▶1. 艾莉絲（我方）先攻 18｜行動力 6/6｜生命 10")
    assert "生命:10" in await table.text("p1", ".st")
    # never past the maximum (her 生命 when she joined), never below 0
    assert (await table.text("gm", ".init set 艾莉絲 hp=99")).endswith("｜生命 18（上限 18）")
    assert (await table.text("gm", ".init set 艾莉絲 hp=-5")).endswith("｜生命 0｜倒下（最低 0）")
    # players change their own sheet with .st; the fight's numbers are the GM's
    assert await table.text("p1", ".init set 艾莉絲 hp=18") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("p1", ".init set 艾莉絲 +隱形") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("p1", ".atk 哥布林 sneak") == (
        "⚠ sneak（偷襲）只有 GM 能用：偷襲由 GM 裁定。")
    # the GM's fighter: capped at what it entered with
    _, secret, _ = await gm_copy(table, "gm", ".init set 哥布林 hp=30")
    assert secret == "已更新：3. 哥布林（敵方）先攻 10｜行動力 6/6｜生命 12（上限 12）"


async def test_the_gms_numbers_stay_the_gms(table: Table) -> None:
    await started(table)
    assert await table.text("p1", ".def 哥布林") == "🛡 哥布林 的防禦數值只有 GM 看得到。"
    public, secret, _ = await gm_copy(table, "gm", ".def 哥布林")
    assert (public, secret) == ("🛡 哥布林 的防禦數值只有 GM 看得到。",
                                "🛡 哥布林 防禦 5：護甲2+閃避3+格擋0+招架0")
    outs = await table.say("p1", ".init")
    assert [o.to for o in outs] == ["channel"]
    assert outs[0].text.splitlines()[3] == "  3. 哥布林（敵方）先攻 10｜毫髮無傷"
    assert outs[0].data["fight"]["fighters"][2] == {
        "name": "哥布林", "side": "foe", "owner": None, "character_id": None,
        "initiative": 10, "revealed": False, "band": "unhurt"}
    # the GM reveals them with one command
    text, _ = await data(table, "gm", ".init reveal 哥布林")
    assert text == "GM 公開數值：📋 哥布林：生命 12/12、護甲 2、閃避 3、命中 3、破甲 1、火焰抗性 3"
    assert (await table.text("p1", ".init")).splitlines()[3] == (
        "  3. 哥布林（敵方）先攻 10｜行動力 6/6｜生命 12")
    assert await table.text("p1", ".def 哥布林") == "🛡 哥布林 防禦 5：護甲2+閃避3+格擋0+招架0"


async def test_a_hidden_gm_attack(table: Table) -> None:
    await started(table)
    await table.text("p1", ".pass")
    await table.text("p2", ".pass")
    outs = await table.say("gm", ".atk 艾莉絲 1d4 hidden", [12, 3])
    assert [(o.to, o.user) for o in outs] == [
        ("channel", None), ("private", "gm"), ("private", "p1")]
    # an attack, not a check; the GM gets the numbers; 艾莉絲's player learns she was
    # hit and how she stands, without 哥布林's hit or action points (issue 24 findings)
    assert outs[0].text == "⚔ 哥布林 暗中發動了一次攻擊。"
    assert outs[1].text.splitlines() == [
        "（暗中攻擊）⚔ 哥布林→艾莉絲：d20=12 +命中3+破甲1 = 16 ≥ 防禦 3 → 命中",
        "💥 1d4=[3]=3 → 艾莉絲 生命 18→15", "行動力 哥布林 6→3；艾莉絲 防禦反應 6→5"]
    assert outs[2].text.splitlines() == [
        "（暗中攻擊）⚔ 哥布林→艾莉絲：d20=12 → 命中", "💥 1d4=[3]=3 → 艾莉絲 生命 18→15",
        "艾莉絲 防禦反應 6→5"]
    assert await table.text("p1", ".atk 哥布林 hidden") == "⚠ hidden（暗中攻擊）只有 GM 能用。"


async def test_the_shared_init_words(table: Table) -> None:
    await prepare(table)
    assert await table.text("gm", ".init 開始") == "▶ 第 1 輪開始，輪到 艾莉絲（行動力 6/6）"
    assert await table.text("gm", ".init start") == "⚠ 戰鬥已經開始了（現在輪到 艾莉絲）。"
    assert (await table.text("p1", ".init list")).startswith("⚔ 第 1 輪，輪到 艾莉絲")
    assert await table.text("p1", ".init dance") == (
        "⚠ 用法：.init 加入(join) [+N|=N] / 新增(add) <名> … / 開始(start) / 下一位(next) / "
        "列表(list) / 設定(set) <名> … / 公開(reveal) <名> / 移除(remove) <名> / 結束(end)")
    # out of turn: refused naming whose turn it is
    assert await table.text("p2", ".atk 哥布林") == (
        "⚠ 標準動作只能在自己的回合用：現在輪到 艾莉絲。")
    assert await table.text("p2", ".pass") == (
        "⚠ 現在是 艾莉絲 的回合，只有 艾莉絲 的玩家或 GM 能結束。")
    assert await table.text("p2", ".init remove 哥布林") == (
        "⚠ 哥布林 是 GM 的角色：只有 GM 能讓 哥布林 離開戰鬥。")
    assert await table.text("gm", ".init remove 哥布林") == "哥布林 離開戰鬥。"
    # a player takes their own fighter out
    assert await table.text("p2", ".init remove 鮑伯") == "鮑伯 離開戰鬥。"
    assert (await table.text("gm", ".init 結束")).startswith("⚔ 戰鬥結束（共 1 輪）。")


async def test_every_number_named(table: Table) -> None:
    await started(table)
    # at 0 AP the defence lists what counts: armor only
    await table.text("gm", ".ap set 艾莉絲 0")
    assert await table.text("p1", ".def") == "🛡 艾莉絲 防禦 1：護甲1（僅護甲：行動力 0）"
    assert await table.text("p1", ".atk 哥布林 1d6 bludgeoning") == (
        "⚠ 看不懂「bludgeoning」：傷害骰如 1d8+2、傷害類型（鈍擊、穿刺、揮砍、火焰、寒冷、閃電、"
        "強酸、中毒、流血、音鳴、光耀、暗影、死蝕、混沌、心靈、力場、真實）、射擊/投擲、+2、"
        "adv/dis、opp、nodef、sneak、hidden、by=<名>。")
    usage = "用法：.ra <屬性> [DC] [+2] [adv|dis] [by=<名>]"
    for line in (".ra 運動 dc", ".ra 2 運動"):
        assert await table.text("p1", line) == (
            "⚠ 看不懂「運動」：屬性是 力量、敏捷、體質、智力、感知、魅力，DC 寫數字，修正寫 +2，"
            f"優劣勢寫 adv/dis。{usage}")
    assert await table.text("p1", ".ra 敏捷 1001") == "⚠ DC 1001 太大：最大 1000。"
    assert await table.text("p1", ".ra 敏捷 1000", [20]) == (
        "🎲 艾莉絲「敏捷」檢定：d20=20 敏捷+2 = 22 < DC 1000 → 失敗")
    assert await table.text("gm", ".dmg 哥布林 101d6") == "⚠ 一次最多擲 100 顆骰子（要求 101 顆）。"


async def test_help_lines_lead_with_their_usage(table: Table) -> None:
    await table.text("gm", ".system ap20+v6")
    lines = "\n".join(o.text for o in await table.say("p1", ".help all")).splitlines()
    mine = [line for line in lines if line.split(" — ")[0] in (
        ".init", ".ap", ".atk", ".save", ".ra", ".dc", ".def", ".dmg", ".pass", ".ri",
        ".place", ".face", ".pose", ".move", ".shove", ".map", ".fatigue")]
    assert len(mine) == 17
    assert not [line for line in mine if "AP-" in line or "V6-" in line]
    assert ".atk — 攻擊：.atk <目標> [1d8+2]" in "\n".join(mine)


async def test_an_enemys_turn_pings_the_gm_and_its_numbers_stay_the_gms(table: Table) -> None:
    """The second round's findings: nobody was pinged on an enemy's turn; the channel
    read an enemy's action points (``僅護甲：行動力 0``, `.ap set`, a spend) and its
    data carried them, with its tier, states, rolls and resistance."""
    await started(table)
    outs = await table.say("gm", ".ap set 哥布林 0")
    assert [(o.to, o.text) for o in outs] == [
        ("channel", "GM 調整了 哥布林 的行動力。"), ("private", "哥布林 的行動力設為 0（原 6）")]
    assert outs[0].data == {"kind": "ap20.ap", "name": "哥布林",
                            "ap": {"艾莉絲": [6, 6], "鮑伯": [6, 6]}}
    # armor only because 哥布林 has no action points: the GM reads why, the channel not
    outs = await table.say("p1", ".atk 哥布林 1d6 火焰", [8, 5])
    assert outs[0].text.splitlines()[:2] == [
        "⚔ 艾莉絲→哥布林：d20=8 +命中5+破甲1 = 14 → 命中", "💥 1d6=[5]=5 火焰 → 哥布林 受傷"]
    assert outs[1].text.splitlines()[0].endswith("≥ 防禦 2（僅護甲：行動力 0） → 命中")
    public = outs[0].data
    assert public is not None
    assert not {"defense", "reaction", "hp"} & set(public)
    assert "crit_threshold" not in public["check"]  # it would tell 哥布林's toughness
    assert public["damage"] == {"dice": [5], "crit": False, "rolled": 5, "type": "fire"}
    outs = await table.say("gm", ".dmg 哥布林 4 火焰")
    assert outs[0].text == "💥 4 火焰 → 哥布林 受傷"
    assert outs[0].data is not None and not {"resistance", "taken"} & set(outs[0].data)
    await table.text("gm", ".init set 哥布林 +隱匿")
    await table.text("p1", ".pass")
    outs = await table.say("p2", ".pass")
    assert outs[0].text == "▶ 輪到 哥布林"
    assert outs[0].notify == ("gm",)  # the GM plays it
    assert outs[0].data is not None and outs[0].data["turn"] == {
        "previous": "鮑伯", "current": "哥布林", "round": 1, "new_round": False,
        "skipped": []}
    assert outs[0].data["fight"]["fighters"][2] == {
        "name": "哥布林", "side": "foe", "owner": None, "character_id": None,
        "initiative": 10, "revealed": False, "band": "wounded"}
    assert (await table.text("p1", ".init")).splitlines()[3] == (
        "▶3. 哥布林（敵方）先攻 10｜受傷")  # no 隱匿: its states are the GM's too
    outs = await table.say("gm", ".ap 迅捷")
    assert [(o.to, o.text) for o in outs] == [
        ("channel", "哥布林：迅捷動作"), ("private", "哥布林：迅捷動作 −2 行動力 6→4")]
    assert outs[0].data == {"kind": "ap20.ap", "name": "哥布林", "action": "swift",
                            "ap": {"艾莉絲": [3, 6], "鮑伯": [6, 6]}}
    # a refusal is read in the channel too: it names the pool, not what is left
    short = "⚠ 哥布林 的行動力不夠做這個動作（還剩多少只有 GM 看得到：.ap）。"
    assert await table.text("gm", ".ap 戰技") == short
    await table.text("gm", ".ap set 哥布林 1")
    assert await table.text("gm", ".atk 艾莉絲 1d4") == short
    await table.text("gm", ".ap set 哥布林 4")
    # its checks: the die, the DC and the outcome, not its modifier or total
    outs = await table.say("gm", ".ra 15 by=哥布林", [14])
    assert [(o.to, o.text) for o in outs] == [
        ("channel", "🎲 哥布林「d20」檢定：d20=14，DC 15 → 失敗"),
        ("private", "🎲 哥布林「d20」檢定：d20=14 = 14 < DC 15 → 失敗")]
    assert outs[0].data is not None and not {"modifier", "total"} & set(outs[0].data)
    # a GM without a character rolls for the GM-run fighter whose turn it is, as `.atk`
    assert await table.text("gm", ".ra 15", [9]) == "🎲 哥布林「d20」檢定：d20=9，DC 15 → 失敗"
    # the GMs of the table are pinged when the enemy's turn comes by a fighter leaving
    await table.text("gm", ".pass")
    outs = await table.say("gm", ".init remove 艾莉絲")
    assert outs[0].text == "艾莉絲 離開戰鬥。\n▶ 輪到 鮑伯（行動力 6/6）"
    assert outs[0].notify == ("p2",)
    outs = await table.say("gm", ".init remove 鮑伯")
    assert outs[0].text == "鮑伯 離開戰鬥。\n▶ 輪到 哥布林" and outs[0].notify == ("gm",)


async def test_the_init_usage_names_the_verbs_in_the_readers_words(table: Table) -> None:
    await prepare(table)
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("p1", ".init dance") == (
        "⚠ 用法：.init 加入(join) [+N|=N] / 新增(add) <名> … / 开始(start) / 下一位(next) / "
        "列表(list) / 设定(set) <名> … / 公开(reveal) <名> / 移除(remove) <名> / 结束(end)")
    await table.text("gm", ".lang en")
    assert await table.text("p1", ".init dance") == (
        "⚠ Usage: .init join [+N|=N] / add <name> … / start / next / list / set <name> … / "
        "reveal <name> / remove <name> / end")


async def test_a_player_joining_after_an_enemy_carries_no_enemy_numbers(table: Table) -> None:
    """The play-test: a player's join answered with the whole fight's data, the GM's
    哥布林's numbers in it."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20")
    await table.text("gm", ".init add 哥布林 hp=12 護甲=2 init=10")
    await table.text("p1", ".pc new 艾莉絲")
    text, joined = await data(table, "p1", ".init join =18")
    assert text == "艾莉絲 加入戰鬥（我方）：先攻 18（指定），排第 1，行動力 6"
    assert joined["fight"]["fighters"][1] == {
        "name": "哥布林", "side": "foe", "owner": None, "character_id": None,
        "initiative": 10, "revealed": False, "band": "unhurt"}


async def test_the_one_acting_leaves_when_everyone_is_down(table: Table) -> None:
    """AP-1, found by a mutation survivor of `leave`: with every fighter down, removing
    the one whose turn it is used to keep the turn on the fighter just removed — the
    fight said it was still theirs and a second `.init remove` could not find them."""
    steps = [
        ("gm", ".gm"), ("gm", ".system ap20"),
        ("amy", ".pc new 艾莉絲"), ("amy", ".st 生命 10"),
        ("bob", ".pc new 鮑伯"), ("bob", ".st 生命 10"),
        ("amy", ".init join =15"), ("bob", ".init join =10"),
        ("gm", ".init add 哥布林 hp=12"), ("gm", ".init start"),
        ("gm", ".init set 鮑伯 hp=0"), ("gm", ".init set 哥布林 +死亡"),
        ("gm", ".init set 艾莉絲 hp=0"),
    ]
    for user, line in steps:
        await table.text(user, line, dice=[5])
    assert await table.text("gm", ".init next") == (
        "（跳過：鮑伯（倒下）、哥布林（死亡）、艾莉絲（倒下））\n"
        "▶ 第 2 輪開始，輪到 艾莉絲（行動力 6/6）")
    assert await table.text("gm", ".init remove 艾莉絲") == (
        "艾莉絲 離開戰鬥。\n（跳過：鮑伯（倒下）、哥布林（死亡））\n"
        "▶ 第 3 輪開始，輪到 鮑伯（行動力 6/6）")
    assert await table.text("gm", ".init") == (
        "⚔ 第 3 輪，輪到 鮑伯\n▶1. 鮑伯（我方）先攻 10｜行動力 6/6｜生命 0｜倒下\n"
        "  2. 哥布林（敵方）先攻 5｜死亡")
