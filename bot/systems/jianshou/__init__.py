"""The `jianshou` rule system (劍手, a wuxia card duel) on the chat side: its plugin.

Its commands in ``commands/`` parse arguments, decide permissions and render; every
rule is ``rules.systems.jianshou``'s. Around them, one concern a module:

- ``table``: the command table;
- ``documents``: the typed state documents (the game, the loaded deck, a pasted draft);
- ``state``: the game read and written, and the guard that a channel plays jianshou;
- ``decks``: the sample deck (package data of the rules) and the table's deck;
- ``args``: players, cards, levels and "no" as players type them;
- ``text``: cards, hands (private only), the public table, turns and refusals.

Privacy: a hand is only ever in a private message (``text.hand_private``); the data
of a channel message is ``text.public`` — counts of hands and decks, never a card of
them. Cards become public as they are played.
"""

from pathlib import Path

from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.jianshou import commands
from bot.systems.jianshou.documents import DOCUMENTS
from rules.systems import jianshou as rules

PLUGIN = SystemPlugin(
    game=rules.SYSTEM,
    commands=CommandTable.collect("jianshou", commands),
    verbs={"initiative": "init"},  # Discord's /init: the shared fight words (issue 24)
    help_first=("js", "init", "hand", "attack"),
    documents=DOCUMENTS,
    locales=Path(__file__).with_name("locales"),
)
