"""The `plurk` rule system (噗浪式 TRPG) on the chat side: its plugin.

Its commands in ``commands/`` parse arguments, decide permissions and render;
every rule is ``rules.systems.plurk_trpg``'s. What several commands need around that
lives here, one concern a module, so that the check, point and battle commands
behave alike:

- ``system``: the sheet names the system declares (體力, 理智 …) and the guard
  that a channel plays plurk;
- ``table``: the command table, whose replies that announce a turn notify the next
  player;
- ``documents``: the typed state documents (last checks, AP, fatal events, consent,
  battle and its setup);
- ``characters``: the numbers on an investigator's sheet (which character a command
  names is the kit's, ``bot.kits.references``);
- ``fatal``: the pending fatal events of PL-12 and how they are settled;
- ``terms`` / ``check_args``: the words of a check as players type them;
- ``check_records``: the last check of each player, and what of a hidden one may
  reach the channel;
- ``rendering``: checks as the channel reads them;
- ``battle_*``: the battle's stored state, its arguments, roster and texts.
"""

from pathlib import Path

from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.plurk_trpg import commands
from bot.systems.plurk_trpg.commands.points import guard_sheet
from bot.systems.plurk_trpg.documents import DOCUMENTS
from rules.systems import plurk_trpg as rules

PLUGIN = SystemPlugin(
    game=rules.SYSTEM,
    commands=CommandTable.collect("plurk", commands),
    verbs={"check": "ra", "initiative": "battle"},
    help_first=("ra", "rah"),
    sheet_guard=guard_sheet,
    documents=DOCUMENTS,
    locales=Path(__file__).with_name("locales"),
)
