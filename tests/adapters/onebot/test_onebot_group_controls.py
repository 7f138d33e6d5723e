"""QQ's side of the group controls end to end: a group admin (OneBot v11
``sender.role``) switches the bot off without the GM seat, and `.dismiss confirm` says
goodbye, then leaves the group with ``set_group_leave`` — through ``serve``, a real
Core and the OneBot peer of the other loopback tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.adapters.onebot.harness import TOKEN, RunningBot
from tests.adapters.onebot.peer import OneBotPeer, group_event, message_text, ok

GROUP, ADMIN, MEMBER = 20000, 30001, 30002

pytestmark = pytest.mark.timeout(30)


class LeavingPeer(OneBotPeer):
    """The peer, answering ``set_group_leave`` as OneBot v11 documents it: parameters
    ``group_id`` and ``is_dismiss`` (default false), no data in the answer."""

    def answer(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        if action == "set_group_leave":
            return ok(None)
        return super().answer(action, params)


def in_group(user: int, text: str, role: str) -> dict[str, Any]:
    event = group_event(GROUP, user, text, nickname=f"user{user}")
    event["sender"]["role"] = role
    return event


async def test_a_group_admin_switches_the_bot_off_and_dismisses_it(
        running_bot: RunningBot) -> None:
    async with LeavingPeer(running_bot.url, token=TOKEN) as peer:
        refused = await peer.say(in_group(MEMBER, ".bot off", "member"))
        assert [message_text(a["params"]) for a in refused] == [
            "⚠ 只有本频道的 GM 或群管理员可以这么做。"]
        off = await peer.say(in_group(ADMIN, ".bot off", "admin"))
        assert [message_text(a["params"]) for a in off] == [
            "我在本频道关闭了：只回应 .bot on，期间游戏日志也不记录。"]
        assert await peer.say(in_group(MEMBER, ".r 1d20", "member"), expect=0) == []
        await peer.say(in_group(ADMIN, ".bot on", "owner"))

        goodbye = await peer.say(in_group(ADMIN, ".dismiss confirm", "owner"), expect=2)
        farewell = "再见！我退群了。（再次邀请时，我会保持关闭，直到有人输入 .bot on。）"
        assert [(a["action"], a["params"]) for a in goodbye] == [
            ("send_group_msg", {"group_id": GROUP, "message": [
                {"type": "text", "data": {"text": farewell}}]}),
            ("set_group_leave", {"group_id": GROUP, "is_dismiss": False})]
