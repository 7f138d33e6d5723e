"""The nightmare mark (AE-14, 夢魘印記): inventory slots and the kill count.

Mark level 1–5 gives 6 × level slots of 1 × 1 × 1 m. A slot holds one kind of
item; the same item stacks until its slot is full (``per_slot`` units); a long
item takes several slots per unit (``span``: a 1.5 m blade takes 2) and never
stacks. Storing costs a standard action; taking out a swift action to select
plus a standard action — the events say so (``actions``).

Decisions where the seed is silent:

1. How many units fill a slot is the player's or GM's word, given when an item
   is first stored (default 1); later stores of the same item keep it (a
   different figure is refused: ``ace.mark_item_mismatch``).
2. A store that does not fit is refused whole (``ace.mark_full``): nothing is
   stored, the free slots are named. Partly filled slots of that item are
   filled before a new slot is taken.
3. The level may not drop below the slots in use (``ace.mark_level_too_low``).
4. Which items the nightmare space recognises is the GM's call, not the bot's.
5. The kill count never goes below 0.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RuleError

SLOTS_PER_LEVEL = 6
MIN_LEVEL, MAX_LEVEL = 1, 5
MAX_COUNT = 10_000
MAX_PER_SLOT = 10_000
MAX_SPAN = 30
STORE_ACTIONS: tuple[str, ...] = ("standard",)
TAKE_ACTIONS: tuple[str, ...] = ("swift", "standard")


@dataclass(frozen=True, slots=True)
class Stack:
    """One kind of item in the mark."""

    item: str
    count: int
    per_slot: int = 1
    span: int = 1

    @property
    def slots(self) -> int:
        if self.span > 1:
            return self.count * self.span
        return -(-self.count // self.per_slot)


@dataclass(frozen=True, slots=True)
class Mark:
    level: int = MIN_LEVEL
    stacks: tuple[Stack, ...] = ()
    kills: int = 0

    @property
    def capacity(self) -> int:
        return SLOTS_PER_LEVEL * self.level

    @property
    def used(self) -> int:
        return sum(s.slots for s in self.stacks)

    @property
    def free(self) -> int:
        return self.capacity - self.used

    def find(self, item: str) -> Stack | None:
        key = item.strip().casefold()
        return next((s for s in self.stacks if s.item.casefold() == key), None)


@dataclass(frozen=True, slots=True)
class MarkEvent:
    """What a store or take did: the item, units moved, units and slots after it,
    and the actions it cost (AE-14)."""

    item: str
    moved: int
    count: int
    slots: int
    used: int
    capacity: int
    actions: tuple[str, ...]


def _check_count(count: int) -> None:
    if not 1 <= count <= MAX_COUNT:
        raise RuleError("ace.mark_bad_count", count=count, max=MAX_COUNT)


def store(mark: Mark, item: str, count: int = 1, *, per_slot: int | None = None,
          span: int | None = None) -> tuple[Mark, MarkEvent]:
    """AE-14: put ``count`` units of ``item`` in the mark (decisions 1, 2)."""
    _check_count(count)
    name = item.strip()
    if not name:
        raise RuleError("ace.mark_bad_item")
    if per_slot is not None and not 1 <= per_slot <= MAX_PER_SLOT:
        raise RuleError("ace.mark_bad_per_slot", per_slot=per_slot, max=MAX_PER_SLOT)
    if span is not None and not 1 <= span <= MAX_SPAN:
        raise RuleError("ace.mark_bad_span", span=span, max=MAX_SPAN)
    if (per_slot or 1) > 1 and (span or 1) > 1:
        raise RuleError("ace.mark_long_stacks", item=name)
    existing = mark.find(name)
    if existing is not None:
        if (per_slot is not None and per_slot != existing.per_slot) or \
                (span is not None and span != existing.span):
            raise RuleError("ace.mark_item_mismatch", item=existing.item,
                            per_slot=existing.per_slot, span=existing.span)
        after = replace(existing, count=existing.count + count)
    else:
        after = Stack(name, count, per_slot or 1, span or 1)
    needed = after.slots - (existing.slots if existing is not None else 0)
    if needed > mark.free:
        raise RuleError("ace.mark_full", item=after.item, needed=needed, free=mark.free,
                        capacity=mark.capacity)
    stacks = tuple(after if s is existing else s for s in mark.stacks) if existing \
        else (*mark.stacks, after)
    new = replace(mark, stacks=stacks)
    return new, MarkEvent(after.item, count, after.count, after.slots, new.used,
                          new.capacity, STORE_ACTIONS)


def take(mark: Mark, item: str, count: int = 1) -> tuple[Mark, MarkEvent]:
    """AE-14: take ``count`` units out (a swift action to select, a standard one to take)."""
    _check_count(count)
    existing = mark.find(item)
    if existing is None:
        raise RuleError("ace.mark_no_item", item=item.strip())
    if count > existing.count:
        raise RuleError("ace.mark_not_enough", item=existing.item, count=existing.count,
                        wanted=count)
    after = replace(existing, count=existing.count - count)
    stacks = tuple(after if s is existing else s for s in mark.stacks if s is not existing
                   or after.count)
    new = replace(mark, stacks=stacks)
    return new, MarkEvent(existing.item, count, after.count, after.slots if after.count else 0,
                          new.used, new.capacity, TAKE_ACTIONS)


def set_level(mark: Mark, level: int) -> Mark:
    """AE-14: level 1–5 (decision 3)."""
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise RuleError("ace.mark_bad_level", level=level, min=MIN_LEVEL, max=MAX_LEVEL)
    if mark.used > SLOTS_PER_LEVEL * level:
        raise RuleError("ace.mark_level_too_low", level=level, used=mark.used,
                        capacity=SLOTS_PER_LEVEL * level)
    return replace(mark, level=level)


def add_kills(mark: Mark, amount: int) -> Mark:
    """AE-14: the kill count (杀戮值), never below 0 (decision 5)."""
    if abs(amount) > MAX_COUNT:
        raise RuleError("ace.mark_bad_count", count=amount, max=MAX_COUNT)
    return replace(mark, kills=max(mark.kills + amount, 0))
