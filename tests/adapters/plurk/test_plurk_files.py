"""Issue 16 item 2 on Plurk: no files. A private message's file (the GM's copy of a game
log) becomes the responses of the private plurk — UTF-8 text, escaped, split to the
response size, at most 40 and then one saying the rest was cut; a channel message's
file is not posted: the thread gets the text and a note. The sender and the outbox
against the fake Plurk; the whole adapter with a real Core for `.log export`."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from adapters.config import Settings
from adapters.plurk.client import PlurkClient
from adapters.plurk.outbox import MAX_FILE_RESPONSES, PlurkOutbox
from adapters.plurk.sender import SAME_CONTENT_MARKER, PlurkSender, RetryPolicy
from adapters.plurk.text import PLURK_LIMIT, neutralise, plurk_length
from bot.i18n import Catalog
from bot.messages import Attachment, Outgoing
from rules.dice.source import ScriptedSource
from tests.adapters.plurk.fake_plurk import BOT_ID, FakePlurk
from tests.adapters.plurk.test_plurk_listener import (
    ALICE,
    BOB,
    GM,
    Bot,
    plurk_settings,
    wait_until,
)

FAST = RetryPolicy(anti_flood_base_delay=0.01, anti_flood_max_delay=0.02,
                   anti_flood_max_retries=2, retry_base_delay=0.01, retry_max_delay=0.02,
                   max_retries=3, min_post_interval=0)
CUT = "✂ Cut here:"


def log_text(lines: int) -> str:
    """A Markdown log of ``lines`` lines of about 60 characters, each one different."""
    return "# Game log\n\n" + "\n".join(
        f"- **12:{i // 60:02d}:{i % 60:02d}** alice: line {i} of the session, @bob (dice20)"
        for i in range(lines))


class LocaleCore:
    """What the outbox needs of the core: the catalog, an English table, and records."""

    catalog = Catalog()

    def __init__(self) -> None:
        self.settled: list[Outgoing] = []
        self.failed: list[Outgoing] = []

    def cached_locale(self, platform: str, channel: str) -> str:
        return "en"

    async def delivered(self, outgoing: Outgoing) -> None:
        self.settled.append(outgoing)

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Any]:
        self.failed.append(outgoing)
        return []


def outbox_for(client: PlurkClient) -> tuple[PlurkOutbox, LocaleCore]:
    core = LocaleCore()
    return PlurkOutbox(core, PlurkSender(client, FAST, own_id=BOT_ID)), core


async def settle(outbox: PlurkOutbox) -> None:
    for task in [t.task for t in outbox._threads.values() if t.task is not None]:
        await task


# -- the sender -------------------------------------------------------------------------


def test_file_parts_are_escaped_response_sized_and_capped() -> None:
    sender = PlurkSender(client=None, policy=FAST)  # type: ignore[arg-type]
    short = sender.file_parts(log_text(3), 40, lambda shown, total: "cut")
    assert short == [neutralise(log_text(3))]
    assert "＠bob" in short[0] and "（dice20）" in short[0] and "**" not in short[0]

    long = sender.file_parts(log_text(400), 40, lambda shown, total: f"cut {shown}/{total}")
    *body, cut = long
    assert len(body) == 40 and cut.startswith("cut 40/")
    assert all(plurk_length(p) <= PLURK_LIMIT - plurk_length(SAME_CONTENT_MARKER)
               for p in long)
    assert body[0].startswith("# Game log\n")  # "# " is no hashtag: left as it is
    assert "line 0 of" in body[0] and "line 399 of" not in "".join(body)
    whole = sender.file_parts(log_text(400), 10**6, lambda shown, total: "")
    assert int(cut.split("/")[1]) == len(whole)  # the total is the whole file's count


# -- the outbox -------------------------------------------------------------------------


async def test_a_private_file_is_the_text_of_the_private_plurk(
        fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "tonight's game")
    fake.friends.add(GM)
    outbox, core = outbox_for(client)
    log = Attachment("night-gm.md", log_text(12).encode(), "file")
    await outbox.put(Outgoing("private", str(pid), "The GM's copy", user=str(GM),
                              secret=True, attachment=log))
    await settle(outbox)
    [private] = fake.private_posts()
    assert (private.content, private.limited_to) == ("The GM's copy", [GM])
    text, *responses = fake.posts_in(private.plurk_id)
    assert text == "The GM's copy"
    assert responses and "".join(responses).replace("\n", "") == \
        neutralise(log_text(12)).replace("\n", "")
    assert fake.posts_in(pid) == []  # nothing in the thread
    assert "Timeline/uploadPicture" not in fake.calls
    assert core.settled == [core.settled[0]] and core.failed == []


async def test_the_thread_note_names_gm_copies_only_where_there_are_gms(
        fake: FakePlurk, client: PlurkClient) -> None:
    """Issue 22: a players' copy in a thread becomes its text and a note; at a table
    without GMs (``gm_copies`` 0 in the export's data) the note does not promise each
    GM a private plurk — nobody gets one."""
    pid = fake.add_plurk(ALICE, "tonight's game")
    outbox, _core = outbox_for(client)
    log = Attachment("night.md", log_text(3).encode(), "file")
    for gms in (0, 1):
        await outbox.put(Outgoing("channel", str(pid), "📜 Log", attachment=log,
                                  data={"kind": "log_export", "gm_copies": gms}))
        await settle(outbox)
    assert fake.posts_in(pid) == [
        "📜 Log\n📎 Plurk takes no files, so none is posted in this thread; this table has "
        "no GM, so no private plurk is sent either.",
        "📜 Log\n📎 Plurk takes no files, so none is posted in this thread: each GM gets the "
        "GM's copy as text in a private plurk."]


async def test_a_long_file_stops_at_the_cap_and_says_so(
        fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "tonight's game")
    fake.friends.add(GM)
    outbox, core = outbox_for(client)
    log = Attachment("night-gm.md", log_text(400).encode(), "file")
    await outbox.put(Outgoing("private", str(pid), "The GM's copy", user=str(GM), attachment=log))
    await settle(outbox)
    [private] = fake.private_posts()
    _text, *responses = fake.posts_in(private.plurk_id)
    assert len(responses) == MAX_FILE_RESPONSES + 1
    assert responses[-1].startswith(CUT) and f"{MAX_FILE_RESPONSES} of " in responses[-1]
    assert all(len(r) <= 360 for r in responses)
    assert len(core.settled) == 1


async def test_a_stop_in_the_middle_leaves_the_file_in_the_outbox(
        fake: FakePlurk, client: PlurkClient) -> None:
    """Flood control during the file's responses, then a stop: the message is neither
    settled nor reported failed — it stays in the core's outbox for the next start."""
    pid = fake.add_plurk(ALICE, "tonight's game")
    fake.friends.add(GM)
    core = LocaleCore()
    stop = asyncio.Event()
    slow = RetryPolicy(anti_flood_base_delay=5, anti_flood_max_delay=5, min_post_interval=0)
    outbox = PlurkOutbox(core, PlurkSender(client, slow, stop=stop, own_id=BOT_ID))
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
    await outbox.put(Outgoing("private", str(pid), "The GM's copy", user=str(GM),
                              attachment=Attachment("night-gm.md", log_text(40).encode(),
                                                    "file")))
    await fake.wait_for_calls("Responses/responseAdd")
    stop.set()
    await settle(outbox)
    assert len(fake.private_posts()) == 1 and core.settled == [] and core.failed == []


async def test_a_file_to_a_non_friend_is_kept_for_gm_pending(
        fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "tonight's game")
    outbox, core = outbox_for(client)
    out = Outgoing("private", str(pid), "The GM's copy", user=str(GM),
                   attachment=Attachment("night-gm.md", b"# log", "file"))
    await outbox.put(out)
    await settle(outbox)
    assert fake.posts == [] and core.failed == [out]


async def test_a_channel_file_posts_the_text_and_a_note_once(
        fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "tonight's game")
    outbox, core = outbox_for(client)
    log = Attachment("night.md", log_text(400).encode(), "file")
    await outbox.put(Outgoing("channel", str(pid), "📜 Log “night” (400 lines).",
                              attachment=log))
    await settle(outbox)
    [posted] = fake.posts_in(pid)
    assert posted == ("📜 Log “night” (400 lines).\n📎 Plurk takes no files, so none is "
                      "posted in this thread: each GM gets the GM's copy as text in a "
                      "private plurk.")
    assert fake.private_posts() == [] and len(core.settled) == 1


async def test_an_invalid_utf8_file_still_goes(fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "tonight's game")
    fake.friends.add(GM)
    outbox, _core = outbox_for(client)
    await outbox.put(Outgoing("private", str(pid), "copy", user=str(GM),
                              attachment=Attachment("x.md", b"ok \xff end", "file")))
    await settle(outbox)
    [private] = fake.private_posts()
    assert fake.posts_in(private.plurk_id) == ["copy", "ok \ufffd end"]


# -- the whole adapter: `.log export` on Plurk --------------------------------------------


@pytest.fixture
def settings(tmp_path: Path, fake: FakePlurk) -> Settings:
    fake.add_user(GM, "keeper", "Keeper")
    fake.add_user(ALICE, "alice", "Alice")
    fake.add_user(BOB, "bob", "Bob")
    fake.friends.update({GM, BOB})
    return Settings(_env_file=None, data_dir=tmp_path, plurk=plurk_settings(fake))


async def test_log_export_on_plurk(fake: FakePlurk, settings: Settings) -> None:
    """The GM gets the GM's copy (Markdown, the default on Plurk) privately, with the
    hidden result; the thread gets the notice and the note, never the log's text."""
    bot = await Bot(fake, settings, dice=ScriptedSource([15, 42])).start()
    try:
        pid = fake.add_plurk(GM, "第一夜")
        for user, line, posts in ((GM, ".gm", 1), (GM, ".log on 第一夜", 1),
                                  (ALICE, ".r 1d20+2 開門", 1), (BOB, ".rh 1d100", 3)):
            count = len(fake.posts)
            fake.add_response(pid, user, f"@dicebot {line}")
            await fake.wait_for_posts(count + posts)
        await bot.settle()
        before = len(fake.posts)
        private_before = len(fake.private_posts())
        fake.add_response(pid, GM, "@dicebot .log export")
        await wait_until(lambda: len(fake.private_posts()) > private_before)
        await bot.settle()
        [gm_copy] = fake.private_posts()[private_before:]
        assert gm_copy.limited_to == [GM]
        thread = fake.posts_in(pid)[-1]
        assert thread.startswith("📜 日誌「第一夜」") and "📎 噗浪不能傳檔" in thread
        text, *responses = fake.posts_in(gm_copy.plurk_id)
        assert text == "📜 「第一夜」你的 GM 版：桌上看到的一切，加上私訊給你的秘密。"
        body = "\n".join(responses)
        assert body.startswith("# 遊戲日誌（GM 版）：第一夜\n")  # Markdown
        assert "＊＊Keeper＊＊" in body  # escaped for Plurk: no bold markup
        assert "1d100 = \\[42\\] = 42" in body  # Markdown-escaped brackets
        # the players' copy goes nowhere; nothing of the log reaches the thread
        new_in_thread = [p.content for p in fake.posts[before:] if p.plurk_id == pid]
        assert new_in_thread == [thread] and "[42]" not in thread
    finally:
        await bot.close()
