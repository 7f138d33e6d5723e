"""A d100 read as a tens die and a units die, with bonus and penalty dice: the kit's name
for ``rules.dice.percentile`` (one implementation, shared by the ``coc7`` checks and the
dice engine's ``b``/``p`` terms; it lives in the engine because the engine may not
import a kit).
"""

from rules.dice.percentile import MAX_EXTRA_DICE, Percentile, read, roll_percentile

__all__ = ["MAX_EXTRA_DICE", "Percentile", "read", "roll_percentile"]
