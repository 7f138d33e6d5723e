"""What a thread said while the realtime feed was down, so a game log has no holes.

The comet channel carries only what happens while it is open: after a reconnect or a
resync (a *gap*) the responses posted meanwhile never arrive. The listener therefore
remembers, for each thread it follows, the last response it handled (and where that
response stood in the thread), and after a gap reads ``Responses/get`` from there on.
What it reads again is harmless: every post reaches the core under its message id
(``"r<response id>"``), and the core drops an id it has already recorded.

``Responses/get`` takes ``from_response`` as an *offset* into the thread (PLURK.md),
not an id. Where the last seen response stands is known exactly when it was read
through ``Responses/get``; from the feed it is taken from the event's
``response_count`` (unconfirmed: :func:`index_from_event`). A deletion moves responses
to lower offsets, so a first page that starts *after* the last seen response is not
trusted and the thread is read from its start (:func:`resume_offset`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

MAX_FOLLOWED = 100
"""Threads remembered (the most recently active ones): a gap costs one read of each."""


@dataclass(frozen=True, slots=True)
class Mark:
    """The last response handled in a thread and its offset there, if known."""

    response_id: int = 0
    index: int | None = None


def index_from_event(event: dict[str, Any]) -> int | None:
    """Offset of a ``new_response`` event's response: its ``response_count`` − 1.

    Unconfirmed: that the count includes this response (the fake and public clients'
    events say so). A wrong guess only costs a read from the thread's start."""
    count = event.get("response_count")
    return count - 1 if isinstance(count, int) and count > 0 else None


def resume_offset(mark: Mark) -> int:
    """Where to read a thread from: the last seen response's own offset (it is read
    again, so the page proves nothing was skipped before it)."""
    return mark.index if mark.index is not None else 0


class FollowedThreads:
    """The threads whose conversation the bot follows, and how far it has read each."""

    def __init__(self, limit: int = MAX_FOLLOWED) -> None:
        self._marks: OrderedDict[int, Mark] = OrderedDict()
        self._limit = limit

    def follow(self, plurk_id: int) -> None:
        """A thread the bot answers in (a command plurk): followed from its start."""
        if plurk_id not in self._marks:
            self._put(plurk_id, Mark())

    def saw(self, plurk_id: int, response_id: int, index: int | None = None) -> None:
        mark = self._marks.get(plurk_id, Mark())
        if response_id >= mark.response_id:
            mark = Mark(response_id, index)
        self._put(plurk_id, mark)

    def follows(self, plurk_id: int) -> bool:
        return plurk_id in self._marks

    def mark(self, plurk_id: int) -> Mark:
        return self._marks.get(plurk_id, Mark())

    def marks(self) -> list[tuple[int, Mark]]:
        return list(self._marks.items())

    def _put(self, plurk_id: int, mark: Mark) -> None:
        self._marks[plurk_id] = mark
        self._marks.move_to_end(plurk_id)
        while len(self._marks) > self._limit:
            self._marks.popitem(last=False)


ReadPage = Callable[[int], Awaitable[dict[str, Any] | None]]


async def missed_responses(
    read: ReadPage, mark: Mark, max_pages: int
) -> list[tuple[int, dict[str, Any]]] | None:
    """``(offset, response)`` of every response after ``mark``, oldest first; None when
    a read failed (the caller tries again at the next gap). ``read(offset)`` is one
    ``Responses/get`` call (its data, or None)."""
    start = resume_offset(mark)
    found: list[tuple[int, dict[str, Any]]] = []
    offset = start
    for _ in range(max_pages):
        data = await read(offset)
        if data is None:
            return None
        page = [r for r in data.get("responses") or [] if isinstance(r, dict)]
        if offset == start and start > 0 and mark.response_id \
                and (not page or _id(page[0]) > mark.response_id):
            return await missed_responses(read, Mark(mark.response_id), max_pages)
        if not page:
            break
        found.extend((offset + n, r) for n, r in enumerate(page) if _id(r) > mark.response_id)
        offset += len(page)
    return found


def _id(response: dict[str, Any]) -> int:
    try:
        return int(response.get("id", 0))
    except (TypeError, ValueError):
        return 0
