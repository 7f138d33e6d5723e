"""Issue 24 at a plurk table, the play-test's findings: `.st` within the fight's bounds,
a hidden attack the target's player learns of, enemy numbers kept from the channel,
the fallen passing their own turn, and the texts that name what they mean."""

from __future__ import annotations

from tests.bot.systems.plurk.test_battle import by_name, gm_copy, started, state
from tests.support import Table


async def test_st_keeps_the_fights_hp_cap_and_the_gm_only_revival(table: Table) -> None:
    await started(table)
    assert await table.text("p1", ".st 體力+100") == \
        "⚠ Ann 在這場戰鬥的體力上限是 12，不能設為 112。"
    assert await table.text("p1", ".st 體力 50") == \
        "⚠ Ann 在這場戰鬥的體力上限是 12，不能設為 50。"
    await table.text("gm", ".dmg Bob 30")
    await table.text("p2", ".accept")
    assert await table.text("p2", ".st 體力 10") == \
        "⚠ Bob 已在戰鬥中死亡：只有 GM 能讓 Bob 回來（.init set Bob alive hp=…）。"
    fighters = by_name(await state(table))
    assert (fighters["Ann"]["hp"], fighters["Bob"]["hp"]) == (12, 0)


async def test_a_hidden_hit_tells_the_targets_player_and_the_fatal_choice(table: Table) -> None:
    await started(table)
    await table.text("p2", ".pass")
    await table.text("p1", ".pass")
    outs = await table.say("gm", ".atk Bob 1d6 hidden", dice=[3])  # the ghoul's turn
    assert outs[0].text == "⚔ Ghoul 暗中發動了一次攻擊。"
    assert outs[-1].to == "private" and outs[-1].user == "p2"
    assert outs[-1].text == "⚔ Ghoul 暗中攻擊了 Bob，命中：\nBob 受到 3 點傷害，體力 10 → 7"
    await table.text("gm", ".init set Bob hp=2")
    outs = await table.say("gm", ".atk Bob 1d6 hidden", dice=[5])
    assert (outs[-1].user, outs[-1].text) == ("p2", "\n".join([  # no dice, no hit check
        "⚔ Ghoul 暗中攻擊了 Bob，命中：", "Bob 受到 5 點傷害，足以致命：",
        "☠ 致命事件 #1：Bob 的體力將從 2 降到 0（損失 5），尚未套用。",
        "Bob 只有 0 點因果點數（需持有 10 點以上且付得起 5 點），無法常世干預；"
        "請 .accept 承受（GM 也可代為決定）。"]))


async def test_a_dead_target_is_refused_as_a_target(table: Table) -> None:
    await started(table)
    await table.text("gm", ".init set Thug dead")
    assert await table.text("p2", ".atk Thug 1d6", dice=[]) == "⚠ Thug 已死亡，不能成為目標。"


async def test_a_knock_out_on_the_unconscious_rolls_no_new_check(table: Table) -> None:
    await started(table)
    await table.say("p2", ".atk Thug 1d6 ko", dice=[5, 3, 2, 3, 4])  # out for 9 turns
    outs = await table.say("p2", ".atk Thug 1d6 ko", dice=[6])  # no 體質 d20, no 3D6
    assert outs[0].text.splitlines()[1] == \
        "擊昏：Thug 已經昏迷，不再檢定體質，仍昏迷（還要跳過 9 次），造成 1 點傷害"
    assert by_name(await state(table))["Thug"]["unconscious"] == 9


async def test_an_enemy_needs_hp_and_its_definition_reads_without_a_bullet(
        table: Table) -> None:
    await table.text("gm", ".gm")
    assert await table.text("gm", ".enemy add 鬼") == \
        "⚠ 鬼 需要體力：用法 .enemy add 鬼 靈巧=… hp=N（GM 之後可用 .init set 鬼 hp=N 調整）"
    outs = await table.say("gm", ".enemy add 鬼 hp=5")
    assert gm_copy(outs).text == "已定義敵人：鬼（敵方）靈巧 0 體質 0 體力 5 護甲 0 BP 3，非人形"


async def test_a_capped_heal_says_the_cap_and_a_pending_event_is_named(table: Table) -> None:
    await started(table)
    assert await table.text("p1", ".hp =50") == "Ann 的體力：12 → 12（上限 12）"
    await table.text("gm", ".dmg Ann 12")  # fatal event #1, pending
    assert await table.text("p1", ".hp +5") == "\n".join([
        "Ann 的體力：12 → 12（上限 12）",
        "Ann 的致命事件 #1 仍待處理：.accept 承受或 .intervene 干預（.fatal 查看）。"])
    # the second play-test: a bare `.hp` read 12 while the fight read Ann down at 0
    assert await table.text("p1", ".hp") == "\n".join([
        "Ann 的體力：12",
        "Ann 的致命事件 #1 仍待處理：.accept 承受或 .intervene 干預（.fatal 查看）。"])
    said = await table.text("gm", ".init set Ann hp=4")
    assert said.splitlines()[0] == "Ann：體力 4（上限 12）"
    assert said.splitlines()[1].startswith("⌛ 致命事件 #1 已失效")


async def test_who_falls_on_their_own_turn_passes_it_and_the_next_is_pinged(
        table: Table) -> None:
    await started(table)  # Bob's turn
    await table.text("p2", ".hp -30")  # a fatal event: nothing changes until settled
    outs = await table.say("p2", ".accept")
    assert outs[0].text.splitlines()[-2:] == [
        "☠ Bob 死亡。", "▶ 第 0 輪，輪到 Ann（BP 5/5）（跳過：Bob（死亡））"]
    assert outs[0].notify == ("p1",)
    outs = await table.say("gm", ".dmg Ann 5")  # not down: her turn stays
    assert "▶" not in outs[0].text
    outs = await table.say("gm", ".init set Ann hp=0")  # down on her own turn
    assert outs[0].text.splitlines()[-1] == "▶ 第 0 輪，輪到 Ghoul（跳過：Ann（倒下））"
    assert outs[0].notify == ("gm",)  # an enemy's turn pings the GM who plays it


async def test_atk_names_its_hit_check_options_and_what_was_wrong(table: Table) -> None:
    await started(table)  # Bob's turn
    assert await table.text("p2", ".atk Ghoul 1d6+2 >=12", dice=[]) == (
        "⚠ 「>=閾值」要配一個命中檢定：寫出戰鬥技能（武器+2 >=13）或 hit=+N（hit=+2 >=13）。")
    assert await table.text("p2", ".atk Ghoul 普通攻擊 1d6", dice=[]) == (
        "⚠ 看不懂「1d6」：傷害骰緊接在目標後面，命中檢定的技能（武器+2）、>=閾值、hit= "
        "寫在傷害骰之後，例如 .atk 食屍鬼 1d6+2 武器+2 >=13。")
    assert "[戰鬥技能±N] [>=閾值] [hit=±N]" in await table.text("p2", ".atk Ghoul", dice=[])
