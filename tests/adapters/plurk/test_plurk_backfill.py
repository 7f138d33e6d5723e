"""A game log with no holes: what a followed thread said while the realtime feed was down
is read with ``Responses/get`` when the feed comes back, in order, and a command
already answered is not answered again (the core drops a message id it recorded).

The whole adapter against the fake Plurk with a real Core; the paging rules of
backfill.py on their own."""

from __future__ import annotations

from typing import Any

from adapters.config import Settings
from adapters.plurk.backfill import FollowedThreads, Mark, index_from_event, missed_responses
from tests.adapters.plurk import test_plurk_chatter
from tests.adapters.plurk.fake_plurk import FakePlurk
from tests.adapters.plurk.test_plurk_listener import ALICE, BOB, GM, Bot, wait_until
from tests.support import strict_dice

settings = test_plurk_chatter.settings  # the fixture: a GM who is the bot's friend, Alice, Bob


async def exported_log(fake: FakePlurk, pid: int, last: str) -> str:
    """The GM's copy of the log, once posted up to its ``last`` line."""
    private_before = len(fake.private_posts())
    fake.add_response(pid, GM, "@dicebot .log export")
    await wait_until(lambda: len(fake.private_posts()) > private_before)
    [gm_copy] = fake.private_posts()[private_before:]
    await wait_until(lambda: last in "\n".join(fake.posts_in(gm_copy.plurk_id)))
    _, *responses = fake.posts_in(gm_copy.plurk_id)
    return "\n".join(responses)


async def test_chatter_missed_while_the_feed_was_down_is_logged_in_order(
        fake: FakePlurk, settings: Settings) -> None:
    fake.responses_page = 3  # several pages: the read resumes mid-thread
    bot = await Bot(fake, settings, dice=strict_dice([15, 4])).start()
    try:
        pid = await test_plurk_chatter.logging_thread(fake)
        fake.add_response(pid, ALICE, "門開了")
        before = len(fake.posts)
        fake.add_response(pid, ALICE, "@dicebot .r 1d20")  # the last seen before the drop
        await fake.wait_for_posts(before + 1)
        await bot.settle()
        histories = fake.calls.count("Alerts/getHistory")
        fake.comet_outage()
        await wait_until(lambda: fake.channel_requests >= 2)  # the bot is reconnecting
        missed = ["漏掉的第一句", "漏掉的第二句", "漏掉的第三句", "漏掉的第四句"]
        fake.add_response(pid, BOB, missed[0])
        fake.add_response(pid, ALICE, missed[1])
        fake.add_response(pid, BOB, "@dicebot .r 1d6")  # a command missed by the feed
        fake.add_response(pid, ALICE, missed[2])
        fake.add_response(pid, BOB, missed[3])
        answered = len(fake.posts)
        fake.comet_outage(False)
        await wait_until(lambda: fake.calls.count("Alerts/getHistory") > histories)
        await fake.wait_for_posts(answered + 1)
        await bot.settle()
        fake.add_response(pid, ALICE, "回來之後的一句")  # live again
        await bot.settle()
        replies = fake.posts_in(pid)
        log = await exported_log(fake, pid, last="回來之後的一句")
    finally:
        await bot.close()
    # each command answered once: 15 before the drop, 4 for the one the feed missed
    assert sum("1d20 = [15] = 15" in r for r in replies) == 1
    assert sum("1d6 = [4] = 4" in r for r in replies) == 1
    assert fake.calls.count("Responses/get") >= 2
    for line in missed:
        assert log.count(line) == 1
    positions = [log.index(line) for line in ["門開了", *missed[:2], "Bob：1d6", *missed[2:],
                                              "回來之後的一句"]]
    assert positions == sorted(positions)


async def test_a_thread_read_from_its_start_when_responses_were_deleted() -> None:
    """The last seen response's offset moved down (a deletion): the first page starts
    after it, so the thread is read again from its start; nothing is skipped."""
    thread = [{"id": i} for i in (10, 12, 13, 14)]  # 11 was deleted
    reads: list[int] = []

    async def read(offset: int) -> dict[str, Any]:
        reads.append(offset)
        return {"responses": thread[offset:offset + 2]}

    found = await missed_responses(read, Mark(response_id=12, index=2), max_pages=10)
    assert [(i, r["id"]) for i, r in found or []] == [(2, 13), (3, 14)]
    assert reads[0] == 2 and 0 in reads


async def test_a_failed_read_reports_nothing_found() -> None:
    async def read(offset: int) -> None:
        return None

    assert await missed_responses(read, Mark(5, 1), max_pages=3) is None


def test_followed_threads_keep_the_newest_and_the_most_recent() -> None:
    threads = FollowedThreads(limit=2)
    threads.saw(1, 10, 3)
    threads.saw(1, 9, 2)  # an older response read late does not move the mark back
    threads.follow(2)
    threads.follow(1)  # already followed: its mark stays
    threads.saw(3, 30)
    assert threads.marks() == [(2, Mark()), (3, Mark(30, None))]
    assert index_from_event({"response_count": 4}) == 3
    assert index_from_event({"response_count": 0}) is None
    assert index_from_event({}) is None
