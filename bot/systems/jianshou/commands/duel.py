"""The duel (JS-4): `.attack`, `.defend`, `.assist`, `.evade` and `.duel` (show; a referee's
`.duel pass` answers "no" for an absent player). Play-by-post: the table waits for the
named player's command, with no timeout; each reply names who answers next."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.systems.jianshou.args import art_ref, find_player, is_no, is_word, split_level
from bot.systems.jianshou.state import load, me, referee, running, save
from bot.systems.jianshou.table import command
from bot.systems.jianshou.text import (
    bonus_text,
    card_label,
    channel,
    duel_line,
    name_of,
    over_lines,
    readable,
    sep,
)
from rules.systems import jianshou as js


@command("attack", "atk", "攻擊", "攻击")
@readable
async def attack(ctx: Context) -> list[Outgoing]:
    """JS-4 attack declaration: `.attack @target 松風劍法 [2]`."""
    tokens = ctx.args.split()
    if len(tokens) < 2:
        raise CommandError("jianshou.error.attack_usage")
    game = await running(ctx)
    player = me(ctx, game)
    target = find_player(ctx, game, tokens[0])
    art, level = split_level(tokens[1:])
    game, step = js.attack(game, player.user, target.user, art_ref(game, art), level)
    note = await save(ctx, game)
    d = step.declared
    lines = [ctx.t("jianshou.duel.attack", name=player.name, target=target.name,
                   art=card_label(ctx, game, d.art), level=d.level, attack=d.value,
                   precision=game.duel.precision if game.duel else 0, cost=d.cost,
                   neili=d.neili),
             gear_line(ctx, game, game.player(player.user), ("attack", "precision")),
             *_next_lines(ctx, game, step), note]
    return [channel(ctx, lines, "attack", game, step=_step_data(step))]


@command("defend", "def", "防禦", "防御")
@readable
async def defend(ctx: Context) -> list[Outgoing]:
    """JS-4 defend: `.defend 流雲掌 [2]`, or `.defend no [@helper]` (ask an assist)."""
    tokens = ctx.args.split()
    if not tokens:
        raise CommandError("jianshou.error.defend_usage")
    game = await running(ctx)
    player = me(ctx, game)
    if is_no(tokens[0]):
        if len(tokens) > 2:
            raise CommandError("jianshou.error.defend_usage")
        helper = find_player(ctx, game, tokens[1]).user if len(tokens) == 2 else ""
        game, step = js.defend(game, player.user, helper=helper)
    else:
        art, level = split_level(tokens)
        game, step = js.defend(game, player.user, art_ref(game, art), level)
    note = await save(ctx, game)
    return [_step_reply(ctx, game, step, "defend", note=note)]


@command("assist", "援助")
@readable
async def assist(ctx: Context) -> list[Outgoing]:
    """JS-4 assist defense (asked by the target): `.assist 流雲掌 [2]` or `.assist no`."""
    tokens = ctx.args.split()
    if not tokens:
        raise CommandError("jianshou.error.assist_usage")
    game = await running(ctx)
    player = me(ctx, game)
    if is_no(tokens[0]) and len(tokens) == 1:
        game, step = js.assist(game, player.user)
    else:
        art, level = split_level(tokens)
        game, step = js.assist(game, player.user, art_ref(game, art), level)
    note = await save(ctx, game)
    return [_step_reply(ctx, game, step, "assist", note=note)]


@command("evade", "回避", "閃避", "闪避")
@readable
async def evade(ctx: Context) -> list[Outgoing]:
    """JS-4 evade: `.evade 踏雪步 [2]` or `.evade no`; then the hit check."""
    tokens = ctx.args.split()
    if not tokens:
        raise CommandError("jianshou.error.evade_usage")
    game = await running(ctx)
    player = me(ctx, game)
    if is_no(tokens[0]) and len(tokens) == 1:
        game, step = js.evade(game, player.user, ctx.dice)
    else:
        art, level = split_level(tokens)
        game, step = js.evade(game, player.user, ctx.dice, art_ref(game, art), level)
    note = await save(ctx, game)
    return [_step_reply(ctx, game, step, "evade", note=note)]


@command("duel", "對決", "对决")
@readable
async def duel(ctx: Context) -> list[Outgoing]:
    """`.duel`: the open duel; `.duel pass`: a referee (a GM who does not play this
    game) answers "no" for the awaited player. Nobody else answers for another: a
    seated player passing for their own target would hit for sure (issue 22). The
    awaited player herself is shown her own "no" (`.defend no`, `.assist no`,
    `.evade no`)."""
    tokens = ctx.args.split()
    if tokens and is_word(tokens[0], "pass", "force", "略過", "略过", "代答"):
        game = await running(ctx)
        if not referee(ctx, game):
            if game.duel is not None and game.duel.awaited == ctx.user:
                raise CommandError("jianshou.error.pass_yourself",
                                   command=f".{game.duel.step} no")
            raise CommandError("jianshou.error.pass_not_referee")
        if game.duel is None:
            raise CommandError("jianshou.error.no_duel")
        who = name_of(game, game.duel.awaited)
        game, step = js.force_pass(game, ctx.dice)
        note = await save(ctx, game)
        return [_step_reply(ctx, game, step, "forced", ctx.t("jianshou.duel.forced", name=who),
                            note=note)]
    if tokens:
        raise CommandError("jianshou.error.duel_usage")
    game = await load(ctx)
    if game.duel is None:
        return [ctx.reply(ctx.t("jianshou.duel.none"), {"kind": "jianshou.duel", "duel": None})]
    return [channel(ctx, [duel_line(ctx, game)], "duel", game)]


# --------------------------------------------------------------------------- texts


def _step_reply(ctx: Context, game: js.Game, step: js.DuelStep, event: str,
                head: str = "", note: str = "") -> Outgoing:
    """The declaration, who answers next or the resolution, and the note of
    agreements the step made void (:func:`~bot.systems.jianshou.state.save`)."""
    lines = [head, _declared_line(ctx, game, step.declared), *_next_lines(ctx, game, step),
             note]
    return channel(ctx, lines, event, game, step=_step_data(step))


def _declared_line(ctx: Context, game: js.Game, d: js.Declared) -> str:
    name = name_of(game, d.user)
    if not d.art:
        return ctx.t(f"jianshou.duel.{d.step}_no", name=name)
    return ctx.t(f"jianshou.duel.{d.step}", name=name, art=card_label(ctx, game, d.art),
                 level=d.level, value=d.value, cost=d.cost, neili=d.neili)


def _next_lines(ctx: Context, game: js.Game, step: js.DuelStep) -> list[str]:
    """Who answers next (and how), or the resolution."""
    if step.resolution is not None:
        return resolution_lines(ctx, game, step.resolution)
    who = name_of(game, step.awaited)
    if step.waiting == "defend":  # an assist is offered only when someone could give it
        key = "ask_defend" if _helpers(game) else "ask_defend_alone"
        return [ctx.t(f"jianshou.duel.{key}", name=who)]
    if step.waiting == "assist":
        return [ctx.t("jianshou.duel.ask_assist", name=who,
                      target=name_of(game, game.duel.target if game.duel else ""))]
    return [ctx.t("jianshou.duel.ask_evade", name=who)]


def _helpers(game: js.Game) -> list[js.Player]:
    """Who the target of the open duel could ask for an assist: anyone standing but
    the two duellists (nobody in a two-player game)."""
    duel = game.duel
    assert duel is not None
    return [p for p in game.alive() if p.user not in (duel.attacker, duel.target)]


def resolution_lines(ctx: Context, game: js.Game, r: js.Resolution) -> list[str]:
    """The resolution; then, while the game goes on, the attacker is reminded that the
    turn is still theirs to finish (`.end`)."""
    return [*_outcome_lines(ctx, game, r), *over_lines(ctx, game),
            *([ctx.t("jianshou.duel.after", name=name_of(game, r.attacker))]
              if game.status == "play" else [])]


def gear_line(ctx: Context, game: js.Game, player: js.Player, keys: tuple[str, ...]) -> str:
    """The worn items that changed a duel's numbers (issue 24: every number named), on
    a line of their own: ``（bob 的佩帶加成：鐵布衫 防+1）``; "" when none did."""
    items = []
    for name in player.equipment:
        worn = {k: v for k, v in game.card(name).equip.items() if k in keys}
        if worn:
            items.append(f"{card_label(ctx, game, name)} {bonus_text(ctx, worn)}")
    return ctx.t("jianshou.duel.gear", name=player.name, items=sep(ctx).join(items)) \
        if items else ""


def _outcome_lines(ctx: Context, game: js.Game, r: js.Resolution) -> list[str]:
    target = name_of(game, r.target)
    worn = gear_line(ctx, game, game.player(r.target), ("defense",))
    if r.roll is None:
        return [ctx.t("jianshou.duel.blocked", attack=r.attack, defense=r.defense,
                      target=target), worn]
    evade_parts = _sources(ctx, game, game.player(r.target), "evade", r.evade_art,
                           r.evade_raw - r.evade_items)
    evade = ctx.t("jianshou.duel.evade_capped", evade=r.evade, raw=r.evade_raw,
                  parts=evade_parts) if r.evade_raw > r.evade \
        else _numbered(ctx, r.evade, evade_parts)
    precision = _numbered(ctx, r.precision, _sources(
        ctx, game, game.player(r.attacker), "precision", r.attack_art,
        r.precision - r.precision_items))
    key = "jianshou.duel.hit" if r.hit else "jianshou.duel.miss"
    detail = ctx.t("jianshou.duel.after_defense", attack=r.attack, defense=r.defense) \
        if r.defense else ""
    lines = [ctx.t(key, roll=r.roll, precision=precision, total=r.total,
                   cmp=">" if r.hit else "≤", evade=evade, target=target,
                   remaining=r.remaining, detail=detail, before=r.hp_before, hp=r.hp)]
    lines.append(worn)
    if r.defeated:
        lines.append(ctx.t("jianshou.defeated.hp", name=target, hp=r.hp))
    return lines


def _sources(ctx: Context, game: js.Game, player: js.Player, key: str, art: str,
             from_art: int) -> str:
    """Where a number of the hit check comes from (issue 24: every number named):
    ``松風劍法 2 + 鷹眼穗 1`` — the art's part, then each worn item's; zeros left out."""
    parts = [(card_label(ctx, game, art), from_art)] if art and from_art else []
    parts += [(card_label(ctx, game, name), game.card(name).equip.get(key, 0))
              for name in player.equipment]
    return " + ".join(f"{label} {value}" for label, value in parts if value)


def _numbered(ctx: Context, value: int, parts: str) -> str:
    """``3（松風劍法 2 + 鷹眼穗 1）``, or the bare number when nothing gives it (spaced
    as the language sets it: ``準 0 = 5`` beside ``準 3（…）= 5``)."""
    return ctx.t("jianshou.duel.sources" if parts else "jianshou.duel.bare", value=value,
                 parts=parts)


def _step_data(step: js.DuelStep) -> dict[str, object]:
    data: dict[str, object] = {"declared": dict(step.declared.__dict__),
                               "waiting": step.waiting or None,
                               "awaited": step.awaited or None}
    if step.resolution is not None:
        data["resolution"] = {**step.resolution.__dict__,
                              "winners": list(step.resolution.winners)}
    return data
