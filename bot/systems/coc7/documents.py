"""The state documents of the `coc7` system: the table's house rule (`.setcoc`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.documents import Doc


@dataclass(frozen=True)
class Options:
    """The house rule the table plays (SealDice's `.setcoc` number; 0: the rulebook)."""

    house_rule: int = 0


OPTIONS = Doc("coc7.options", Options, Options)

DOCUMENTS = (OPTIONS,)
