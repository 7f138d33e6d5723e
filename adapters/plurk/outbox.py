"""Replies leave Plurk's adapter through per-thread queues backed by the core's outbox.

The core stores every reply in the command's own transaction and hands it back
with ``outbox_id`` set (docs/architecture.md). Here each reply goes to the queue
of its thread — ``Outgoing.channel`` is the plurk id the command came from, so
nothing but the Outgoing is needed — and one worker per thread posts that
thread's replies in order. A flood-control wait therefore delays only its own
thread, never the listener nor the other threads.

Once Plurk accepted a reply, or refused it for good (it is then dropped and the
thread gets a short notice without its content), ``core.delivered`` removes it
from the store. A private message Plurk cannot deliver ("Must be friends", a
retry ceiling, an audience that is not one real user) goes to
``core.private_delivery_failed``, which keeps it for ``.gm pending`` and removes
it from the outbox in one transaction. A picture attached to a reply (the battle
map) is uploaded and its URL posted after the text (``PlurkSender.upload``). Plurk
takes no other file: a private message's file (the GM's copy of a game log) becomes
the text of the private plurk's responses — UTF-8 decoded, split like a reply, at
most :data:`MAX_FILE_RESPONSES` of them and then one saying the rest was cut
(``core.log.plurk_cut``); a channel message's file (the players' copy) is not posted
at all — the thread gets the text and a note that files go to the GMs privately
(``core.log.plurk_no_files``), never dozens of responses. At start,
``core.undelivered`` gives back what a stop or a crash cut off of this account's
replies (one Plurk account per process: another's wait for it), and it is sent
again; a stop therefore needs to store nothing. A crash after Plurk accepted a reply
but before ``delivered`` sends it again at the next start (at least once,
never lost), as does a stop in the middle of a split reply (its earlier parts are
posted again — for a file, a new private plurk from its first response).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from adapters.plurk.errors import PlurkError
from adapters.plurk.mute import mute_thread
from adapters.plurk.sender import Interrupted, PlurkSender, Refused
from bot.messages import Outgoing

log = logging.getLogger(__name__)

PLATFORM = "plurk"

_PLURK_ID = re.compile(r"[1-9][0-9]{0,18}")
_CORE_PLURK_USER = re.compile(r"[0-9]+|anon:.+")

#: the notice (catalog key) for a reply Plurk refused for good
REFUSED_KEY = "platform.plurk.reply_refused"
#: responses a file's text may take in a private plurk (then one saying the rest was cut)
MAX_FILE_RESPONSES = 40


def plurk_id_of(value: str | None) -> int | None:
    """A Plurk id written the one canonical way (ASCII digits, positive), else None."""
    if value is None or not _PLURK_ID.fullmatch(value):
        return None
    return int(value)


def is_plurk_user_key(user: str | None) -> bool:
    """True for a key the core can hold for a Plurk user (an id, or ``anon:…``), even
    one that cannot receive a private plurk (``0``, the bot, an anonymous handle)."""
    return user is not None and _CORE_PLURK_USER.fullmatch(user) is not None


@dataclass
class _Thread:
    queue: deque[Outgoing] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


class PlurkOutbox:
    def __init__(
        self,
        core: Any,
        sender: PlurkSender,
        *,
        on_fatal: Callable[[PlurkError], None] | None = None,
        nick_of: Callable[[str], str | None] = lambda _user: None,
    ) -> None:
        self.core = core
        self.sender = sender
        self.on_fatal = on_fatal
        self.nick_of = nick_of  # a user id's nick name, when the listener has seen it
        self.fatal: PlurkError | None = None
        self.account = ""
        """The bot's Plurk user id once known: the replies it stores are this account's,
        and it sends none of another account sharing the store (docs/scaling.md)."""
        self._threads: dict[int, _Thread] = {}
        self._stopping = False

    async def start(self) -> None:
        """Send again what the store still holds for this account (a stop or a crash
        cut it off)."""
        left = await self.core.undelivered(PLATFORM, self.account)
        if left:
            log.warning("plurk: sending %d replies left from the last run", len(left))
        for out in left:
            await self.put(out)

    async def take_over(self) -> None:
        """Queue what a process that died while this one runs left unsent (its claims'
        leases past, bot/store/outbox.py); the listener calls it every
        :data:`adapters.delivery.TAKE_OVER_EVERY` seconds."""
        left = await self.core.undelivered(PLATFORM, self.account)
        if left:
            log.warning("plurk: sending %d replies a stopped process left unsent", len(left))
        for out in left:
            await self.put(out)

    @property
    def busy_threads(self) -> int:
        return len(self._threads)

    async def put(self, out: Outgoing) -> None:
        """Queue ``out`` behind the earlier replies of its thread."""
        thread = plurk_id_of(out.channel)
        if thread is None:
            log.error("plurk: a %s message names no plurk thread; dropped", out.to)
            await self._delivered(out)
            return
        entry = self._threads.get(thread)
        if entry is None:
            entry = self._threads[thread] = _Thread()
        entry.queue.append(out)
        if entry.task is None:
            entry.task = asyncio.create_task(self._work(thread, entry), name=f"plurk-{thread}")

    async def close(self, grace: float, abort: asyncio.Event) -> None:
        """Post what is queued within ``grace`` seconds; then cut the sender short
        (``abort``). What is left stays in the core's outbox for the next start."""
        tasks = {entry.task for entry in self._threads.values() if entry.task is not None}
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=max(0.0, grace))
            if pending:
                self._stopping = True
                abort.set()
                await asyncio.gather(*pending, return_exceptions=True)
        left = sum(len(entry.queue) for entry in self._threads.values())
        if left:
            log.warning("plurk: %d replies not sent yet; they are sent at the next start", left)

    async def _work(self, thread: int, entry: _Thread) -> None:
        while entry.queue and not self._stopping and self.fatal is None:
            out = entry.queue[0]
            try:
                await self.deliver(out, thread)
            except Interrupted:
                return  # stopping: it stays in the store
            except PlurkError as exc:  # the sender raises only fatal ones and "Must be friends"
                if exc.is_fatal:
                    self._fail(exc)
                    return
                log.error("plurk: a %s message to thread %s was dropped: %s", out.to, thread, exc)
                await self._delivered(out)
            except Exception:
                log.exception("plurk: delivery failed unexpectedly in thread %s", thread)
            entry.queue.popleft()
        if not entry.queue:
            del self._threads[thread]
        else:
            entry.task = None

    def _fail(self, exc: PlurkError) -> None:
        if self.fatal is None:
            self.fatal = exc
            if self.on_fatal is not None:
                self.on_fatal(exc)

    async def deliver(self, out: Outgoing, thread: int) -> None:
        """Post one Outgoing to ``thread`` (channel) or privately; settle it in the store.
        Not when another process took over its outbox row (``core.holds``): it sends it."""
        if out.outbox_id is not None and not await self.core.holds(out):
            return
        if out.to == "channel":
            if out.secret:
                log.error("plurk: refused to post a secret message to thread %s", thread)
                await self._delivered(out)
                return
            # the player whose turn it is now is @-ed: Plurk notifies them
            mention = next(filter(None, map(self.nick_of, out.notify)), None)
            link = await self._picture(out)
            text = out.text
            if out.attachment is not None and out.attachment.kind == "file":
                # no file in a thread: the text, and where the file goes instead (a
                # table without GMs gets no GM's copy: the note must not promise one)
                no_gm = (out.data or {}).get("gm_copies") == 0
                note = self.core.catalog.text(
                    self.core.cached_locale(PLATFORM, out.channel),
                    "core.log.plurk_no_files_no_gm" if no_gm else "core.log.plurk_no_files")
                text = f"{text}\n{note}" if text.strip() else note
            try:
                await self.sender.reply(thread, text, mention, link)
            except Refused as exc:
                log.error("plurk: a reply to thread %s was dropped: %s", thread, exc)
                await self._delivered(out)
                await self._notify_refused(thread, out.channel)
                return
            if out.leave:
                await mute_thread(self.sender.client, thread)
            await self._delivered(out)
            return
        user_id = plurk_id_of(out.user)
        if user_id is None:
            if not is_plurk_user_key(out.user):
                log.error("plurk: a private message to a malformed user id was dropped")
                await self._delivered(out)
                return
            log.warning("plurk: %s cannot receive a private plurk", out.user)
            await self._private_failed(out, thread)
            return
        try:
            await self.sender.private(user_id, out.text, await self._picture(out),
                                      self._file_parts(out))
        except Refused as exc:  # incl. an unsafe audience: nothing was posted to anyone
            log.error("plurk: private message to %s not delivered: %s", user_id, exc)
            await self._private_failed(out, thread)
            return
        except PlurkError as exc:
            if not exc.is_must_be_friends:
                raise
            await self._private_failed(out, thread)
            return
        await self._delivered(out)

    async def _picture(self, out: Outgoing) -> str | None:
        """The URL of the reply's picture once uploaded; None without one (or when
        Plurk did not take it: the text goes alone)."""
        attachment = out.attachment
        if attachment is None or attachment.kind != "picture":
            return None
        return await self.sender.upload(attachment.filename, attachment.data, attachment.mime)

    def _file_parts(self, out: Outgoing) -> list[str]:
        """The responses that carry a private message's file as text (none without one);
        past :data:`MAX_FILE_RESPONSES`, a last one says the rest was cut."""
        attachment = out.attachment
        if attachment is None or attachment.kind != "file":
            return []
        locale = self.core.cached_locale(PLATFORM, out.channel)

        def cut(shown: int, total: int) -> str:
            log.warning("plurk: %s is %d responses long; only %d are posted",
                        attachment.filename, total, shown)
            return str(self.core.catalog.text(locale, "core.log.plurk_cut",
                                              shown=shown, total=total))

        return self.sender.file_parts(attachment.data.decode("utf-8", errors="replace"),
                                      MAX_FILE_RESPONSES, cut)

    async def _delivered(self, out: Outgoing) -> None:
        try:
            await self.core.delivered(out)
        except Exception:
            log.exception("plurk: could not mark a reply as delivered")

    async def _private_failed(self, out: Outgoing, thread: int) -> None:
        """Hand the undeliverable secret back to the core (kept for `.gm pending`, removed
        from the outbox); post its secret-free notice in the thread."""
        notices: Iterable[Outgoing] = await self.core.private_delivery_failed(PLATFORM, out)
        for notice in notices:
            if notice.to == "channel" and not notice.secret:
                await self._post_notice(thread, notice.text)

    async def _notify_refused(self, thread: int, channel: str) -> None:
        locale = self.core.cached_locale(PLATFORM, channel)
        await self._post_notice(thread, self.core.catalog.text(locale, REFUSED_KEY))

    async def _post_notice(self, thread: int, text: str) -> None:
        """A notice is posted once, with the sender's policy; if Plurk refuses it too, it
        is only logged (a notice never causes another notice)."""
        try:
            await self.sender.reply(thread, text)
        except Refused as exc:
            log.error("plurk: a notice to thread %s was dropped too: %s", thread, exc)
