"""What `jianshou` commands read from their arguments: players (``@mention`` or the
name they joined with), cards (a hand position or a card's name in any script or
language), art levels and the words for "no"."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import mention
from bot.names import fold
from rules.systems import jianshou as js

MAX_ECHO = 20
_LEVEL = re.compile(r"^(?:lv\.?|l|等級|等级)?([1-9])(?:級|级)?$", re.IGNORECASE)
NO_WORDS = ("no", "pass", "none", "skip", "不", "否", "無", "无", "略過", "略过", "放棄",
            "放弃", "不防", "不防禦", "不防御")


def short(text: str) -> str:
    """Player text echoed in a reply: one short line (the adapters neutralise mentions)."""
    text = text.strip()
    return text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 1] + "…"



def is_no(token: str) -> bool:
    return is_word(token, *NO_WORDS)


def level_of(token: str) -> int | None:
    """``2`` / ``Lv2`` / ``2級`` → 2; None for anything else."""
    match = _LEVEL.match(token.strip())
    return int(match.group(1)) if match else None


def find_player(ctx: Context, game: js.Game, ref: str) -> js.Player:
    """The seated player ``ref`` names: an ``@mention`` or their name (folded)."""
    user = mention(ref)
    if user is not None:
        found = game.find(user)
        if found is not None:
            return found
    key = fold(ref.lstrip("@"))
    matches = [p for p in game.players if fold(p.name) == key or p.user == ref]
    if len(matches) == 1:
        return matches[0]
    raise CommandError("jianshou.error.unknown_player", who=short(ref))


def _matches(card: js.Card, ref: str) -> bool:
    key = fold(ref)
    return any(fold(name) == key for name in (card.name, *card.labels.values()))


def card_named(game_cards: Iterable[js.Card], ref: str) -> js.Card:
    """The catalog card ``ref`` names (its name or a label, any script, any case)."""
    for card in game_cards:
        if _matches(card, ref):
            return card
    raise CommandError("jianshou.error.unknown_card", card=short(ref))


def hand_card(game: js.Game, player: js.Player, ref: str) -> str:
    """A card of the player's hand: its position (``3``) or its name. A known card that
    is not in the hand passes through, so that the rules refuse it."""
    ref = ref.strip()
    if ref.isdigit():
        n = int(ref)
        if not 1 <= n <= len(player.hand):
            raise CommandError("jianshou.error.bad_position", count=len(player.hand))
        return player.hand[n - 1]
    return card_named(game.cards, ref).name


def split_level(tokens: list[str]) -> tuple[str, int | None]:
    """``["松風劍法", "2"]`` → (``松風劍法``, 2); the level is optional."""
    if len(tokens) >= 2 and level_of(tokens[-1]) is not None:
        return " ".join(tokens[:-1]), level_of(tokens[-1])
    return " ".join(tokens), None


def art_ref(game: js.Game, ref: str) -> str:
    """The catalog name of an art a player names (the rules check it is in play)."""
    return card_named(game.cards, ref).name
