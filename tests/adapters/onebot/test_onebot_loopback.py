"""The QQ adapter end to end: ``serve`` with a real Core on SQLite, uvicorn on a free
loopback port, and a OneBot v11 peer (tests/adapters/onebot/peer.py) that connects
like NapCat, posts events as JSON and answers the bot's actions."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from rules.dice.source import ScriptedSource
from tests.adapters.onebot.harness import (
    TOKEN,
    RunningBot,
    onebot_settings,
    start_bot,
    stop_bot,
    wait_listening,
)
from tests.adapters.onebot.peer import (
    SELF_ID,
    OneBotPeer,
    group_event,
    message_text,
    private_event,
)

GROUP, ALICE, BOB = 20000, 30001, 30002


pytestmark = pytest.mark.timeout(30)


def sent_to_group(actions: list[dict[str, Any]]) -> list[str]:
    return [message_text(a["params"]) for a in actions
            if a["action"] == "send_group_msg"
            or (a["action"] == "send_msg" and a["params"].get("message_type") == "group")]


def sent_privately(actions: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(a["params"]["user_id"], message_text(a["params"])) for a in actions
            if a["action"] == "send_private_msg"]


async def test_wrong_or_missing_token_is_refused(running_bot: RunningBot) -> None:
    for token in ("wrong-token", None):
        peer = OneBotPeer(running_bot.url, token=token)
        with pytest.raises(InvalidStatus) as refused:
            await peer.connect(timeout=5)
        assert refused.value.response.status_code == 403


async def test_commands_replies_and_literal_cq_codes(running_bot: RunningBot) -> None:
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        claimed = await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
        assert [a["action"] for a in claimed] == ["send_group_msg"]
        assert claimed[0]["params"]["group_id"] == GROUP
        assert "Alice" in message_text(claimed[0]["params"])

        stats = await peer.say(group_event(GROUP, BOB, "。st 觀察 5", nickname="Bob"))
        assert "观察:5" in sent_to_group(stats)[0]  # QQ replies in 简体

        # a user's text echoed back is one text segment: no at segment, no @all
        echoed = await peer.say(group_event(GROUP, BOB, ".pc new [CQ:at,qq=all]"))
        message = echoed[0]["params"]["message"]
        assert [segment["type"] for segment in message] == ["text"]
        assert "[CQ:at,qq=all]" in message[0]["data"]["text"]

        chat = await peer.say(group_event(GROUP, BOB, "just chatting"), expect=0)
        assert chat == []


async def test_private_command_is_answered_privately(running_bot: RunningBot) -> None:
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        actions = await peer.say(private_event(BOB, ".help"))
        assert [a["action"] for a in actions] == ["send_private_msg"]
        assert actions[0]["params"]["user_id"] == BOB


async def test_undeliverable_private_becomes_a_group_notice(running_bot: RunningBot) -> None:
    """`.gm pending` answers privately; Bob is no friend, so the group is told."""
    async with OneBotPeer(running_bot.url, token=TOKEN, friends={ALICE}) as peer:
        actions = await peer.say(group_event(GROUP, BOB, ".gm pending", nickname="Bob"),
                                 expect=3)
    tries = [a for a in actions if a["action"] == "send_private_msg"]
    assert [t["params"].get("group_id") for t in tries] == [None, GROUP]  # friend, then temp
    assert len(sent_to_group(actions)) == 1
    assert str(BOB) in sent_to_group(actions)[0]


async def test_gm_secret_roll_never_reaches_the_group(tmp_path: Path) -> None:
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([17]))
    try:
        async with OneBotPeer(running.url, token=TOKEN) as peer:
            await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
            actions = await peer.say(group_event(GROUP, BOB, ".rh 1d20", nickname="Bob"),
                                     expect=3)
    finally:
        await stop_bot(running)
    group = sent_to_group(actions)
    assert len(group) == 1 and "Bob" in group[0]
    assert "17" not in group[0]
    private = dict(sent_privately(actions))
    assert set(private) == {ALICE, BOB}
    assert "17" in private[BOB] and "17" in private[ALICE]


async def test_secret_to_a_non_friend_gm_is_reported_not_leaked(tmp_path: Path) -> None:
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([17]))
    try:
        async with OneBotPeer(running.url, token=TOKEN, friends={BOB}) as peer:
            await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
            actions = await peer.say(group_event(GROUP, BOB, ".rh 1d20", nickname="Bob"),
                                     expect=5)
            group = sent_to_group(actions)
            assert len(group) == 2  # the announcement and the failure notice
            assert "Alice" in group[1]
            assert not any("17" in text for text in group)
            assert ("17" in dict(sent_privately(actions))[BOB])
            # once Alice has befriended the bot, `.gm pending` delivers the kept secret
            peer.friends = {ALICE, BOB}
            pending = await peer.say(group_event(GROUP, ALICE, ".gm pending"), expect=2)
            assert any(user == ALICE and "17" in text for user, text in sent_privately(pending))
            assert not any("17" in text for text in sent_to_group(pending))
    finally:
        await stop_bot(running)


async def test_stop_closes_connections_and_serve_returns(tmp_path: Path) -> None:
    running = await start_bot(onebot_settings(tmp_path))
    peer = OneBotPeer(running.url, token=TOKEN)
    await peer.connect()
    try:
        running.stop.set()
        await asyncio.wait_for(running.task, 10)
        assert peer._ws is not None
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(peer._ws.recv(), 5)
    finally:
        await peer.close()
        await running.core.close()


async def test_port_in_use_is_an_error_not_an_exit(tmp_path: Path) -> None:
    settings = onebot_settings(tmp_path)
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1",
                                         settings.onebot.port)
    try:
        running = await start_bot(settings)
        with pytest.raises(RuntimeError, match="could not start"):
            await asyncio.wait_for(running.task, 10)
        await running.core.close()
    finally:
        blocker.close()
        await blocker.wait_closed()


async def test_forward_websocket(tmp_path: Path) -> None:
    """The bot dials the implementation (``ws_urls``) with the access token."""
    accepted: asyncio.Queue[OneBotPeer] = asyncio.Queue()
    headers: list[Any] = []

    async def implementation(ws: Any) -> None:
        headers.append(ws.request.headers)
        peer = OneBotPeer("", token=None)
        peer.attach(ws)
        await ws.send(json.dumps({"time": 0, "self_id": SELF_ID, "post_type": "meta_event",
                                  "meta_event_type": "lifecycle", "sub_type": "connect"}))
        await accepted.put(peer)
        await ws.wait_closed()

    async with websockets.serve(implementation, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        running = await start_bot(onebot_settings(tmp_path, ws_urls=[f"ws://127.0.0.1:{port}"]))
        try:
            peer = await asyncio.wait_for(accepted.get(), 10)
            await asyncio.sleep(0.1)  # the bot registers itself on the connect event
            actions = await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
            assert "Alice" in sent_to_group(actions)[0]
            assert headers[0]["Authorization"] == f"Bearer {TOKEN}"
        finally:
            await stop_bot(running)


async def test_a_command_after_an_at_of_the_bot_is_a_command(running_bot: RunningBot) -> None:
    event = group_event(GROUP, ALICE, " .gm", nickname="Alice")
    event["message"].insert(0, {"type": "at", "data": {"qq": str(SELF_ID)}})
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        actions = await peer.say(event)
    assert "Alice" in sent_to_group(actions)[0]


async def test_unsigned_http_events_are_refused(running_bot: RunningBot) -> None:
    """The adapter's HTTP event endpoint must not be a way around the token."""
    await wait_listening(running_bot)
    url = f"http://127.0.0.1:{running_bot.settings.onebot.port}/onebot/v11/"
    event = group_event(GROUP, ALICE, ".gm add 999")
    async with aiohttp.ClientSession() as session, session.post(
            url, json=event, headers={"X-Self-ID": str(SELF_ID)}) as response:
        assert response.status == 401


async def test_debug_logs_carry_neither_the_token_nor_a_secret(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """At TRPGBOT_LOG_LEVEL=DEBUG, the handshake (access token) and the private
    result (a GM secret) must not reach the log (adapters/logs.py)."""
    caplog.set_level(logging.DEBUG)
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([17]))
    try:
        async with OneBotPeer(running.url, token=TOKEN) as peer:
            await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
            await peer.say(group_event(GROUP, BOB, ".rh 1d20 XYZZY", nickname="Bob"), expect=3)
    finally:
        await stop_bot(running)
    assert caplog.records, "nothing was logged at DEBUG: the test would prove nothing"
    assert TOKEN not in caplog.text
    assert "XYZZY" not in caplog.text


async def test_a_reply_committed_but_never_sent_is_sent_once_on_connect(
    tmp_path: Path,
) -> None:
    """The outbox: a reply the core committed but no QQ connection took (a crash or a
    stop in between) is sent when QQ connects again — and only once."""
    from bot.core import Core
    from bot.messages import Incoming

    settings = onebot_settings(tmp_path)
    last_run = await Core.open(settings, dice=ScriptedSource([17]))
    try:
        outs = await last_run.handle(Incoming("qq", str(GROUP), str(ALICE), ".r 1d20",
                                              display_name="Alice", message_id="m1"))
    finally:
        await last_run.close()  # stopped before it sent the reply
    assert [o.text for o in outs] == ["🎲 Alice：1d20 = [17] = 17"]
    running = await start_bot(settings)
    try:
        await wait_listening(running)
        peer = OneBotPeer(running.url, token=TOKEN)
        await peer.connect()
        for _ in range(100):
            if sent_to_group(peer.actions):
                break
            await asyncio.sleep(0.02)
        await peer.close()
        assert sent_to_group(peer.actions) == ["🎲 Alice：1d20 = [17] = 17"]
    finally:
        await stop_bot(running)
    again = await start_bot(settings)
    try:
        await wait_listening(again)
        async with OneBotPeer(again.url, token=TOKEN) as peer:
            await asyncio.sleep(0.3)
            assert peer.actions == []
    finally:
        await stop_bot(again)


async def test_the_bot_itself_cannot_be_made_gm(running_bot: RunningBot) -> None:
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        await peer.say(group_event(GROUP, ALICE, ".gm", nickname="Alice"))
        for ref in (str(SELF_ID), "0"):
            refused = await peer.say(group_event(GROUP, ALICE, f".gm add {ref}"))
            assert sent_to_group(refused) == [
                f"⚠ “{ref}”不是有效的用户；请用 @ 提及对方，或输入对方的用户 ID。"]  # QQ: 简
        added = await peer.say(group_event(GROUP, ALICE, f".gm add {BOB}"))
        assert sent_to_group(added) == [f"{BOB} 已加入本频道的 GM。"]


async def test_at_sender_goes_on_the_first_piece_of_a_split_reply_only(tmp_path: Path) -> None:
    """With ``at_sender`` a reply longer than ``max_message_length`` arrives as several
    send_group_msg actions; only the first starts with an ``at`` segment for the sender."""
    settings = onebot_settings(tmp_path, at_sender=True, max_message_length=100)
    running = await start_bot(settings, dice=ScriptedSource([17]))
    reason = "a" * 150
    try:
        async with OneBotPeer(running.url, token=TOKEN) as peer:
            actions = await peer.say(group_event(GROUP, ALICE, f".r 1d20 {reason}",
                                                 nickname="Alice"), expect=2)
    finally:
        await stop_bot(running)
    reply = f"🎲 Alice「{reason}」：1d20 = [17] = 17"  # roll.result_reason, zh-Hans
    assert [a["action"] for a in actions] == ["send_group_msg", "send_group_msg"]
    assert [a["params"]["group_id"] for a in actions] == [GROUP, GROUP]
    assert [a["params"]["message"] for a in actions] == [
        [{"type": "at", "data": {"qq": str(ALICE)}},
         {"type": "text", "data": {"text": " " + reply[:100]}}],
        [{"type": "text", "data": {"text": reply[100:]}}],
    ]


async def test_the_player_whose_turn_it_is_gets_an_at(tmp_path: Path) -> None:
    """Issue 12, item 7: a turn announcement @-s the next investigator's player (QQ
    notifies them), and only that announcement does."""
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([15, 3]))
    try:
        async with OneBotPeer(running.url, token=TOKEN) as peer:
            for user, line in ((BOB, ".gm"), (ALICE, ".st 靈巧 2 體力 8"),
                               (ALICE, ".battle join"),
                               (BOB, ".enemy add 暴徒 靈巧=1 hp=9 human")):
                await peer.say(group_event(GROUP, user, line, nickname=str(user)))
            start = await peer.say(group_event(GROUP, BOB, ".battle start"))
            passed = await peer.say(group_event(GROUP, BOB, ".pass"))
    finally:
        await stop_bot(running)
    # 30001's investigator (15+2) acts first: the start announcement is for them
    first = start[0]["params"]["message"]
    assert first[0] == {"type": "at", "data": {"qq": str(ALICE)}}
    # the enemy's turn next: its GM plays it and is @-ed (issue 24, the kit's ping)
    second = passed[0]["params"]["message"]
    assert [s["type"] for s in second] == ["at", "text"]
    assert second[0] == {"type": "at", "data": {"qq": str(BOB)}}
