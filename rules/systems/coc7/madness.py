"""CO-6 bouts of madness: `.ti` (a bout in real time, lasting 1d10 rounds) and `.li`
(a summary bout, 1d10 hours passed over). Each table has ten outcomes, written for this
bot in the rulebook's spirit; the rules name them by key, the catalogs word them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice.source import DiceSource

Kind = Literal["realtime", "summary"]

TABLES: dict[str, tuple[str, ...]] = {
    "realtime": ("blackout", "hysterics", "flight", "frozen", "lash_out", "false_ally",
                 "fixation", "babble", "phobia_now", "mania_now"),
    "summary": ("lost_memory", "robbed", "beaten", "violence", "ideology", "obsession",
                "hospital", "wandering", "phobia_new", "mania_new"),
}
"""Outcome keys by table, in order of the d10 (1 … 10)."""
UNITS: dict[str, str] = {"realtime": "rounds", "summary": "hours"}


@dataclass(frozen=True, slots=True)
class Bout:
    """The table, the d10 and the outcome it names, and the d10 of its duration."""

    kind: Kind
    roll: int
    outcome: str
    duration: int
    unit: str


def bout(source: DiceSource, kind: Kind) -> Bout:
    """Roll the outcome (d10), then its duration (d10)."""
    roll = source.roll(10)
    duration = source.roll(10)
    return Bout(kind, roll, TABLES[kind][roll - 1], duration, UNITS[kind])
