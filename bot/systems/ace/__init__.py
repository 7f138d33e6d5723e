"""The `ace` rule system (王牌進化, the nightmare world) on the chat side: its plugin.

Its commands in ``commands/`` parse arguments, decide permissions and render; every
rule is ``rules.systems.ace``'s. Around them, one concern a module:

- ``table``: the command table;
- ``documents``: the typed state documents (options, extended actions, enemies, the
  fight, each character's nightmare mark), read and written with ``ctx.uow``;
- ``state``: "who is this name" — a character or a GM's enemy — with its HP and its
  fighter as the fight has it;
- ``sheet``: the numbers a sheet gives a check or a fight (AE-1 … AE-12);
- ``args`` / ``words``: numbers, options and command words as players type them;
- ``text``: how results read, and the data of every reply.
"""

from pathlib import Path

from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.ace import commands
from bot.systems.ace.documents import DOCUMENTS
from bot.systems.ace.state import hp_within_bounds
from rules.systems import ace as rules

PLUGIN = SystemPlugin(
    game=rules.SYSTEM,
    commands=CommandTable.collect("ace", commands),
    verbs={"check": "ra", "initiative": "ri"},
    help_first=("ra", "rah", "ext", "atk"),
    sheet_guard=hp_within_bounds,
    documents=DOCUMENTS,
    locales=Path(__file__).with_name("locales"),
)
