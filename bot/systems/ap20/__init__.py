"""The `ap20` rule system (規則書·戰鬥篇: action points and a d20) on the chat side.

Its commands in ``commands/`` parse arguments, decide permissions and render; every
rule is ``rules.systems.ap20``'s:

- ``fight``: `.init` (the encounter kit's join / add / start / next / list / end /
  remove, and set / reveal) and `.pass` — the fight on the turn kit, the fallen passed
  over, action points refilled at each turn's start (AP-1);
- ``actions``: `.ap` — action points, 精神力 for casts, doubled stamina for a maneuver;
- ``attack``: `.atk` (AP-2 … AP-7, AP-9) and `.dmg` (AP-9);
- ``checks``: `.ra` (AP-8 tier), `.save` / `.dc` (AP-5), `.def` (AP-2).

Around them: ``table`` (the command table), ``documents`` (the fight), ``state`` (the
stored fight and the sheets behind it, and the hooks a tactical layer calls:
``bot.kits.layers.ROSTER`` / ``CHARGE``), ``args`` and ``text``. A layer played on
ap20 (`.system ap20+v6`) answers ``bot.kits.layers.ATTACK`` for every `.atk`.
"""

from pathlib import Path

from bot.kits.layers import CHARGE, ROSTER
from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.ap20 import commands
from bot.systems.ap20.documents import DOCUMENTS
from bot.systems.ap20.sheet import hp_on_the_sheet
from bot.systems.ap20.state import charge_hook, roster_hook
from rules.systems import ap20 as rules

PLUGIN = SystemPlugin(
    game=rules.SYSTEM,
    commands=CommandTable.collect("ap20", commands),
    verbs={"check": "ra", "initiative": "init"},
    help_first=("init", "ap", "atk", "save"),
    sheet_guard=hp_on_the_sheet,
    documents=DOCUMENTS,
    locales=Path(__file__).with_name("locales"),
    hooks={ROSTER: roster_hook, CHARGE: charge_hook},
)
