"""A deck file, parsed: its lists, the names `.draw` may draw, its title.

The format is SealDice's JSON deck (the Dice! format, ``tryParseDiceE`` in
sealdice-core's ``dice/ext_deck.go``):

- an object mapping a list's name to a list of texts;
- an entry may start with ``::n::``: it weighs ``n`` (default 1; 0 is never drawn);
- ``{name}`` in an entry is replaced by a draw from the list ``name`` of the same
  file *without* putting back, ``{%name}`` (also written ``{%name%}`` here) *with*
  putting back, ``{$name}`` as ``{name}``; ``{player}``, ``【name】`` and ``[name]``
  by the drawer's name;
- a name starting with ``_`` is drawn only through references (``_title``,
  ``_author``, ``_version``, ``_brief`` … describe the file and may be one text);
  ``_keys`` lists the names ``.draw keys`` shows (the others stay drawable),
  ``_export`` / ``_exports`` the only names ``.draw`` may draw.

Every refusal names the file and the line (the JSON decoder's position for a syntax
error; the line of the list's name otherwise), so an operator finds it at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.dice import Limits, Parsed, parse, split_expression
from rules.errors import RuleError

MAX_WEIGHT = 1_000_000
"""The heaviest entry: weights are relative, a million to one is already "never"."""

_WEIGHT = re.compile(r"^::(\d+)::")
#: SealDice's reference: ``{`` an optional ``$``/``%``, the shortest name, ``}``; the
#: drawer's name; a dice expression in brackets.
_REFERENCE = re.compile(r"\{([$%]?)([^\n]+?)\}|【name】|\[name\]|\[([^\[\]\n]+)\]")
DICE_LIMITS = Limits(max_dice=20, max_faces=1000, max_repeats=1, max_length=50,
                     max_depth=8, max_rolls=20, max_rerolls=20)
"""What a ``[1d6]`` inside an entry may roll: a few dice, every one counted as a pick
before the draw (:mod:`rules.decks.bounds`)."""


@dataclass(frozen=True)
class Ref:
    """A draw from another list of the file: ``replace`` puts the entry back
    (``{%name}``), otherwise it is gone for the rest of the command (``{name}``)."""

    name: str
    replace: bool


@dataclass(frozen=True)
class Roll:
    """A dice expression in an entry (``[3d6*5]``), replaced by its total."""

    expression: str
    parsed: Parsed = field(compare=False, repr=False)


class _Player:
    """Where the drawer's name goes (``{player}``, ``【name】``, ``[name]``)."""

    def __repr__(self) -> str:
        return "PLAYER"


PLAYER = _Player()

Part = str | Ref | Roll | _Player


@dataclass(frozen=True)
class Entry:
    weight: int
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Deck:
    """One deck file. ``keys`` maps each name `.draw` may draw to whether `.draw keys`
    shows it; ``unknown`` lists references to no list of the file, with their lines
    (shown as typed, as SealDice shows an unknown deck)."""

    source: str
    title: str
    lists: Mapping[str, tuple[Entry, ...]]
    keys: Mapping[str, bool]
    author: str = ""
    version: str = ""
    unknown: tuple[tuple[int, str], ...] = field(default=())

    def shown(self) -> list[str]:
        """The names `.draw keys` lists, in the file's order."""
        return [name for name, visible in self.keys.items() if visible]


def parse_deck(text: str, source: str) -> Deck:
    """The deck in ``text`` (the file ``source``, named in every refusal)."""
    text = text.removeprefix("\ufeff")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise RuleError("decks.not_json", file=source, line=error.lineno,
                        column=error.colno) from None
    except RecursionError:
        raise RuleError("decks.not_json", file=source, line=1, column=1) from None
    if not isinstance(raw, dict):
        raise RuleError("decks.not_object", file=source, line=1)
    lists: dict[str, tuple[Entry, ...]] = {}
    meta: dict[str, str] = {}
    for name, value in raw.items():
        if name.startswith("_") and not isinstance(value, list):
            if isinstance(value, str):  # a description written as one text
                meta[name] = value
            continue  # a description of another kind (a number, an object): not a list
        if not isinstance(value, list):
            raise RuleError("decks.not_a_list", file=source, line=line_of(text, name),
                            name=name)
        if not all(isinstance(item, str) for item in value):
            raise RuleError("decks.not_text", file=source, line=line_of(text, name),
                            name=name)
        if name.startswith("_"):
            meta.setdefault(name, " / ".join(value))
        lists[name] = tuple(_entry(item, source, text, name) for item in value)
    keys = _keys(raw, lists)
    resolved = {name: tuple(_resolve(entry, lists) for entry in entries)
                for name, entries in lists.items()}
    drawn = set(keys) | {part.name for entries in resolved.values() for entry in entries
                         for part in entry.parts if isinstance(part, Ref)}
    for name in drawn:
        _check_list(name, resolved[name], source, text)
    unknown = tuple((line_of(text, name), part.name) for name, entries in lists.items()
                    for entry in entries for part in entry.parts
                    if isinstance(part, Ref) and _target(part, lists) is None)
    return Deck(source, meta.get("_title") or source.rsplit(".", 1)[0], resolved, keys,
                meta.get("_author", ""), meta.get("_version", ""), unknown)


def _check_list(name: str, entries: tuple[Entry, ...], source: str, text: str) -> None:
    """A list that can be drawn (by `.draw` or a reference) has an entry that can come
    up (descriptions such as an empty ``_updateUrls`` are never drawn, never checked)."""
    if not entries:
        raise RuleError("decks.empty_list", file=source, line=line_of(text, name),
                        name=name)
    if not any(entry.weight for entry in entries):
        raise RuleError("decks.no_weight", file=source, line=line_of(text, name),
                        name=name)


def _keys(raw: Mapping[str, object], lists: Mapping[str, object]) -> dict[str, bool]:
    """SealDice's rule: ``_export(s)`` names the only drawable lists; ``_keys`` the
    shown ones (every other name not starting with ``_`` stays drawable, unshown);
    without either, every name not starting with ``_``."""
    exports = raw.get("_export", raw.get("_exports"))
    shown = raw.get("_keys")
    keys: dict[str, bool] = {}
    for name in (*_texts(exports), *_texts(shown)):
        if name in lists:
            keys[name] = True
    if exports is None:
        for name in lists:
            if not name.startswith("_"):
                keys.setdefault(name, shown is None)
    return keys


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _entry(item: str, source: str, text: str, name: str) -> Entry:
    weight = 1
    match = _WEIGHT.match(item)
    if match is not None:
        weight = int(match.group(1)) if len(match.group(1)) <= 7 else MAX_WEIGHT + 1
        if weight > MAX_WEIGHT:
            raise RuleError("decks.weight_too_large", file=source,
                            line=line_of(text, name), name=name, limit=MAX_WEIGHT)
        item = item[match.end():]
    parts: list[Part] = []
    at = 0
    for found in _REFERENCE.finditer(item):
        if found.start() > at:
            parts.append(item[at:found.start()])
        sign, target, expression = found.groups()
        if expression is not None:
            parts.append(_roll(expression) or found.group(0))
        elif target is None or target == "player":
            parts.append(PLAYER)
        else:
            parts.append(Ref(target, sign == "%"))
        at = found.end()
    if at < len(item):
        parts.append(item[at:])
    return Entry(weight, tuple(parts))


def _roll(text: str) -> Roll | None:
    """``text`` as a dice expression within :data:`DICE_LIMITS`, or None (shown as
    written: ``[图:…]``, a footnote ``[注]``)."""
    try:
        expression, rest = split_expression(text, DICE_LIMITS)
        if not expression or rest:
            return None
        parsed = parse(expression, DICE_LIMITS)
    except RuleError:
        return None
    return Roll(expression, parsed) if parsed.repeat is None else None


def _resolve(entry: Entry, lists: Mapping[str, object]) -> Entry:
    """References to no list of the file become their text again (``{%name%}``, the
    issue's spelling, is ``{%name}``)."""
    parts: list[Part] = []
    for part in entry.parts:
        if isinstance(part, Ref):
            found = _target(part, lists)
            part = found if found is not None else \
                "{" + ("%" if part.replace else "") + part.name + "}"
        if isinstance(part, str) and parts and isinstance(parts[-1], str):
            parts[-1] += part
        else:
            parts.append(part)
    return Entry(entry.weight, tuple(parts))


def _target(ref: Ref, lists: Mapping[str, object]) -> Ref | None:
    if ref.name in lists:
        return ref
    trimmed = ref.name.removesuffix("%")
    return Ref(trimmed, True) if ref.replace and trimmed in lists else None


def line_of(text: str, name: str) -> int:
    """The line where the key ``name`` is written (1 when it cannot be found: written
    with escapes the decoder undid)."""
    for spelling in (json.dumps(name, ensure_ascii=False), json.dumps(name)):
        match = re.search(re.escape(spelling) + r"\s*:", text)
        if match is not None:
            return text.count("\n", 0, match.start()) + 1
    return 1
