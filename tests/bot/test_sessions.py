"""The BCDice-style session runner: every case of tests/bot/sessions/*.toml through a real
``Core``.

One table per rule system (``<id>.toml``) and ``common.toml`` for the commands every
system has. Each ``[[case]]`` has a ``name``, optional ``system`` and ``locale`` (a file
may set both at its top for all its cases), optional ``setup`` steps (played, replies not
compared) and its ``steps``. A step is ``{ user, input, rands, output }``:

- ``user`` speaks ``input`` in the case's channel (platform ``console``);
- ``rands`` are the dice the random source gives, in order (none when left out): a step
  that rolls one die more fails at that die, one that leaves a die unused fails too;
- ``output`` is the exact reply text (one channel message), or a list of every reply in
  order: a string is a public channel message, a table says where a reply goes and
  what else it carries (``{ to = "private", user = "keeper", secret = true, text = "…" }``;
  ``file = "…"`` for an attachment's name). A step whose reply is ``[]`` says nothing.

Each case plays on a fresh store. A wrong step fails naming the file, the case, the
step's number and its line, with the expected and the actual replies.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.core import Core
from bot.messages import Incoming, Outgoing
from rules.dice.source import ScriptedSource
from tests.support import NoMoreDice, Table

SESSIONS = Path(__file__).parent / "sessions"
SETUP_USER = "gm"
"""Who types a case's ``system`` and ``locale`` before its steps (no GM is seated yet,
so anyone may)."""

Reply = str | dict[str, Any]


@dataclass(frozen=True)
class Case:
    file: str
    spec: dict[str, Any]
    defaults: dict[str, Any]

    @property
    def id(self) -> str:
        slug = re.sub(r"[^0-9A-Za-z+]+", "-", self.spec["name"]).strip("-").lower()
        return f"{self.file}-{slug}"

    def setting(self, key: str) -> str | None:
        value = self.spec.get(key, self.defaults.get(key))
        return None if value is None else str(value)


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(SESSIONS.glob("*.toml")):
        with path.open("rb") as handle:
            table = tomllib.load(handle)
        defaults = {key: table[key] for key in ("system", "locale") if key in table}
        cases.extend(Case(path.name, spec, defaults) for spec in table.get("case", []))
    return cases


CASES = load_cases()


def shown(out: Outgoing) -> Reply:
    """A reply as a table writes it: its text alone when it is a plain channel message."""
    extra: dict[str, Any] = {}
    if out.to != "channel":
        extra["to"] = out.to
    if out.user is not None:
        extra["user"] = out.user
    if out.secret:
        extra["secret"] = True
    if out.attachment is not None:
        extra["file"] = out.attachment.filename
    return {**extra, "text": out.text} if extra else out.text


def expected(output: str | list[Reply]) -> list[Reply]:
    return [output] if isinstance(output, str) else list(output)


class Overdrawn(NoMoreDice):
    """:class:`NoMoreDice` that also remembers the dice it refused: the dispatcher turns
    the failure inside a command into an internal-error reply, and the step must fail on
    the die, not on that reply."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def roll(self, faces: int) -> int:
        self.asked.append(faces)
        return super().roll(faces)


async def play(table: Table, step: dict[str, Any], where: str) -> list[Reply]:
    overdrawn = Overdrawn()
    dice = ScriptedSource(step.get("rands", []), fallback=overdrawn)
    incoming = Incoming(table.platform, table.channel, step["user"], step["input"],
                        display_name=step["user"])
    outs = await table.core.handle(incoming, dice=dice)
    assert not overdrawn.asked, (
        f"{where}: rolled a d{overdrawn.asked[0]} beyond its rands {step.get('rands', [])}")
    assert dice.remaining == 0, f"{where}: {dice.remaining} of its rands unused"
    return [shown(out) for out in outs]


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
async def test_session(case: Case, core: Core) -> None:
    table = Table(core)
    head = f"{case.file} case {case.spec['name']!r}"
    for key in ("locale", "system"):
        value = case.setting(key)
        if value is not None:
            command = {"locale": ".lang", "system": ".system"}[key]
            replies = await play(table, {"user": SETUP_USER, "input": f"{command} {value}"},
                                 f"{head} {key}")
            assert not any(isinstance(r, str) and r.startswith("⚠") for r in replies), replies
    for number, step in enumerate(case.spec.get("setup", []), 1):
        await play(table, step, f"{head} setup step {number}")
    for number, step in enumerate(case.spec["steps"], 1):
        where = f"{head} step {number} ({step['user']}: {step['input']})"
        actual = await play(table, step, where)
        want = expected(step["output"])
        assert actual == want, f"{where}\n  expected: {want!r}\n  actual:   {actual!r}"


def test_every_step_is_well_formed() -> None:
    allowed = {"user", "input", "rands", "output"}
    wrong = [(case.id, step) for case in CASES
             for step in case.spec["steps"] + case.spec.get("setup", [])
             if not {"user", "input"} <= set(step) <= allowed
             or (step in case.spec["steps"] and "output" not in step)]
    assert wrong == []


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
