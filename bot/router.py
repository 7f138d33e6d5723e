"""Command table: names → handlers, and the lookup of a command in a message.

Handlers register themselves with :func:`command`. Lookup takes the longest
registered name that starts the message, so `.ra觀察`, `.rh1d20` and
`.st敏捷60` work without a space, as players type them — but a Latin name must
end the word (`.rabbit` is not `.ra bbit`) unless a die follows (`.rd20`). A
message whose first word is no command is ignored (several bots often share a
QQ group, and a reply to every `.` would flood it).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.context import Context
    from bot.messages import Outgoing

Handler = Callable[["Context"], Awaitable[list["Outgoing"]]]
Precheck = Callable[[str], None]


@dataclass(frozen=True)
class Command:
    """A command: its names (first is the canonical one), handler and help key.

    ``precheck`` runs on the argument text before any database work; it raises
    to refuse input that breaks a limit, so a refusal costs no I/O.

    ``hidden`` marks a command whose very subject is secret (`.rh`, `.rah`,
    `.secret`): any refusal of it — even "開鎖 is not on your sheet" — names what
    was checked in secret, so the core sends it privately to the one who asked.
    """

    names: tuple[str, ...]
    handler: Handler
    help_key: str
    precheck: Precheck | None = None
    hidden: bool = False


_COMMANDS: dict[str, Command] = {}
_BY_LENGTH: list[str] = []


def command(*names: str, help_key: str | None = None, precheck: Precheck | None = None,
            hidden: bool = False):
    """Register the decorated handler under ``names`` (case-insensitive)."""

    def register(handler: Handler) -> Handler:
        cmd = Command(tuple(names), handler, help_key or f"help.{names[0]}", precheck, hidden)
        for name in names:
            key = name.casefold()
            if key in _COMMANDS:
                raise ValueError(f"command name {name!r} registered twice")
            _COMMANDS[key] = cmd
        _BY_LENGTH[:] = sorted(_COMMANDS, key=len, reverse=True)
        return handler

    return register


_DIE_AFTER_NAME = re.compile(r"d(?:\d|%|f\b)", re.IGNORECASE)


def _ends_at_a_boundary(name: str, rest: str) -> bool:
    """`.ra觀察`, `.rh1d20`, `.rd20` are commands; `.rabbit`, `.passive`, `.rules` are
    other words (another bot's command, or chat) and must not run `.ra`/`.pass`/`.r`."""
    if not (rest[:1].isascii() and rest[:1].isalpha() and name[-1:].isascii()):
        return True
    return _DIE_AFTER_NAME.match(rest) is not None


def resolve(body: str) -> tuple[Command, str] | None:
    """The command that starts ``body`` (the text after the prefix) and its arguments."""
    folded = body.casefold()
    for name in _BY_LENGTH:
        if folded.startswith(name) and _ends_at_a_boundary(name, folded[len(name):]):
            return _COMMANDS[name], body[len(name):].strip()
    return None


def commands() -> list[Command]:
    """Every registered command once, in registration order."""
    seen: dict[int, Command] = {}
    for cmd in _COMMANDS.values():
        seen.setdefault(id(cmd), cmd)
    return list(seen.values())


def find(name: str) -> Command | None:
    return _COMMANDS.get(name.casefold().lstrip("./"))
