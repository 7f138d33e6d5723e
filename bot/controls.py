"""Group controls: a channel's on/off switch and its ban list (issue 25, item 5).

One typed document of the table, :data:`CONTROLS` — no column of its own, so no
migration: ``off`` lists the platform channels where the bot is switched off
(`.bot off`, `.dismiss`), ``banned`` the users whose commands it ignores (`.ban`).
A channel bound to a campaign (`.campaign bind`) shares its table's ban list, as it
shares the GMs, while its switch stays its own: the document lists channels.

The dispatcher asks :func:`silenced` before it runs a command (and before it answers
one it refused from the text alone): a silenced command gets no answer, runs
nothing and enters no game log. :data:`COMMAND` (`.bot`) is the one way back: it
still runs in a channel that is off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.documents import Doc
from bot.messages import Incoming

COMMAND = "bot"
"""The command that answers while the channel is off (`.bot`, `.bot on`)."""


@dataclass
class Controls:
    off: list[str] = field(default_factory=list)
    """Platform channel ids where the bot is off."""
    banned: list[str] = field(default_factory=list)
    """User ids whose commands are ignored at this table, in the order banned."""


CONTROLS = Doc("core.controls", Controls, Controls)


def silenced(controls: Controls, incoming: Incoming, gms: list[str],
             command: str | None) -> bool:
    """Whether a command (named ``command`` once known) gets no answer: its speaker is
    banned (a GM never is), or its channel is off and it is no `.bot`."""
    if incoming.user in controls.banned and incoming.user not in gms:
        return True
    return incoming.channel in controls.off and command != COMMAND
