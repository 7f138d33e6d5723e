"""What the adapters tell whoever watches the running bot: each platform's connection
(connected, waiting for one, failed) and each reply's fate (sent or not).

`trpgbot run` (adapters/runner.py) installs a :class:`Watcher` for the whole run —
the health check and the metrics of adapters/ops.py — in a context variable, so every
task the adapters start inherits it and an adapter reports with one call where it
already knows (a login, a connection made or lost, a send that worked or failed),
without a new parameter through its layers. Outside `trpgbot run` (tests, the
console) nobody watches and a report does nothing; two runs in one process (tests)
each see their own watcher.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Literal, Protocol

State = Literal["connected", "waiting", "failed"]
"""An adapter's connection: ``waiting`` until it first connects and while it reconnects;
``failed``: it stopped (an error, bad credentials) and serves no table any more."""
CONNECTED: State = "connected"
WAITING: State = "waiting"
FAILED: State = "failed"


class Watcher(Protocol):
    def adapter_state(self, platform: str, state: State) -> None: ...

    def reply(self, platform: str, *, sent: bool) -> None: ...


_WATCHER: ContextVar[Watcher | None] = ContextVar("trpgbot_watcher", default=None)


@contextlib.contextmanager
def watched_by(watcher: Watcher) -> Iterator[None]:
    """Within the block (and in every task started in it), reports reach ``watcher``."""
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


def report_state(platform: str, state: State) -> None:
    """``platform``'s adapter is connected, waiting for a connection, or failed."""
    watcher = _WATCHER.get()
    if watcher is not None:
        watcher.adapter_state(platform, state)


def report_reply(platform: str, *, sent: bool) -> None:
    """A reply reached ``platform`` (``sent``), or the platform refused it."""
    watcher = _WATCHER.get()
    if watcher is not None:
        watcher.reply(platform, sent=sent)
