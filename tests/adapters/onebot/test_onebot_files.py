"""Issue 16 item 2 on QQ: a ``file`` attachment (the game log) is uploaded after its
text — ``upload_group_file`` for a group message, ``upload_private_file`` for a private
one, the bytes as ``base64://`` — and when the implementation lacks the action
(retcode 1404, as Lagrange-like peers answer) or refuses it, a localised note follows
the text, in private for a private message. Through the real ``serve`` (nonebot, the
reverse WebSocket) and the OneBot peer, which answers the uploads as NapCat does
(peer.py)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import nonebot
import pytest

from adapters.onebot.convert import ZERO_WIDTH_SPACE
from adapters.onebot.delivery import OneBotDelivery
from bot.i18n import Catalog
from bot.messages import Attachment, Outgoing
from rules.dice.source import ScriptedSource
from tests.adapters.onebot.harness import TOKEN, RunningBot, onebot_settings, start_bot, stop_bot
from tests.adapters.onebot.peer import (
    NO_SUCH_ACTION,
    SELF_ID,
    OneBotPeer,
    group_event,
    message_text,
    private_event,
)

GROUP, GM, ALICE, BOB = 20000, 30009, 30001, 30002
LOG = Attachment("第一夜.md", "# 第一夜\n骰子 42\n".encode(), "file")

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def scripted_bot(tmp_path: Path) -> AsyncIterator[RunningBot]:
    """The bot with scripted dice: alice's 1d20 is 15, bob's hidden 1d100 is 42."""
    running = await start_bot(onebot_settings(tmp_path), dice=ScriptedSource([15, 42]))
    yield running
    await stop_bot(running)


def shown(params: dict[str, Any]) -> str:
    """What a reader sees of a sent message (links are defused with zero-width spaces)."""
    return message_text(params).replace(ZERO_WIDTH_SPACE, "")


def texts(actions: list[dict[str, Any]], action: str) -> list[str]:
    return [shown(a["params"]) for a in actions if a["action"] == action]


def uploads(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [a for a in actions if a["action"].startswith("upload_")]


async def play_and_export(peer: OneBotPeer) -> list[dict[str, Any]]:
    """A short logged session, then the GM's `.log export`: the actions it caused."""
    for user, line in ((GM, ".gm"), (GM, ".log on 第一夜"), (ALICE, ".r 1d20+2 開門")):
        await peer.say(group_event(GROUP, user, line, nickname=str(user)))
    await peer.say(group_event(GROUP, BOB, ".rh 1d100", nickname="bob"), expect=3)
    return await peer.say(group_event(GROUP, GM, ".log export", nickname=str(GM)),
                          expect=4)


async def test_log_export_players_copy_to_the_group_gm_copy_privately(
        scripted_bot: RunningBot) -> None:
    async with OneBotPeer(scripted_bot.url, token=TOKEN) as peer:
        sent = await play_and_export(peer)
        assert [a["action"] for a in sent] == [
            "send_group_msg", "upload_group_file", "send_private_msg", "upload_private_file"]
        group_upload, private_upload = uploads(sent)
        # as NapCat takes them: the target, the bytes as base64://, the name; root folder
        assert set(group_upload["params"]) >= {"group_id", "file", "name"}
        assert group_upload["params"]["group_id"] == GROUP
        assert group_upload["params"]["file"].startswith("base64://")
        assert "folder" not in group_upload["params"]
        assert private_upload["params"]["user_id"] == GM
        assert sent[2]["params"]["user_id"] == GM
        public, gm = peer.files
        assert (public.action, public.target, public.name) == (
            "upload_group_file", GROUP, "第一夜.html")
        assert (gm.action, gm.target, gm.name) == ("upload_private_file", GM, "第一夜-gm.html")
        players, secret = public.data.decode(), gm.data.decode()
        assert ".rh 1d100" in players and "[42]" not in players
        assert "[42]" in secret and ".rh 1d100" in secret
        assert base64.b64decode(group_upload["params"]["file"][9:]) == public.data
        # the text went first, the file after it; nothing of the GM's copy in the group
        assert "第一夜" in texts(sent, "send_group_msg")[0]
        assert all("-gm" not in message_text(a["params"]) for a in sent
                   if a["action"] == "send_group_msg")


@pytest.mark.parametrize("lacking", [True, False], ids=["no-upload-actions", "refused"])
async def test_a_failed_upload_is_noted_where_the_file_was_going(
        scripted_bot: RunningBot, lacking: bool) -> None:
    async with OneBotPeer(scripted_bot.url, token=TOKEN) as peer:
        if lacking:
            peer.file_uploads = False  # a OneBot implementation without the actions
        else:
            peer.refuse_files = True  # NapCat: QQ refused the upload
        sent = await play_and_export(peer)
        assert [a["action"] for a in sent] == [
            "send_group_msg", "upload_group_file", "send_group_msg",
            "send_private_msg", "upload_private_file", "send_private_msg"]
        answers = [a for a in sent if a["action"].startswith("upload_")]
        assert len(answers) == 2 and peer.files == []
        group_texts = texts(sent, "send_group_msg")
        private = [a for a in sent if a["action"] == "send_private_msg"]
        # zh-Hans: the QQ default locale; the group note names the players' copy only
        assert group_texts[1] == "⚠ 文件「第一夜.html」无法发送：这个平台拒收或不能传文件。"
        assert [a["params"]["user_id"] for a in private] == [GM, GM]
        assert shown(private[1]["params"]) == (
            "⚠ 文件「第一夜-gm.html」无法发送：这个平台拒收或不能传文件。")
        assert all("-gm" not in text for text in group_texts)


async def test_the_peer_refuses_missing_actions_as_onebot_says(running_bot: RunningBot) -> None:
    """The peer's answer without the actions: status failed, retcode 1404."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        peer.file_uploads = False
        assert peer.answer("upload_group_file", {"group_id": GROUP, "file": "base64://eA==",
                                                 "name": "x.md"}) == {
            "status": "failed", "retcode": NO_SUCH_ACTION, "data": None,
            "message": "不支持的 Api upload_group_file",
            "wording": "不支持的 Api upload_group_file"}
        peer.file_uploads = True
        assert peer.answer("upload_group_file", {"group_id": GROUP, "file": "C:x",
                                                 "name": "x.md"})["retcode"] == 1200
        answer = peer.answer("upload_private_file", {"user_id": GM, "file": "base64://eA==",
                                                     "name": "x.md"})
        assert answer["status"] == "ok" and set(answer["data"]) == {"file_id"}


# -- the delivery on its own, through nonebot's real Bot of the peer's connection ---------


class NoteCore:
    """What the delivery needs of the core: the catalog (for the note), and records."""

    catalog = Catalog()

    def __init__(self) -> None:
        self.settled: list[Outgoing] = []
        self.failed: list[Outgoing] = []

    def cached_locale(self, platform: str, channel: str) -> str:
        return "en"

    async def delivered(self, outgoing: Outgoing) -> None:
        self.settled.append(outgoing)

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        self.failed.append(outgoing)
        return []


async def deliver(running: RunningBot, peer: OneBotPeer, outs: list[Outgoing],
                  core: NoteCore | None = None) -> list[dict[str, Any]]:
    core = core or NoteCore()
    bot = nonebot.get_bot(str(SELF_ID))
    delivery = OneBotDelivery(bot, core, running.settings.onebot, None)  # type: ignore[arg-type]
    start = len(peer.actions)
    await delivery.deliver(outs)
    assert core.settled == outs
    return peer.actions[start:]


async def test_a_private_chat_file_is_a_private_file(running_bot: RunningBot) -> None:
    """A reply in a private chat (the ``dm:`` pseudo-channel) uploads a private file."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        sent = await deliver(running_bot, peer, [
            Outgoing("channel", f"dm:{ALICE}", "your log", attachment=LOG)])
        assert [a["action"] for a in sent] == ["send_private_msg", "upload_private_file"]
        assert sent[1]["params"]["user_id"] == ALICE
        assert [(f.name, f.data) for f in peer.files] == [(LOG.filename, LOG.data)]


async def test_a_non_friend_gets_the_note_through_the_temporary_session(
        running_bot: RunningBot) -> None:
    """Not a friend: the text goes through the group's temporary session, NapCat refuses
    the private file (assumed), and the note takes the same temporary session (the
    friend attempt is not repeated)."""
    async with OneBotPeer(running_bot.url, token=TOKEN, friends=set(),
                          temp_groups={GROUP}) as peer:
        core = NoteCore()
        sent = await deliver(running_bot, peer, [
            Outgoing("private", str(GROUP), "GM copy", user=str(GM), secret=True,
                     attachment=LOG)], core)
        assert [(a["action"], a["params"].get("group_id")) for a in sent] == [
            ("send_private_msg", None), ("send_private_msg", GROUP),
            ("upload_private_file", None), ("send_private_msg", GROUP)]
        assert shown(sent[-1]["params"]) == (
            "⚠ The file “第一夜.md” could not be sent: this chat platform refused it or "
            "takes no files.")
        assert core.failed == []  # the text was delivered


async def test_a_file_alone_that_reaches_no_one_is_kept_for_gm_pending(
        running_bot: RunningBot) -> None:
    """No text, the upload refused and the note refused too: a failed private delivery."""
    async with OneBotPeer(running_bot.url, token=TOKEN, friends=set()) as peer:
        core = NoteCore()
        sent = await deliver(running_bot, peer, [
            Outgoing("private", str(GROUP), "", user=str(GM), attachment=LOG)], core)
        assert [a["action"] for a in sent] == ["upload_private_file", "send_private_msg",
                                               "send_private_msg"]
        assert [o.attachment for o in core.failed] == [LOG]


async def test_a_group_that_refuses_the_text_gets_no_file(running_bot: RunningBot) -> None:
    """The text is refused (a muted group): the file is not tried after it."""
    async with OneBotPeer(running_bot.url, token=TOKEN) as peer:
        real = peer.answer

        def muted(action: str, params: dict[str, Any]) -> dict[str, Any]:
            if action == "send_group_msg":
                return {"status": "failed", "retcode": 1200, "data": None,
                        "message": "muted", "wording": "muted"}
            return real(action, params)

        peer.answer = muted  # type: ignore[method-assign]
        sent = await deliver(running_bot, peer, [
            Outgoing("channel", str(GROUP), "the log", attachment=LOG)])
        assert [a["action"] for a in sent] == ["send_group_msg"]


async def test_a_private_log_export_reaches_the_asker(scripted_bot: RunningBot) -> None:
    """`.log export` typed in a private chat: the file comes back as a private file."""
    async with OneBotPeer(scripted_bot.url, token=TOKEN) as peer:
        for line in (".log on 私聊", ".r 1d20"):
            await peer.say(private_event(ALICE, line))
        sent = await peer.say(private_event(ALICE, ".log export"), expect=2)
        assert [a["action"] for a in sent][:2] == ["send_private_msg", "upload_private_file"]
        assert all(a["params"]["user_id"] == ALICE for a in sent)
