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


async def test_binding_moves_the_tables_sheets_into_the_campaign(core: Core) -> None:
    """A GM who lets players build sheets and binds afterwards must not see them vanish."""
    first, second = Table(core, "t1"), Table(core, "t2")
    await first.text("alice", ".st 觀察 1")
    assert "1 張角色卡已一併移入戰役" in await first.text("alice", ".campaign bind c")
    assert await first.text("alice", ".st show") == "alice：觀察:1"
    await second.text("alice", ".st 觀察 9")  # another alice in another thread
    assert "同名角色：alice" in await second.text("alice", ".campaign bind c")
    assert await second.text("alice", ".st show") == "alice：觀察:9"  # nothing moved
    await second.text("alice", ".pc rename alice2")
    await second.text("alice", ".campaign bind c")
    assert await second.text("alice", ".pc list") == "你的角色：\n▶ alice\n・alice2"


async def test_unbind_leaves_the_thread_a_table_of_its_own(core: Core) -> None:
    thread = Table(core, "t")
    await thread.text("alice", ".campaign bind c")
    await thread.text("alice", ".st 觀察 1")
    assert "解除" in await thread.text("alice", ".campaign unbind")
    assert "還沒有角色" in await thread.text("alice", ".pc")
    assert "沒有綁定" in await thread.text("alice", ".campaign unbind")
    assert "1 到 50" in await thread.text("alice", ".campaign bind " + "x" * 51)
