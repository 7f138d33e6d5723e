"""The Plurk adapter at work: comet + catch-up in, Outgoing out.

Flow: every comet batch is handled in order; a batch marked ``gap`` (first
subscription, resync, reconnect) first runs a catch-up over
``Alerts/getHistory`` mentions, fetching the mentioned plurk or responses. A
post is a command only when its text starts with ``@<bot nick>`` and a command;
every other response the feed brings (the threads the bot follows) goes to the
core as chatter, for the game log, never run as a command. The core
records ``"r<response id>"`` / ``"p<plurk id>"`` message ids, so the overlap of
comet and catch-up, a resync or a restart never answers twice.

Replies leave through the outbox (outbox.py): one worker per thread, so a
flood-control wait of minutes delays only its own thread and never stops the bot
from listening.

A fatal refusal (``401NN:…``: the app key, the access token or the clock is
wrong) stops the adapter with an operator-readable log line, wherever it comes
from: ``Users/me``, the feed, the catch-up or a post.

Channel = the plurk thread (``"<plurk id>"``); a GM may bind several threads
to one campaign's table with ``.campaign bind`` (the core resolves it).
Replies always go to the thread the command came from.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from adapters.delivery import TAKE_OVER_EVERY
from adapters.logs import protect_secrets_in_logs
from adapters.plurk.aio import Stopped, sleep_or_stop, stoppable, until_stopped
from adapters.plurk.backfill import FollowedThreads, index_from_event, missed_responses
from adapters.plurk.client import PlurkClient
from adapters.plurk.comet import CometWatcher
from adapters.plurk.credentials import load_credentials
from adapters.plurk.emoticons import EmoticonRolls, die_faces, parse_content, unrolled_tokens
from adapters.plurk.errors import PlurkError
from adapters.plurk.faces import FACE_IMAGES, FaceTable, read_face_file
from adapters.plurk.ids import ANONYMOUS_USER_ID
from adapters.plurk.outbox import PLATFORM, PlurkOutbox
from adapters.plurk.sender import PlurkSender, RetryPolicy
from adapters.plurk.settings import PlurkSettings
from adapters.plurk.text import (
    command_text,
    is_command,
    mentioned_nicks,
    replace_mentions,
    strip_mention,
)
from adapters.retry import Backoff, retrying
from adapters.watch import CONNECTED, report_state
from bot.messages import Incoming, Outgoing

log = logging.getLogger(__name__)

MAX_RESPONSE_PAGES = 40
READ_TRIES = 3
"""Tries of a catch-up read (``Alerts/getHistory``, ``Timeline/getPlurk``, ``Responses/get``)."""

def policy_from(settings: PlurkSettings) -> RetryPolicy:
    return RetryPolicy(
        anti_flood_base_delay=settings.anti_flood_base_delay,
        anti_flood_max_delay=settings.anti_flood_max_delay,
        anti_flood_max_retries=settings.anti_flood_max_retries,
        retry_base_delay=settings.retry_base_delay,
        retry_max_delay=settings.reconnect_max_delay,
        max_retries=settings.max_retries,
        min_post_interval=settings.min_post_interval,
    )


class PlurkListener:
    """Turns Plurk posts into core commands and core replies into Plurk posts."""

    def __init__(
        self,
        core: Any,
        settings: PlurkSettings,
        client: PlurkClient,
        sender: PlurkSender,
    ) -> None:
        self.core = core
        self.settings = settings
        self.client = client
        self.sender = sender
        self.me_id: int | None = None
        self.nick = ""
        self.users: dict[int, dict[str, Any]] = {}
        self.outbox = PlurkOutbox(core, sender, on_fatal=self._fatal, nick_of=self.nick_of)
        self._halt = asyncio.Event()  # set by the outer stop or by a fatal refusal
        self._abort: asyncio.Event | None = None
        self._busy = asyncio.Lock()  # events and catch-ups are handled one at a time
        self._seen_alerts: set[tuple[int, int | None]] = set()
        self.threads = FollowedThreads()  # read again after a feed gap (backfill.py)
        self.face_images = face_images_of(settings)

    # -- lifecycle -------------------------------------------------------------

    async def run(self, stop: asyncio.Event, abort: asyncio.Event) -> None:
        """Listen until ``stop``; then let the outbox drain (``abort`` cuts it short).

        Raises :class:`PlurkError` (kind ``AUTH``) when Plurk refuses the keys."""
        self._abort = abort
        relay = asyncio.create_task(self._relay_stop(stop))
        try:
            await self._run(abort)
        except PlurkError as exc:
            if exc.is_fatal:
                log.error("plurk: %s", exc)
            raise
        finally:
            relay.cancel()
        if self.outbox.fatal is not None:
            log.error("plurk: %s", self.outbox.fatal)
            raise self.outbox.fatal

    async def _relay_stop(self, stop: asyncio.Event) -> None:
        await stop.wait()
        self._halt.set()

    def _fatal(self, exc: PlurkError) -> None:
        """The outbox met a fatal refusal: stop listening and posting."""
        self._halt.set()
        if self._abort is not None:
            self._abort.set()

    async def _run(self, abort: asyncio.Event) -> None:
        halt = self._halt
        try:
            await self._identify(halt)
        except Stopped:
            return
        self.sender.own_id = self.me_id
        self.core.set_bot_id(PLATFORM, str(self.me_id))  # never a GM
        self.outbox.account = str(self.me_id)  # its replies: this account's alone
        await self.outbox.start()
        helpers = [
            asyncio.create_task(self._every(self.settings.friends_interval, self._befriend, halt)),
            asyncio.create_task(
                self._every(
                    self.settings.catch_up_interval, self._locked_catch_up, halt, first=False
                )
            ),
            asyncio.create_task(
                self._every(TAKE_OVER_EVERY, self.outbox.take_over, halt, first=False)),
        ]
        try:
            watcher = CometWatcher(
                self.client,
                base_delay=self.settings.reconnect_base_delay,
                max_delay=self.settings.reconnect_max_delay,
            )
            async for batch in watcher.batches(halt):
                async with self._busy:
                    if batch.gap:
                        await self.backfill()
                        await self.catch_up()
                    for event in batch.events:
                        await self.on_event(event)
            for task in helpers:  # a fatal refusal in a helper ends the adapter too
                if task.done() and not task.cancelled() \
                        and (error := task.exception()) is not None:
                    raise error
        finally:
            for task in helpers:
                task.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            await self.outbox.close(self.settings.shutdown_grace, abort)

    def _reconnect(self, retries: int | None) -> Callable[[BaseException], Backoff | None]:
        """Plurk unreachable or in trouble: waits doubling from ``reconnect_base_delay``
        to ``reconnect_max_delay`` (adapters/retry.py); a fatal refusal is never retried."""
        backoff = Backoff(self.settings.reconnect_base_delay,
                          self.settings.reconnect_max_delay, retries)
        return lambda exc: backoff if isinstance(exc, PlurkError) and not exc.is_fatal \
            else None

    async def _identify(self, stop: asyncio.Event) -> None:
        """Learn the bot's id and nick; retry while Plurk is unreachable, fail on bad keys."""
        me = await retrying(
            lambda: until_stopped(self.client.me(), stop), self._reconnect(None),
            sleep=stoppable(stop),
            on_wait=lambda exc, _, delay: log.warning(
                "plurk: Users/me failed (%s); retrying in %.1fs", exc, delay))
        self.me_id = int(me["id"])
        self.nick = str(me.get("nick_name") or "")
        log.info("plurk: listening as @%s (id %s)", self.nick, self.me_id)
        report_state(PLATFORM, CONNECTED)

    async def _every(
        self, interval: float, action: Any, stop: asyncio.Event, *, first: bool = True
    ) -> None:
        if interval <= 0:
            return
        if not first and await sleep_or_stop(interval, stop):
            return
        while not stop.is_set():
            try:
                await action()
            except PlurkError as exc:
                if exc.is_fatal:
                    self._halt.set()  # the watcher stops; run() raises this
                raise
            if await sleep_or_stop(interval, stop):
                return

    async def _befriend(self) -> None:
        try:
            await self.client.add_all_as_friends()
        except PlurkError as exc:
            if exc.is_fatal:
                raise
            log.warning("plurk: addAllAsFriends failed: %s", exc)

    async def _locked_catch_up(self) -> None:
        async with self._busy:
            await self.catch_up()

    # -- in ---------------------------------------------------------------------

    def channel_for(self, plurk_id: int) -> str:
        return str(plurk_id)

    def remember_users(self, users: Any) -> None:
        """Cache users from a ``user``/``friends`` map (keyed by id) or a single user."""
        if not isinstance(users, dict):
            return
        if "id" in users and isinstance(users.get("id"), int):
            self.users[users["id"]] = users
            return
        for value in users.values():
            if isinstance(value, dict) and "id" in value:
                with contextlib.suppress(TypeError, ValueError):
                    self.users[int(value["id"])] = value

    def nick_of(self, user: str) -> str | None:
        """The nick name of a user the bot has seen (for an ``@nick`` that notifies)."""
        if not user.isdigit():
            return None
        nick = self.users.get(int(user), {}).get("nick_name")
        return str(nick) if nick else None

    def who(self, user_id: int, plurk_id: int, handle: str | None) -> tuple[str, str]:
        """(core user id, display name); anonymous posters are per-thread handles."""
        if user_id == ANONYMOUS_USER_ID:
            tag = handle or "anonymous"
            return f"anon:{plurk_id}:{tag}", tag
        user = self.users.get(user_id, {})
        name = user.get("display_name") or user.get("nick_name") or ""
        return str(user_id), str(name)

    async def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "new_response":
            self.remember_users(event.get("user"))
            response = event.get("response")
            try:
                if not isinstance(response, dict) or "id" not in response:
                    raise ValueError("no response")
                raw_id: Any = event.get("plurk_id") or response.get("plurk_id")
                plurk_id = int(raw_id)  # None or junk: TypeError / ValueError below
            except (TypeError, ValueError):
                log.warning("plurk: malformed new_response event ignored")
                return
            await self.handle_response(plurk_id, response)
            with contextlib.suppress(TypeError, ValueError):
                self.threads.saw(plurk_id, int(response["id"]), index_from_event(event))
        elif kind == "new_plurk":
            if not isinstance(event.get("plurk_id"), int):
                log.warning("plurk: malformed new_plurk event ignored")
                return
            await self.handle_plurk(event)

    async def handle_plurk(self, plurk: dict[str, Any]) -> None:
        """A plurk is a command when its own text starts with ``@<bot nick>``.

        Its author is ``owner_id`` (a plurk's ``user_id`` names the timeline).
        """
        plurk_id = int(plurk["plurk_id"])
        owner = plurk.get("owner_id")
        if isinstance(owner, int) and owner not in self.users and owner != self.me_id:
            await self._learn_owner(plurk_id)
        await self.handle_post(plurk_id, plurk, f"p{plurk_id}", owner)

    async def _learn_owner(self, plurk_id: int) -> None:
        """A ``new_plurk`` event names no user: ask ``Timeline/getPlurk`` (best effort)."""
        try:
            data = await self.client.get_plurk(plurk_id)
        except PlurkError as exc:
            if exc.is_fatal:
                raise
            log.info("plurk: owner of %s unknown (%s)", plurk_id, exc)
            return
        if isinstance(data, dict):
            self.remember_users(data.get("user"))

    async def handle_response(self, plurk_id: int, response: dict[str, Any]) -> None:
        await self.handle_post(plurk_id, response, f"r{response['id']}", response.get("user_id"),
                               in_thread=True)

    async def handle_post(
        self, plurk_id: int, post: dict[str, Any], message_id: str, author: Any,
        *, in_thread: bool = False,
    ) -> None:
        """Answer one plurk or response if it is a command addressed to the bot; pass
        any other response (``in_thread``) to the core for the game log."""
        if author is None or int(author) == self.me_id:
            return
        text = command_text(post.get("content"), post.get("content_raw"))
        command = strip_mention(text, self.nick)
        if command and is_command(command):
            await self.handle_command(plurk_id, post, message_id, int(author), text, command)
        elif in_thread and text:
            await self.handle_chatter(plurk_id, post, message_id, int(author), text)

    async def handle_chatter(
        self, plurk_id: int, post: dict[str, Any], message_id: str, author: int, text: str
    ) -> None:
        """A response that is no command: the core records it, as typed, when the
        thread's table keeps a game log (``.log on``), and answers nothing — at most the
        notice that the log reached its limit. A new plurk is not passed: its thread is
        new, so no log can be running there yet."""
        user, name = self.who(author, plurk_id, post.get("handle"))
        incoming = Incoming(
            platform=PLATFORM,
            channel=self.channel_for(plurk_id),
            user=user,
            text=text,
            display_name=name,
            message_id=message_id,
            kind="chatter",  # not addressed to the bot, even if it reads `.r 1d20`
            account=self.outbox.account,
        )
        await self._to_core(incoming)

    async def handle_command(
        self, plurk_id: int, post: dict[str, Any], message_id: str, author: int, text: str,
        command: str,
    ) -> None:
        """``command``: what follows ``@<bot nick>`` in ``text``, a command for the core."""
        content = post.get("content")
        if isinstance(content, str) and content.strip():
            rolls = parse_content(content, self.face_images)
        else:
            rolls = EmoticonRolls(unreadable=unrolled_tokens(text))
        user, name = self.who(author, plurk_id, post.get("handle"))
        channel = self.channel_for(plurk_id)
        self.threads.follow(plurk_id)  # the bot answers here: its chatter may be logged
        unreadable = [token for token in rolls.unreadable if die_faces(token) is not None]
        if unreadable:
            await self._report_unreadable(channel, plurk_id, message_id, unreadable)
            return
        incoming = Incoming(
            platform=PLATFORM,
            channel=channel,
            user=user,
            text=await self.resolve_mentions(command),
            display_name=name,
            platform_dice=rolls.dice,
            message_id=message_id,
            uploads="none",  # a post carries no file, and a link in it is not fetched
            account=self.outbox.account,
        )
        if rolls.disagreements:  # never the post's content: only which message and how many
            log.warning("plurk: %d emoticon dice of message %s show another face in their "
                        "image than rndnum; rndnum kept", len(rolls.disagreements), message_id)
        await self._to_core(incoming, read_from_image=rolls.from_image)

    async def _to_core(self, incoming: Incoming, read_from_image: tuple[str, ...] = ()) -> None:
        try:
            outs = await self.core.handle(incoming)
        except Exception:  # the core promises not to raise; never let it stop listening
            log.exception("plurk: the core failed on message %s", incoming.message_id)
            return
        if read_from_image and outs:  # not on a replay, which the core answers with nothing
            outs = self._say_read_from_image(incoming.channel, outs, read_from_image)
        for out in outs:
            await self.outbox.put(out)  # out.channel is this thread

    def _say_read_from_image(
        self, channel: str, outs: list[Outgoing], tokens: tuple[str, ...]
    ) -> list[Outgoing]:
        """The thread's reply names the dice whose value came from their image (no
        ``rndnum``): prefixed to its first message in the thread, else on its own."""
        locale = self.core.cached_locale(PLATFORM, channel)
        joined = "、".join(tokens) if locale.startswith("zh") else ", ".join(tokens)
        note = self.core.catalog.text(locale, "platform.plurk.dice_from_image", tokens=joined)
        for n, out in enumerate(outs):
            if out.to == "channel" and out.channel == channel:
                return [*outs[:n], replace(out, text=f"{note}\n{out.text}"), *outs[n + 1:]]
        return [*outs, Outgoing("channel", channel, note)]

    async def resolve_mentions(self, command: str) -> str:
        """Turn ``@nick`` in a command into ``@<id>``, the core's key for a Plurk user."""
        nicks = mentioned_nicks(command)
        if not nicks:
            return command
        ids = {
            str(user.get("nick_name", "")).lower(): uid
            for uid, user in self.users.items()
            if user.get("nick_name")
        }
        for nick in nicks:
            if nick.lower() in ids:
                continue
            try:
                data = await self.client.get_public_profile(nick)
            except PlurkError as exc:
                if exc.is_fatal:
                    raise
                log.info("plurk: @%s not resolved (%s)", nick, exc)
                continue
            info = data.get("user_info") if isinstance(data, dict) else None
            if isinstance(info, dict) and isinstance(info.get("id"), int):
                self.remember_users(info)
                ids[nick.lower()] = info["id"]
        return replace_mentions(command, ids)

    async def _report_unreadable(
        self, channel: str, plurk_id: int, message_id: str, tokens: list[str]
    ) -> None:
        """An emoticon die without a readable value: say so; never roll in its place.
        The post is recorded like a command, so a restart or resync does not say it twice."""
        if not await self.core.claim_message(PLATFORM, message_id):
            return
        locale = self.core.cached_locale(PLATFORM, channel)
        joined = "、".join(tokens) if locale.startswith("zh") else ", ".join(tokens)
        text = self.core.catalog.text(locale, "platform.plurk.unreadable_dice", tokens=joined)
        await self.outbox.put(Outgoing("channel", channel, text))

    # -- catch-up -----------------------------------------------------------------

    async def backfill(self) -> None:
        """After a feed gap: every response the followed threads received meanwhile,
        in order, from the last one seen (backfill.py) — chatter for the game log and
        commands alike; what was handled already the core drops by its message id."""
        for plurk_id, _ in self.threads.marks():
            await self._backfill_thread(plurk_id)

    async def _backfill_thread(self, plurk_id: int) -> bool:
        """The responses of one followed thread since its mark; False if a read failed."""
        async def read(offset: int) -> dict[str, Any] | None:
            data = await self._with_retries(
                "Responses/get", lambda: self.client.get_responses(plurk_id, offset))
            if not isinstance(data, dict):
                return None
            self.remember_users(data.get("friends"))
            return data

        missed = await missed_responses(read, self.threads.mark(plurk_id), MAX_RESPONSE_PAGES)
        for index, response in missed or []:
            await self.handle_response(plurk_id, response)
            self.threads.saw(plurk_id, int(response["id"]), index)
        return missed is not None

    async def catch_up(self) -> None:
        """Answer mentions from ``Alerts/getHistory`` that the feed may have missed."""
        alerts = await self._with_retries("Alerts/getHistory", self.client.alerts_history)
        if alerts is None:
            return
        wanted: dict[int, set[int | None]] = {}
        for alert in reversed(alerts):  # getHistory is newest first
            if alert.get("type") != "mentioned" or alert.get("plurk_id") is None:
                continue
            try:
                plurk_id = int(alert["plurk_id"])
                rid = alert.get("response_id")
                key = (plurk_id, int(rid) if rid is not None else None)
            except (TypeError, ValueError):
                continue
            if key in self._seen_alerts:
                continue
            wanted.setdefault(plurk_id, set()).add(key[1])
        for plurk_id, response_ids in wanted.items():
            # a followed thread is read whole from its mark: a mention in it is answered
            # in its place among the chatter, so the game log keeps the thread's order
            done = await self._backfill_thread(plurk_id) \
                if self.threads.follows(plurk_id) and None not in response_ids \
                else await self._catch_up_thread(plurk_id, response_ids)
            if done:
                self._seen_alerts.update((plurk_id, rid) for rid in response_ids)

    async def _catch_up_thread(self, plurk_id: int, response_ids: set[int | None]) -> bool:
        if None in response_ids:
            data = await self._with_retries(
                "Timeline/getPlurk", lambda: self.client.get_plurk(plurk_id)
            )
            if data is None:
                return False
            plurk = data.get("plurk") if isinstance(data, dict) else None
            self.remember_users(data.get("user") if isinstance(data, dict) else None)
            if isinstance(plurk, dict):
                await self.handle_plurk(plurk)
        wanted = {rid for rid in response_ids if rid is not None}
        if not wanted:
            return True
        responses = await self._responses(plurk_id, wanted)
        if responses is None:
            return False
        for response in sorted(responses, key=lambda r: int(r.get("id", 0))):
            if int(response.get("id", 0)) in wanted:
                await self.handle_response(plurk_id, response)
        return True

    async def _responses(self, plurk_id: int, wanted: set[int]) -> list[dict[str, Any]] | None:
        """Responses of a thread, page by page, until every wanted id is seen."""
        found: list[dict[str, Any]] = []
        seen: set[int] = set()
        offset = 0
        for _ in range(MAX_RESPONSE_PAGES):
            data = await self._with_retries(
                "Responses/get",
                lambda offset=offset: self.client.get_responses(plurk_id, offset),
            )
            if data is None:
                return None
            self.remember_users(data.get("friends"))
            page = [r for r in data.get("responses") or [] if isinstance(r, dict)]
            new = [r for r in page if int(r.get("id", 0)) not in seen]
            if not new:
                break
            for response in new:
                seen.add(int(response.get("id", 0)))
            found.extend(new)
            offset += len(page)
            if wanted <= seen:
                break
        return found

    async def _with_retries(self, what: str, call: Any) -> Any:
        """A read call tried :data:`READ_TRIES` times; None (logged) when Plurk keeps
        refusing. A fatal refusal (bad keys) is raised: it ends the adapter."""
        try:
            return await retrying(call, self._reconnect(READ_TRIES - 1))
        except PlurkError as exc:
            if exc.is_fatal:
                raise
            log.error("plurk: %s failed during catch-up: %s", what, exc)
            return None


def face_images_of(settings: PlurkSettings) -> FaceTable:
    """The faces known by image (faces.py): the operator's file, else the shipped table
    (empty). A file that cannot be read is logged and ignored: the dice still read."""
    path = settings.face_images_file
    if path is None:
        return FACE_IMAGES
    try:
        return read_face_file(path)
    except (OSError, ValueError) as exc:
        log.error("plurk: face images file not used (%s)", exc)
        return FACE_IMAGES


async def serve(core: Any, settings: Any, stop: asyncio.Event) -> None:
    """Run the Plurk adapter until ``stop`` (``settings``: Settings or PlurkSettings)."""
    protect_secrets_in_logs()
    plurk: PlurkSettings = getattr(settings, "plurk", settings)
    credentials = load_credentials(plurk)
    abort = asyncio.Event()
    async with PlurkClient(
        credentials,
        base_url=plurk.base_url,
        user_agent=plurk.user_agent,
        timeout=plurk.request_timeout,
        comet_timeout=plurk.comet_timeout,
    ) as client:
        sender = PlurkSender(
            client,
            policy_from(plurk),
            stop=abort,
            qualifier=plurk.qualifier,
            private_qualifier=plurk.private_qualifier,
            allow_emoticon_dice=plurk.emoticon_dice_in_replies,
            max_parts=plurk.max_reply_parts,
        )
        await PlurkListener(core, plurk, client, sender).run(stop, abort)
