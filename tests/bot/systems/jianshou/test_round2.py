"""The second issue-24 play-test of jianshou (three players and a GM, 繁 简 English):
who is pinged, a reset after agreements, the hit of an event, `.end CARD` with
nothing to discard, a target that has not had a turn, the shipped deck in English.

The deal of ``ready`` (seeds 11, 22, 33; alice first): bob holds 暗器偷襲 (damage 1)."""

from __future__ import annotations

from bot.messages import Outgoing
from tests.bot.systems.jianshou.test_commands import SEEDS, game, ready
from tests.bot.systems.jianshou.test_fight import duel_to_alice
from tests.support import Table


def pinged(outs: list[Outgoing]) -> list[tuple[str, tuple[str, ...]]]:
    """Each channel message's first line, with whom it notifies."""
    return [(o.text.splitlines()[0], o.notify) for o in outs if o.to == "channel"]


async def test_the_deal_and_the_keeps_ping_whoever_is_still_to_keep(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system jianshou")
    for user in ("alice", "bob", "carol"):
        await table.text(user, ".js join")
    dealt = await table.say("gm", ".js start", dice=SEEDS)
    assert pinged(dealt)[0][1] == ("alice", "bob", "carol")
    assert pinged(await table.say("alice", ".keep")) == [
        ("alice 留牌（首回合抽 2 張）。", ("bob", "carol"))]
    redrawn = await table.say("bob", ".mull", dice=[44])
    assert pinged(redrawn) == [("🔀 bob 換牌（第 1 次），首回合抽 1 張。", ())]  # nobody's wait
    assert pinged(await table.say("bob", ".keep")) == [("bob 留牌（首回合抽 1 張）。", ("carol",))]
    begun = await table.say("carol", ".mull", dice=[55])
    assert pinged(begun) == [("🔀 carol 換牌（第 1 次），首回合抽 1 張。", ())]
    begun = await table.say("carol", ".mull", dice=[66, 1])  # the last: kept, alice begins
    assert pinged(begun)[0][1] == ("alice",)


async def test_a_move_pings_the_next_one_to_answer_never_the_speaker(table: Table) -> None:
    await ready(table)
    # alice's own moves need no mention of alice (Discord sent one after each of them)
    assert pinged(await table.say("alice", ".meditate")) == [("🧘 alice 打坐：內力 +1 → 3。", ())]
    assert pinged(await table.say("alice", ".end 1")) == [
        ("🗑 alice 棄牌：鐵壁式（手牌 7）。", ()), ("alice 結束回合。", ("bob",))]
    assert pinged(await table.say("gm", ".duel")) == [("目前沒有對決。", ())]


async def test_a_referee_reset_after_agreements_calls_nothing_void(table: Table) -> None:
    await ready(table)
    await table.say("alice", ".init end")  # one agreement of three
    assert await table.text("gm", ".init end") == "🔄 牌桌重置，3 人仍在席；.js start 再開一局。"
    await table.say("gm", ".js start", dice=SEEDS)
    await table.say("alice", ".keep")
    await table.say("bob", ".keep")
    await table.say("carol", ".keep", dice=[1])
    # the old agreement went with the reset: a new one needs both others again
    assert await table.text("bob", ".init end") == \
        "🗳 bob 同意重置這局：還需 2 人同意（alice、carol，各自輸入 .init end）。"


async def test_an_event_hit_shows_hp_before_and_after(table: Table) -> None:
    await ready(table, "en")
    await table.say("alice", ".end 1")
    outs = await table.say("bob", ".event Hidden-Dart alice")
    assert pinged(outs)[0][0] == \
        "📜 bob plays the event Hidden-Dart: alice takes 1 damage, HP 9 → 8."


async def test_end_naming_a_discard_not_needed_says_the_turn_goes_on(table: Table) -> None:
    await ready(table)
    await table.say("alice", ".discard 1")
    outs = await table.say("alice", ".end 2")
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("private", "alice", "⚠ 手牌沒超過 7 張，不必棄牌；回合還沒結束，直接 .end 就結束。")]
    assert (await game(table.core))["turn"]["player"] == "alice"


async def test_a_target_that_has_not_played_is_refused_without_a_pronoun(table: Table) -> None:
    await ready(table, "zh-Hans")
    await table.say("alice", ".end 1")
    assert await table.text("bob", ".attack carol 松风剑法") == \
        "⚠ carol 还没进行过回合，现在还不能被攻击。"


async def test_a_move_during_a_duel_names_whom_the_duel_waits_for(table: Table) -> None:
    await duel_to_alice(table)
    await table.say("carol", ".attack alice 寒江刀")
    assert await table.text("carol", ".meditate") == "⚠ 對決還沒結束：現在等的是 alice 的防禦。"


async def test_a_referee_is_not_told_to_join_the_next_game(table: Table) -> None:
    await ready(table, "en")
    referee = "⚠ You referee this game (a GM not seated in it): no hand and no turn of " \
        "yours; a referee may .duel pass, .init remove or .init end."
    assert await table.text("gm", ".hand") == referee
    assert await table.text("gm", ".attack bob 1") == referee
    assert (await table.text("dave", ".hand")).startswith("⚠ You are not in this game")
