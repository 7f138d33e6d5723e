"""`coc7` — Call of Cthulhu 7th edition, with the habits of the dice bots its
Chinese-speaking groups use (SealDice, Dice!): `.ra` `.rb` `.sc` `.en` `.coc` `.setcoc`.

Pure rules: state and an injected :class:`~rules.dice.source.DiceSource` in, frozen
result dataclasses out; no I/O, no chat text; refusals are
``RuleError("coc7.<code>", **params)`` (codes in ``docs/systems/coc7.md``).

Rule ids (``docs/systems/coc7.md``, "Rules"):

- CO-1  a d100 is a tens die and a units die, 0 and 0 reading 100
        (``rules.dice.percentile``, shared with the dice engine's ``b``/``p``)
- CO-2  ``levels.level``: critical, extreme ≤ ⌊S/5⌋, hard ≤ ⌊S/2⌋, regular ≤ S,
        failure, fumble — criticals and fumbles placed by the house rule
        (``HOUSE_RULES``, SealDice's `.setcoc` numbers 0–3)
- CO-3  ``levels.meets``: a difficulty (hard, extreme) needs that level or better
- CO-4  bonus / penalty dice: one extra tens die each, the lowest / highest kept,
        cancelling one for one, at most 3 (``checks.check``)
- CO-5  ``sanity.sanity_check``: success loses the first amount, failure the second,
        a fumble the second's maximum; SAN never below 0
- CO-6  a loss of 5 or more at once calls for an INT roll; ``madness.bout``
- CO-7  ``growth.improve``: a d100 above the skill or above 95 adds 1d10
- CO-8  ``creation.create``: 3d6×5 and (2d6+6)×5 characteristics, at most 10
- CO-9  ``vocabulary`` / ``sheet``: skills with aliases and base values;
        HP = ⌊(CON+SIZ)/10⌋, MP = ⌊POW/5⌋, SAN = POW at creation
- CO-10 ``checks.opposed``: the better level wins, a tie the higher skill; both
        failing, nobody
"""

from rules.systems.coc7.checks import Check, Opposed, check, opposed
from rules.systems.coc7.creation import (
    MAX_INVESTIGATORS,
    ORDER,
    Investigator,
    create,
    hit_points,
    magic_points,
)
from rules.systems.coc7.growth import Growth, improve
from rules.systems.coc7.levels import (
    HOUSE_RULES,
    MAX_SKILL,
    RULEBOOK,
    Difficulty,
    HouseRule,
    Level,
    house_rule,
    level,
    meets,
)
from rules.systems.coc7.madness import TABLES, Bout, bout
from rules.systems.coc7.sanity import INSANITY_LOSS, Loss, Sanity, parse_loss, sanity_check
from rules.systems.coc7.sheet import base_value, value
from rules.systems.coc7.vocabulary import (
    ATTRIBUTE_NAMES,
    ATTRIBUTES,
    BASES,
    CON,
    DEX,
    EDU,
    ENGLISH,
    HP,
    INT,
    LUCK,
    MP,
    POW,
    SAN,
    SIZ,
    STR,
    SYSTEM,
)

__all__ = [
    "ATTRIBUTES", "ATTRIBUTE_NAMES", "BASES", "CON", "DEX", "EDU", "ENGLISH",
    "HOUSE_RULES", "HP", "INSANITY_LOSS", "INT", "LUCK", "MAX_INVESTIGATORS", "MAX_SKILL",
    "MP", "ORDER", "POW", "RULEBOOK", "SAN", "SIZ", "STR", "SYSTEM", "TABLES", "Bout",
    "Check", "Difficulty", "Growth", "HouseRule", "Investigator", "Level", "Loss",
    "Opposed", "Sanity", "base_value", "bout", "check", "create", "hit_points",
    "house_rule", "improve", "level", "magic_points", "meets", "opposed", "parse_loss",
    "sanity_check", "value",
]
