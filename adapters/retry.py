"""One retry policy for the adapters, on tenacity: which failures are tried again, how
long to wait between the tries, and when to give up.

A :class:`Backoff` says how one kind of failure is retried: waits doubling from
``base`` up to ``maximum`` (base, 2·base, 4·base, …: tenacity's ``wait_exponential``),
at most ``retries`` of them (None: until the call works or the adapter stops).
:func:`retrying` runs a call under a classification, ``backoff_for(exception)``: the
kind's Backoff, or None for a failure raised at once. Each kind counts its own
failures — a flood-control wait does not use up the retries of a network error —
and once a kind's retries are used up its last failure is raised.

The sleep is injected: the adapters pass one that gives way to their stop event
(and raises), tests one that records the waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, wait_exponential

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
OnWait = Callable[[BaseException, int, float], None]
"""Told before each wait: the failure, how many of its kind so far, the seconds."""


@dataclass(frozen=True, eq=False)  # eq=False: two kinds with equal numbers count apart
class Backoff:
    base: float
    maximum: float
    retries: int | None = None
    """Waits before giving up (None: never give up)."""
    _wait: wait_exponential = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_wait", wait_exponential(multiplier=self.base,
                                                           max=self.maximum))

    def delay(self, failures: int) -> float:
        """The wait after the ``failures``-th failure of this kind (the first: ``base``)."""
        state = RetryCallState(AsyncRetrying(), None, (), {})
        state.attempt_number = failures
        return float(self._wait(state))

    def gives_up(self, failures: int) -> bool:
        return self.retries is not None and failures > self.retries


async def retrying(call: Callable[[], Awaitable[T]],
                   backoff_for: Callable[[BaseException], Backoff | None], *,
                   sleep: Sleep = asyncio.sleep, on_wait: OnWait | None = None) -> T:
    """``await call()`` until it returns, retrying the failures ``backoff_for`` names."""
    failures: dict[Backoff, int] = {}

    def failed(state: RetryCallState) -> tuple[BaseException, Backoff, int]:
        assert state.outcome is not None
        error = state.outcome.exception()
        assert error is not None
        kind = backoff_for(error)
        assert kind is not None  # only the failures it names are retried
        return error, kind, failures.get(kind, 0)

    def count(state: RetryCallState) -> None:
        _, kind, seen = failed(state)
        failures[kind] = seen + 1

    def wait(state: RetryCallState) -> float:
        _, kind, seen = failed(state)
        return kind.delay(seen)

    def stop(state: RetryCallState) -> bool:
        _, kind, seen = failed(state)
        return kind.gives_up(seen)

    def tell(state: RetryCallState) -> None:
        if on_wait is not None:
            error, _, seen = failed(state)
            on_wait(error, seen, state.upcoming_sleep)

    async def attempt() -> T:  # tenacity awaits what a coroutine function returns only
        return await call()

    retryer = AsyncRetrying(
        sleep=sleep, retry=retry_if_exception(lambda error: backoff_for(error) is not None),
        after=count, wait=wait, stop=stop, before_sleep=tell, reraise=True)
    return await retryer(attempt)
