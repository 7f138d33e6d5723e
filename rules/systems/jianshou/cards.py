"""JS-1 cards as data: the deck format, its validation and the card catalog.

A deck is a JSON document (``docs/systems/jianshou-deck.md``)::

    {"name": "…", "cards": [
      {"name": "松風劍法", "en": "Pine Wind Sword", "kind": "martial", "copies": 4,
       "levels": [{"cost": 1, "attack": 2, "defense": 1},
                  {"cost": 2, "attack": 4, "defense": 2, "precision": 1}]},
      {"name": "歸元心法", "kind": "internal", "levels": [{"breath": 1, "meditate": 2}]},
      {"name": "踏雪步", "kind": "lightfoot", "levels": [{"cost": 0, "evade": 1}]},
      {"name": "回春散", "kind": "item", "use": {"heal": 2}},
      {"name": "護心鏡", "kind": "item", "equip": {"defense": 1}},
      {"name": "江湖傳聞", "kind": "event", "effect": {"draw": 2}}]}

:func:`parse_deck` validates it (JS-1: at least 60 cards, at most 4 copies of a name;
every kind known, every level present) and returns a :class:`Deck`; every refusal is a
``RuleError("jianshou.deck_<what>", …)`` naming the card. Parsing JSON text is no I/O:
reading a file or an attachment is the bot's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.errors import RuleError

MIN_CARDS = 60
"""JS-1: a deck holds at least 60 cards."""
MAX_COPIES = 4
"""JS-1: at most four cards of one name."""
MAX_CARDS = 200
"""Decision: a bound on a deck's size (state and messages stay small)."""
MAX_LEVELS = 9
MAX_VALUE = 99
MAX_NAME = 20
MIN_PRECISION = -9
"""The seed: precision has no bounds (a clumsy art may have a negative one)."""

MARTIAL, INTERNAL, LIGHTFOOT, ITEM, EVENT = "martial", "internal", "lightfoot", "item", "event"
ART_KINDS = (MARTIAL, INTERNAL, LIGHTFOOT)
KINDS = (*ART_KINDS, ITEM, EVENT)

KIND_SPELLINGS: Mapping[str, str] = {
    "martial": MARTIAL, "武功": MARTIAL, "art": MARTIAL,
    "internal": INTERNAL, "内功": INTERNAL, "內功": INTERNAL,
    "lightfoot": LIGHTFOOT, "light-foot": LIGHTFOOT, "轻功": LIGHTFOOT, "輕功": LIGHTFOOT,
    "item": ITEM, "物品": ITEM,
    "event": EVENT, "事件": EVENT,
}
"""The kinds a deck file may name (English keys or the seed's words, either script)."""

LEVEL_FIELDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    MARTIAL: (("cost", "attack", "defense"), ("precision",)),
    INTERNAL: (("breath", "meditate"), ("cost",)),
    LIGHTFOOT: (("cost", "evade"), ()),
}
"""Per art kind: (required, optional) numbers of each level. ``breath`` is 吐纳 (內力
gained at the start of a turn), ``meditate`` 打坐 (內力 gained by meditating)."""

EFFECTS = ("heal", "neili", "draw", "damage")
"""What an item's ``use`` or an event's ``effect`` may do (decision: the seed lost
its item and event texts; these are the effects the sample deck needs)."""
BONUSES = ("attack", "defense", "evade", "precision")
"""What an equipped item (``equip``) adds to its wearer's duels."""


@dataclass(frozen=True)
class Level:
    """One level of an art: what using it costs (內力) and what it does."""

    cost: int = 0
    attack: int = 0
    defense: int = 0
    evade: int = 0
    precision: int = 0
    breath: int = 0
    meditate: int = 0


@dataclass(frozen=True)
class Card:
    """A card of the catalog. ``levels`` for arts, ``effect`` for an item used at once
    or an event, ``equip`` for an item worn in the equipment zone; ``labels`` are the
    card's names in other languages (``{"en": "Pine Wind Sword"}``)."""

    name: str
    kind: str
    copies: int = 1
    levels: tuple[Level, ...] = ()
    effect: Mapping[str, int] = field(default_factory=dict)
    equip: Mapping[str, int] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_art(self) -> bool:
        return self.kind in ART_KINDS

    def level(self, n: int) -> Level:
        return self.levels[n - 1]


@dataclass(frozen=True)
class Deck:
    """A validated deck: its name and its cards (each with its number of copies);
    ``labels`` name the deck in other languages, as a card's do."""

    name: str
    cards: tuple[Card, ...]
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return sum(c.copies for c in self.cards)

    def card_list(self) -> tuple[str, ...]:
        """Every physical card by name, in catalog order (before a shuffle)."""
        return tuple(c.name for c in self.cards for _ in range(c.copies))


LABEL_KEYS = ("en", "zh-Hant", "zh-Hans")
"""Optional names of a card in a language (shown to readers of that language)."""


# --------------------------------------------------------------------------- parsing


def parse_deck_text(text: str) -> Deck:
    """A deck from JSON text (see :func:`parse_deck`)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RuleError("jianshou.deck_bad_json", detail=str(exc)[:80]) from None
    return parse_deck(data)


def parse_deck(data: Any) -> Deck:
    """A validated :class:`Deck` from decoded JSON: ``{"name", "cards": [...]}`` or a
    bare list of cards. Refusals (JS-1 and the format): ``deck_shape``,
    ``deck_bad_card`` / ``deck_bad_name`` / ``deck_bad_value`` / ``deck_unknown_field``,
    ``deck_unknown_kind``, ``deck_missing_level`` / ``deck_missing_field``,
    ``deck_item_effect``, ``deck_too_many_copies``, ``deck_too_small``,
    ``deck_too_large``."""
    name = ""
    labels: dict[str, str] = {}
    if isinstance(data, Mapping):
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 40:
            raise RuleError("jianshou.deck_shape")
        for key in LABEL_KEYS:
            label = data.get(key)
            if label is not None and (not isinstance(label, str) or len(label) > 40):
                raise RuleError("jianshou.deck_shape")
            if label and label.strip():
                labels[key] = label.strip()
        data = data.get("cards")
    if not isinstance(data, list) or not data:
        raise RuleError("jianshou.deck_shape")
    cards: dict[str, Card] = {}
    for index, raw in enumerate(data, start=1):
        card = parse_card(raw, index)
        if card.name in cards:  # the same name twice: its copies add up
            before = cards[card.name]
            if replace(before, copies=card.copies) != card:
                raise RuleError("jianshou.deck_conflict", card=card.name)
            card = replace(card, copies=before.copies + card.copies)
        cards[card.name] = card
    for card in cards.values():
        if card.copies > MAX_COPIES:
            raise RuleError("jianshou.deck_too_many_copies", card=card.name,
                            count=card.copies, limit=MAX_COPIES)
    deck = Deck(name.strip(), tuple(cards.values()), labels)
    if deck.size < MIN_CARDS:
        raise RuleError("jianshou.deck_too_small", count=deck.size, minimum=MIN_CARDS)
    if deck.size > MAX_CARDS:
        raise RuleError("jianshou.deck_too_large", count=deck.size, limit=MAX_CARDS)
    return deck


_CARD_KEYS = {"name", "kind", "copies", "levels", "use", "equip", "effect", *LABEL_KEYS}


def parse_card(raw: Any, index: int = 1) -> Card:
    """One card of a deck file (``index`` counts from 1, for the refusal)."""
    if not isinstance(raw, Mapping):
        raise RuleError("jianshou.deck_bad_card", index=index)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME \
            or any(ch.isspace() for ch in name.strip()) or name.strip().isdigit():
        raise RuleError("jianshou.deck_bad_name", index=index, limit=MAX_NAME)
    name = name.strip()
    unknown = sorted(k for k in raw if k not in _CARD_KEYS)
    if unknown:
        raise RuleError("jianshou.deck_unknown_field", card=name, field=str(unknown[0])[:20])
    kind_text = raw.get("kind")
    kind = KIND_SPELLINGS.get(kind_text.strip().casefold()) if isinstance(kind_text, str) \
        else None
    if kind is None:
        raise RuleError("jianshou.deck_unknown_kind", card=name, kind=str(kind_text)[:20],
                        known=", ".join(KINDS))
    copies = _number(raw.get("copies", 1), name, "copies", low=1)
    labels = {}
    for key in LABEL_KEYS:
        if key in raw:
            label = raw[key]
            if not isinstance(label, str) or not label.strip() or len(label) > 40 \
                    or any(ch.isspace() for ch in label.strip()):
                raise RuleError("jianshou.deck_bad_value", card=name, field=key)
            labels[key] = label.strip()
    if kind in ART_KINDS:
        for key in ("use", "equip", "effect"):
            if key in raw:
                raise RuleError("jianshou.deck_unknown_field", card=name, field=key)
        return Card(name, kind, copies, _levels(raw.get("levels"), name, kind), labels=labels)
    if "levels" in raw:
        raise RuleError("jianshou.deck_unknown_field", card=name, field="levels")
    if kind == ITEM:
        if ("use" in raw) == ("equip" in raw) or "effect" in raw:
            raise RuleError("jianshou.deck_item_effect", card=name)
        if "equip" in raw:
            return Card(name, kind, copies, equip=_table(raw["equip"], name, BONUSES),
                        labels=labels)
        return Card(name, kind, copies, effect=_table(raw["use"], name, EFFECTS),
                    labels=labels)
    if "effect" not in raw or "use" in raw or "equip" in raw:
        raise RuleError("jianshou.deck_item_effect", card=name)
    return Card(name, kind, copies, effect=_table(raw["effect"], name, EFFECTS), labels=labels)


def _levels(raw: Any, name: str, kind: str) -> tuple[Level, ...]:
    """Levels 1…N, each complete. A level may say its number (``"level": 2``); levels
    must then run 1, 2, 3 … without a gap."""
    if not isinstance(raw, list) or not raw:
        raise RuleError("jianshou.deck_missing_level", card=name, level=1)
    if len(raw) > MAX_LEVELS:
        raise RuleError("jianshou.deck_bad_value", card=name, field="levels")
    required, optional = LEVEL_FIELDS[kind]
    numbered: dict[int, Level] = {}
    for position, entry in enumerate(raw, start=1):
        if not isinstance(entry, Mapping):
            raise RuleError("jianshou.deck_bad_value", card=name, field=f"levels[{position}]")
        number = _number(entry.get("level", position), name, "level", low=1, high=MAX_LEVELS)
        if number in numbered:
            raise RuleError("jianshou.deck_bad_value", card=name, field="level")
        for key in entry:
            if key != "level" and key not in required and key not in optional:
                raise RuleError("jianshou.deck_unknown_field", card=name, field=str(key)[:20])
        for key in required:
            if key not in entry:
                raise RuleError("jianshou.deck_missing_field", card=name, level=number,
                                field=key)
        numbered[number] = Level(**{
            k: _number(entry[k], name, k, low=MIN_PRECISION if k == "precision" else 0)
            for k in entry if k != "level"})
    for expected in range(1, max(numbered) + 1):
        if expected not in numbered:
            raise RuleError("jianshou.deck_missing_level", card=name, level=expected)
    return tuple(numbered[n] for n in sorted(numbered))


def _table(raw: Any, name: str, allowed: tuple[str, ...]) -> dict[str, int]:
    if not isinstance(raw, Mapping) or not raw:
        raise RuleError("jianshou.deck_item_effect", card=name)
    table = {}
    for key, value in raw.items():
        if key not in allowed:
            raise RuleError("jianshou.deck_unknown_field", card=name, field=str(key)[:20])
        table[key] = _number(value, name, key, low=1)
    return table


def _number(value: Any, card: str, name: str, *, low: int = 0, high: int = MAX_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError("jianshou.deck_bad_value", card=card, field=name)
    return value


def card_json(card: Card) -> dict[str, Any]:
    """The card as a deck file writes it (what :func:`parse_card` reads back): the
    format GMs paste, shown in the replies of `.js card` and `.js deck`."""
    data: dict[str, Any] = {"name": card.name, "kind": card.kind, "copies": card.copies}
    if card.levels:
        wanted = {*LEVEL_FIELDS[card.kind][0], *LEVEL_FIELDS[card.kind][1]}
        data["levels"] = [{k: getattr(lv, k) for k in Level.__dataclass_fields__
                           if k in wanted} for lv in card.levels]
    if card.kind == ITEM:
        data["equip" if card.equip else "use"] = dict(card.equip or card.effect)
    elif card.kind == EVENT:
        data["effect"] = dict(card.effect)
    data.update(card.labels)
    return data


def deck_json(deck: Deck) -> dict[str, Any]:
    """The deck as a deck file (what :func:`parse_deck` reads back)."""
    return {"name": deck.name, **deck.labels, "cards": [card_json(c) for c in deck.cards]}
