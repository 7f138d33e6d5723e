"""The `v6` layer (站位与姿势: positioning and posture) on the chat side.

v6 is a tactical layer: a channel plays it on top of `ap20` (`.system ap20+v6`), never
alone (``layer_of``). Its commands (``commands/field.py``: `.place .face .pose .move
.shove .map .fatigue`) keep the field; the fight itself — who fights, on which side,
whose turn, the action points a posture change costs — is the base's, reached through
``bot.kits.layers`` (``ROSTER``, ``CHARGE``). For every `.atk` of the base it answers
``ATTACK`` (``state.attack_hook``): posture layers, a back attack that cannot be
defended, a flank that is a sneak attack. It never imports ap20.
"""

from pathlib import Path

from bot.kits.layers import ATTACK
from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.v6 import commands
from bot.systems.v6.documents import DOCUMENTS
from bot.systems.v6.state import attack_hook
from rules.systems import v6 as rules

PLUGIN = SystemPlugin(
    game=rules.SYSTEM,
    commands=CommandTable.collect("v6", commands),
    help_first=("place", "move", "pose", "face", "map"),
    documents=DOCUMENTS,
    locales=Path(__file__).with_name("locales"),
    layer_of=("ap20",),
    hooks={ATTACK: attack_hook},
)
