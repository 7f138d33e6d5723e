"""Referee powers only for a GM who does not play (issue 22 items 3 and 4), through a real
Core on SQLite with scripted dice.

In a jianshou game `.js kick`, `.js reset` of a running game and `.duel pass` are a
referee's: a GM of the channel who is not seated in that game. Without one, a kick
needs every other seated player (at least two) to type it, a reset everyone seated,
and nobody passes for another player. A seated player who takes the GM seat mid-game
(`.gm`, or `.gm add`) stays a player of that game.

Every system: in a channel without GMs a player still acts only for their own character
(plurk `.hp/.sc/.op/.fate/.dmg`, ace `.next`/`.init del`, ap20 `.init next/set`, v6
`.place`); GM-run combatants stay everyone's there.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.core import Core
from bot.messages import Outgoing
from tests.orm import ChannelState, Character, CharacterState, sessions
from tests.support import Table

SEEDS = [11, 22, 33]


async def seated(table: Table, players: tuple[str, ...] = ("alice", "bob", "carol"),
                 gm: bool = False) -> list[Outgoing]:
    """A jianshou game dealt from the sample deck, everyone kept, the first player by a
    die of 1 (alice); with ``gm`` a GM ``gm`` who does not play."""
    if gm:
        await table.text("gm", ".gm")
    await table.text("gm" if gm else players[0], ".system jianshou")
    for user in players:
        await table.text(user, ".js join")
    await table.say("gm" if gm else players[0], ".js start", dice=SEEDS[: len(players)])
    for user in players[:-1]:
        await table.say(user, ".keep")
    return await table.say(players[-1], ".keep", dice=[1])


async def stored(core: Core) -> dict[str, Any]:
    """The stored ``jianshou.game`` document: the game and the pending agreements."""
    async with sessions(core) as session:
        rows = {row.key: row.data for row in await session.scalars(select(ChannelState))}
    return rows["jianshou.game"]


async def game(core: Core) -> dict[str, Any]:
    return (await stored(core))["game"]


def standing(state: dict[str, Any]) -> dict[str, str]:
    return {p["user"]: p["defeated"] for p in state["players"]}


async def a_duel(table: Table) -> None:
    """alice and bob end their turns; carol attacks alice (awaited: alice's defense)."""
    await table.say("alice", ".end 1")
    await table.say("bob", ".end 1")
    await table.say("carol", ".practise 寒江刀")
    await table.say("carol", ".attack alice 寒江刀")


# --------------------------------------------------------------------------- kick


async def test_without_a_gm_a_kick_needs_every_other_seated_player(table: Table) -> None:
    await seated(table)
    outs = await table.say("alice", ".js kick bob")
    assert [o.text for o in outs] == [
        "🗳 alice 同意踢出 bob：還需 1 人同意（carol，各自輸入同一指令）。"]
    assert outs[0].data == {"kind": "jianshou.agree", "motion": "kick", "target": "bob",
                            "agreed": ["alice"], "missing": ["carol"]}
    assert standing(await game(table.core)) == {"alice": "", "bob": "", "carol": ""}
    # typing it again counts once
    assert (await table.text("alice", ".js kick bob")).startswith("🗳 alice 同意踢出 bob：還需 1 人")
    outs = await table.say("carol", ".js kick @bob")
    assert outs[0].text == "🚪 bob 經 alice、carol 同意，被踢出這局。"  # a kick, not "resigns"
    assert outs[0].data["kind"] == "jianshou.kick"
    assert outs[0].data["by"] == ["alice", "carol"]
    assert standing(await game(table.core)) == {"alice": "", "bob": "resigned", "carol": ""}


NEEDS_REFEREE = ("⚠ 踢人要其他還在局中的玩家全員同意、且至少兩人，而除了對方只剩你："
                 "需要一位不在這局的 GM。")


async def test_an_agreement_survives_the_other_players_moves(table: Table) -> None:
    """A move by someone else changes nothing about the kick: alice's agreement stands
    (it used to be forgotten at her next move)."""
    await seated(table)
    await table.say("alice", ".js kick bob")
    assert await table.text("alice", ".meditate") == "🧘 alice 打坐：內力 +1 → 3。"
    assert await table.text("carol", ".js kick bob") == "🚪 bob 經 alice、carol 同意，被踢出這局。"
    assert standing(await game(table.core))["bob"] == "resigned"


async def test_a_reset_agreement_survives_a_move(table: Table) -> None:
    await seated(table)
    assert await table.text("bob", ".js reset") == \
        "🗳 bob 同意重置這局：還需 2 人同意（alice、carol，各自輸入 .js reset）。"
    assert await table.text("alice", ".meditate") == "🧘 alice 打坐：內力 +1 → 3。"
    assert await table.text("carol", ".js reset") == \
        "🗳 carol 同意重置這局：還需 1 人同意（alice，各自輸入 .js reset）。"


async def test_a_kick_is_void_once_its_target_makes_a_move(table: Table) -> None:
    """bob is not absent after all: the agreement to kick him is dropped, and the reply
    of his move says so; the reset agreement (not about him) stands."""
    await seated(table)
    await table.say("alice", ".js kick bob")
    await table.say("alice", ".js reset")
    await table.say("alice", ".end 1")
    assert await table.text("bob", ".meditate") == \
        "🧘 bob 打坐：內力 +1 → 3。\n🗳 bob 還在場：踢出 bob 的同意作廢。"
    assert await table.text("carol", ".js kick bob") == \
        "🗳 carol 同意踢出 bob：還需 1 人同意（alice，各自輸入同一指令）。"
    assert await table.text("carol", ".js reset") == \
        "🗳 carol 同意重置這局：還需 1 人同意（bob，各自輸入 .js reset）。"


async def test_agreements_are_void_when_the_players_in_the_game_change(table: Table) -> None:
    await seated(table)
    await table.say("alice", ".js reset")
    await table.say("bob", ".js reset")
    await table.say("alice", ".js kick bob")
    assert await table.text("carol", ".js leave") == (
        "🏳 carol 認輸退出。\n"
        "🗳 在局的玩家變了：未完成的同意作廢（重置、踢出 bob），要的話請重新輸入。")
    assert (await stored(table.core))["agreed"] == {}
    assert await table.text("alice", ".js reset") == \
        "🗳 alice 同意重置這局：還需 1 人同意（bob，各自輸入 .js reset）。"


async def test_agreements_are_void_when_the_game_ends(table: Table) -> None:
    await seated(table, ("alice", "bob"))
    await table.say("alice", ".js reset")
    assert await table.text("bob", ".js leave") == (
        "🏳 bob 認輸退出。\n🏆 勝者：alice！（.js reset 再來一局）\n"
        "🗳 這局已不在進行：未完成的同意作廢（重置）。")


async def test_a_defeated_player_is_not_kicked_again_and_no_longer_votes(
        table: Table) -> None:
    """carol is out: a kick of her is refused (the agreement to kick her went quietly
    with her), she has no say, and a reset waits only for alice and bob; with two
    left, neither may kick the other without a referee."""
    await seated(table)
    await table.say("alice", ".js kick carol")
    assert await table.text("carol", ".js leave") == "🏳 carol 認輸退出。"
    assert await table.text("bob", ".js kick carol") == "⚠ carol 已經敗北。"
    out_of_it = "⚠ 你已不在這局中：由還在局中的玩家（或不在這局的 GM）決定。"
    assert await table.text("carol", ".js reset") == out_of_it
    assert await table.text("carol", ".js kick bob") == out_of_it
    assert await table.text("alice", ".js kick bob") == NEEDS_REFEREE
    assert await table.text("alice", ".js reset") == \
        "🗳 alice 同意重置這局：還需 1 人同意（bob，各自輸入 .js reset）。"
    assert await table.text("bob", ".js reset") == "🔄 牌桌重置，3 人仍在席；.js start 再開一局。"


async def test_two_players_cannot_kick_each_other_without_a_referee(table: Table) -> None:
    await seated(table, ("alice", "bob"))
    before = await game(table.core)
    assert await table.text("alice", ".js kick bob") == NEEDS_REFEREE
    assert await game(table.core) == before


async def test_a_resignation_that_ends_the_game_names_the_winner_once(table: Table) -> None:
    await seated(table, ("alice", "bob"))
    assert await table.text("bob", ".js leave") == \
        "🏳 bob 認輸退出。\n🏆 勝者：alice！（.js reset 再來一局）"


async def test_a_referees_kick_is_told_as_one_and_names_the_winner_once(
        table: Table) -> None:
    await seated(table, ("alice", "bob"), gm=True)
    await table.text("gm", ".lang en")
    outs = await table.say("gm", ".js kick bob")
    assert [o.text for o in outs] == [
        "🚪 bob is kicked out of this game by the GM gm.\n"
        "🏆 Winner: alice! (.js reset for another game)"]
    assert outs[0].data["kind"] == "jianshou.kick" and outs[0].data["by"] == ["gm"]


async def test_someone_who_neither_plays_nor_referees_may_not_kick(table: Table) -> None:
    await seated(table)
    assert await table.text("dave", ".js kick bob") == \
        "⚠ 只有不在這局的 GM，或還在局中的玩家全員同意，才能這麼做。"


async def test_a_gm_who_does_not_play_kicks_at_once(table: Table) -> None:
    await seated(table, gm=True)
    assert await table.text("gm", ".js kick bob") == "🚪 bob 被 GM gm 踢出這局。"
    assert await table.text("gm", ".js kick bob") == "⚠ bob 已經敗北。"


# --------------------------------------------------------------------------- reset


async def test_without_a_gm_a_running_game_is_reset_by_everyone_seated(table: Table) -> None:
    await seated(table)
    assert await table.text("alice", ".js reset") == \
        "🗳 alice 同意重置這局：還需 2 人同意（bob、carol，各自輸入 .js reset）。"
    assert await table.text("bob", ".js reset") == \
        "🗳 bob 同意重置這局：還需 1 人同意（carol，各自輸入 .js reset）。"
    assert (await game(table.core))["status"] == "play"
    assert await table.text("carol", ".js reset") == \
        "🔄 牌桌重置，3 人仍在席；.js start 再開一局。"
    state = await game(table.core)
    assert state["status"] == "lobby" and "agreed" not in state


async def test_a_finished_game_is_reset_by_any_player_without_a_gm(table: Table) -> None:
    await seated(table, ("alice", "bob"))
    await table.say("bob", ".js leave")  # bob resigns: alice wins
    assert await table.text("bob", ".js reset") == \
        "🔄 牌桌重置，2 人仍在席；.js start 再開一局。"


# --------------------------------------------------------------------------- pass


async def test_nobody_seated_passes_for_another_player(table: Table) -> None:
    """carol attacks alice: carol's `.duel pass` for alice would be a sure hit, and the
    reply said "GM 代 alice 略過" with no GM at the table."""
    await seated(table)
    await a_duel(table)
    before = await game(table.core)
    assert await table.text("carol", ".duel pass") == \
        "⚠ 只有不在這局的 GM 能代人略過；在席的玩家不能替別人作答。"
    assert await table.text("bob", ".duel pass") == \
        "⚠ 只有不在這局的 GM 能代人略過；在席的玩家不能替別人作答。"
    assert await game(table.core) == before


async def test_the_awaited_player_is_pointed_to_her_own_no(table: Table) -> None:
    """alice is the one the duel waits for: `.duel pass` is not hers, `.defend no` /
    `.evade no` is (she used to be told a seated player cannot answer for another)."""
    await seated(table)
    await a_duel(table)
    assert await table.text("alice", ".duel pass") == "⚠ 現在等的就是你：要略過就輸入 .defend no。"
    await table.say("alice", ".defend no")
    assert await table.text("alice", ".duel pass") == "⚠ 現在等的就是你：要略過就輸入 .evade no。"


async def test_a_gm_who_does_not_play_passes_for_the_awaited_player(table: Table) -> None:
    await seated(table, gm=True)
    await a_duel(table)
    outs = await table.say("gm", ".duel pass")
    assert outs[0].text.splitlines()[:2] == ["（GM 代 alice 略過）", "alice 不防禦。"]


# ------------------------------------------------------------------ a player who becomes GM


async def test_a_seated_player_who_claims_the_gm_seat_stays_a_player(table: Table) -> None:
    await seated(table)
    await a_duel(table)
    assert await table.text("carol", ".gm") == "carol 成為本頻道的 GM。"
    before = await game(table.core)
    assert await table.text("carol", ".duel pass") == \
        "⚠ 只有不在這局的 GM 能代人略過；在席的玩家不能替別人作答。"
    assert await table.text("carol", ".js kick alice") == \
        "🗳 carol 同意踢出 alice：還需 1 人同意（bob，各自輸入同一指令）。"
    assert await table.text("carol", ".js reset") == \
        "🗳 carol 同意重置這局：還需 2 人同意（alice、bob，各自輸入 .js reset）。"
    assert standing(await game(table.core)) == standing(before)


async def test_a_seated_player_added_as_gm_stays_a_player(table: Table) -> None:
    await seated(table, gm=True)
    await a_duel(table)
    await table.text("gm", ".gm add carol")
    assert await table.text("carol", ".duel pass") == \
        "⚠ 只有不在這局的 GM 能代人略過；在席的玩家不能替別人作答。"
    assert (await table.text("carol", ".js kick alice")).startswith("🗳 carol 同意踢出 alice")
    assert standing(await game(table.core))["alice"] == ""


# --------------------------------------------------------------------------- every system
# A channel without GMs is run by everyone for its settings, but a player's character is
# only its player's (or a GM's) to act for (docs/decisions.md, "Who may act for others").

NOT_YOURS = "⚠ 只有該角色的玩家或 GM 可以這麼做。"


async def test_plurk_without_a_gm_a_player_cannot_act_for_anothers_investigator(
        table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 觀察 5 體力 10 理智 50")
    await table.text("bob", ".pc new 鮑伯")
    await table.text("bob", ".st 觀察 2 體力 8 理智 40")
    assert await table.text("alice", ".hp -5 @bob") == NOT_YOURS
    assert await table.text("alice", ".sc 1/1d6 鮑伯", dice=[]) == NOT_YOURS
    assert await table.text("alice", ".op 觀察 @bob vs 3", dice=[]) == NOT_YOURS
    assert await table.text("bob", ".hp") == "鮑伯 的體力：8"
    await table.say("bob", ".ra 觀察", dice=[20])  # a crit: a fate check may follow (PL-4)
    assert await table.text("alice", ".fate @bob roll", dice=[]) == NOT_YOURS
    # reading a sheet is no act: still anyone's where there is no GM
    assert await table.text("alice", ".st show @bob") == "鮑伯：技能 觀察:2｜資源 體力:8 理智:40"


async def _ace_pair(table: Table, alices_skill: str, bobs_skill: str) -> None:
    """An ace table without a GM: alice plays 艾莉絲, bob 鮑伯, each with one skill."""
    await table.text("alice", ".system ace")
    for user, name, stats in (("alice", "艾莉絲", f".st 力量6 敏捷5 體質5 精神力5 {alices_skill}"),
                              ("bob", "鮑伯", f".st 力量7 敏捷4 體質6 精神力4 {bobs_skill}")):
        await table.text(user, f".pc new {name}")
        await table.text(user, stats)


async def test_ace_without_a_gm_a_player_cannot_act_for_anothers_character(
        table: Table) -> None:
    await _ace_pair(table, "基本近戰2", "基本擒拿2")
    await table.say("alice", ".ri", [10])
    await table.say("bob", ".ri", [2])
    await table.text("alice", ".init start")  # 艾莉絲 15, 鮑伯 6
    await table.text("alice", ".next")  # her own turn ends: 鮑伯's
    assert await table.text("alice", ".next") == "⚠ 現在是 鮑伯 的回合，只有其玩家或 GM 能結束它。"
    assert await table.text("alice", ".init del 鮑伯") == NOT_YOURS


async def test_ap20_without_a_gm_a_player_cannot_end_anothers_turn(table: Table) -> None:
    await table.text("p1", ".system ap20")
    for user, name, init in (("p1", "艾莉絲", 18), ("p2", "鮑伯", 15)):
        await table.text(user, f".pc new {name}")
        await table.text(user, ".st 敏捷 12 命中 4 生命 20")
        await table.text(user, f".init join ={init}")
    await table.text("p1", ".init next")  # round 1: 艾莉絲
    assert await table.text("p2", ".init next") == \
        "⚠ 現在是 艾莉絲 的回合，只有 艾莉絲 的玩家或 GM 能結束。"
    assert await table.text("p2", ".init set 艾莉絲 +失能") == \
        "⚠ 只有 艾莉絲 的玩家或 GM 能替 艾莉絲 行動。"


async def test_v6_without_a_gm_a_player_cannot_place_anothers_combatant(table: Table) -> None:
    await table.text("p1", ".system ap20+v6")
    for user, name, init in (("p1", "艾莉絲", 18), ("p2", "鮑伯", 15)):
        await table.text(user, f".pc new {name}")
        await table.text(user, ".st 命中 4 生命 20")
        await table.text(user, f".init join ={init}")
    assert await table.text("p2", ".place 艾莉絲 A1") == \
        "⚠ 只有 艾莉絲 的玩家或 GM 能替 艾莉絲 行動。"
    assert (await table.text("p2", ".place 鮑伯 E4")).startswith("📍")


async def _plurk_battle_without_a_gm(table: Table) -> None:
    """A plurk battle at a table without a GM: p1's Ann, p2's Bob and the enemy Ghoul."""
    for user, name, stats in (("p1", "Ann", ".st 靈巧 5 體質 3 體力 12"),
                              ("p2", "Bob", ".st 靈巧 2 體質 1 體力 10")):
        await table.text(user, f".pc new {name}")
        await table.text(user, stats)
        await table.text(user, ".battle join")
    await table.text("p1", ".enemy add Ghoul 靈巧=3 hp=15 armor=2")
    await table.say("p1", ".battle start", dice=[10, 13, 12, 4, 8, 8, 3, 2, 9])


async def test_plurk_without_a_gm_raw_damage_hits_only_gm_run_or_own(table: Table) -> None:
    await _plurk_battle_without_a_gm(table)
    assert await table.text("p1", ".dmg Bob 5") == NOT_YOURS
    assert (await table.text("p1", ".dmg Ghoul 5")).startswith("💥")


# --------------------------------------------------------------------------- GM tools on another
# A GM tool that changes a player's character or resources (CP, AP, marks, damage, a forced
# move, fatigue, a seat in the battle) is, in a channel without GMs, only that player's;
# a GM's in any channel; GM-run combatants stay everyone's there.


async def snapshot(core: Core) -> dict[str, Any]:
    """Everything a refused command must leave as it was: the table's documents, the
    characters' documents (an ace mark) and sheets."""
    async with sessions(core) as session:
        return {
            "table": {row.key: row.data for row in await session.scalars(select(ChannelState))},
            "characters": {(row.character_id, row.key): row.data
                           for row in await session.scalars(select(CharacterState))},
            "sheets": {row.name: row.stats for row in await session.scalars(select(Character))},
        }


async def test_plurk_without_a_gm_a_player_awards_cp_only_to_their_own(table: Table) -> None:
    for user, name in (("alice", "艾莉絲"), ("bob", "鮑伯")):
        await table.text(user, f".pc new {name}")
        await table.text(user, ".st 因果點數 10")
    before = await snapshot(table.core)
    assert await table.text("alice", ".cp award @bob -5") == NOT_YOURS
    assert await table.text("alice", ".cp award 鮑伯 5") == NOT_YOURS
    assert await snapshot(table.core) == before
    # a player's own investigator stays theirs; a GM awards anyone's
    assert await table.text("alice", ".cp award 艾莉絲 1") == "艾莉絲 的因果點數 +1：10 → 11"
    assert await table.text("bob", ".cp award @bob -2") == "鮑伯 的因果點數 -2：10 → 8"
    await table.text("gm", ".gm")
    assert await table.text("gm", ".cp award @bob 3") == "鮑伯 的因果點數 +3：8 → 11"


async def test_plurk_without_a_gm_a_players_combatant_is_their_own(table: Table) -> None:
    await _plurk_battle_without_a_gm(table)
    assert (await table.text("p1", ".battle")).splitlines()[:2] == [
        "▶ 第 0 輪，輪到 Bob（BP 4/4）", "▶1. Bob 先攻 15｜BP 4/4｜體力 10"]
    before = await snapshot(table.core)
    assert await table.text("p1", ".battle skip") == \
        "⚠ 現在輪到 Bob，只有 Bob 的玩家或 GM 可以行動。"
    for command in (".bp max Bob 0", ".place Bob A1", ".battle remove Bob",
                    ".battle wake Bob", ".battle retrieve Bob"):
        assert await table.text("p1", command) == NOT_YOURS, command
    assert await snapshot(table.core) == before
    # the player changes their own; a GM-run combatant is everyone's
    assert await table.text("p2", ".bp max Bob 3") == "Bob 的 BP 上限改為 3（目前 3）。"
    assert (await table.text("p1", ".place Ghoul B1")).startswith("Ghoul 放在 B1。")
    assert await table.text("p2", ".battle skip") == \
        "p2 跳過了 Bob 的回合。\n▶ 第 0 輪，輪到 Ghoul（BP 4/4）"
    assert await table.text("p1", ".battle skip") == \
        "p1 跳過了 Ghoul 的回合。\n▶ 第 0 輪，輪到 Ann（BP 5/5）"
    assert await table.text("p2", ".battle remove Bob") == "Bob 退出戰鬥。"
    # whether to fight is the player's call
    assert await table.text("p1", ".battle add @p2") == NOT_YOURS
    assert (await table.text("p2", ".battle add @p2", dice=[18])).startswith(
        "加入戰鬥：1. Bob 20（d20=18 靈巧+2）")
    await table.text("gm", ".gm")
    assert await table.text("gm", ".bp max Bob 2") == "Bob 的 BP 上限改為 2（目前 2）。"
    assert await table.text("gm", ".battle remove Bob") == "Bob 退出戰鬥。"


async def _ap20_pair(table: Table, system: str, stats: str) -> None:
    """A table without a GM where p1 plays 艾莉絲 (initiative 18) and p2 鮑伯 (15), both
    with ``stats``, in the fight."""
    await table.text("p1", f".system {system}")
    for user, name, init in (("p1", "艾莉絲", 18), ("p2", "鮑伯", 15)):
        await table.text(user, f".pc new {name}")
        await table.text(user, stats)
        await table.text(user, f".init join ={init}")


async def test_ap20_v6_without_a_gm_a_players_fighter_is_their_own(table: Table) -> None:
    await _ap20_pair(table, "ap20+v6", ".st 命中 4 生命 20 敏捷 12")
    await table.text("p1", ".place 艾莉絲 A1")
    await table.text("p1", ".init add 哥布林 hp=12 init=3")
    await table.text("p1", ".place 哥布林 C3")
    before = await snapshot(table.core)
    for command in (".ap set 艾莉絲 0", ".dmg 艾莉絲 5", ".shove 艾莉絲 C1",
                    ".fatigue 艾莉絲 5"):
        assert await table.text("p2", command) == \
            "⚠ 只有 艾莉絲 的玩家或 GM 能替 艾莉絲 行動。", command
    assert await table.text("p2", ".init remove 艾莉絲") == (
        "⚠ 只有 艾莉絲 的玩家或 GM 能讓 艾莉絲 離開戰鬥。")
    assert await snapshot(table.core) == before
    # the player for their own fighter, anyone for a GM-run one, a GM for everyone's
    assert await table.text("p1", ".ap set 艾莉絲 2") == "艾莉絲 的行動力設為 2（原 6）"
    assert await table.text("p1", ".dmg 艾莉絲 1") == "💥 1 → 艾莉絲 生命 20→19"
    assert await table.text("p1", ".shove 艾莉絲 B1") == "艾莉絲 被迫移動 A1→B1（1 步，不花疲勞）"
    assert await table.text("p1", ".fatigue 艾莉絲 2") == "艾莉絲 的疲勞 0→2"
    assert await table.text("p2", ".ap set 哥布林 1") == "哥布林 的行動力設為 1（原 6）"
    assert await table.text("p2", ".dmg 哥布林 3") == "💥 3 → 哥布林 生命 12→9"
    assert await table.text("p2", ".shove 哥布林 C5") == "哥布林 被迫移動 C3→C5（2 步，不花疲勞）"
    assert await table.text("p2", ".fatigue 哥布林 1") == "哥布林 的疲勞 0→1"
    assert await table.text("p2", ".init remove 哥布林") == "哥布林 離開戰鬥。"
    await table.text("gm", ".gm")
    assert await table.text("gm", ".ap set 艾莉絲 1") == "艾莉絲 的行動力設為 1（原 2）"
    assert await table.text("gm", ".dmg 艾莉絲 2") == "💥 2 → 艾莉絲 生命 19→17"
    assert await table.text("gm", ".shove 艾莉絲 A1") == "艾莉絲 被迫移動 B1→A1（1 步，不花疲勞）"
    assert await table.text("gm", ".fatigue 艾莉絲 0") == "艾莉絲 的疲勞 2→0"
    assert await table.text("gm", ".init remove 艾莉絲") == "艾莉絲 離開戰鬥。"


async def test_ace_without_a_gm_a_players_mark_hp_and_condition_are_their_own(
        table: Table) -> None:
    await _ace_pair(table, "機械2", "機械1")
    await table.text("alice", ".enemy add 狼人 力量8 敏捷6 體質7 精神力3")
    await table.text("bob", ".ext new 修車 dc5")
    await table.text("bob", ".ext 修車 機械", dice=[8])
    before = await snapshot(table.core)
    for command in (".mark level 3 鮑伯", ".mark kills +1 @bob", ".dmg 鮑伯 12",
                    ".cond 鮑伯 睡眠"):
        assert await table.text("alice", command) == NOT_YOURS, command
    for command in (".ext restart 修車", ".ext drop 修車"):
        assert await table.text("alice", command) == \
            "⚠ 只有開始「修車」的人或 GM 能重來或刪除它。", command
    assert await snapshot(table.core) == before
    assert await table.text("alice", ".ext") == "⏳ 延長動作：修車 成功1/5"
    # the player for their own character, anyone for an enemy, a GM for everyone's
    assert await table.text("bob", ".mark level 2") == \
        "🔖 鮑伯 的夢魘印記 Lv2：0/12格｜空｜殺戮值0"
    assert await table.text("bob", ".mark kills +1 鮑伯") == \
        "🔖 鮑伯 的夢魘印記 Lv2：0/12格｜空｜殺戮值1"
    assert await table.text("bob", ".dmg 鮑伯 1") == "💢 鮑伯 受到 1 點傷害｜鮑伯 生命 60→59"
    assert await table.text("bob", ".ext restart 修車") == "⏳「修車」從頭開始：成功0/5"
    assert await table.text("bob", ".dmg 狼人 5") == "💢 狼人 受到 5 點傷害｜狼人 生命 70→65"
    assert await table.text("bob", ".cond 狼人 睡眠") == \
        "💤 狼人 陷入睡眠（可被致命攻擊，回合跳過）。"
    await table.text("gm", ".gm")
    assert await table.text("gm", ".mark level 1 鮑伯") == \
        "🔖 鮑伯 的夢魘印記 Lv1：0/6格｜空｜殺戮值1"
    assert await table.text("gm", ".dmg 鮑伯 1") == "💢 鮑伯 受到 1 點傷害｜鮑伯 生命 59→58"
    assert await table.text("gm", ".cond 鮑伯 睡眠") == \
        "💤 鮑伯 陷入睡眠（可被致命攻擊，回合跳過）。"
    assert await table.text("gm", ".ext drop 修車") == "「修車」已移除（成功0/5）。"


async def test_plurk_the_groups_ap_pool_is_table_wide(table: Table) -> None:
    """PL-11's AP pool is the whole group's, not a player's: like `.system`, a table
    without GMs trusts everyone with it; once there is a GM, only GMs grant or set it."""
    assert await table.text("alice", ".ap grant 3") == "alice 給予 3 點行動點數：0 → 3"
    await table.text("gm", ".gm")
    before = await snapshot(table.core)
    assert await table.text("alice", ".ap set 0") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await snapshot(table.core) == before
    assert await table.text("gm", ".ap set 5") == "行動點數設為 5：3 → 5"


# --------------------------------------------------------------------------- showing is reading
# Showing a value is no act for its character: plurk `.hp/.san @bob` are anyone's (as
# `.cp @bob` and `.party`, docs/systems/plurk-commands.md); a sheet's other contents (an
# ace mark, an ap20 `.dc by=`) follow `require_may_read` — the owner, a GM, or anyone at a
# table without GMs. Changing them stays the player's or a GM's.


async def test_plurk_anyone_shows_anothers_hp_and_san(table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("bob", ".pc new 鮑伯")
    await table.text("bob", ".st 體力 8 理智 40 因果點數 2")
    before = await snapshot(table.core)
    assert await table.text("alice", ".hp @bob") == "鮑伯 的體力：8"
    assert await table.text("alice", ".hp 鮑伯") == "鮑伯 的體力：8"
    assert await table.text("alice", ".san 鮑伯") == "鮑伯 的理智：40"
    assert await table.text("alice", ".理智 @bob") == "鮑伯 的理智：40"
    # a GM at the table changes nothing: `.cp @bob` and `.party` show the same to anyone
    await table.text("gm", ".gm")
    assert await table.text("alice", ".hp 鮑伯") == "鮑伯 的體力：8"
    assert await table.text("alice", ".cp @bob") == "鮑伯 的因果點數：2"
    assert await snapshot(table.core) == before
    # changing them stays the player's or a GM's
    for command in (".hp -5 @bob", ".hp +1 鮑伯", ".san =1 鮑伯", ".hp 3 @bob"):
        assert await table.text("alice", command) == NOT_YOURS, command
    assert await snapshot(table.core) == before
    assert await table.text("alice", ".hp 鮑伯 nope") == \
        "⚠ 用法：.hp [-N|+N|=N] [角色|@玩家]"


async def test_ace_and_ap20_reading_anothers_character_follows_may_read(table: Table) -> None:
    await table.text("alice", ".system ace")
    for user, name in (("alice", "艾莉絲"), ("bob", "鮑伯")):
        await table.text(user, f".pc new {name}")
        await table.text(user, ".st 力量6 敏捷5 體質5 精神力5")
    await table.text("bob", ".mark level 2")
    assert await table.text("alice", ".mark 鮑伯") == \
        "🔖 鮑伯 的夢魘印記 Lv2：0/12格｜空｜殺戮值0"
    assert await table.text("alice", ".mark @bob") == \
        "🔖 鮑伯 的夢魘印記 Lv2：0/12格｜空｜殺戮值0"
    await table.text("gm", ".gm")
    assert await table.text("alice", ".mark 鮑伯") == NOT_YOURS
    assert await table.text("gm", ".mark 鮑伯") == "🔖 鮑伯 的夢魘印記 Lv2：0/12格｜空｜殺戮值0"


async def test_ap20_a_dc_by_another_fighter_is_a_read(table: Table) -> None:
    await _ap20_pair(table, "ap20", ".st 敏捷 14 命中 4 生命 20")
    assert await table.text("p2", ".dc 敏捷 +1 by=艾莉絲") == \
        "艾莉絲 的豁免難度（敏捷）= 10+2+1 = 13"
    # rolling for her stays hers
    assert await table.text("p2", ".ra 敏捷 by=艾莉絲", dice=[]) == \
        "⚠ 只有 艾莉絲 的玩家或 GM 能替 艾莉絲 行動。"
    await table.text("gm", ".gm")
    assert await table.text("p2", ".dc 敏捷 by=艾莉絲") == NOT_YOURS
    assert await table.text("gm", ".dc 敏捷 by=艾莉絲") == "艾莉絲 的豁免難度（敏捷）= 10+2 = 12"
