"""The adapters' one retry policy (adapters/retry.py, on tenacity), with an injected
sleep: which failures are retried, the waits, the give-up — and the Plurk sender's
documented policy on it (docs/plurk.md: anti-flood 60+120+240+480+900+900 s, five
tries of a network error, one marked resend of the same content)."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.plurk.errors import PlurkError
from adapters.plurk.listener import policy_from
from adapters.plurk.sender import SAME_CONTENT_MARKER, PlurkSender, Refused
from adapters.plurk.settings import PlurkSettings
from adapters.retry import Backoff, retrying


class Waits:
    """A sleep that records instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


class Flaky:
    """Fails with each of ``failures`` in turn, then answers ``done``."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "done"


class Busy(Exception):
    pass


class Down(Exception):
    pass


BUSY, DOWN = Backoff(60, 900, retries=6), Backoff(5, 300, retries=4)


def kinds(error: BaseException) -> Backoff | None:
    return {Busy: BUSY, Down: DOWN}.get(type(error))


async def test_each_kind_waits_by_its_own_count() -> None:
    waits, call = Waits(), Flaky(Busy(), Down(), Busy(), Down(), Busy())
    told: list[tuple[str, int, float]] = []
    assert await retrying(call, kinds, sleep=waits, on_wait=lambda error, tries, delay:
                          told.append((type(error).__name__, tries, delay))) == "done"
    assert call.calls == 6
    assert waits.delays == [60, 5, 120, 10, 240]
    assert told == [("Busy", 1, 60), ("Down", 1, 5), ("Busy", 2, 120), ("Down", 2, 10),
                    ("Busy", 3, 240)]


async def test_a_kind_gives_up_after_its_retries_with_its_last_failure() -> None:
    waits, call = Waits(), Flaky(*[Busy(str(n)) for n in range(10)])
    with pytest.raises(Busy, match=r"^6$"):
        await retrying(call, kinds, sleep=waits)
    assert waits.delays == [60, 120, 240, 480, 900, 900] and call.calls == 7


async def test_an_unnamed_failure_is_raised_at_once() -> None:
    waits, call = Waits(), Flaky(KeyError("x"))
    with pytest.raises(KeyError):
        await retrying(call, kinds, sleep=waits)
    assert waits.delays == [] and call.calls == 1


async def test_without_a_limit_it_tries_until_the_call_works() -> None:
    forever = Backoff(2, 30)
    waits, call = Waits(), Flaky(*[Busy() for _ in range(8)])
    assert await retrying(call, lambda _: forever, sleep=waits) == "done"
    assert waits.delays == [2, 4, 8, 16, 30, 30, 30, 30]


class Refusing:
    """A Plurk that refuses each post with the next error, then takes it."""

    def __init__(self, *errors: PlurkError) -> None:
        self.errors = list(errors)
        self.posted: list[str] = []

    async def response_add(self, plurk_id: int, content: str, qualifier: str = ":") -> Any:
        self.posted.append(content)
        if self.errors:
            raise self.errors.pop(0)
        return {"id": len(self.posted)}


def sender(client: Refusing, waits: Waits) -> PlurkSender:
    return PlurkSender(client, policy_from(PlurkSettings(min_post_interval=0)),  # type: ignore[arg-type]
                       sleep=waits)


FLOOD = PlurkError(400, "anti-flood-too-many-new")
NETWORK = PlurkError(0, "timeout")
SAME = PlurkError(400, "anti-flood-same-content")


async def test_plurk_waits_out_flood_control_in_minutes_then_drops() -> None:
    waits, client = Waits(), Refusing(*[FLOOD] * 7)
    with pytest.raises(Refused, match="flood control"):
        await sender(client, waits).reply(1, "好")
    assert waits.delays == [60, 120, 240, 480, 900, 900] and len(client.posted) == 7


async def test_plurk_tries_a_network_error_five_times() -> None:
    waits, client = Waits(), Refusing(*[NETWORK] * 5)
    with pytest.raises(Refused, match="failed 5 times"):
        await sender(client, waits).reply(1, "好")
    assert waits.delays == [5, 10, 20, 40] and len(client.posted) == 5


async def test_flood_waits_do_not_use_up_the_network_tries() -> None:
    waits, client = Waits(), Refusing(NETWORK, FLOOD, NETWORK, FLOOD, NETWORK, NETWORK)
    assert await sender(client, waits).reply(1, "好") == [{"id": 7}]
    assert waits.delays == [5, 60, 10, 120, 20, 40]


async def test_the_same_content_is_resent_once_at_once_with_a_marker() -> None:
    waits, client = Waits(), Refusing(SAME)
    assert await sender(client, waits).reply(1, "好") == [{"id": 2}]
    assert client.posted == ["好", "好" + SAME_CONTENT_MARKER] and waits.delays == [0]
    waits, client = Waits(), Refusing(SAME, FLOOD, SAME)
    with pytest.raises(Refused, match="same content"):
        await sender(client, waits).reply(1, "好")
    assert client.posted == ["好"] + ["好" + SAME_CONTENT_MARKER] * 2
    assert waits.delays == [0, 60]


@pytest.mark.parametrize("error", [PlurkError(400, "must be friends"),
                                   PlurkError(400, "40106:invalid access token")])
async def test_what_the_outbox_acts_on_is_never_retried(error: PlurkError) -> None:
    waits, client = Waits(), Refusing(error)
    with pytest.raises(PlurkError) as raised:
        await sender(client, waits).reply(1, "好")
    assert raised.value is error and waits.delays == [] and len(client.posted) == 1
