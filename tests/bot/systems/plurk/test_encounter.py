"""Issue 24 at a plurk table: the fight on the encounter kit — the shared `.init` words,
the fallen (down, dead) who cannot act, the GM who sets or heals anyone, enemy numbers
that are the GM's, a silent secret check, the next actor pinged."""

from __future__ import annotations

import re

from bot.messages import Outgoing
from tests.bot.systems.plurk.test_battle import START_DICE, gm_copy, prepare, started, state
from tests.support import Table


def by_name(battle: dict[str, object]) -> dict[str, dict[str, object]]:
    return {c["name"]: c for c in battle["combatants"]}  # type: ignore[attr-defined,index]


async def test_init_speaks_the_shared_words_and_keeps_plurks_own(table: Table) -> None:
    await prepare(table)
    outs = await table.say("gm", ".init start", dice=START_DICE)
    assert outs[0].text.endswith("▶ 第 0 輪，輪到 Bob（BP 4/4）")
    assert outs[0].notify == ("p2",)  # the kit's ping: Bob's player
    nexted = (await table.say("p2", ".init next"))[0]
    assert nexted.text == "Bob 結束回合。\n▶ 第 0 輪，輪到 Ann（BP 5/5）"
    assert nexted.notify == ("p1",)
    assert (await table.text("p1", ".init 列表")).startswith("▶ 第 0 輪，輪到 Ann")
    assert await table.text("gm", ".init dance") == (
        "⚠ 用法：.init（或 .battle）加入(join) / 新增(add) / 開始(start) / 下一位(next) / "
        "列表(list) / 結束(end) / 移除(remove)，以及 離開(leave) / 跳過(skip) / 喚醒(wake) / "
        "設定(set) / 取回(retrieve)，詳見 .help battle")
    assert await table.text("gm", ".init 跳过") == \
        "gm 跳過了 Ann 的回合。\n▶ 第 0 輪，輪到 Ghoul"  # 简's spelling of plurk's own
    assert await table.text("gm", ".init wake") == "⚠ 用法：.init wake <名字>（GM：喚醒昏迷者）"
    assert await table.text("gm", ".init skip") == \
        "gm 跳過了 Ghoul 的回合。\n▶ 第 0 輪，輪到 Thug"
    assert (await table.text("gm", ".init end")).startswith("⚔ 戰鬥結束（共到第 0 輪）")


async def test_a_removed_fighter_frees_its_cell_at_once(table: Table) -> None:
    await started(table)
    await table.text("gm", ".place Bob A1")
    await table.text("gm", ".place Thug B2")
    assert await table.text("gm", ".init remove Thug") == "Thug 退出戰鬥。"
    assert (await table.text("p2", ".move B2")).startswith("Bob 從 A1 移動到 B2（1 格）。")


async def test_the_fallen_cannot_act_and_are_passed_over_with_their_state(
        table: Table) -> None:
    await started(table)
    await table.text("gm", ".init set Ann hp=0")
    assert await table.text("p1", ".ra 靈巧", dice=[]) == "⚠ Ann 已倒下，不能行動。"
    assert await table.text("p2", ".pass") == \
        "Bob 結束回合。\n▶ 第 0 輪，輪到 Ghoul（跳過：Ann（倒下））"
    # the dead: no target, no attacker, no heal by its player; marked in the order
    await table.text("gm", ".init set Thug dead")
    assert await table.text("gm", ".atk Thug 1d6", dice=[]) == "⚠ Thug 已死亡，不能成為目標。"
    assert await table.text("gm", ".dmg Bob 2 from=Thug") == "⚠ Thug 已死亡，不能行動。"
    shown = await table.say("gm", ".battle")
    assert shown[0].text.splitlines()[2:] == [
        "　2. Ann 先攻 15｜BP 5/5｜體力 0｜倒下",
        "▶3. Ghoul 先攻 15｜體力 毫髮無傷｜敵",  # an enemy's BP: the GM's
        "　4. Thug 先攻 5｜體力 死亡｜敵"]


async def test_an_accepted_fatal_event_kills_and_only_the_gm_brings_back(
        table: Table) -> None:
    await started(table)
    await table.text("gm", ".dmg Ann 12")
    assert (await table.text("p1", ".accept")).endswith("\n☠ Ann 死亡。")
    assert await table.text("p1", ".hp +5") == \
        "⚠ Ann 已在戰鬥中死亡：只有 GM 能讓 Ann 回來（.init set Ann alive hp=…）。"
    assert await table.text("gm", ".init set Ann hp=5") == \
        "⚠ Ann 已死亡：要讓 Ann 回來，GM 加上 alive（.init set Ann alive hp=…）。"
    assert await table.text("gm", ".init set Ann alive hp=20") == \
        "GM 救回了 Ann。\nAnn：體力 12（上限 12）"
    assert by_name(await state(table))["Ann"]["dead"] is False


async def test_the_gm_sets_and_heals_anyone_within_the_maximum(table: Table) -> None:
    await started(table)
    assert "只有本頻道的 GM" in await table.text("p1", ".init set Ann hp=10")
    await table.text("gm", ".dmg Ann 5")
    assert await table.text("p1", ".hp +99") == "Ann 的體力：7 → 12（上限 12）"  # the fight's
    outs = await table.say("gm", ".init set Ghoul hp=3")
    assert outs[0].text == "GM 調整了 Ghoul（重傷）。"
    assert gm_copy(outs).text == "Ghoul：體力 3（上限 15）"
    assert await table.text("gm", ".init set Ann max=10") == "Ann：體力 10（上限 10）"
    assert await table.text("gm", ".init set Ann hp=x") == \
        "⚠ 用法：.init set <名字> [hp=體力] [max=上限] [dead|alive]（GM）"


async def test_enemy_numbers_are_the_gms_and_one_command_reveals_them(table: Table) -> None:
    await prepare(table)
    assert await table.text("p1", ".enemy") == "敵人：\n・Ghoul\n・Thug"
    outs = await table.say("gm", ".enemy")
    assert outs[0].text == "敵人：\n・Ghoul\n・Thug"
    assert gm_copy(outs).text.splitlines()[1] == \
        "・Ghoul（敵方）靈巧 3 體質 0 體力 15 護甲 2 BP 4，非人形"
    await table.say("gm", ".battle start", dice=START_DICE)
    await table.say("gm", ".dmg Ghoul 10")
    assert await table.text("p1", ".enemy") == "敵人：\n・Ghoul（重傷）\n・Thug（毫髮無傷）"
    assert await table.text("p1", ".enemy Ghoul") == "敵人：\n・Ghoul（重傷）"
    assert gm_copy(await table.say("gm", ".enemy ghoul")).text == \
        "敵人：\n・Ghoul（敵方）靈巧 3 體質 0 體力 15 護甲 2 BP 4，非人形"
    assert await table.text("gm", ".enemy reveal Ghoul") == "\n".join([
        "📖 GM 公開敵人數值：", "・Ghoul（敵方）靈巧 3 體質 0 體力 15 護甲 2 BP 4，非人形",
        "Ghoul 現在 體力 7／15，護甲 2"])
    assert "只有本頻道的 GM" in await table.text("p1", ".enemy reveal Ghoul")


async def test_a_silent_secret_check_says_nothing_in_the_channel(table: Table) -> None:
    await prepare(table)
    await table.text("p1", ".st 觀察 4")
    outs: list[Outgoing] = await table.say("gm", ".secret Ann 觀察 silent", dice=[12])
    assert [(o.to, o.user) for o in outs] == [("private", "gm")]
    assert outs[0].text == "（秘密檢定）🎲 Ann「觀察」檢定：1d20=12 觀察+4 = 16 ≥ 閾值 11 → 成功"


async def test_the_gm_rolls_an_enemys_attack_hidden(table: Table) -> None:
    await started(table)
    assert await table.text("p2", ".atk Ghoul 1d6 hidden", dice=[]) == \
        "⚠ 暗中攻擊只有 GM 能為 GM 操控的參戰者擲；Bob 的攻擊在頻道擲。"
    await table.text("p2", ".pass")
    await table.text("p1", ".pass")
    outs = await table.say("gm", ".atk Bob 1d6 hidden", dice=[3])  # the ghoul's turn
    assert [(o.to, o.user) for o in outs] == \
        [("channel", None), ("private", "gm"), ("private", "p2")]
    assert outs[0].text == "⚔ Ghoul 暗中發動了一次攻擊。"
    assert outs[1].text == "（暗中攻擊）⚔ Ghoul 攻擊 Bob：傷害 1d6 = [3] = 3\n" \
        "Bob 受到 3 點傷害，體力 10 → 7\nGhoul：攻擊 花費 2 BP（4 → 2）"
    outs = await table.say("gm", ".atk Bob 1d6 hidden", dice=[1])  # BP 2 → 0: the turn passes
    assert outs[0].text == "⚔ Ghoul 暗中發動了一次攻擊。\nGhoul 的 BP 用完了。\n" \
        "▶ 第 0 輪，輪到 Thug"
    assert outs[0].notify == ("gm",)  # the next enemy's turn: its GM is pinged


async def test_the_map_legend_marks_the_fallen(table: Table) -> None:
    await started(table)
    await table.text("gm", ".place Ghoul D4")
    await table.text("gm", ".place Thug E4")
    await table.text("gm", ".init set Thug dead")
    await table.text("gm", ".init set Ghoul hp=0")
    board = (await table.text("p1", ".field")).splitlines()
    assert board[-2] == "圖例：g=Ghoul（倒下）@D4、†=Thug（死亡）@E4"
    assert board[5].split()[1:6] == [".", ".", ".", "g", "†"]  # row 4: the dead in its cell


async def test_a_player_removes_their_own_fighter_only(table: Table) -> None:
    await started(table)
    assert await table.text("p2", ".init remove Ann") == "⚠ 只有該角色的玩家或 GM 可以這麼做。"
    assert await table.text("p2", ".init remove Ghoul") == "⚠ 只有該角色的玩家或 GM 可以這麼做。"
    assert await table.text("p1", ".init remove Ann") == "Ann 退出戰鬥。"


async def test_a_knock_out_that_ends_on_its_lost_turn_is_named_down(table: Table) -> None:
    """Thug is out for 3D6 = 3 of its turns: the third skip ends the knock-out, and the
    line still names it down (as it was when passed over), not active."""
    await started(table)
    await table.say("p2", ".atk Thug 1d6 ko", dice=[5, 3, 1, 1, 1])
    for _ in range(3):
        await table.text("p2", ".pass")
        await table.text("p1", ".pass")
        assert (await table.text("gm", ".pass")).endswith("（跳過：Thug（倒下））")
    assert by_name(await state(table))["Thug"]["unconscious"] == 0


async def test_a_hit_on_an_enemy_that_ends_the_turn_pings_the_next_player(
        table: Table) -> None:
    """The channel's line of a hit on an enemy carries no numbers, not even in its data,
    and still pings the next actor's player when the attack spent the last BP."""
    await started(table)
    await table.text("gm", ".bp cost 攻擊 4")
    outs = await table.say("p2", ".atk Ghoul 1d6", dice=[5])  # Bob: BP 4 → 0
    assert outs[0].to == "channel" and outs[0].notify == ("p1",)
    assert outs[0].data == {"kind": "plurk.battle", "event": "attack"}
    assert outs[0].text.endswith("▶ 第 0 輪，輪到 Ann（BP 5/5）")


async def test_the_channels_data_keeps_no_enemy_number(table: Table) -> None:
    """Issue 24 item 4 and the secrets rule ("structured data on a channel message"):
    a player's `.init`, a pass and a hit carry each enemy's name and place only; the
    GM's private copy keeps its numbers; investigators' own numbers stay."""
    await started(table)
    for user, line in (("p1", ".init"), ("p2", ".pass"), ("p1", ".battle")):
        for out in await table.say(user, line):
            if out.to == "channel" and out.data and "battle" in out.data:
                fighters = by_name(out.data["battle"])
                assert fighters["Ghoul"] == {"name": "Ghoul", "kind": "enemy",
                                             "position": None, "owner": None}
                assert fighters["Thug"].keys() == {"name", "kind", "position", "owner"}
                assert fighters["Ann"]["hp"] == 12 and fighters["Ann"]["dex"] == 5
    assert by_name(await state(table))["Ghoul"]["hp"] == 15  # the GM's copy


def enemy_numbers(data: object, enemies: set[str]) -> list[str]:
    """Where channel data gives an enemy's numbers away: an enemy with more than its
    name, kind, place and player, or an enemy's action with its BP."""
    found: list[str] = []
    if isinstance(data, dict):
        if data.get("kind") == "enemy" and set(data) - {"name", "kind", "position", "owner"}:
            found.append(f"{data['name']}: {sorted(data)}")
        if data.get("actor") in enemies and {"bp_before", "bp_after"} & set(data):
            found.append(f"{data['actor']}'s BP")
        for value in data.values():
            found.extend(enemy_numbers(value, enemies))
    elif isinstance(data, list):
        for value in data:
            found.extend(enemy_numbers(value, enemies))
    return found


async def test_an_enemys_turn_pings_its_gm_and_the_channel_reads_no_enemy_number(
        table: Table) -> None:
    """Issue 24, the second play-test: an enemy's turn pinged nobody, and its BP (from its
    靈巧) stood in the channel's turn line, its spending and the data of its attack and
    of the fight's end. Every channel reply of a fight, text and data, names an enemy
    and its band only; the GM is pinged on an enemy's turn and reads its BP privately."""
    channel: list[Outgoing] = []

    async def say(user: str, line: str, dice: list[int] | None = None) -> list[Outgoing]:
        outs = await table.say(user, line, dice=dice)
        channel.extend(o for o in outs if o.to == "channel")
        return outs

    await prepare(table)
    await say("gm", ".init start", dice=START_DICE)
    await say("p2", ".pass")
    ghouls_turn = (await say("p1", ".pass"))[0]
    assert ghouls_turn.text == "Ann 結束回合。\n▶ 第 0 輪，輪到 Ghoul"
    assert ghouls_turn.notify == ("gm",)
    assert await table.text("p1", ".act 攻擊") == "⚠ 現在輪到 Ghoul，由 GM 行動。"
    attack = await say("gm", ".atk Bob 1d6", dice=[3])
    assert attack[0].text.splitlines()[-1] == "Ghoul：攻擊 花費 2 BP"
    assert gm_copy(attack).text == "Ghoul：攻擊 花費 2 BP（4 → 2）"
    assert attack[0].data is not None and attack[0].data["hit"]["hp_after"] == 7  # Bob's
    spent = await say("gm", ".act 移動 2")  # BP 2 → 0: Thug's turn, the GM pinged again
    assert spent[0].text == "Ghoul：移動 花費 2 BP\nGhoul 的 BP 用完了。\n▶ 第 0 輪，輪到 Thug"
    assert spent[0].notify == ("gm",)
    assert gm_copy(spent).text.startswith("Ghoul：移動 花費 2 BP（2 → 0）")
    listed = await say("gm", ".init")
    assert listed[0].text.splitlines()[0] == "▶ 第 0 輪，輪到 Thug"
    assert gm_copy(listed).text.splitlines()[0] == "▶ 第 0 輪，輪到 Thug（BP 3/3）"
    assert (await say("gm", ".pass"))[0].notify == ("p2",)  # a new round: Bob's
    await say("gm", ".init end")
    assert channel[-1].text.startswith("⚔ 戰鬥結束")
    leaks = [(o.text, enemy_numbers(o.data, {"Ghoul", "Thug"})) for o in channel]
    assert [leak for leak in leaks if leak[1]] == []
    numbered = re.compile(r"(Ghoul|Thug).*(BP \d|\d+ → \d+)")  # "BP 3/3", "(4 → 2)"
    assert [line for o in channel for line in o.text.splitlines() if numbered.search(line)] == []
