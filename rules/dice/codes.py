"""Every ``RuleError`` code the dice engine raises, with the names of its params.

The bot's message catalogs need one ``error.<code>`` entry per code; a catalog
test can iterate over :data:`ERROR_CODES` so that a new code cannot ship
without its translations. ``docs/dice.md`` explains each one.
"""

from __future__ import annotations

ERROR_CODES: dict[str, tuple[str, ...]] = {
    # syntax
    "dice.empty": (),
    "dice.unexpected": ("position", "found"),
    "dice.unexpected_end": ("position",),
    "dice.unclosed_paren": ("position",),
    "dice.unmatched_paren": ("position",),
    "dice.duplicate_modifier": ("position", "modifier"),
    "dice.glued_letters": ("position", "found"),
    "dice.adv_not_last": ("position", "found"),
    "dice.unsupported": ("position", "found"),
    # meaning
    "dice.no_dice": ("count",),
    "dice.bad_faces": ("faces",),
    "dice.bad_repeat": ("repeats",),
    "dice.explode_always": ("notation",),
    "dice.reroll_always": ("notation",),
    "dice.adv_needs_one_d20": ("word", "count"),
    "dice.division_by_zero": (),
    "dice.bad_again_line": ("line",),
    "dice.bad_threshold": ("threshold",),
    "dice.too_many_bonus_dice": ("count", "max"),
    # limits
    "dice.too_long": ("length", "max"),
    "dice.too_deep": ("depth", "max"),
    "dice.too_many_dice": ("count", "max"),
    "dice.too_many_faces": ("faces", "max"),
    "dice.too_many_repeats": ("repeats", "max"),
    "dice.too_many_rolls": ("rolls", "max"),
    # raised by rules.dice.source.ScriptedSource
    "dice.script_out_of_range": ("value", "faces"),
}
