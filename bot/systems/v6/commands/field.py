"""The field (V6-1 … V6-4): `.place`, `.face`, `.pose`, `.move`, `.shove`, `.map`,
`.fatigue`. Combatants are the base's fight (ap20's `.init`), found through
``bot.kits.layers``; posture changes and a lying roll are paid from the base's
action points; moves cost fatigue."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits import layers
from bot.kits.args import is_word, key_value, split_by
from bot.kits.encounter import for_gms
from bot.kits.layers import Member, Roster
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.v6.map_view import map_picture
from bot.systems.v6.state import (
    ECHO,
    arrow,
    cell,
    field_data,
    fight,
    hidden_names,
    label,
    load,
    looks_like_cell,
    member,
    movement,
    mover,
    own_turn,
    require_speaker,
    save,
    unit_text,
)
from bot.systems.v6.table import command
from rules.kits import grid
from rules.kits.encounter import Life
from rules.systems import v6
from rules.systems.v6 import Field

_SIZE = re.compile(r"^(\d{1,2})\s*[x×*]\s*(\d{1,2})$", re.IGNORECASE)


def answer(ctx: Context, who: Member, roster: Roster, f: Field, event: str, text: str,
           public: str, data: dict[str, Any], public_data: dict[str, Any]
           ) -> list[Outgoing]:
    """A reply about what ``who`` did: ``text`` and ``data`` in the channel — or, when
    its numbers are the GMs' (an enemy's fatigue, stride, action points), ``public`` and
    ``public_data`` there and the full reply to the GMs. Channel data never carries an
    enemy's numbers (``hidden_names``)."""
    hidden = hidden_names(ctx, roster)
    if who.name not in hidden:
        return [ctx.reply(text, field_data(f, event, hidden=hidden, **data))]
    return for_gms(ctx, public, field_data(f, event, hidden=hidden, **public_data),
                   text, field_data(f, event, **data))


def cost_text(ctx: Context, paid: layers.Charge | None, *, hidden: bool = False) -> str:
    """What a posture change or a move paid: ``，戰術行動×1 行動力 −3 3→0`` (the action
    alone when its points are the GMs')."""
    if paid is None:
        return ""
    kind = label(ctx, "action", paid.kind)
    if hidden:
        return ctx.t("v6.cost.done", kind=kind, count=paid.count)
    return ctx.t("v6.cost.paid", kind=kind, count=paid.count, cost=paid.cost,
                 before=paid.before, after=paid.after)


def small(text: str, usage: str) -> int:
    if not re.fullmatch(r"\d{1,3}", text.strip()):
        raise CommandError(usage)
    return int(text)


STATS = {"stride": ("stride", "步幅"), "agility": ("agility", "靈巧", "灵巧"),
         "might": ("might", "強壯", "强壮")}


@command("place", "站位", "放置")
async def place(ctx: Context) -> list[Outgoing]:
    """`.place [name] <cell> [facing] [size] [sense] [步幅=3 靈巧=4 強壯=4]` — the GM
    sets the field; a player places their own combatant (no name needed) before the
    fight starts."""
    tokens = ctx.args.split()
    if not tokens or (len(tokens) < 2 and not looks_like_cell(tokens[0])):
        raise CommandError("v6.error.place_usage")
    f = await load(ctx)
    roster = await fight(ctx)
    if looks_like_cell(tokens[0]) and roster.find(tokens[0]) is None:
        who = await mover(ctx, roster, None)  # `.place B3`: the speaker's own
        tokens = [who.name, *tokens]
    else:
        who = member(roster, tokens[0])
    require_speaker(ctx, who)
    if roster.current is not None and not (ctx.is_gm or not ctx.gm_users):
        raise CommandError("v6.error.place_gm", name=who.name)
    where = cell(tokens[1])
    facing = size = sense = None
    stats: dict[str, int] = {}
    for token in tokens[2:]:
        pair = key_value(token)
        if pair is not None:
            key = next((k for k, words in STATS.items() if is_word(pair[0], *words)), None)
            if key is None:
                raise CommandError("v6.error.place_word", word=token[:ECHO])
            stats[key] = small(pair[1], "v6.error.place_usage")
        elif (d := v6.direction(token)) is not None and facing is None:
            facing = d
        elif token.casefold() in v6.SIZE_ALIASES or token in v6.SIZE_ALIASES:
            size = v6.SIZE_ALIASES.get(token.casefold(), v6.SIZE_ALIASES.get(token))
        elif token.casefold() in v6.SENSE_ALIASES or token in v6.SENSE_ALIASES:
            sense = v6.SENSE_ALIASES.get(token.casefold(), v6.SENSE_ALIASES.get(token))
        else:
            raise CommandError("v6.error.place_word", word=token[:ECHO])
    f, unit = v6.place(f, who.name, where, facing=facing, size=size, sense=sense, stats=stats)
    save(ctx, f)
    hidden = hidden_names(ctx, roster)
    return [ctx.reply(ctx.t("v6.field.placed", size=label(ctx, "size", unit.size),
                            unit=unit_text(ctx, unit, hidden=unit.name in hidden)),
                      field_data(f, "place", hidden=hidden, name=unit.name))]


@command("face", "轉向", "转向", "朝向")
async def face(ctx: Context) -> list[Outgoing]:
    """V6-1: `.face 北|NE|135|<combatant> [by=<name>]`, on one's own turn."""
    tokens, by = split_by(ctx.args.split())
    if len(tokens) != 1:
        raise CommandError("v6.error.face_usage")
    f = await load(ctx)
    roster = await fight(ctx)
    who = await mover(ctx, roster, by)
    own_turn(roster, who)
    facing = v6.direction(tokens[0])
    if facing is None:
        other = roster.find(tokens[0])
        if other is None:  # neither a direction nor a combatant: list what is accepted
            raise CommandError("v6.error.unknown_facing", word=tokens[0][:ECHO],
                               known=" / ".join(m.name for m in roster.members))
        facing = v6.facing_toward(f, who.name, other.name)
    f, turned = v6.face(f, who.name, facing)
    save(ctx, f)
    unit = f.unit(who.name)
    return [ctx.reply(ctx.t("v6.field.faced", name=who.name, before=turned.before,
                            after=turned.after, arrow=arrow(unit.facing)),
                      field_data(f, "face", hidden=hidden_names(ctx, roster), name=who.name,
                                 before=turned.before, after=turned.after))]


@command("pose", "姿勢", "姿势")
async def pose(ctx: Context) -> list[Outgoing]:
    """V6-2: `.pose 蹲伏|站立|骑坐|匍匐|躺倒 [by=<name>]`; the change's instant or tactical
    actions are paid from the base's action points."""
    tokens, by = split_by(ctx.args.split())
    if len(tokens) != 1:
        raise CommandError("v6.error.pose_usage")
    after = v6.posture(tokens[0])
    f = await load(ctx)
    roster = await fight(ctx)
    who = await mover(ctx, roster, by)
    f, change = v6.pose(f, who.name, after)
    paid = await layers.charge(ctx, who.name, change.kind, change.count)
    if change.kind == "tactical" and roster.current == who.name:
        f = replace(f, acted=True)  # decision 12: the turn's tactical action
    save(ctx, f)
    words = {"name": who.name, "before": label(ctx, "posture", change.before),
             "after": label(ctx, "posture", change.after)}
    done = {"name": who.name, "before": change.before, "after": change.after,
            "action": change.kind, "count": change.count}
    return answer(ctx, who, roster, f, "pose",
                  ctx.t("v6.field.posed", **words, cost=cost_text(ctx, paid)),
                  ctx.t("v6.field.posed", **words, cost=cost_text(ctx, paid, hidden=True)),
                  {**done, "ap_cost": paid.cost if paid else None}, done)


@command("move", "移動", "移动")
async def move(ctx: Context) -> list[Outgoing]:
    """V6-3: `.move C4 [D6 …] [climb=N] [vault=H] [leap=W] [drag|support] [partner=<name>]
    [by=<name>]` on one's own turn: straight legs through the cells, fatigue by stride."""
    tokens, by = split_by(ctx.args.split())
    path, vaults, leaps, climb, mode, partner = [], [], [], 0, "walk", None
    for token in tokens:
        pair = key_value(token)
        if looks_like_cell(token):
            path.append(cell(token))
        elif pair is not None and is_word(pair[0], "climb", "攀爬", "爬"):
            climb = small(pair[1], "v6.error.move_usage")
        elif pair is not None and is_word(pair[0], "vault", "翻越", "翻"):
            vaults.append(small(pair[1], "v6.error.move_usage"))
        elif pair is not None and is_word(pair[0], "leap", "跃过", "躍過", "跳"):
            leaps.append(small(pair[1], "v6.error.move_usage"))
        elif pair is not None and is_word(pair[0], "partner", "搀扶者", "攙扶者", "扶"):
            partner = pair[1]
        elif token in v6.MODE_ALIASES or token.casefold() in v6.MODE_ALIASES:
            mode = v6.MODE_ALIASES.get(token, v6.MODE_ALIASES.get(token.casefold(), "walk"))
        else:
            raise CommandError("v6.error.move_word", word=token[:ECHO])
    if not path and not climb:
        raise CommandError("v6.error.move_usage")
    f = await load(ctx)
    roster = await fight(ctx)
    who = await mover(ctx, roster, by)
    own_turn(roster, who)
    unit = f.unit(who.name)
    if unit.cell is None:
        raise CommandError("v6.error.not_placed", name=who.name)
    values = await movement(ctx, who, unit)
    partner_stride = None
    if partner is not None:
        helper = member(roster, partner)
        partner_stride = (await movement(ctx, helper, f.unit(helper.name)))["stride"]
    standalone = v6.move_action(f) if roster.current is not None else None
    f, moved = v6.move(f, who.name, path or [unit.cell], base_stride=values["stride"],
                       agility=values.get("agility"), might=values.get("might"), mode=mode,
                       vaults=vaults, leaps=leaps, climb=climb, partner_stride=partner_stride)
    paid = None
    if moved.roll:
        paid = await layers.charge(ctx, who.name, moved.action_kind or "tactical",
                                   moved.action_count)
    elif standalone is not None:
        try:
            paid = await layers.charge(ctx, who.name, *standalone)
        except CommandError as refused:  # say why this move costs an action at all
            reason = ctx.t("v6.move.standalone_after_attack" if f.acted
                           else "v6.move.standalone_second")
            if {"cost", "points"} <= set(refused.params):  # the base's "too few points"
                raise CommandError("v6.error.standalone_points", reason=reason,
                                   cost=refused.params["cost"],
                                   points=refused.params["points"]) from refused
            raise CommandError("v6.error.standalone_refused", reason=reason,
                               refused=ctx.t(refused.key, **refused.params)) from refused
    f = replace(f, moved=True) if roster.current is not None else f
    save(ctx, f)
    done = {"name": who.name, "start": moved.start, "end": moved.end,
            "walked": moved.walked, "roll": moved.roll}
    data = {**done, "fatigue": moved.cost.fatigue if moved.cost else 0,
            "fatigue_after": moved.fatigue_after,
            "stride": moved.cost.stride if moved.cost else None}
    return answer(ctx, who, roster, f, "move", move_text(ctx, moved, paid),
                  move_text(ctx, moved, paid, hidden=True), data, done)


def move_text(ctx: Context, moved: v6.Move, paid: layers.Charge | None, *,
              hidden: bool = False) -> str:
    """A move as read: steps, stride, fatigue and what it paid — ``hidden`` (an enemy's
    numbers, the GMs') keeps the cells, the steps and the actions taken."""
    if moved.roll:
        return ctx.t("v6.field.rolled", name=moved.name, start=moved.start,
                     end=moved.end, cost=cost_text(ctx, paid, hidden=hidden))
    cost = moved.cost
    assert cost is not None
    extras = []
    if cost.obstacles:
        extras.append(ctx.t("v6.move.obstacles", steps=cost.obstacles))
    if cost.climbed:
        extras.append(ctx.t("v6.move.climb_hidden", steps=cost.climbed) if hidden else
                      ctx.t("v6.move.climb", steps=cost.climbed, rate=cost.climb_rate,
                            fatigue=cost.climb_fatigue))
    if cost.mode != "walk":
        extras.append(label(ctx, "mode", cost.mode))
    extra = "".join(ctx.t("v6.move.extra", item=e) for e in extras)
    text = ctx.t("v6.field.moved_hidden", name=moved.name, start=moved.start,
                 end=moved.end, steps=moved.walked, extra=extra) if hidden else ctx.t(
        "v6.field.moved", name=moved.name, start=moved.start, end=moved.end,
        steps=moved.walked, stride=cost.stride, extra=extra, fatigue=cost.fatigue,
        before=moved.fatigue_before, after=moved.fatigue_after)
    if paid is not None:
        text += ctx.t("v6.move.standalone", cost=cost_text(ctx, paid, hidden=hidden))
    return text


@command("shove", "擊退", "击退", "牽引", "牵引", "被迫移動", "被迫移动")
async def shove(ctx: Context) -> list[Outgoing]:
    """V6-3, GM: a forced move (knock-back, pull, flight) — no fatigue, a straight line,
    stopping before the first base in the way. In a channel without GMs a player's
    combatant is moved only by its player (issue 22); a GM-run one by anyone."""
    require_gm_if_any(ctx)
    tokens = ctx.args.split()
    if len(tokens) != 2:
        raise CommandError("v6.error.shove_usage")
    f = await load(ctx)
    roster = await fight(ctx)
    who = member(roster, tokens[0])
    require_speaker(ctx, who)
    f, moved = v6.forced_move(f, who.name, cell(tokens[1]))
    save(ctx, f)
    stop = ctx.t("v6.field.stopped", other=moved.stopped_by) if moved.stopped_by else ""
    return [ctx.reply(ctx.t("v6.field.shoved", name=who.name, start=moved.start, end=moved.end,
                            steps=moved.walked, stop=stop),
                      field_data(f, "shove", hidden=hidden_names(ctx, roster), name=who.name,
                                 start=moved.start, end=moved.end,
                                 stopped_by=moved.stopped_by))]


@command("map", "field", "地圖", "地图", "場地", "场地")
async def map_(ctx: Context) -> list[Outgoing]:
    """`.map` shows the field: the board (letters mark combatants, a legend below) and
    the same as a picture (``map_view``); `.map 16x12` (GM) resizes it."""
    text = ctx.args.strip()
    f = await load(ctx)
    if text:
        match = _SIZE.match(text)
        if match is None:
            raise CommandError("v6.error.map_usage")
        require_gm_if_any(ctx)
        f = v6.resize(f, int(match.group(1)), int(match.group(2)))
        save(ctx, f)
    roster = await layers.roster(ctx)
    names = [m.name for m in roster.members] if roster else []
    placed = [u for u in (f.find(n) for n in names) if u is not None and u.cell is not None]
    marks = {u.cell: chr(ord("a") + i) for i, u in enumerate(placed) if i < 26}
    board = grid.render(f.width, f.height, {c: m for c, m in marks.items() if c})
    lives = {m.name: m.life for m in roster.members} if roster else {}
    hidden = hidden_names(ctx, roster)
    legend = [f"{chr(ord('a') + i)} " + unit_text(
        ctx, u, lives.get(u.name, Life.ACTIVE), sized=True, hidden=u.name in hidden)
              for i, u in enumerate(placed)]
    head = ctx.t("v6.field.head", width=f.width, height=f.height)
    unplaced = [n for n in names if f.find(n) is None or f.unit(n).cell is None]
    tail = [ctx.t("v6.field.unplaced", names=ctx.t("v6.note.sep").join(unplaced))
            ] if unplaced else []
    picture = await map_picture(ctx, f, roster, placed, unplaced)
    return [ctx.reply("\n".join([head, *board, *legend, *tail]),
                      field_data(f, "map", hidden=hidden, picture=picture.describe()),
                      block=True,
                      attachment=picture)]


@command("fatigue", "疲勞", "疲劳")
async def fatigue(ctx: Context) -> list[Outgoing]:
    """`.fatigue` shows everyone's fatigue; `.fatigue <name> N` (GM) sets it — in a
    channel without GMs a player's own combatant's only, a GM-run one's anyone."""
    tokens = ctx.args.split()
    f = await load(ctx)
    roster = await fight(ctx)
    hidden = hidden_names(ctx, roster)
    if not tokens:
        return show_fatigue(ctx, f, roster, hidden)
    require_gm_if_any(ctx)
    if len(tokens) not in (1, 2):
        raise CommandError("v6.error.fatigue_usage")
    who = member(roster, tokens[0])
    require_speaker(ctx, who)
    value = small(tokens[1], "v6.error.fatigue_usage") if len(tokens) == 2 else 0
    before = f.unit(who.name).fatigue
    f = v6.rest(f, who.name, value)
    save(ctx, f)
    text = ctx.t("v6.fatigue.set", name=who.name, before=before, after=value)
    return answer(ctx, who, roster, f, "fatigue", text,
                  ctx.t("v6.fatigue.set_hidden", name=who.name), {"name": who.name},
                  {"name": who.name})


def show_fatigue(ctx: Context, f: Field, roster: Roster, hidden: frozenset[str]
                 ) -> list[Outgoing]:
    """Everyone's fatigue; an enemy's only to the GMs (issue 24) — a GM asking gets
    them all privately."""
    def shown(names: list[str]) -> str:
        items = [ctx.t("v6.fatigue.item", name=n, fatigue=f.unit(n).fatigue) for n in names]
        return ctx.t("v6.fatigue.show", items=ctx.t("v6.note.sep").join(items) or "—")

    everyone = [m.name for m in roster.members]
    public = shown([n for n in everyone if n not in hidden])
    data = field_data(f, "fatigue", hidden=hidden)
    if not hidden or not ctx.is_gm:
        return [ctx.reply(public if hidden else shown(everyone), data)]
    return for_gms(ctx, public, data, shown(everyone), field_data(f, "fatigue"))

