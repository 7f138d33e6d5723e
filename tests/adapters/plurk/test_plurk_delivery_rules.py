"""Items 3, 12 and 13: who a private plurk may reach, how each refusal is handled,
and that user text is shown literally. Sender, outbox and comet watcher against
the fake Plurk; the outbox with a real Core on a temporary SQLite database."""

from __future__ import annotations

import asyncio
import html
import logging
import time

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import select

from adapters.plurk.client import PlurkClient
from adapters.plurk.comet import CometWatcher
from adapters.plurk.ids import ANONYMOUS_USER_ID
from adapters.plurk.outbox import PlurkOutbox
from adapters.plurk.sender import (
    SAME_CONTENT_MARKER,
    PlurkSender,
    Refused,
    RetryPolicy,
    UnsafeAudience,
)
from adapters.plurk.text import PLURK_LIMIT, neutralise, plurk_length
from bot.core import Core
from bot.messages import Outgoing
from bot.normalize import normalize
from tests.adapters.plurk.fake_plurk import BOT_ID, MARKUP_TAGS, FakePlurk, render_markup
from tests.orm import PendingPrivate, sessions

FAST = RetryPolicy(
    anti_flood_base_delay=0.01,
    anti_flood_max_delay=0.02,
    anti_flood_max_retries=2,
    retry_base_delay=0.01,
    retry_max_delay=0.02,
    max_retries=3,
    min_post_interval=0,
)


def sender_for(client: PlurkClient, **kwargs: object) -> PlurkSender:
    return PlurkSender(client, FAST, own_id=BOT_ID, **kwargs)  # type: ignore[arg-type]


# -- item 3: a secret never reaches more than its one recipient ----------------------------


async def test_limited_to_zero_is_refused(fake: FakePlurk, client: PlurkClient) -> None:
    fake.friends.add(42)
    with pytest.raises(UnsafeAudience):
        await sender_for(client).private(0, "GM secret 17")
    assert "Timeline/plurkAdd" not in fake.calls and fake.posts == []


@pytest.mark.parametrize(
    "recipient",
    [BOT_ID, -5, ANONYMOUS_USER_ID, True, "42", 4.2, None],
    ids=["own-id", "negative", "anonymous", "bool", "str", "float", "none"],
)
async def test_private_plurk_only_to_one_other_real_user(
    fake: FakePlurk, client: PlurkClient, recipient: object
) -> None:
    fake.friends |= {1, 42, BOT_ID}
    with pytest.raises(UnsafeAudience):
        await sender_for(client).private(recipient, "GM secret 17")  # type: ignore[arg-type]
    assert fake.posts == []


@pytest.mark.parametrize("limited_to", [[], [0], [7, 0], [-1], [True]])
async def test_client_never_sends_a_friends_wide_audience(
    fake: FakePlurk, client: PlurkClient, limited_to: list[int]
) -> None:
    fake.friends.add(7)
    with pytest.raises(ValueError):
        await client.plurk_add("GM secret 17", limited_to=limited_to)
    assert fake.calls == [] and fake.posts == []


async def pending_users(core: Core) -> list[str]:
    async with sessions(core) as session:
        return list(await session.scalars(select(PendingPrivate.user)))


async def run_outbox(core: Core, sender: PlurkSender, *outs: Outgoing) -> PlurkOutbox:
    outbox = PlurkOutbox(core, sender)
    for out in outs:
        await outbox.put(out)
    await outbox.close(5, asyncio.Event())
    return outbox


async def test_outbox_keeps_a_secret_for_recipient_zero_and_posts_nothing_private(
    fake: FakePlurk, client: PlurkClient, core: Core
) -> None:
    fake.friends |= {7}
    pid = fake.add_plurk(7, "thread")
    secret = Outgoing("private", str(pid), "GM secret 17", user="0", secret=True)
    own = Outgoing("private", str(pid), "GM secret 18", user=str(BOT_ID), secret=True)
    await run_outbox(core, sender_for(client), secret, own)
    assert fake.private_posts() == [] and "Timeline/plurkAdd" not in fake.calls
    assert sorted(await pending_users(core)) == sorted(["0", str(BOT_ID)])  # `.gm pending`
    notices = fake.posts_in(pid)
    assert len(notices) == 2 and all("17" not in t and "18" not in t for t in notices)


async def test_outbox_never_posts_a_secret_marked_for_the_thread(
    fake: FakePlurk, client: PlurkClient, core: Core
) -> None:
    """A secret Outgoing addressed to the thread (a core bug) is refused by the outbox:
    Plurk never receives it, and the next reply of the thread still goes out."""
    pid = fake.add_plurk(7, "thread")
    secret = Outgoing("channel", str(pid), "GM secret: the butler did it", secret=True)
    public = Outgoing("channel", str(pid), "Alice rolled in secret")
    await run_outbox(core, sender_for(client), secret, public)
    assert fake.calls.count("Responses/responseAdd") == 1
    assert [(p.endpoint, p.plurk_id, p.content) for p in fake.posts] == [
        ("responseAdd", pid, "Alice rolled in secret")]
    assert "Timeline/plurkAdd" not in fake.calls


@pytest.mark.parametrize("user", ["", "abc", "-3", "１２", " 12", None])
async def test_outbox_drops_a_nonsense_recipient_with_an_error(
    fake: FakePlurk,
    client: PlurkClient,
    core: Core,
    caplog: pytest.LogCaptureFixture,
    user: str | None,
) -> None:
    fake.friends |= {12}
    pid = fake.add_plurk(7, "thread")
    out = Outgoing("private", str(pid), "GM secret: the butler", user=user, secret=True)
    await run_outbox(core, sender_for(client), out)
    assert fake.posts == [] and await pending_users(core) == []
    assert "malformed user id was dropped" in caplog.text and "butler" not in caplog.text


# -- item 12: refusals ------------------------------------------------------------------


async def test_too_many_new_waits_with_a_ceiling(
    fake: FakePlurk, client: PlurkClient, caplog: pytest.LogCaptureFixture
) -> None:
    pid = fake.add_plurk(7, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new", times=50)
    with pytest.raises(Refused):
        await asyncio.wait_for(sender_for(client).reply(pid, "the answer"), 2)
    assert fake.calls.count("Responses/responseAdd") == 1 + FAST.anti_flood_max_retries
    assert "flood control" in caplog.text and "the answer" not in caplog.text


async def test_same_content_is_never_resent_unchanged(
    fake: FakePlurk, client: PlurkClient
) -> None:
    pid = fake.add_plurk(7, "thread")
    sender = sender_for(client)
    await sender.reply(pid, "🎲 1d6 = 4")
    await asyncio.wait_for(sender.reply(pid, "🎲 1d6 = 4"), 2)  # Plurk refuses the same text
    assert fake.posts_in(pid) == ["🎲 1d6 = 4", "🎲 1d6 = 4" + SAME_CONTENT_MARKER]
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-same-content", times=5)
    with pytest.raises(Refused):
        await asyncio.wait_for(sender.reply(pid, "again"), 2)
    sent = [c for c in fake.calls if c == "Responses/responseAdd"]
    assert len(sent) == 3 + 2  # the unchanged text once, the marked text once: dropped


async def test_spam_domain_is_dropped_at_once(
    fake: FakePlurk, client: PlurkClient
) -> None:
    pid = fake.add_plurk(7, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-spam-domain")
    with pytest.raises(Refused):
        await asyncio.wait_for(sender_for(client).reply(pid, "see the link"), 2)
    assert fake.calls.count("Responses/responseAdd") == 1 and fake.posts == []


async def test_content_too_long_splits_the_part_again(
    fake: FakePlurk, client: PlurkClient
) -> None:
    pid = fake.add_plurk(7, "thread")
    fake.fail_next("Responses/responseAdd", 400, "Content too long")
    await asyncio.wait_for(sender_for(client).reply(pid, "一二三四 五六七八"), 2)
    assert fake.posts_in(pid) == ["一二三四", "五六七八"]


async def test_a_waiting_thread_does_not_delay_another(
    fake: FakePlurk, client: PlurkClient, core: Core
) -> None:
    slow, quick = fake.add_plurk(7, "slow thread"), fake.add_plurk(8, "quick thread")
    policy = RetryPolicy(anti_flood_base_delay=0.5, anti_flood_max_delay=0.5, min_post_interval=0)
    outbox = PlurkOutbox(core, PlurkSender(client, policy, own_id=BOT_ID))
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-too-many-new")
    await outbox.put(Outgoing("channel", str(slow), "first, then waits"))
    await outbox.put(Outgoing("channel", str(slow), "second in the slow thread"))
    await fake.wait_for_calls("Responses/responseAdd")
    started = time.monotonic()
    await outbox.put(Outgoing("channel", str(quick), "not held up"))
    await fake.wait_for_posts(1, timeout=2)
    assert time.monotonic() - started < 0.4
    assert fake.posts_in(quick) == ["not held up"]
    await outbox.close(5, asyncio.Event())
    assert fake.posts_in(slow) == ["first, then waits", "second in the slow thread"]


async def test_permanent_refusal_is_reported_and_dropped(
    fake: FakePlurk, client: PlurkClient, core: Core
) -> None:
    pid = fake.add_plurk(7, "thread")
    fake.fail_next("Responses/responseAdd", 400, "anti-flood-spam-domain")
    await run_outbox(
        core,
        sender_for(client),
        Outgoing("channel", str(pid), "refused for good"),
        Outgoing("channel", str(pid), "the next reply"),
    )
    assert fake.posts_in(pid) == ["（噗浪拒絕了機器人的一則回覆，沒能貼出。）", "the next reply"]
    assert fake.calls.count("Responses/responseAdd") == 3  # the refused one once


async def test_comet_keeps_the_offset_the_url_carries(
    fake: FakePlurk, client: PlurkClient
) -> None:
    fake.add_user(7, "alice")
    stop = asyncio.Event()
    watcher = CometWatcher(client, base_delay=0.01, max_delay=0.05)
    seen: list[dict] = []  # type: ignore[type-arg]

    async def watch() -> None:
        async for batch in watcher.batches(stop):
            seen.extend(batch.events)

    task = asyncio.create_task(watch())
    await asyncio.sleep(0.1)
    fake.add_plurk(7, "one")
    fake.add_plurk(7, "two")
    async with asyncio.timeout(3):
        while len(seen) < 2:
            await asyncio.sleep(0.01)
    stop.set()
    await asyncio.wait_for(task, 2)
    assert fake.channel_requests == 1  # no resync: the URL's offset was used
    assert fake.comet_offsets[0] == 100 and max(fake.comet_offsets) >= 101
    assert 0 not in fake.comet_offsets


async def test_repeated_minus_three_does_not_spin(
    fake: FakePlurk, client: PlurkClient
) -> None:
    fake.comet_default = {"new_offset": -3}  # the offset is lost, again and again
    stop = asyncio.Event()
    watcher = CometWatcher(client, base_delay=0.05, max_delay=0.2)

    async def watch() -> None:
        async for _ in watcher.batches(stop):
            pass

    task = asyncio.create_task(watch())
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.wait_for(task, 2)
    # 1 s allows about 0 + .05 + .1 + .2 + .2 + .2 + .2 s of waits: 7 resubscriptions
    assert 2 <= fake.channel_requests <= 10
    assert fake.comet_polls <= 10


# -- item 13: user text is shown literally ---------------------------------------------------

HOSTILE = (
    "**bold** *it* __under__ http://evil.example/x (free gift) https://a.b "
    "WWW.evil.example @alice a@b.c #tag 2d6*2*3 happy_cat"
)


def test_nothing_plurk_would_render_survives_escaping() -> None:
    safe = neutralise(HOSTILE)
    rendered = render_markup(html.escape(safe), {1: {"id": 1, "nick_name": "alice"}})
    assert not any(tag in rendered for tag in MARKUP_TAGS), rendered
    assert "href" not in rendered and "://" not in safe and "@" not in safe
    assert "happy_cat" in safe  # a single underscore is no markup
    assert normalize(safe) == HOSTILE  # the core's normalisation reads it back
    assert plurk_length(safe) == plurk_length(HOSTILE)


_MARKUP_ALPHABET = st.sampled_from(
    [*"*_@#:/.w ()ab1", "http://", "www.", "**", "__", "\n", "骰", "😀", "\u0301"]
)


@hypothesis_settings(max_examples=200, deadline=None)
@given(st.lists(_MARKUP_ALPHABET, max_size=400).map("".join))
def test_parts_after_escaping_fit_and_hold_no_markup(text: str) -> None:
    sender = PlurkSender(client=None, max_parts=None)  # type: ignore[arg-type]
    parts = sender.parts(text)
    users = {1: {"id": 1, "nick_name": "w"}, 2: {"id": 2, "nick_name": "a"}}
    for part in parts:
        assert 0 < plurk_length(part) <= PLURK_LIMIT - plurk_length(SAME_CONTENT_MARKER)
        assert 0 < plurk_length(part + SAME_CONTENT_MARKER) <= PLURK_LIMIT
        rendered = render_markup(html.escape(part), users)
        assert not any(tag in rendered for tag in MARKUP_TAGS), (part, rendered)
    assert "".join("".join(p.split()) for p in parts) == "".join(neutralise(text).split())


async def test_private_plurks_are_escaped_too(
    fake: FakePlurk, client: PlurkClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake.friends.add(42)
    fake.add_user(11, "alice")
    await sender_for(client).private(42, "secret: **crit** by @alice www.x.example")
    (post,) = fake.private_posts()
    assert not any(tag in post.rendered for tag in MARKUP_TAGS), post.rendered
