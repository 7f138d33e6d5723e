"""Issue 22, item 3 as a play-tester found it again: a hidden check remembers the GMs
who were sent its result; a GM seated since is a player to it — the same private
refusal, never its raw die, no call, no consent to give — and what follows it (push,
fate) goes to its player and those GMs only. With none of them left, its player acts
as at a table without GMs, and the channel's line does not speak of GMs."""

from __future__ import annotations

import pytest

from bot.messages import Outgoing
from tests.support import Table

NOT_YOURS = "⚠ Bob 的上一次檢定是暗中進行的：只有擲骰的玩家和收到結果的 GM 能對它做任何事。"


async def bob_at_the_table(table: Table) -> None:
    """bob plays Bob (觀察 +2) at a plurk table."""
    await table.text("bob", ".system plurk")
    await table.text("bob", ".pc new Bob")
    await table.text("bob", ".st 觀察 2")


def privately(outs: list[Outgoing]) -> dict[str, str]:
    return {o.user or "": o.text for o in outs if o.to == "private"}


def public(outs: list[Outgoing]) -> list[str]:
    return [o.text for o in outs if o.to == "channel"]


def files(outs: list[Outgoing]) -> dict[str, str]:
    return {o.attachment.filename: o.attachment.data.decode("utf-8")
            for o in outs if o.attachment is not None}


# --------------------------------------------------------------------------- item 3


async def test_a_gm_seated_after_a_hidden_check_is_told_nothing_of_it(table: Table) -> None:
    """The play-tester's lines: `.rah 觀察` succeeds on a 15, alice takes the GM seat and
    asks for a fate check — she was sent "the raw die was 15", and her GM copy of the
    log kept it. Now she gets the refusal every player gets, in every form of the
    call, and her copy holds nothing of the check."""
    await bob_at_the_table(table)
    await table.text("bob", ".log on night")
    await table.say("bob", ".rah 觀察", dice=[15])
    await table.text("alice", ".gm")
    for line in (".fate Bob", ".fate @bob", ".fate Bob roll", ".fate @bob >=12 roll"):
        outs = await table.say("alice", line, dice=[])
        assert [(o.to, o.user, o.text) for o in outs] == [
            ("private", "alice", NOT_YOURS)], line
    gm_copy = files(await table.say("alice", ".log export night md"))["night-gm.md"]
    assert "原始骰" not in gm_copy and "1d20" not in gm_copy  # "the raw die was 15"
    # alice's private lines are her four refusals, nothing else
    assert gm_copy.count("🔒") == gm_copy.count(NOT_YOURS) == 4


async def test_a_gm_added_later_neither_reads_nor_referees_an_earlier_hidden_check(
        table: Table) -> None:
    """gm was sent bob's hidden crit; alice, added since, is refused; gm's call and
    bob's roll go to bob and gm — not to alice, a GM now."""
    await bob_at_the_table(table)
    await table.text("gm", ".gm")
    await table.say("bob", ".rah 觀察 >=30", dice=[20])  # a crit that fails: 22 < 30
    await table.text("gm", ".gm add alice")
    assert privately(await table.say("alice", ".fate Bob", dice=[])) == {"alice": NOT_YOURS}
    outs = await table.say("gm", ".fate Bob >=12", dice=[])
    assert public(outs) == ["🤫 Bob 的暗中檢定：命運檢定的回覆已私下傳送給本人與 GM。"]
    call = ("🎲 GM 要求 Bob 對「觀察」的結果進行命運檢定（1d20 ≥ 閾值 12）。"
            "Bob 請輸入 .fate 擲骰。")
    assert privately(outs) == {"bob": f"（暗中檢定）{call}", "gm": f"（Bob 的暗中檢定）{call}"}
    outs = await table.say("bob", ".fate", dice=[14])
    line = "🎲 Bob 命運檢定（大成功之後）：1d20=14 ≥ 閾值 12 → 成功；必定成功。最終：成功"
    assert privately(outs) == {"bob": f"（暗中檢定）{line}", "gm": f"（Bob 的暗中檢定）{line}"}
    # a later hidden check is alice's to read: she is a GM when it is rolled
    outs = await table.say("bob", ".rah 觀察", dice=[9])
    assert sorted(privately(outs)) == ["alice", "bob", "gm"]


async def test_with_none_of_its_gms_left_a_hidden_check_is_its_player_s_alone(
        table: Table) -> None:
    """No GM was sent bob's hidden failure or crit: alice, seated since, may not allow
    the push (she would learn the check failed), so bob pushes as at a table without
    GMs, and calls and rolls his own fate check; alice is sent nothing of either."""
    await bob_at_the_table(table)
    await table.say("bob", ".rah 觀察 >=20", dice=[3])  # 5 < 20: a failure
    await table.text("alice", ".gm")
    outs = await table.say("bob", ".push", dice=[15])
    assert public(outs) == ["🤫 Bob 的暗中檢定：孤注一擲的回覆已私下傳送給本人。"]
    assert privately(outs) == {
        "bob": "（暗中檢定）孤注一擲！🎲 Bob「觀察」檢定：孤注 1d20=15 觀察+2 = 17 < 閾值 20 "
               "→ 失敗｜孤注失敗＝大失敗"}
    await table.text("alice", ".gm del")
    await table.say("bob", ".rah 觀察 >=30", dice=[20])
    await table.text("alice", ".gm")
    outs = await table.say("bob", ".fate", dice=[14])
    assert public(outs) == ["🤫 Bob 的暗中檢定：命運檢定的回覆已私下傳送給本人。"]
    assert privately(outs) == {
        "bob": "（暗中檢定）🎲 Bob 命運檢定（大成功之後）：1d20=14 ≥ 閾值 11 → 成功；"
               "必定成功。最終：成功"}


async def test_the_channel_s_list_of_waiting_requests_leaves_out_a_hidden_push(
        table: Table) -> None:
    """A push is only asked after a failure: `.ra allow` in the channel listed
    "Bob … push" for a hidden check, telling everyone it failed. The GM who was sent
    the request still allows it by name."""
    await bob_at_the_table(table)
    await table.text("gm", ".gm")
    await table.say("bob", ".rah 觀察 >=20", dice=[3])
    outs = await table.say("bob", ".push", dice=[])
    assert privately(outs)["gm"].startswith("（Bob 的暗中檢定）🙋 Bob 想對「觀察」的失敗孤注一擲")
    listed = await table.say("carol", ".ra allow", dice=[])
    assert public(listed) == [
        "📋 本頻道的 GM 允許設定：取10：需要 GM 允許、取20：需要 GM 允許、孤注一擲：需要 GM 允許"]
    assert listed[0].data["pending"] == []
    outs = await table.say("gm", ".ra allow Bob", dice=[])
    assert sorted(privately(outs)) == ["bob", "gm"]


NO_GM_FOLLOWUP = {
    "zh-Hant": "🤫 Bob 的暗中檢定：孤注一擲的回覆已私下傳送給本人。",
    "zh-Hans": "🤫 Bob 的暗中检定：孤注一掷的回复已私下发送给本人。",
    "en": "🤫 Bob's hidden check: the reply to the push went privately to them.",
}


@pytest.mark.parametrize("locale", sorted(NO_GM_FOLLOWUP))
async def test_at_a_table_without_gms_a_hidden_push_went_to_its_player(
        table: Table, locale: str) -> None:
    """Not "… to them and the GMs": there are none."""
    await bob_at_the_table(table)
    await table.text("bob", f".lang {locale}")
    await table.say("bob", ".rah 觀察 >=20", dice=[3])
    outs = await table.say("bob", ".push", dice=[4])
    assert public(outs) == [NO_GM_FOLLOWUP[locale]]
    assert list(privately(outs)) == ["bob"]


async def test_a_gm_seated_since_finds_no_hidden_push_waiting(table: Table) -> None:
    """A bare `.ra allow` / `.ra deny` of a GM seated after a hidden check does not
    find its waiting push (granting it, or "the only one", would say it failed): the
    same replies as with nothing waiting."""
    await bob_at_the_table(table)
    await table.text("gm", ".gm")
    await table.say("bob", ".rah 觀察 >=20", dice=[3])
    await table.say("bob", ".push", dice=[])  # waits for gm
    await table.text("gm", ".gm add alice")
    listed = await table.say("alice", ".ra allow", dice=[])
    assert public(listed) == [
        "📋 本頻道的 GM 允許設定：取10：需要 GM 允許、取20：需要 GM 允許、孤注一擲：需要 GM 允許"]
    assert public(await table.say("alice", ".ra deny", dice=[])) == [
        "⚠ 沒有等待 GM 允許的請求。"]
    # gm, who was sent it, allows it with a bare `.ra allow`
    outs = await table.say("gm", ".ra allow", dice=[])
    assert sorted(privately(outs)) == ["bob", "gm"]


@pytest.mark.parametrize("die", [5, 15])  # 5: fails, its push waits; 15: succeeds
async def test_allow_and_deny_of_a_hidden_check_answer_alike_whatever_it_held(
        table: Table, die: int) -> None:
    """The second play-test: a GM added after bob's hidden check typed `.ra allow Bob`
    and was refused privately when a push waited, but the channel read "no request
    waits" when the check had succeeded — carol and the whole channel learned how it
    went. Now the late GM gets the same private refusal either way, and the GM who
    was sent the result gets the same channel line either way."""
    await table.text("gm", ".gm")
    await bob_at_the_table(table)
    await table.say("bob", ".rah 觀察", dice=[die])
    await table.say("bob", ".push", dice=[])
    await table.text("gm", ".gm add @carol")
    for line in (".ra allow Bob", ".ra deny Bob", ".ra allow @bob", ".ra deny @bob"):
        outs = await table.say("carol", line, dice=[])
        assert [(o.to, o.user, o.text) for o in outs] == [
            ("private", "carol", NOT_YOURS)], (die, line)
    outs = await table.say("gm", ".ra deny Bob", dice=[])
    assert public(outs) == ["🤫 Bob 的暗中檢定：孤注一擲的回覆已私下傳送給本人與 GM。"], die
