"""`ace` grapples (AE-9): `.grab`.

- `.grab 狼人 [掙脫|逃脫] [命中+N]` — a first grab rolls the grapple's hit (1d20 + 力量 +
  基本腰力 against the evasion) and then the contest; grabbing a fighter one already
  holds, in a later round, is the pin;
- `.grab free [掙脫|逃脫]` — the held fighter's attempt (its attack action);
- `.grab release 狼人` — let go; `.grab` — who holds whom.

``by=名字`` acts for another fighter (GMs for enemies); without it a GM acts for the
enemy whose turn it is. The target's choice (break with 力量 + 基本腰力, escape with
敏捷 + 基本步法) defaults to its better bonus.
"""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.messages import Outgoing
from bot.systems.ace.args import join_spaced, option
from bot.systems.ace.documents import FIGHT, OPTIONS
from bot.systems.ace.state import (
    Someone,
    acting_fighter,
    actor_or_speaker,
    armed,
    pop_by,
    someone,
)
from bot.systems.ace.table import command
from bot.systems.ace.text import contest_text, data, hit_text, joined, readable, word
from bot.systems.ace.veil import shown, veiled
from bot.systems.ace.words import CHOICES, lookup
from rules.systems.ace import fight as rules_fight
from rules.systems.ace import grapple

FREE = ("free", "掙脫", "挣脱", "脫離", "脱离", "struggle")
RELEASE = ("release", "放開", "放开", "鬆手", "松手")
HIT = ("命中", "hit")


def parse(words: list[str]) -> tuple[list[str], str | None, int]:
    rest, choice, hit_mod = [], None, 0
    for token in words:
        found = lookup(token, CHOICES)
        parsed = option(token)
        if found is not None:
            choice = found
        elif parsed is not None and is_word(parsed[0], *HIT):
            hit_mod += parsed[2]
        else:
            rest.append(token)
    return rest, choice, hit_mod


@command("grab", "擒抱", "grapple")
@readable
async def grab(ctx: Context) -> list[Outgoing]:
    fight = await ctx.uow.load(FIGHT)
    words, by = pop_by(join_spaced(ctx.args).split())
    if not words:
        lines = [ctx.t(f"ace.grab.state_{h.state}", grappler=h.grappler, target=h.target,
                       margin=h.margin) for h in fight.holds]
        return [ctx.reply(ctx.t("ace.grab.list", items=joined(ctx, lines) or
                                ctx.t("ace.nobody")), data("holds", holds=fight.holds))]
    verb = words[0]
    if is_word(verb, *RELEASE) and len(words) == 2:
        me = await actor_or_speaker(ctx, by, fight)
        target = await someone(ctx, words[1])
        fight = rules_fight.with_holds(fight, grapple.release(fight.holds, me.name,
                                                              target.name))
        ctx.uow.save(FIGHT, fight)
        return [ctx.reply(ctx.t("ace.grab.released", grappler=me.name, target=target.name),
                          data("holds", holds=fight.holds))]
    if is_word(verb, *FREE):
        rest, choice, _ = parse(words[1:])
        if rest:
            raise CommandError("ace.error.grab_usage")
        me = await acting_fighter(ctx, by, fight)
        hold = grapple.hold_on(fight.holds, me.name)
        if hold is None:
            raise CommandError("ace.error.not_held", name=me.name)
        grappler = await someone(ctx, hold.grappler)
        holds, result = grapple.break_free(ctx.dice, fight.holds, armed(me, fight),
                                           armed(grappler, fight), choice=choice)
        fight = rules_fight.mark_acted(rules_fight.with_holds(fight, holds), me.name)
        ctx.uow.save(FIGHT, fight)
        contest = result.contest
        assert contest is not None  # breaking free is always a contest (AE-9)
        outcome = ctx.t(f"ace.grab.free_{result.after or 'free'}" if contest.win
                        else "ace.grab.free_failed", name=me.name, grappler=grappler.name)

        def free_line(hide: tuple[bool, bool]) -> str:
            return ctx.t("ace.grab.free_line", name=me.name, grappler=grappler.name,
                         choice=word(ctx, "choice", result.choice),
                         contest=contest_text(ctx, contest, hide_a=hide[0], hide_b=hide[1]),
                         outcome=outcome)

        return shown(ctx, [me, grappler], free_line(hides(ctx, me, grappler)),
                     data("grapple", holds=fight.holds), free_line((False, False)),
                     data("grapple", result=result, holds=fight.holds))
    rest, choice, hit_mod = parse(words)
    if len(rest) != 1:
        raise CommandError("ace.error.grab_usage")
    me = await acting_fighter(ctx, by, fight)
    target = await someone(ctx, rest[0])
    target.require_alive()
    supernatural = (await ctx.uow.load(OPTIONS)).super
    holds, result = grapple.grab(ctx.dice, fight.holds, armed(me, fight), armed(target, fight),
                                 round=fight.round, choice=choice, hit_mod=hit_mod,
                                 supernatural=supernatural)
    fight = rules_fight.mark_acted(rules_fight.with_holds(fight, holds), me.name)
    ctx.uow.save(FIGHT, fight)

    def line(hide: tuple[bool, bool]) -> str:
        parts = []
        if result.hit is not None:
            parts.append(hit_text(ctx, result.hit, "grab_bonus", hide_bonus=hide[0],
                                  hide_evasion=hide[1]))
        if result.contest is not None:
            parts.append(ctx.t("ace.grab.contest", choice=word(ctx, "choice", result.choice),
                               target=target.name,
                               contest=contest_text(ctx, result.contest, hide_a=hide[0],
                                                    hide_b=hide[1])))
            if result.action == "pin":
                key = "ace.grab.pinned" if result.after == "pinned" else "ace.grab.pin_failed"
            else:
                key = "ace.grab.held" if result.after == "held" else "ace.grab.failed"
            parts.append(ctx.t(key, target=target.name, margin=result.margin))
        head = "ace.grab.pin_line" if result.action == "pin" else "ace.grab.line"
        return ctx.t(head, grappler=me.name, target=target.name,
                     parts=ctx.t("ace.bar").join(parts))

    return shown(ctx, [me, target], line(hides(ctx, me, target)),
                 data("grapple", holds=fight.holds), line((False, False)),
                 data("grapple", result=result, holds=fight.holds))


def hides(ctx: Context, a: Someone, b: Someone) -> tuple[bool, bool]:
    """Which side's numbers the channel does not read (a veiled enemy's)."""
    return veiled(ctx, a), veiled(ctx, b)
