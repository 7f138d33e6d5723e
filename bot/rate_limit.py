"""A per-user rate limit: a token bucket per (platform, user), kept in memory.

Each user may send ``burst`` commands at once; a command spends a token and one
comes back every ``refill_seconds``. A command that finds the bucket empty is
dropped before any work is done: the first of a run gets :data:`NOTICE` (one quiet
"slow down"), the next ones :data:`SILENT`, until the bucket is full again — then a
later flood earns one notice again. A bucket that has filled up again is the same
as none, so it is dropped: memory holds the users who spoke lately (at most
``memory`` of them, the least recently seen leaving first).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["go", "notice", "silent"]
GO: Verdict = "go"
NOTICE: Verdict = "notice"
SILENT: Verdict = "silent"

MEMORY = 10_000
"""Buckets kept at most (users who spoke lately)."""


@dataclass
class _Bucket:
    tokens: float
    at: float
    warned: bool = False


class RateLimiter:
    def __init__(self, burst: int, refill_seconds: float,
                 clock: Callable[[], float] = time.monotonic, memory: int = MEMORY) -> None:
        self.burst = burst
        self.refill_seconds = refill_seconds
        self.clock = clock
        self.memory = memory
        self._buckets: OrderedDict[tuple[str, str], _Bucket] = OrderedDict()

    def take(self, platform: str, user: str) -> Verdict:
        """Spend one of the user's tokens (:data:`GO`), or say what a dropped command
        gets: :data:`NOTICE` the first time the bucket is found empty, else
        :data:`SILENT`."""
        now = self.clock()
        self._forget_full(now)
        key = (platform, user)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
            if len(self._buckets) > self.memory:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            self._refill(bucket, now)
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return GO
        if bucket.warned:
            return SILENT
        bucket.warned = True
        return NOTICE

    def wait(self, platform: str, user: str) -> int:
        """Whole seconds until the user's next token (at least 1)."""
        bucket = self._buckets.get((platform, user))
        if bucket is None:
            return 1
        return max(1, math.ceil((1 - bucket.tokens) * self.refill_seconds))

    def __len__(self) -> int:
        return len(self._buckets)

    def _refill(self, bucket: _Bucket, now: float) -> None:
        gained = (now - bucket.at) / self.refill_seconds if self.refill_seconds > 0 \
            else float(self.burst)
        bucket.tokens = min(float(self.burst), bucket.tokens + gained)
        bucket.at = now
        if bucket.tokens >= self.burst:
            bucket.warned = False

    def _forget_full(self, now: float) -> None:
        """Drop the least recently seen buckets while they have filled up again; the
        first one that has not stops the sweep (the others wait for their turn at the
        front, and :attr:`memory` bounds them meanwhile)."""
        while self._buckets:
            key, bucket = next(iter(self._buckets.items()))
            if bucket.tokens + (now - bucket.at) / max(self.refill_seconds, 1e-9) \
                    < self.burst:
                return
            del self._buckets[key]
