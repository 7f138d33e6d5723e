"""The `coc7` rule system (Call of Cthulhu 7th edition) on the chat side.

Its commands in ``commands/`` parse arguments, read sheets and render; every rule is
``rules.systems.coc7``'s:

- ``checks``: `.ra` / `.rc`, `.rah`, `.secret`, `.rb` / `.rp`, `.rav` (CO-1 … CO-4, CO-10);
- ``sanity``: `.sc`, `.ti`, `.li` (CO-5, CO-6);
- ``growth``: `.en`, `.coc` (CO-7, CO-8);
- ``options``: `.setcoc` (the house rule, CO-2), which `.system` shows.

Around them: ``args`` (a check line), ``sheet`` (values, base values and the `.st`
guard that fills in HP / MP / SAN, CO-9), ``text`` (replies and their data) and
``documents`` (the house rule).
"""

from pathlib import Path

from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.coc7 import commands
from bot.systems.coc7.commands.options import describe
from bot.systems.coc7.documents import DOCUMENTS
from bot.systems.coc7.sheet import fill_in
from rules.systems import coc7 as rules

PLUGIN = SystemPlugin(
    game=rules.SYSTEM,
    commands=CommandTable.collect("coc7", commands),
    verbs={"check": "ra"},
    help_first=("ra", "rah", "rb", "rp", "sc", "en", "coc"),
    sheet_guard=fill_in,
    documents=DOCUMENTS,
    locales=Path(__file__).with_name("locales"),
    describe=describe,
)
