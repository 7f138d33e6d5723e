"""`.campaign`: several channels sharing one table, replies staying in their channel."""

from __future__ import annotations

import asyncio

from bot.core import Core
from tests.support import Table


async def test_two_threads_bound_to_one_campaign_share_gms_and_sheets(core: Core) -> None:
    first, second, other = Table(core, "thread-1"), Table(core, "thread-2"), Table(core, "t3")
    await first.text("keeper", ".gm")
    assert await first.text("keeper", ".campaign bind 龍穴") == (
        "這裡已綁定到戰役「龍穴」，之後的指令都使用這個戰役的資料。")
    # the new campaign starts with the GMs of the table it was bound from
    assert await first.text("alice", ".gm list") == "本頻道的 GM：keeper"
    assert await second.text("alice", ".campaign bind 龍穴") == (
        "⚠ 戰役「龍穴」已經屬於其他桌。請該戰役的 GM 在戰役的串裡輸入 .campaign invite "
        "取得邀請碼，再用 .campaign bind 龍穴 <邀請碼> 加入。")
    await second.text("keeper", ".campaign bind 龍穴")
    await first.text("alice", ".st 觀察 5")
    outs = await second.say("alice", ".st show")
    assert [(o.to, o.channel, o.text) for o in outs] == [("channel", "thread-2", "alice：觀察:5")]
    assert await other.text("alice", ".pc") == "你在本頻道還沒有角色。用 .pc new <名字> 建立。"
    assert await second.text("alice", ".campaign") == (
        "這裡綁定在戰役「龍穴」：GM、角色卡與戰鬥都與同戰役的其他串共用。")


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
    await first.text("keeper", ".gm")
    await first.text("alice", ".st 觀察 1")
    assert await first.text("keeper", ".campaign bind c") == (
        "這裡已綁定到戰役「c」，之後的指令都使用這個戰役的資料。\n"
        "這裡的 1 張角色卡已一併移入戰役。")
    assert await first.text("alice", ".st show") == "alice：觀察:1"
    await second.text("alice", ".st 觀察 9")  # another alice in another thread
    assert await second.text("keeper", ".campaign bind c") == (
        "⚠ 戰役裡已經有同一位玩家的同名角色：alice。請先改名（.pc rename）再綁定。")
    assert await second.text("alice", ".st show") == "alice：觀察:9"  # nothing moved
    await second.text("alice", ".pc rename alice2")
    await second.text("keeper", ".campaign bind c")
    assert await second.text("alice", ".pc list") == "你的角色：\n▶ alice\n・alice2"


async def test_unbind_leaves_the_thread_a_table_of_its_own(core: Core) -> None:
    thread = Table(core, "t")
    await thread.text("alice", ".campaign bind c")
    await thread.text("alice", ".st 觀察 1")
    assert await thread.text("alice", ".campaign unbind") == (
        "這裡已解除與戰役「c」的綁定，回到獨立的一桌。")
    assert await thread.text("alice", ".pc") == "你在本頻道還沒有角色。用 .pc new <名字> 建立。"
    assert await thread.text("alice", ".campaign unbind") == "⚠ 這裡沒有綁定任何戰役。"
    assert await thread.text("alice", ".campaign bind " + "x" * 51) == (
        "⚠ 戰役名稱需為 1 到 50 個字。")


# --------------------------------------------------------------------------- item 1


async def test_a_campaign_without_gm_cannot_be_joined_from_elsewhere(core: Core) -> None:
    """The hijack: a stranger binds to a GM-less table's campaign, claims `.gm` and reads
    every sheet. A campaign belongs to the table that created it."""
    victims, stranger = Table(core, "group-a"), Table(core, "group-b")
    await victims.text("alice", ".campaign bind 龍穴")
    await victims.text("alice", ".st 觀察 5")
    closed = "⚠ 戰役「龍穴」沒有 GM，無法從其他地方加入。"
    assert await stranger.text("mallory", ".campaign bind 龍穴") == closed
    await stranger.text("mallory", ".gm")
    assert await stranger.text("mallory", ".campaign bind 龍穴") == closed
    assert await stranger.text("mallory", ".campaign bind 龍穴 00000000") == closed
    # mallory is GM of her own table only; the campaign still has none
    assert await victims.text("alice", ".gm list") == "本頻道還沒有 GM。輸入 .gm 認領。"
    assert await stranger.text("mallory", ".campaign") == (
        "這裡是獨立的一桌，沒有綁定戰役。GM 可用 .campaign bind <名稱> 讓多個串共用一桌。")


async def test_joining_a_campaign_needs_a_code_from_its_gm(core: Core) -> None:
    home, other = Table(core, "thread-1"), Table(core, "thread-2")
    await home.text("keeper", ".gm")
    await home.text("keeper", ".campaign bind 龍穴")
    await other.text("mallory", ".gm")
    wrong = "⚠ 邀請碼不正確或已過期；請戰役的 GM 重新輸入 .campaign invite。"
    assert await other.text("mallory", ".campaign bind 龍穴 0A1B2C3D") == wrong
    assert await home.text("alice", ".campaign invite") == "⚠ 只有本頻道的 GM 可以這麼做。"
    outs = await home.say("keeper", ".campaign invite")
    assert [(o.to, o.user, o.secret) for o in outs] == [
        ("channel", None, False), ("private", "keeper", True)]
    assert outs[0].text == "已私訊邀請碼給 keeper。"
    code = outs[1].text.split("：", 1)[1][:8]
    assert outs[1].text == (f"戰役「龍穴」的邀請碼：{code}（24 小時內有效，只能用一次）。"
                            f"在要加入的串輸入：.campaign bind 龍穴 {code}")
    assert code not in outs[0].text
    # the joining table's own GM decides for it: a player there cannot use the code
    assert await other.text("bob", f".campaign bind 龍穴 {code}") == (
        "⚠ 只有本頻道的 GM 可以這麼做。")
    assert await other.text("mallory", f".campaign bind 龍穴 {code.lower()}") == (
        "這裡已綁定到戰役「龍穴」，之後的指令都使用這個戰役的資料。")
    # the code is used up
    third = Table(core, "thread-3")
    assert await third.text("eve", f".campaign bind 龍穴 {code}") == wrong
    # a campaign name may hold spaces; only a last word of eight hex digits is a code
    assert await third.text("eve", ".campaign bind 龍穴 遺跡") == (
        "這裡已綁定到戰役「龍穴 遺跡」，之後的指令都使用這個戰役的資料。")


# --------------------------------------------------------------------------- item 8


async def test_a_command_queued_behind_a_bind_lands_in_the_campaign(core: Core) -> None:
    """A `.st` that resolved the thread's table before `.campaign bind` committed was
    acknowledged and written to the old table, then hidden by the binding."""
    thread = Table(core, "t")
    await thread.text("keeper", ".gm")
    lock = core.dispatcher.lock("console", "t")
    async with lock:  # both commands find the thread's own table and queue on its lock
        bind = asyncio.create_task(thread.text("keeper", ".campaign bind 夜"))
        while len(lock._waiters or ()) < 1:
            await asyncio.sleep(0.001)
        st = asyncio.create_task(thread.text("alice", ".st 觀察 7"))
        while len(lock._waiters or ()) < 2:
            await asyncio.sleep(0.001)
    assert await bind == "這裡已綁定到戰役「夜」，之後的指令都使用這個戰役的資料。"
    assert await st == "alice 的數值已更新：觀察:7"
    assert await thread.text("alice", ".st show") == "alice：觀察:7"


async def test_only_a_bind_or_unbind_drops_the_working_set(core: Core) -> None:
    """Binding moves sheets and documents between tables: the process forgets what it
    kept of them. Asking where a thread is bound (`.campaign`) or for an invitation
    moves nothing, and keeps the working set."""
    first = Table(core, "thread-1")
    await first.text("keeper", ".gm")
    cleared = core.writer.cache.cleared
    await first.text("keeper", ".campaign bind 龍穴")
    assert core.writer.cache.cleared == cleared + 1
    for line in (".campaign", ".campaign invite"):
        await first.text("keeper", line)
    assert core.writer.cache.cleared == cleared + 1
    await first.text("keeper", ".campaign unbind")
    assert core.writer.cache.cleared == cleared + 2


async def test_a_binding_belongs_to_its_platforms_channel(core: Core) -> None:
    """QQ group 5 and a console channel named 5 are two channels: binding one binds
    nothing of the other."""
    qq = Table(core, "5", platform="qq")
    await qq.text("keeper", ".gm")
    await qq.text("keeper", ".campaign bind 龍穴")
    assert (await Table(core, "5").text("keeper", ".campaign")).startswith(
        "這裡是獨立的一桌，沒有綁定戰役。")
