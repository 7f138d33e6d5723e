"""What ap20 commands read from their arguments: words in any script, bounded numbers,
``key=value`` options, advantage words, and who the speaker may act for."""

from __future__ import annotations

import re

from bot.context import Context
from bot.errors import CommandError
from bot.kits.references import may_act_for
from bot.names import fold, visible_name
from rules.kits.advantage import AttackKind, Layer

MAX_VALUE = 10_000
MAX_NAME = 30
ECHO = 30
"""Characters of a player's word a refusal quotes back."""

_INT = re.compile(r"^[+-]?\d{1,5}$")
_LAYER = re.compile(r"^(adv|dis|優勢|优势|劣勢|劣势)(\d?)$", re.IGNORECASE)

KINDS: dict[str, AttackKind] = {}
_KIND_WORDS: tuple[tuple[AttackKind, tuple[str, ...]], ...] = (
    ("melee", ("melee", "近戰", "近战", "近身")),
    ("shot", ("shot", "shoot", "射擊", "射击", "隔空", "ranged", "遠程", "远程")),
    ("throw", ("throw", "投擲", "投掷", "拋射", "抛射")))
for _key, _words in _KIND_WORDS:
    for _word in _words:
        KINDS[fold(_word)] = _key



def integer(text: str, usage: str) -> int:
    """A whole number (|N| ≤ 10,000), else the command's usage."""
    if not _INT.match(text.strip()):
        raise CommandError(usage)
    value = int(text)
    if abs(value) > MAX_VALUE:
        raise CommandError("ap20.error.too_big", limit=MAX_VALUE)
    return value


def layer(token: str) -> Layer | None:
    """``adv`` / ``優勢2`` / ``dis`` → an advantage layer the player declares."""
    match = _LAYER.match(token)
    if match is None:
        return None
    count = int(match.group(2) or 1)
    sign = 1 if fold(match.group(1)) in ("adv", fold("優勢")) else -1
    return Layer(sign * count, "declared")


def kind(token: str) -> AttackKind | None:
    return KINDS.get(fold(token))


def name_arg(text: str) -> str:
    """A combatant name as typed (bounded)."""
    name = text.strip()
    if not name or len(name) > MAX_NAME or name.startswith(("@", "<@", "[CQ")):
        raise CommandError("ap20.error.bad_name", name=name[:ECHO], limit=MAX_NAME)
    return visible_name(name)


def may_speak_for(ctx: Context, owner: str | None) -> bool:
    """The player speaks for their own fighter, a GM for anyone; in a channel without
    GMs anyone for a GM-run fighter, never for another player's (issue 22)."""
    return may_act_for(ctx, owner)


def require_speaker(ctx: Context, name: str, owner: str | None, *, leaving: bool = False
                    ) -> None:
    """Refuse a speaker who may not speak for the fighter ``name`` (:func:`may_speak_for`),
    saying whose it is — a GM-run one is the GMs' — and what was refused: acting, or
    taking it out of the fight (``leaving``)."""
    if may_speak_for(ctx, owner):
        return
    key = "not_yours" if owner is not None else "gms_own"
    raise CommandError(f"ap20.error.{key}{'_remove' if leaving else ''}", name=name)
