"""QQ review items 11, 13 and 14, end to end: ``serve`` with a real Core on SQLite and
the OneBot v11 peer (tests/adapters/onebot/peer.py) posting real message segments
and request events and answering the bot's actions like NapCat."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from adapters.onebot.convert import ZERO_WIDTH_SPACE, defuse_links
from tests.adapters.onebot.harness import (
    TOKEN,
    RunningBot,
    onebot_settings,
    start_bot,
    stop_bot,
)
from tests.adapters.onebot.peer import (
    SELF_ID,
    OneBotPeer,
    at_segment,
    friend_request_event,
    group_event,
    message_text,
    text_segment,
)

GROUP, OTHER_GROUP = 20000, 20001
ALICE, BOB, CAROL, STRANGER = 30001, 30002, 30003, 39999

pytestmark = pytest.mark.timeout(30)


def group_texts(actions: list[dict[str, Any]]) -> list[str]:
    return [message_text(a["params"]) for a in actions if a["action"] == "send_group_msg"]


def segment_types(actions: list[dict[str, Any]]) -> list[list[str]]:
    return [[segment["type"] for segment in a["params"]["message"]] for a in actions
            if a["action"] in ("send_group_msg", "send_private_msg")]


def said(user: int, *segments: dict[str, Any], name: str = "") -> dict[str, Any]:
    """A group message made of real segments (text and at)."""
    return group_event(GROUP, user, "", nickname=name or str(user), segments=list(segments))


# --------------------------------------------------------------------------- item 11


async def test_at_segments_become_mentions(running_bot: RunningBot) -> None:
    """`.gm add @Bob` with a real at segment makes Bob a GM (it answered with usage)."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
        added = await peer.say(said(ALICE, text_segment(".gm add "), at_segment(BOB, "Bob"),
                                    name="Alice"))
        assert str(BOB) in group_texts(added)[0]
        listed = await peer.say(group_event(GROUP, ALICE, ".gm list", nickname="Alice"))
        assert str(BOB) in group_texts(listed)[0]
        # Bob is a GM now: a GM-only command works for him
        more = await peer.say(group_event(GROUP, BOB, f".gm add {CAROL}", nickname="Bob"))
        assert str(CAROL) in group_texts(more)[0]


async def test_hp_with_an_at_changes_that_players_character(
        running_bot: RunningBot) -> None:
    """The GM's `.hp -5 @Bob` changes Bob's investigator, not the GM's own."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
        await peer.say(group_event(GROUP, ALICE, ".pc new 愛麗絲", nickname="Alice"))
        await peer.say(group_event(GROUP, ALICE, ".st 體力 10", nickname="Alice"))
        await peer.say(group_event(GROUP, BOB, ".pc new 鮑勃", nickname="Bob"))
        await peer.say(group_event(GROUP, BOB, ".st 體力 12", nickname="Bob"))
        hit = await peer.say(said(ALICE, text_segment(".hp -5 "), at_segment(BOB, "Bob"),
                                  name="Alice"))
        reply = group_texts(hit)[0]
        assert "鮑勃" in reply and "7" in reply and "愛麗絲" not in reply  # names as typed
        alice = await peer.say(group_event(GROUP, ALICE, ".hp", nickname="Alice"))
        assert "10" in group_texts(alice)[0]
        bob = await peer.say(group_event(GROUP, BOB, ".hp", nickname="Bob"))
        assert "7" in group_texts(bob)[0]


async def test_at_all_and_at_the_bot_never_become_mentions(
        running_bot: RunningBot) -> None:
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
        refused = await peer.say(said(ALICE, text_segment(".gm add "), at_segment("all"),
                                      name="Alice"))
        refused += await peer.say(said(ALICE, text_segment(".gm add "), at_segment(SELF_ID),
                                       text_segment(" "), name="Alice"))
        listed = await peer.say(group_event(GROUP, ALICE, ".gm list", nickname="Alice"))
        assert "all" not in group_texts(listed)[0]
        assert str(SELF_ID) not in group_texts(listed)[0]
        rolled = await peer.say(said(BOB, text_segment(".r 1d20 "), at_segment("all"),
                                     text_segment(" 攻擊"), name="Bob"))
    assert segment_types(refused + rolled) == [["text"]] * 3
    assert "all" not in group_texts(rolled)[0]


async def test_an_at_before_the_command_is_not_part_of_it(
        running_bot: RunningBot) -> None:
    """A QQ reply puts an @ of the quoted author first; the command still counts."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        claimed = await peer.say(said(ALICE, at_segment(BOB, "Bob"), text_segment(" .gm"),
                                      name="Alice"))
    assert "Alice" in group_texts(claimed)[0]


# --------------------------------------------------------------------------- item 13


async def test_echoed_links_are_not_clickable_and_cq_codes_stay_text(
        running_bot: RunningBot) -> None:
    reason = "http://evil.example/x www.evil.example evil.example HTTPS://EVIL.EXAMPLE"
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        rolled = await peer.say(group_event(GROUP, BOB, f".r 1d20 {reason} [CQ:at,qq=all]",
                                            nickname="Bob"))
    assert segment_types(rolled) == [["text"]]  # no at segment parsed from the text
    sent = rolled[0]["params"]["message"][0]["data"]["text"]
    for link in ("://", "www.e", "evil.example", "EVIL.EXAMPLE"):
        assert link not in sent
    assert reason in sent.replace(ZERO_WIDTH_SPACE, "")  # nothing visible changed
    assert "[CQ:at,qq=all]" in sent


def test_defuse_links_leaves_numbers_and_plain_text_alone() -> None:
    assert defuse_links("1d20+1.5 = 17。觀察:5 .r 2d6") == "1d20+1.5 = 17。觀察:5 .r 2d6"
    assert defuse_links("see t.co/x") == f"see t.{ZERO_WIDTH_SPACE}co/x"
    assert defuse_links(defuse_links("ftp://a.bc")) == defuse_links("ftp://a.bc")


# --------------------------------------------------------------------------- item 14


async def test_friend_requests_from_group_members_are_approved(
        running_bot: RunningBot) -> None:
    groups = {GROUP: {ALICE, BOB}, OTHER_GROUP: {CAROL}}
    async with OneBotPeer(running_bot.url, token=TOKEN, groups=groups) as peer:
        member = await peer.say(friend_request_event(CAROL, flag="carol"), expect=4)
        stranger = await peer.say(friend_request_event(STRANGER, flag="stranger"), expect=3)
    approvals = [a["params"] for a in member if a["action"] == "set_friend_add_request"]
    assert len(approvals) == 1
    assert approvals[0]["flag"] == "carol" and approvals[0]["approve"] is True
    assert not [a for a in stranger if a["action"] == "set_friend_add_request"]
    asked = [a["params"] for a in stranger if a["action"] == "get_group_member_info"]
    assert {p["group_id"] for p in asked} == set(groups)
    assert {p["user_id"] for p in asked} == {STRANGER}


async def test_friend_requests_setting_off_approves_nothing(tmp_path: Path) -> None:
    running = await start_bot(onebot_settings(tmp_path, accept_friend_requests=False))
    try:
        assert running.settings.onebot.accept_friend_requests is False
        async with OneBotPeer(running.url, token=TOKEN, groups={GROUP: {ALICE}}) as peer:
            actions = await peer.say(friend_request_event(ALICE), expect=0, quiet=0.5)
    finally:
        await stop_bot(running)
    assert actions == []


async def test_connect_and_disconnect_are_logged_at_info(
        running_bot: RunningBot, caplog: pytest.LogCaptureFixture) -> None:
    """The default log level is INFO: the operator sees the link at it."""
    caplog.set_level(logging.INFO)

    async def logged(text: str) -> None:
        for _ in range(100):
            if any(r.getMessage() == text and r.levelno == logging.INFO
                   for r in caplog.records):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{text!r} not logged: {caplog.text}")

    async with OneBotPeer(running_bot.url, token=TOKEN):
        await logged(f"QQ: bot {SELF_ID} connected")
    await logged(f"QQ: bot {SELF_ID} disconnected")
