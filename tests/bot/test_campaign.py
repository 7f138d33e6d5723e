"""`.campaign`: several channels sharing one table, replies staying in their channel."""

from __future__ import annotations

from bot.core import Core
from tests.support import Table


async def test_two_threads_bound_to_one_campaign_share_gms_and_sheets(core: Core) -> None:
    first, second, other = Table(core, "thread-1"), Table(core, "thread-2"), Table(core, "t3")
    await first.text("keeper", ".gm")
    assert "「龍穴」" in await first.text("keeper", ".campaign bind 龍穴")
    # the new campaign starts with the GMs of the table it was bound from
    assert "GM：keeper" in await first.text("alice", ".gm list")
    assert "只有本頻道的 GM" in await second.text("alice", ".campaign bind 龍穴")
    await second.text("keeper", ".campaign bind 龍穴")
    await first.text("alice", ".st 觀察 5")
    outs = await second.say("alice", ".st show")
    assert [(o.to, o.channel, o.text) for o in outs] == [("channel", "thread-2", "alice：觀察:5")]
    assert "還沒有角色" in await other.text("alice", ".pc")
    assert "戰役「龍穴」" in await second.text("alice", ".campaign")


async def test_hidden_roll_in_a_bound_thread_reaches_the_campaign_gm(core: Core) -> None:
    thread = Table(core, "thread-9")
    await Table(core, "thread-8").text("keeper", ".gm")
    await Table(core, "thread-8").text("keeper", ".campaign bind 夜")
    await thread.text("keeper", ".campaign bind 夜")
    outs = await thread.say("bob", ".rh 1d20", dice=[16])
    assert {(o.to, o.user) for o in outs} == {("channel", None), ("private", "bob"),
                                            ("private", "keeper")}
    assert all("16" not in o.text for o in outs if o.to == "channel")


async def test_unbind_returns_the_thread_to_its_own_table(core: Core) -> None:
    thread = Table(core, "t")
    await thread.text("alice", ".st 觀察 1")
    await thread.text("alice", ".campaign bind c")
    assert "還沒有角色" in await thread.text("alice", ".pc")
    assert "解除" in await thread.text("alice", ".campaign unbind")
    assert await thread.text("alice", ".st show") == "alice：觀察:1"
    assert "沒有綁定" in await thread.text("alice", ".campaign unbind")
    assert "1 到 50" in await thread.text("alice", ".campaign bind " + "x" * 51)
