"""Referee powers only for a GM who does not play (issue 22 items 3 and 4), through a real
Core on SQLite with scripted dice.

In a jianshou game `.js kick`, `.js reset` of a running game and `.duel pass` are a
referee's: a GM of the channel who is not seated in that game. Without one, a kick
needs every other seated player (at least two) to type it, a reset everyone seated,
and nobody passes for another player. A seated player who takes the GM seat mid-game
(`.gm`, or `.gm add`) stays a player of that game.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.core import Core
from bot.messages import Outgoing
from bot.store.models import ChannelState
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


async def game(core: Core) -> dict[str, Any]:
    async with core.sessions() as session:
        rows = {row.key: row.data for row in await session.scalars(select(ChannelState))}
    return rows["jianshou.game"]


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
    assert outs[0].text.splitlines()[0] == "🏳 bob 認輸退出。"
    assert standing(await game(table.core)) == {"alice": "", "bob": "resigned", "carol": ""}


async def test_an_agreement_is_cleared_when_the_game_changes(table: Table) -> None:
    await seated(table)
    await table.say("alice", ".js kick bob")
    await table.say("alice", ".meditate")  # the game moves on: alice's agreement is gone
    assert await table.text("carol", ".js kick bob") == \
        "🗳 carol 同意踢出 bob：還需 1 人同意（alice，各自輸入同一指令）。"
    assert standing(await game(table.core))["bob"] == ""


async def test_two_players_cannot_kick_each_other_without_a_referee(table: Table) -> None:
    await seated(table, ("alice", "bob"))
    before = await game(table.core)
    assert await table.text("alice", ".js kick bob") == \
        "⚠ 踢人要其他在席玩家全員同意，而這裡只有你：需要一位不在這局的 GM。"
    assert await game(table.core) == before


async def test_someone_who_neither_plays_nor_referees_may_not_kick(table: Table) -> None:
    await seated(table)
    assert await table.text("dave", ".js kick bob") == \
        "⚠ 只有不在這局的 GM，或在席玩家全員同意，才能這麼做。"


async def test_a_gm_who_does_not_play_kicks_at_once(table: Table) -> None:
    await seated(table, gm=True)
    assert (await table.text("gm", ".js kick bob")).splitlines()[0] == "🏳 bob 認輸退出。"


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
