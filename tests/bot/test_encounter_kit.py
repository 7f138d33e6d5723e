"""The bot side of the encounter kit (issue 24, item 6): one ping for the next actor —
the player, or on an enemy's turn the GMs who play it — and one `.init` usage in the
reader's words. The systems' own lines are in tests/bot/systems/*/test_*encounter.py."""

from __future__ import annotations

from bot.kits.encounter import ping
from bot.messages import Outgoing
from tests.support import Table

TURN = Outgoing(to="channel", channel="c", text="▶ 輪到 狼人")


def test_a_players_turn_pings_that_player_alone() -> None:
    assert ping(TURN, "alice", ["gm"]).notify == ("alice",)


def test_an_enemys_turn_pings_the_gms_who_play_it() -> None:
    assert ping(TURN, None, ["gm", "co-gm"]).notify == ("gm", "co-gm")


def test_an_enemys_turn_at_a_table_without_gm_pings_nobody() -> None:
    assert ping(TURN, None).notify == ()
    assert ping(TURN, None) is TURN


async def test_the_init_usage_lists_the_verbs_in_the_readers_words(table: Table) -> None:
    # jianshou hands the kit its verbs without a usage of its own
    await table.text("gm", ".system jianshou")
    assert await table.text("gm", ".init 跳舞") == (
        "⚠ 用法：.init 加入(join) / 開始(start) / 下一位(next) / 列表(list) / "
        "結束(end) / 移除(remove)")
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("gm", ".init 跳舞") == (
        "⚠ 用法：.init 加入(join) / 开始(start) / 下一位(next) / 列表(list) / "
        "结束(end) / 移除(remove)")
    await table.text("gm", ".lang en")
    assert await table.text("gm", ".init dance") == (
        "⚠ Usage: .init join / start / next / list / end / remove")
