"""Issue 16 item 3 on QQ: the battle map goes as an ``image`` segment (``base64://``)
through the real ``serve`` (nonebot, the reverse WebSocket) to a OneBot peer that
checks it like NapCat would (peer.py); when the picture is refused, the text goes
alone."""

from __future__ import annotations

from typing import Any

import nonebot
import pytest

from adapters.onebot.delivery import OneBotDelivery
from bot.messages import Attachment, Outgoing
from tests.adapters.onebot.harness import TOKEN, RunningBot
from tests.adapters.onebot.peer import SELF_ID, OneBotPeer, group_event, message_text, pictures

GROUP, ALICE, GM = 20000, 30001, 30009
PNG = b"\x89PNG\r\n\x1a\n" + b"picture" * 10

pytestmark = pytest.mark.timeout(30)


def segments(action: dict[str, Any]) -> list[str]:
    return [segment["type"] for segment in action["params"]["message"]]


async def start_battle(peer: OneBotPeer) -> None:
    for user, line in ((GM, ".gm"), (ALICE, ".pc new Alice"), (ALICE, ".st 靈巧 2 體力 8"),
                       (ALICE, ".battle join"), (GM, ".battle start"), (GM, ".place Alice B2")):
        await peer.say(group_event(GROUP, user, line, nickname=str(user)))


async def test_field_png_sends_the_board_and_the_picture(running_bot: RunningBot) -> None:
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        await start_battle(peer)
        [sent] = await peer.say(group_event(GROUP, GM, ".field png"))
        assert sent["action"] == "send_group_msg" and sent["params"]["group_id"] == GROUP
        assert segments(sent) == ["text", "image"]
        assert "a=Alice@B2" in message_text(sent["params"])
        [picture] = pictures(sent["params"])
        assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) < 200_000
        # the text board alone keeps its old form
        [board] = await peer.say(group_event(GROUP, GM, ".field"))
        assert segments(board) == ["text"]


async def test_a_refused_picture_leaves_the_text(running_bot: RunningBot) -> None:
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        await start_battle(peer)
        peer.refuse_pictures = True
        refused, text = await peer.say(group_event(GROUP, GM, ".field png"), expect=2)
        assert segments(refused) == ["text", "image"]
        assert segments(text) == ["text"]
        assert message_text(text["params"]) == message_text(refused["params"]).removesuffix(
            "[image]")


class QuietCore:
    """What the delivery needs of the core for a message that is delivered."""

    async def delivered(self, outgoing: Outgoing) -> None:
        pass

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        raise AssertionError("the private picture should have been delivered")


async def test_a_private_picture_and_a_file_attachment(running_bot: RunningBot) -> None:
    """Through nonebot's real Bot of the peer's connection: a private picture is an
    image segment too; a file (a game log) is uploaded after its text
    (test_onebot_files.py has the rest)."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        bot = nonebot.get_bot(str(SELF_ID))
        delivery = OneBotDelivery(bot, QuietCore(), running_bot.settings.onebot,  # type: ignore[arg-type]
                                  None)
        start = len(peer.actions)
        await delivery.deliver([
            Outgoing("private", str(GROUP), "your map", user=str(GM),
                     attachment=Attachment("field.png", PNG, "picture")),
            Outgoing("private", str(GROUP), "", user=str(GM),
                     attachment=Attachment("field.png", PNG, "picture")),
            Outgoing("channel", str(GROUP), "the log",
                     attachment=Attachment("log.html", b"<html></html>", "file"))])
        sent = peer.actions[start:]
        assert [(a["action"], segments(a)) for a in sent[:3]] == [
            ("send_private_msg", ["text", "image"]), ("send_private_msg", ["image"]),
            ("send_group_msg", ["text"])]
        assert [a["action"] for a in sent[3:]] == ["upload_group_file"]
        assert pictures(sent[0]["params"]) == [PNG] == pictures(sent[1]["params"])
        assert [(f.name, f.data) for f in peer.files] == [("log.html", b"<html></html>")]
