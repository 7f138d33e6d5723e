"""The sender against the fake: flood control, bounded retries, splitting, privacy."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from adapters.plurk.client import PlurkClient
from adapters.plurk.errors import ErrorKind, PlurkError
from adapters.plurk.sender import DeliveryFailed, Interrupted, PlurkSender, Refused, RetryPolicy
from tests.adapters.plurk.fake_plurk import BOT_ID, FakePlurk

FAST = RetryPolicy(
    anti_flood_base_delay=0.02,
    anti_flood_max_delay=0.05,
    retry_base_delay=0.01,
    retry_max_delay=0.02,
    max_retries=3,
    min_post_interval=0,
)


def sender_for(client: PlurkClient, **kwargs: object) -> PlurkSender:
    return PlurkSender(client, FAST, **kwargs)  # type: ignore[arg-type]


async def test_anti_flood_400_is_retried_with_backoff_then_posted(
    fake: FakePlurk, client: PlurkClient, caplog: pytest.LogCaptureFixture
) -> None:
    pid = fake.add_plurk(7, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new", times=3)
    started = time.monotonic()
    await sender_for(client).reply(pid, "the answer")
    elapsed = time.monotonic() - started
    assert fake.posts_in(pid) == ["the answer"]
    assert fake.calls.count("Responses/responseAdd") == 4
    assert elapsed >= 0.02 + 0.04 + 0.05 - 0.01  # 1x, 2x, then capped base delay
    assert "flood control" in caplog.text


async def test_other_errors_are_retried_a_bounded_number_of_times(
    fake: FakePlurk, client: PlurkClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    pid = fake.add_plurk(7, "thread")
    fake.fail_next("Responses/responseAdd", 502, "bad gateway", times=2)
    await sender_for(client).reply(pid, "after two failures")
    assert fake.posts_in(pid) == ["after two failures"]
    fake.fail_next("Responses/responseAdd", 500, "boom", times=5)
    with pytest.raises(DeliveryFailed) as info:
        await sender_for(client).reply(pid, "lost after three")
    assert info.value.cause is not None and info.value.cause.status == 500
    assert fake.calls.count("Responses/responseAdd") == 3 + 3
    assert "giving up" in caplog.text
    assert isinstance(info.value, Refused)
    assert "lost after three" not in caplog.text  # contents are never logged


async def test_600_character_reply_is_posted_as_ordered_parts(
    fake: FakePlurk, client: PlurkClient
) -> None:
    pid = fake.add_plurk(7, "thread")
    text = "\n".join(f"{i:03d} " + "骰" * 56 for i in range(10))  # 10 x 60 = 609 characters
    await sender_for(client).reply(pid, text)
    posted = fake.posts_in(pid)
    assert len(posted) == 2 and all(len(p) <= 360 for p in posted)
    assert "\n".join(posted) == text
    assert posted[0].startswith("000") and posted[1].endswith("骰")


async def test_reply_is_neutralised(fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(7, "thread")
    await sender_for(client).reply(pid, "@alice rolled (dice20)")
    assert fake.posts_in(pid) == ["＠alice rolled （dice20）"]
    await sender_for(client, allow_emoticon_dice=True).reply(pid, "(dice20)")
    assert fake.posts_in(pid)[-1] == "(dice20)"


async def test_private_goes_to_one_friend_and_long_text_continues_inside(
    fake: FakePlurk, client: PlurkClient
) -> None:
    fake.friends.add(42)
    text = "秘" * 500
    private_id = await sender_for(client).private(42, text)
    first, second = fake.posts
    assert first.endpoint == "plurkAdd" and first.limited_to == [42]
    assert second.endpoint == "responseAdd" and second.plurk_id == private_id
    assert first.content + second.content == text


async def test_private_to_a_non_friend_raises_must_be_friends_without_retry(
    fake: FakePlurk, client: PlurkClient
) -> None:
    with pytest.raises(PlurkError) as info:
        await sender_for(client).private(43, "secret")
    assert info.value.kind is ErrorKind.MUST_BE_FRIENDS
    assert fake.calls.count("Timeline/plurkAdd") == 1 and fake.posts == []


async def test_shutdown_during_a_flood_wait_is_reported(
    fake: FakePlurk, client: PlurkClient, caplog: pytest.LogCaptureFixture
) -> None:
    pid = fake.add_plurk(BOT_ID, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new", times=5)
    stop = asyncio.Event()
    policy = RetryPolicy(anti_flood_base_delay=60, min_post_interval=0)
    sender = PlurkSender(client, policy, stop=stop)
    task = asyncio.create_task(sender.reply(pid, "pending"))
    await fake.wait_for_calls("Responses/responseAdd")
    stop.set()
    with pytest.raises(Interrupted):
        await asyncio.wait_for(task, 2)
    assert "shutting down" in caplog.text


async def test_posts_are_spaced(fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(7, "thread")
    policy = RetryPolicy(min_post_interval=0.05)
    started = time.monotonic()
    await PlurkSender(client, policy).reply(pid, "a" * 700)
    assert len(fake.posts_in(pid)) == 2
    assert time.monotonic() - started >= 0.05
