"""Issue 16 item 3 on Plurk: a picture is uploaded with ``Timeline/uploadPicture``
(multipart, OAuth-signed over the ``oauth_*`` parameters only) and its URL posted
after the text; when the upload fails, the text goes alone. Client, sender and
outbox against the fake Plurk; the whole adapter with a real Core for `.field png`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.config import Settings
from adapters.plurk.client import PlurkClient
from adapters.plurk.errors import ErrorKind, PlurkError
from adapters.plurk.oauth import sign
from adapters.plurk.outbox import PlurkOutbox
from adapters.plurk.sender import PlurkSender, RetryPolicy
from bot.i18n import Catalog
from bot.messages import Attachment, Outgoing
from tests.adapters.plurk.fake_plurk import (
    APP_KEY,
    APP_SECRET,
    BAD_SIGNATURE,
    BOT_ID,
    CREDENTIALS,
    FakePlurk,
)
from tests.adapters.plurk.test_plurk_listener import ALICE, GM, Bot, plurk_settings

PNG = b"\x89PNG\r\n\x1a\n" + b"picture" * 10
MAP = Attachment("field.png", PNG, "picture")
FAST = RetryPolicy(anti_flood_base_delay=0.01, anti_flood_max_delay=0.02,
                   anti_flood_max_retries=2, retry_base_delay=0.01, retry_max_delay=0.02,
                   max_retries=3, min_post_interval=0)


async def fetch(url: str) -> bytes:
    async with aiohttp.ClientSession(headers={"User-Agent": "a reader"}) as session, \
            session.get(url) as resp:
        assert resp.status == 200
        return await resp.read()


class RecordingCore:
    """What the outbox needs of the core: it records what was settled."""

    def __init__(self) -> None:
        self.settled: list[Outgoing] = []

    async def delivered(self, outgoing: Outgoing) -> None:
        self.settled.append(outgoing)

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Any]:
        raise AssertionError("not in these tests")


def outbox_for(client: PlurkClient) -> tuple[PlurkOutbox, RecordingCore]:
    core = RecordingCore()
    return PlurkOutbox(core, PlurkSender(client, FAST, own_id=BOT_ID)), core


async def settle(outbox: PlurkOutbox) -> None:
    tasks = [t.task for t in outbox._threads.values() if t.task is not None]
    for task in tasks:
        await task


# -- the client -----------------------------------------------------------------------


async def test_upload_picture_is_signed_multipart_and_returns_its_url(
        fake: FakePlurk, client: PlurkClient) -> None:
    answer = await client.upload_picture("field.png", PNG)
    assert set(answer) == {"full", "thumbnail"}
    assert fake.calls == ["Timeline/uploadPicture"] and fake.rejected == []
    assert await fetch(answer["full"]) == PNG


async def test_upload_signed_over_the_form_body_is_refused(fake: FakePlurk) -> None:
    """The fake checks the signature without the body, as Plurk does for multipart: a
    client that signed extra parameters (here, a form field) is refused."""
    url = fake.base_url + "/APP/Timeline/uploadPicture"
    headers = sign(url, "image=x", client_key=APP_KEY, client_secret=APP_SECRET,
                   token=CREDENTIALS.token, token_secret=CREDENTIALS.token_secret)
    del headers["Content-Type"]
    form = aiohttp.FormData()
    form.add_field("image", PNG, filename="field.png", content_type="image/png")
    async with aiohttp.ClientSession(headers={"User-Agent": "test"}) as session, \
            session.post(url, data=form, headers=headers) as resp:
        assert resp.status == 400
        assert (await resp.json())["error_text"] == BAD_SIGNATURE
    assert fake.pictures == {}


@pytest.mark.parametrize("data", [b"GIF89a...", b"\xff\xd8\xff\xe0jpeg"])
async def test_other_pictures_are_taken_and_other_files_refused(
        fake: FakePlurk, client: PlurkClient, data: bytes) -> None:
    await client.upload_picture("x.gif", data, "image/gif")
    with pytest.raises(PlurkError) as refused:
        await client.upload_picture("log.html", b"<html></html>", "text/html")
    assert (refused.value.status, refused.value.error_text) == (400, "Invalid file")
    assert refused.value.kind is ErrorKind.REFUSED


# -- the outbox -------------------------------------------------------------------------


async def test_a_reply_with_a_picture_posts_the_text_then_the_picture_url(
        fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "battle thread")
    outbox, core = outbox_for(client)
    await outbox.put(Outgoing("channel", str(pid), "場地 8×8\n@someone www.x.example",
                              attachment=MAP))
    await settle(outbox)
    [url] = fake.picture_urls()
    text, link = fake.posts_in(pid)
    assert text == "場地 8×8\n＠someone www．x.example"  # the text is still neutralised
    assert link == url  # the URL is posted as is, in a response of its own
    assert f'<a href="{url}"' in fake.rendered_in(pid)[1]
    assert fake.calls == ["Timeline/uploadPicture", "Responses/responseAdd",
                          "Responses/responseAdd"]
    assert [o.text for o in core.settled] == ["場地 8×8\n@someone www.x.example"]


async def test_a_refused_upload_leaves_the_text(fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "battle thread")
    fake.fail_next("Timeline/uploadPicture", 400, "Invalid file")
    outbox, core = outbox_for(client)
    await outbox.put(Outgoing("channel", str(pid), "the board", attachment=MAP))
    await settle(outbox)
    assert fake.posts_in(pid) == ["the board"] and fake.pictures == {}
    assert len(core.settled) == 1


async def test_a_flaky_upload_is_retried(fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "battle thread")
    fake.fail_next("Timeline/uploadPicture", 502, "bad gateway")
    outbox, _core = outbox_for(client)
    await outbox.put(Outgoing("channel", str(pid), "the board", attachment=MAP))
    await settle(outbox)
    assert fake.calls.count("Timeline/uploadPicture") == 2
    assert fake.posts_in(pid) == ["the board", *fake.picture_urls()]


async def test_a_private_picture_is_the_last_part_of_the_private_plurk(
        fake: FakePlurk, client: PlurkClient) -> None:
    pid = fake.add_plurk(ALICE, "battle thread")
    fake.friends.add(GM)
    outbox, _core = outbox_for(client)
    await outbox.put(Outgoing("private", str(pid), "your map", user=str(GM), attachment=MAP))
    await settle(outbox)
    [private] = fake.private_posts()
    assert (private.content, private.limited_to) == ("your map", [GM])
    assert fake.posts_in(private.plurk_id) == ["your map", *fake.picture_urls()]
    assert fake.posts_in(pid) == []


async def test_a_file_that_is_no_picture_is_not_uploaded(
        fake: FakePlurk, client: PlurkClient) -> None:
    """(test_plurk_files.py has what happens to it instead.)"""
    pid = fake.add_plurk(ALICE, "battle thread")
    outbox, core = outbox_for(client)
    core.catalog = Catalog()  # type: ignore[attr-defined]
    core.cached_locale = lambda platform, channel: "en"  # type: ignore[attr-defined]
    await outbox.put(Outgoing("channel", str(pid), "the log",
                              attachment=Attachment("log.md", b"# log", "file")))
    await settle(outbox)
    [posted] = fake.posts_in(pid)
    assert posted.startswith("the log\n📎 Plurk takes no files")
    assert "Timeline/uploadPicture" not in fake.calls


# -- the whole adapter ---------------------------------------------------------------------


async def test_field_png_through_the_adapter(fake: FakePlurk, tmp_path: Path) -> None:
    fake.add_user(GM, "keeper", "Keeper")
    fake.add_user(ALICE, "alice", "Alice")
    settings = Settings(_env_file=None, data_dir=tmp_path, plurk=plurk_settings(fake))
    bot = await Bot(fake, settings).start()
    try:
        pid = fake.add_plurk(GM, "tonight's fight")
        for user, line in ((GM, ".gm"), (ALICE, ".pc new Alice"), (ALICE, ".st 靈巧 2 體力 8"),
                           (ALICE, ".battle join"), (GM, ".battle start"),
                           (GM, ".place Alice B2")):
            count = len(fake.posts)
            fake.add_response(pid, user, f"@dicebot {line}")
            await fake.wait_for_posts(count + 1)
        count = len(fake.posts)
        fake.add_response(pid, GM, "@dicebot .field png")
        await fake.wait_for_posts(count + 2)
        await bot.settle()
        *board, link = fake.posts_in(pid)[count:]
        assert "a=Alice＠B2" in "\n".join(board)
        [url] = fake.picture_urls()
        assert link == url
        picture = await fetch(url)
        assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) < 200_000
    finally:
        await bot.close()
