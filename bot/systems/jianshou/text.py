"""How the table reads: cards in the reader's language, hands (private only), the
public view of the table, turn starts, effects and duels — and the structured data
of channel messages, which never holds a hand or a deck's order."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.kits.encounter import life_text, with_skipped
from bot.messages import Outgoing
from bot.systems.jianshou.documents import GAME
from rules.errors import RuleError
from rules.systems import jianshou as js

Handler = Callable[[Context], Awaitable[list[Outgoing]]]

LEVEL_KEYS = ("cost", "attack", "defense", "precision", "evade", "breath", "meditate")


def sep(ctx: Context) -> str:
    return ctx.t("jianshou.sep")


def name_of(game: js.Game, user: str) -> str:
    found = game.find(user)
    return found.name if found is not None else user


def names(ctx: Context, game: js.Game, users: Iterable[str]) -> str:
    return sep(ctx).join(name_of(game, u) for u in users) or ctx.t("jianshou.nobody")


def label(ctx: Context, card: js.Card) -> str:
    """A card's name for this reader: its label in the reader's language if the deck
    gives one, else its name."""
    return card.labels.get(ctx.locale) or card.name


def deck_label(ctx: Context, deck: js.Deck) -> str:
    """A deck's name for this reader, as :func:`label` for a card."""
    return deck.labels.get(ctx.locale) or deck.name


def card_label(ctx: Context, game: js.Game, name: str) -> str:
    card = game.catalog.get(name)
    return label(ctx, card) if card is not None else name


def kind_word(ctx: Context, kind: str) -> str:
    return ctx.t(f"jianshou.kind.{kind}")


def values_text(ctx: Context, values: dict[str, int]) -> str:
    """``{"cost": 1, "attack": 2}`` → ``耗1 攻2`` (zeros left out, cost always)."""
    parts = [ctx.t(f"jianshou.stat.{key}", value=values[key]) for key in LEVEL_KEYS
             if key in values and (values[key] or key == "cost")]
    return " ".join(parts)


def level_text(ctx: Context, card: js.Card, level: js.Level) -> str:
    wanted = {"martial": ("cost", "attack", "defense", "precision"),
              "internal": ("breath", "meditate"),
              "lightfoot": ("cost", "evade")}[card.kind]
    values = {k: getattr(level, k) for k in wanted}
    if card.kind == "internal" and not level.cost:
        values.pop("cost", None)
    return values_text(ctx, values)


def card_text(ctx: Context, card: js.Card) -> str:
    """One card, compact: ``松風劍法〔武功〕1:耗1 攻2 防1 / 2:…``."""
    head = ctx.t("jianshou.card.head", card=label(ctx, card), kind=kind_word(ctx, card.kind))
    if card.is_art:
        body = " / ".join(f"{n}:{level_text(ctx, card, lv)}"
                          for n, lv in enumerate(card.levels, start=1))
    elif card.equip:
        body = ctx.t("jianshou.card.equip", values=bonus_text(ctx, card.equip))
    else:
        body = ctx.t("jianshou.card.use", values=effect_words(ctx, card.effect))
    return f"{head}{body}"


def bonus_text(ctx: Context, bonus: dict[str, int] | Any) -> str:
    return " ".join(ctx.t(f"jianshou.bonus.{k}", value=v) for k, v in bonus.items())


def effect_words(ctx: Context, effect: dict[str, int] | Any) -> str:
    return " ".join(ctx.t(f"jianshou.effect.{k}", value=v) for k, v in effect.items())


# --------------------------------------------------------------------------- private


def hand_text(ctx: Context, game: js.Game, player: js.Player, head: str = "") -> str:
    """The player's hand, numbered (for `.practise 3`): only ever sent privately."""
    lines = [head] if head else []
    lines.append(ctx.t("jianshou.hand.head", count=len(player.hand), deck=len(player.deck)))
    lines += [f"{n}. {card_text(ctx, game.card(name))}"
              for n, name in enumerate(player.hand, start=1)]
    if not player.hand:
        lines.append(ctx.t("jianshou.hand.empty"))
    return "\n".join(lines)


def hand_private(ctx: Context, game: js.Game, user: str, head: str = "",
                 summary: str = "") -> Outgoing:
    """The hand, for its player alone: player-private (no game log holds it, the GM's
    copy neither); the log records ``summary`` instead, by default that the hand
    (so many cards) was sent — what the table's public view shows anyway."""
    player = game.player(user)
    summary = summary or ctx.t("jianshou.hand.log_hand", name=player.name,
                               count=len(player.hand))
    return ctx.player_private(user, hand_text(ctx, game, player, head), summary,
                              {"kind": "jianshou.hand", "hand": list(player.hand),
                               "deck": len(player.deck)})


# --------------------------------------------------------------------------- public


def public(game: js.Game) -> dict[str, Any]:
    """The table as anyone may see it: counts of hands and decks, never their cards."""
    actor = game.actor
    return {
        "status": game.status,
        "deck": game.deck_name,
        "round": game.round,
        "current": actor.user if actor is not None else None,
        "done": list(game.turn.done) if game.turn is not None else [],
        "duel": dict(game.duel.__dict__) if game.duel is not None else None,
        "winners": list(game.winners),
        "players": [{
            "user": p.user, "name": p.name, "team": p.team, "hp": p.hp, "neili": p.neili,
            "hand": len(p.hand), "deck": len(p.deck), "discard": list(p.discard),
            "arts": [{"card": a.name, "level": a.level} for a in p.arts],
            "equipment": list(p.equipment), "mulligans": p.mulligans, "kept": p.kept,
            "turns": p.turns, "defeated": p.defeated,
        } for p in game.players],
    }


def data(event: str, game: js.Game, **extra: Any) -> dict[str, Any]:
    return {"kind": f"jianshou.{event}", **extra, "table": public(game)}


def channel(ctx: Context, lines: list[str], event: str, game: js.Game,
            **extra: Any) -> Outgoing:
    """One channel message; it pings whom the table now waits for (:func:`awaited`)
    but the speaker: a reply to one's own move needs no mention (round-2 play-test:
    on Discord each move of the player whose turn it was was followed by a ping of
    that same player)."""
    out = ctx.reply("\n".join(line for line in lines if line), data(event, game, **extra))
    others = tuple(user for user in awaited(game) if user != ctx.user)
    return replace(out, notify=others) if others else out


def awaited(game: js.Game) -> tuple[str, ...]:
    """Whom the table waits for: the players still to `.keep` a dealt hand, then the
    duellist who answers next, else the player whose turn it is (the next actor the
    encounter kit pings)."""
    if game.status == "mulligan":
        return tuple(p.user for p in game.players if not p.kept)
    if game.status != "play":
        return ()
    if game.duel is not None:
        return (game.duel.awaited,)
    actor = game.actor
    return (actor.user,) if actor is not None else ()


def player_line(ctx: Context, game: js.Game, seat: int, p: js.Player) -> str:
    arts = sep(ctx).join(ctx.t("jianshou.status.art", card=card_label(ctx, game, a.name),
                               level=a.level) for a in p.arts)
    gear = sep(ctx).join(card_label(ctx, game, c) for c in p.equipment)
    team = ctx.t("jianshou.status.team", team=p.team) if p.team else ""
    if p.defeated:  # the fallen marked with their state: 💀 dead, 🚪 gone (resigned, kicked)
        return ctx.t(f"jianshou.status.out_{p.life.value}", seat=seat, name=p.name,
                     team=team, life=life_text(ctx, p.life))
    extra = "".join(part for part in (
        ctx.t("jianshou.status.arts", arts=arts) if arts else "",
        ctx.t("jianshou.status.gear", gear=gear) if gear else ""))
    return ctx.t("jianshou.status.player", seat=seat, name=p.name, team=team, hp=p.hp,
                 neili=p.neili, hand=len(p.hand), deck=len(p.deck), extra=extra)


def status_lines(ctx: Context, game: js.Game) -> list[str]:
    actor = game.actor
    lines = []
    if actor is not None:
        done = sep(ctx).join(ctx.t(f"jianshou.phase.{ph}") for ph in game.turn.done) \
            if game.turn and game.turn.done else ctx.t("jianshou.nothing")
        lines.append(ctx.t("jianshou.status.turn", round=game.round, name=actor.name,
                           done=done))
    lines += [player_line(ctx, game, i, p) for i, p in enumerate(game.players, start=1)]
    if game.duel is not None:
        lines.append(duel_line(ctx, game))
    return lines


def duel_line(ctx: Context, game: js.Game) -> str:
    duel = game.duel
    assert duel is not None
    return ctx.t("jianshou.status.duel", attacker=name_of(game, duel.attacker),
                 target=name_of(game, duel.target), who=name_of(game, duel.awaited),
                 step=ctx.t(f"jianshou.step.{duel.step}"))


def turn_start_lines(ctx: Context, game: js.Game, starts: Iterable[js.TurnStart]) -> list[str]:
    lines = []
    for s in starts:
        name = name_of(game, s.user)
        if s.defeated:
            lines.append(ctx.t("jianshou.turn.deck_out", name=name))
            continue
        lines.append(with_skipped(ctx, ctx.t(
            "jianshou.turn.start", round=s.round, name=name, gained=s.gained, neili=s.neili,
            drew=s.drew, hand=s.hand, deck=s.deck),
            ((name_of(game, u), game.player(u).life) for u in s.skipped)))
        if game.status == "play" and game.players[game.first].user == s.user \
                and game.player(s.user).turns == 0:
            lines.append(ctx.t("jianshou.turn.first_no_attack"))
    lines += over_lines(ctx, game)
    return lines


def drawn_private(ctx: Context, game: js.Game, starts: Iterable[js.TurnStart]) -> list[
        Outgoing]:
    """Each player who drew learns what, with their whole hand (privately)."""
    outs = []
    for s in starts:
        if s.defeated or game.find(s.user) is None or not game.player(s.user).alive:
            continue
        cards = sep(ctx).join(card_label(ctx, game, c) for c in s.drawn) \
            or ctx.t("jianshou.nothing")
        outs.append(hand_private(ctx, game, s.user, ctx.t("jianshou.hand.drew", cards=cards),
                                 ctx.t("jianshou.hand.log_drew", name=name_of(game, s.user),
                                       count=len(s.drawn))))
    return outs


def over_lines(ctx: Context, game: js.Game) -> list[str]:
    if game.status != "over":
        return []
    return [ctx.t("jianshou.over", winners=names(ctx, game, game.winners))]


def effects_text(ctx: Context, game: js.Game, card: js.Card, effects: js.Effects) -> str:
    """What a used item or an event did, in the order the card lists its effects."""
    parts = []
    for key in card.effect:
        if key == "heal":  # at full HP the card still goes (docs/decisions.md, issue 24)
            parts.append(ctx.t("jianshou.effects.heal" if effects.heal else
                               "jianshou.effects.heal_full", value=effects.heal, hp=effects.hp))
        elif key == "neili":
            parts.append(ctx.t("jianshou.effects.neili", value=effects.neili_gain,
                               neili=effects.neili))
        elif key == "draw":
            parts.append(ctx.t("jianshou.effects.draw", value=effects.drew))
        elif key == "damage" and effects.target:
            parts.append(ctx.t("jianshou.effects.damage", target=name_of(game, effects.target),
                               value=effects.damage, hp=effects.target_hp,
                               before=effects.target_hp + effects.damage))
    return sep(ctx).join(parts) or ctx.t("jianshou.nothing")


def defeated_lines(ctx: Context, game: js.Game, users: Iterable[str]) -> list[str]:
    lines = []
    for user in users:
        player = game.player(user)
        lines.append(ctx.t(f"jianshou.defeated.{player.defeated or 'hp'}", name=player.name,
                           hp=player.hp))
    return lines


# --------------------------------------------------------------------------- refusals


def readable(handler: Handler) -> Handler:
    """Refusals name cards in the reader's language and duel steps in words."""

    @functools.wraps(handler)
    async def wrapper(ctx: Context) -> list[Outgoing]:
        try:
            return await handler(ctx)
        except RuleError as exc:
            params = dict(exc.params)
            if isinstance(params.get("card"), str):
                game = (await ctx.uow.load(GAME)).game
                params["card"] = card_label(ctx, game, params["card"])
            if isinstance(params.get("step"), str):
                params["step"] = ctx.t(f"jianshou.step.{params['step']}")
            raise RuleError(exc.code, **params) from exc

    return wrapper
