"""Which character a command is about: a player's ``@mention`` (their active
character) or a character's name, in either script — for every rule system.

A record kept across commands (a last check, a fatal event, a combatant) names
its character by ``Character.id``, so that a `.pc rename` in between does not
lose it; :func:`same_character` and :func:`sheet_by_id` follow such links.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.names import fold
from bot.unit_of_work import Sheet

# --------------------------------------------------------------------------- who

_MENTION = re.compile(r"^(?:<@!?(\d+)>|\[CQ:at,qq=(\d+)\]|@(\S+))$")


def mention(token: str) -> str | None:
    """The user id of a ``@user`` / Discord ``<@id>`` / QQ at-code token, else None."""
    match = _MENTION.match(token.strip())
    if match is None:
        return None
    return next(group for group in match.groups() if group)


async def active_sheet(ctx: Context, owner: str | None = None) -> Sheet:
    """The active character of ``owner`` (default: the speaker); refuses without one."""
    character = await ctx.uow.active_sheet(owner or ctx.user)
    if character is None:
        if owner is None or owner == ctx.user:
            raise CommandError("core.error.pc_no_active")
        raise CommandError("core.error.no_character", who=owner)
    return character


async def find_character(ctx: Context, ref: str) -> Sheet | None:
    """The character ``ref`` names, or None: ``@user`` (their active character) or a
    character name of any owner.

    The name as written wins over a traditional/simplified or case fold (艾莉絲 and
    艾莉丝 are two characters when both exist); among several characters of that
    spelling the active ones win; a still ambiguous name is refused with the
    candidates rather than guessed."""
    user = mention(ref)
    if user is not None:
        return await ctx.uow.active_sheet(user)
    name = ref.strip()
    everyone = await ctx.uow.sheets()
    for matcher in (lambda c: c.name == name, lambda c: fold(c.name) == fold(name)):
        found = [c for c in everyone if matcher(c)]
        if len(found) > 1:
            active = [c for c in found if c.active]
            if len(active) == 1:
                return active[0]
            candidates = ctx.t("core.references.list_sep").join(
                ctx.t("core.references.candidate", name=c.name, owner=c.owner)
                for c in active or found)
            raise CommandError("core.error.ambiguous_character", name=name,
                               candidates=candidates)
        if len(found) == 1:
            return found[0]
    return None


async def investigator(ctx: Context, ref: str) -> Sheet:
    """Like :func:`find_character` but refuses an unknown reference."""
    found = await find_character(ctx, ref)
    if found is None:
        raise CommandError("core.error.no_character", who=ref.strip())
    return found


async def target_or_self(ctx: Context, ref: str | None) -> Sheet:
    """The named investigator (GM, or the owner naming their own), else the speaker's.

    A player may name only their own characters; the GM anyone's — in a channel
    without GMs too (:func:`may_act_for`).
    """
    if not ref:
        return await active_sheet(ctx)
    character = await investigator(ctx, ref)
    require_owner_or_gm(ctx, character.owner)
    return character


def may_act_for(ctx: Context, owner: str | None) -> bool:
    """Whether the speaker may act for what ``owner`` plays (roll, spend, move, end a
    turn, change a sheet): its own player, or a GM. A player's character is never
    another player's to act for, even where the channel has no GM (issue 22: "run by
    everyone" would let one player spend another's points or decide their fate);
    only what nobody plays (an enemy, an NPC: ``owner`` None) is everyone's at a
    table without a GM."""
    if ctx.is_gm:
        return True
    if owner is None:
        return not ctx.gm_users
    return owner == ctx.user


def require_owner_or_gm(ctx: Context, owner: str | None) -> None:
    """Only the investigator's player or a GM speaks for an investigator."""
    if not may_act_for(ctx, owner):
        raise CommandError("core.error.not_yours")


def may_read(ctx: Context, owner: str | None) -> bool:
    """Whether the speaker may read what ``owner`` plays (a sheet, a mark, a value
    derived from them): reading is no act for them, so the owner, a GM, or anyone in
    a channel without GMs (docs/decisions.md, "Sheets for the GM") — unlike
    :func:`may_act_for`, which a channel without GMs does not widen for a player's
    character."""
    return owner == ctx.user or ctx.is_gm or not ctx.gm_users


def require_may_read(ctx: Context, owner: str | None) -> None:
    """Refuses a read :func:`may_read` does not allow."""
    if not may_read(ctx, owner):
        raise CommandError("core.error.not_yours")


# --------------------------------------------------------------------------- stored references


def same_character(record: Mapping[str, Any], character: Sheet) -> bool:
    """Whether a stored record (last check, fatal event) is about ``character``:
    by its id when the record has one (a renamed sheet stays the same character),
    else — records written before ids were kept — by owner and name."""
    if record.get("character_id") is not None:
        return bool(record["character_id"] == character.id)
    return bool(record.get("owner", character.owner) == character.owner
                and record.get("character") == character.name)


async def sheet_by_id(ctx: Context, character_id: int, owner: str) -> Sheet | None:
    """The sheet a record linked by id, if it still is ``owner``'s in this channel."""
    character = await ctx.uow.sheet(character_id)
    if character is None or character.owner != owner:
        return None
    return character


async def sheet_by_name(ctx: Context, owner: str, name: str) -> Sheet | None:
    """``owner``'s character called ``name`` in this channel (active or not): how
    records written before ids were kept find their sheet."""
    return next((s for s in await ctx.uow.sheets(owner) if s.name == name), None)
