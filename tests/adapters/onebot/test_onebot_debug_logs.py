"""DEBUG logs hold no secret on QQ: ``serve`` with a real Core, uvicorn on
loopback and the OneBot v11 peer (tests/adapters/onebot/peer.py); nonebot's own
log (loguru) is routed into the captured ``logging`` tree at every level."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.debug_logs import (
    HIDDEN_DIE,
    SECRET_DIE,
    assert_no_secret_logged,
    open_every_log,
    stored_checks,
)
from tests.adapters.onebot.harness import TOKEN, onebot_settings, start_bot, stop_bot
from tests.adapters.onebot.peer import OneBotPeer, group_event, message_text
from tests.support import strict_dice

GROUP, GM, BOB = 20000, 30001, 30002  # the GM is no friend of the bot at first

pytestmark = pytest.mark.timeout(60)


def private_texts(actions: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """(recipient, text) of every private send the bot tried, delivered or not."""
    return [(a["params"]["user_id"], message_text(a["params"])) for a in actions
            if a["action"] == "send_private_msg"]


async def test_debug_logs_hold_no_secret_on_qq(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nonebot.log import logger as loguru

    open_every_log(caplog, monkeypatch)

    def to_logging(message: Any) -> None:  # every nonebot record, whatever its level
        record = message.record
        logging.getLogger("nonebot").log(max(record["level"].no, logging.DEBUG), "%s",
                                         record["message"])

    sink = loguru.add(to_logging, level=0, format="{message}")
    dice = strict_dice([HIDDEN_DIE, SECRET_DIE])
    running = await start_bot(onebot_settings(tmp_path), dice=dice)
    try:
        async with OneBotPeer(running.url, token=TOKEN, friends={BOB}) as peer:
            await peer.say(group_event(GROUP, GM, ".gm", nickname="Keeper"))
            await peer.say(group_event(GROUP, BOB, ".pc new 鮑伯", nickname="Bob"))
            await peer.say(group_event(GROUP, BOB, ".st 觀察 5", nickname="Bob"))
            # announcement, Bob's copy, the GM's copy (friend, then temporary session:
            # both refused) and the notice that it is kept for `.gm pending`
            await peer.say(group_event(GROUP, BOB, ".rah 觀察", nickname="Bob"), expect=5)
            await peer.say(group_event(GROUP, GM, ".secret 鮑伯 觀察", nickname="Keeper"),
                           expect=4)
            peer.friends = {GM, BOB}  # the GM befriends the bot
            pending = await peer.say(group_event(GROUP, GM, ".gm pending"), expect=3)
            actions = list(peer.actions)
        stored = await stored_checks(running.core)
    finally:
        await stop_bot(running)
        loguru.remove(sink)
    delivered = private_texts(pending)
    assert any(user == GM and f"1d20={HIDDEN_DIE}" in text for user, text in delivered)
    assert any(user == GM and f"1d20={SECRET_DIE}" in text for user, text in delivered)
    assert any(r.name == "nonebot" for r in caplog.records), "nonebot's log was not captured"
    assert_no_secret_logged(caplog, secrets=[text for _, text in private_texts(actions)],
                            stored=stored, tokens=[TOKEN])
