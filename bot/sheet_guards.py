"""Let a game system take over a sheet change that its rules treat specially.

`.st` is system-agnostic, but some changes are rule events: in `plurk`, a loss
that would bring 體力 or 理智 to 0 is a fatal event (PL-12) that must wait for
an intervention, whatever command caused it. A system registers a guard; `.st`
asks it before writing each value.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.context import Context
from bot.store.models import Character

SheetGuard = Callable[[Context, Character, str, int | None, int], Awaitable[list[str] | None]]
_GUARDS: dict[str, SheetGuard] = {}


def sheet_guard(system_id: str) -> Callable[[SheetGuard], SheetGuard]:
    """Register the guard of ``system_id`` (one per system)."""

    def register(guard: SheetGuard) -> SheetGuard:
        _GUARDS[system_id] = guard
        return guard

    return register


async def guarded(
    ctx: Context, character: Character, name: str, old: int | None, new: int
) -> list[str] | None:
    """None: write ``new`` as usual. A list: the system took the change over (the
    sheet keeps ``old`` for now) and these are the lines to add to the reply."""
    guard = _GUARDS.get(ctx.channel.system)
    return await guard(ctx, character, name, old, new) if guard is not None else None
