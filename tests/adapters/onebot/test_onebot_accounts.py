"""Several QQ accounts on one reverse WebSocket (issue 25, item 6): two OneBot v11
peers, each one account (``X-Self-ID``), connected to one running bot. Each group is
answered through the account its message came to, and a reply kept from before a
restart leaves through its own account once that one connects — never another."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from adapters.watch import watched_by
from bot.core import Core
from bot.messages import Incoming
from rules.dice.source import ScriptedSource
from tests.adapters.onebot.harness import (
    TOKEN,
    onebot_settings,
    start_bot,
    stop_bot,
    wait_listening,
)
from tests.adapters.onebot.peer import OneBotPeer, group_event, message_text, private_event

pytestmark = pytest.mark.timeout(30)

FIRST, SECOND = 111_111, 222_222  # the two accounts
GROUP_A, GROUP_B, ALICE, BOB = 20001, 20002, 30001, 30002


def to(peer: OneBotPeer, group: int, user: int, text: str, name: str) -> dict[str, Any]:
    """A group message as the account ``peer`` receives it."""
    return {**group_event(group, user, text, nickname=name), "self_id": peer.self_id}


def group_posts(actions: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(a["params"]["group_id"], message_text(a["params"])) for a in actions
            if a["action"] == "send_group_msg"]


async def posted(peer: OneBotPeer, count: int) -> list[tuple[int, str]]:
    for _ in range(200):
        if len(group_posts(peer.actions)) >= count:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)  # and nothing more
    return group_posts(peer.actions)


async def test_each_group_is_answered_through_the_account_it_wrote_to(tmp_path: Path) -> None:
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([17, 4]))
    try:
        await wait_listening(running)
        async with OneBotPeer(running.url, token=TOKEN, self_id=FIRST) as first, \
                OneBotPeer(running.url, token=TOKEN, self_id=SECOND) as second:
            await first.say(to(first, GROUP_A, ALICE, ".r 1d20", "Alice"))
            await second.say(to(second, GROUP_B, BOB, ".r 1d6", "Bob"))
        assert group_posts(first.actions) == [(GROUP_A, "🎲 Alice：1d20 = [17] = 17")]
        assert group_posts(second.actions) == [(GROUP_B, "🎲 Bob：1d6 = [4] = 4")]
        assert not running.core.is_user_id("qq", str(FIRST))  # both are the bot
        assert not running.core.is_user_id("qq", str(SECOND))
    finally:
        await stop_bot(running)


async def test_one_player_writing_privately_to_two_accounts_is_answered_by_both(
        tmp_path: Path) -> None:
    """Each implementation numbers its own messages: the same id from two accounts is
    two messages, not a replay (a private chat's channel, ``dm:<user>``, is shared)."""
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([17, 4]))
    try:
        await wait_listening(running)
        async with OneBotPeer(running.url, token=TOKEN, self_id=FIRST) as first, \
                OneBotPeer(running.url, token=TOKEN, self_id=SECOND) as second:
            for peer, line in ((first, ".r 1d20"), (second, ".r 1d6")):
                event = {**private_event(ALICE, line, nickname="Alice", message_id=7),
                         "self_id": peer.self_id}
                await peer.say(event)
        assert [message_text(a["params"]) for a in first.actions] == [
            "🎲 Alice：1d20 = [17] = 17"]
        assert [message_text(a["params"]) for a in second.actions] == [
            "🎲 Alice：1d6 = [4] = 4"]
    finally:
        await stop_bot(running)


async def test_a_kept_reply_waits_for_its_own_account(tmp_path: Path) -> None:
    settings = onebot_settings(tmp_path)
    last_run = await Core.open(settings, dice=ScriptedSource([17, 4]))
    try:
        for account, group, user, line in ((FIRST, GROUP_A, ALICE, ".r 1d20"),
                                           (SECOND, GROUP_B, BOB, ".r 1d6")):
            await last_run.handle(Incoming("qq", str(group), str(user), line,
                                           display_name=str(user), account=str(account)))
    finally:
        await last_run.close()  # stopped before it sent them
    running = await start_bot(settings)
    try:
        await wait_listening(running)
        # the second account connects first: it sends its own reply, not the other's
        async with OneBotPeer(running.url, token=TOKEN, self_id=SECOND) as second:
            assert await posted(second, 1) == [(GROUP_B, f"🎲 {BOB}：1d6 = [4] = 4")]
            # once the sent one's deletion committed (grouped: ACK_DELAY), the first
            # account's reply is what still waits
            for _ in range(100):
                if (await running.core.outbox_depth())[0] == 1:
                    break
                await asyncio.sleep(0.05)
            assert (await running.core.outbox_depth())[0] == 1
            async with OneBotPeer(running.url, token=TOKEN, self_id=FIRST) as first:
                assert await posted(first, 1) == [(GROUP_A, f"🎲 {ALICE}：1d20 = [17] = 17")]
            assert group_posts(second.actions) == [(GROUP_B, f"🎲 {BOB}：1d6 = [4] = 4")]
    finally:
        await stop_bot(running)


class States:
    """The connection states the adapter reports (adapters/watch.py), as /healthz sees them."""

    def __init__(self) -> None:
        self.qq: list[str] = []

    def adapter_state(self, platform: str, state: str) -> None:
        self.qq.append(state)

    def reply(self, platform: str, *, sent: bool) -> None:
        pass


async def test_an_account_the_process_does_not_serve_is_not_answered(tmp_path: Path) -> None:
    states = States()
    with watched_by(states):  # type: ignore[arg-type]
        running = await start_bot(onebot_settings(tmp_path, self_ids=[str(FIRST)]),
                                  dice=ScriptedSource([17]))
    try:
        await wait_listening(running)
        async with OneBotPeer(running.url, token=TOKEN, self_id=SECOND) as other:
            assert await other.say(to(other, GROUP_B, BOB, ".r 1d6", "Bob"), expect=0) == []
            assert states.qq[-1] == "waiting"  # only an account it does not serve is there
            async with OneBotPeer(running.url, token=TOKEN, self_id=FIRST) as served:
                assert states.qq[-1] == "connected"
                await served.say(to(served, GROUP_A, ALICE, ".r 1d20", "Alice"))
        assert group_posts(served.actions) == [(GROUP_A, "🎲 Alice：1d20 = [17] = 17")]
    finally:
        await stop_bot(running)
