"""`ace` stealth (AE-13): `.sneak`.

`.sneak 狼人 蝙蝠 [警戒] [-N] [開闊] [專業]` — the speaker's character (``by=`` another)
sneaks into the named creatures' sensing range: one 隱藏 pool against each one's 生存
(passive) or 調查 (``警戒``: it keeps watch); 精神力 above twice the hider's discovers at
once; ``-N`` takes dice for poor cover, ``開闊`` fails outright (the GM's call). Who
stays unseen is kept: at `.init start` the undiscovered act first (ambush), and an
ambusher still unseen by its target may `.atk 狼人 暗殺`.

`.sneak` shows who hides from whom; `.sneak off` steps out of hiding.
"""

from __future__ import annotations

import re

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.encounter import with_skipped
from bot.messages import Outgoing
from bot.systems.ace.args import join_spaced
from bot.systems.ace.documents import FIGHT
from bot.systems.ace.sheet import level, sheet_key
from bot.systems.ace.state import Someone, acting_fighter, actor_or_speaker, pop_by, someone
from bot.systems.ace.table import command
from bot.systems.ace.text import data, joined, pool_text, readable, signed
from bot.systems.ace.veil import shown, veiled
from bot.systems.ace.words import ACTIVE, EXPOSED, SPECIALTY, any_of
from rules.kits.encounter import Life
from rules.systems.ace import fight as rules_fight
from rules.systems.ace import stealth
from rules.systems.ace import vocabulary as v

OFF = ("off", "reveal", "現身", "现身", "解除")
MAX_WATCHERS = 10


def spirit(who: Someone) -> int:
    value = who.stats.get(v.SPI)
    if not isinstance(value, int):
        raise CommandError("ace.error.attributes_missing", who=who.name, names=v.SPI)
    return value


@command("sneak", "潛行", "潜行")
@readable
async def sneak(ctx: Context) -> list[Outgoing]:
    fight = await ctx.uow.load(FIGHT)
    words, by = pop_by(join_spaced(ctx.args).split())
    if not words:
        items = [ctx.t("ace.sneak.item", name=h.hider,
                       unseen=joined(ctx, h.unseen_by) or ctx.t("ace.nobody"),
                       seen=joined(ctx, h.seen_by) or ctx.t("ace.nobody"))
                 for h in fight.hidden]
        return [ctx.reply(ctx.t("ace.sneak.list", items=joined(ctx, items) or
                                ctx.t("ace.nobody")), data("hidden", hidden=fight.hidden))]
    if len(words) == 1 and is_word(words[0], *OFF):
        me = await actor_or_speaker(ctx, by, fight)
        me.require_active(fight)
        fight = rules_fight.with_hidden(fight, stealth.reveal(fight.hidden, me.name))
        ctx.uow.save(FIGHT, fight)
        return [ctx.reply(ctx.t("ace.sneak.revealed", name=me.name),
                          data("hidden", hidden=fight.hidden))]
    active = exposed = specialty = False
    penalty = 0
    refs = []
    for token in words:
        if any_of(token, ACTIVE):
            active = True
        elif any_of(token, EXPOSED):
            exposed = True
        elif any_of(token, SPECIALTY):
            specialty = True
        elif re.fullmatch(r"-\d{1,3}", token):
            penalty += -int(token)
        else:
            refs.append(token)
    if not refs or len(refs) > MAX_WATCHERS:
        raise CommandError("ace.error.sneak_usage")
    me = await acting_fighter(ctx, by, fight)
    if sheet_key(me.stats, v.HIDE) is None:  # as `.ra 隱藏` refuses it
        raise CommandError("ace.error.stat_missing", pc=me.name, name=v.HIDE)
    hider = stealth.Sneaker(me.name, spirit(me), level(me.stats, v.HIDE), specialty)
    watchers, watching = [], []
    fallen: list[tuple[str, Life]] = []
    for ref in refs:
        who = await someone(ctx, ref)
        if len(refs) > 1 and who.life(fight) is not Life.ACTIVE:
            fallen.append((who.name, who.life(fight)))  # the rest still watch (play-test)
            continue
        who.require_active(fight)  # the dead and the unconscious notice nobody
        skill = v.INVESTIGATE if active else v.SURVIVAL
        watchers.append(stealth.Watcher(who.name, spirit(who), level(who.stats, skill), active))
        watching.append(who)
    if not watchers:  # every name fallen: the first one's refusal
        (await someone(ctx, refs[0])).require_active(fight)
    result = stealth.sneak(ctx.dice, hider, watchers, penalty=penalty, exposed=exposed)
    fight = rules_fight.with_hidden(fight, stealth.record(fight.hidden, result))
    ctx.uow.save(FIGHT, rules_fight.mark_acted(fight, me.name))
    veiled_names = {w.name for w in [me, *watching] if veiled(ctx, w)}

    def line(hide: set[str]) -> str:
        """The sneak; a veiled enemy's pool (its 隱藏, 生存 or 調查) left out."""
        if result.exposed:
            head = ctx.t("ace.sneak.exposed")
        elif result.pool is None or me.name in hide:
            head = ctx.t("ace.sneak.no_roll") if result.pool is None else ctx.t(
                "ace.sneak.hide", pool=ctx.t("ace.pool.successes", n=result.pool.total))
        else:
            dp = f"{hider.dp}{signed(-penalty)}" if penalty else None
            head = ctx.t("ace.sneak.hide", pool=pool_text(ctx, result.pool, dp))
        checks = []
        for check in result.checks:
            seen = ctx.t("ace.sneak.seen" if check.discovered else "ace.sneak.unseen")
            if check.instant:
                checks.append(ctx.t("ace.sneak.instant", name=check.watcher))
            elif check.pool is None or check.watcher in hide:
                checks.append(ctx.t("ace.sneak.check_plain", name=check.watcher, seen=seen))
            else:
                checks.append(ctx.t("ace.sneak.check", name=check.watcher,
                                    skill=ctx.t(f"ace.sneak.skill_{check.skill}"),
                                    pool=pool_text(ctx, check.pool), seen=seen))
        seen_by = [c.watcher for c in result.checks if c.discovered]
        verdict = ctx.t("ace.sneak.verdict_seen", names=joined(ctx, seen_by)) if seen_by \
            else ctx.t("ace.sneak.verdict_unseen")
        return with_skipped(ctx, ctx.t("ace.sneak.line", name=me.name, head=head,
                                       checks=ctx.t("ace.bar").join(checks), verdict=verdict),
                            fallen)

    return shown(ctx, [me, *watching], line(veiled_names), data("sneak", unseen=result.unseen),
                 line(set()), data("sneak", result=result, unseen=result.unseen))
