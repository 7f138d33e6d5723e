"""What `.ra`-style arguments ask for, and the check they roll.

`.ra`, `.rah` and `.secret` read one stat (or a bare modifier), bonuses, at most
one threshold, a check mode and a reason; :func:`precheck_check` refuses a
malformed line before the command touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.context import Context
from bot.errors import CommandError
from bot.systems.plurk_trpg.characters import sheet_key, stat_modifier
from bot.systems.plurk_trpg.terms import Term, attach_bonuses, parse_terms
from bot.unit_of_work import Sheet
from rules.systems import plurk_trpg as plurk

PUSH_WORDS = frozenset({"push", "孤注", "孤注一擲", "孤注一掷"})
"""`.ra push` pushes the last check (PL-10) instead of rolling a new one."""

COMPARISONS = frozenset("<>=≤≥≦≧")
"""A reason word starting with one of these was meant as a threshold: refused, never
taken as the reason (issue 12 item 10: `.ra 觀察 >15` once checked against 11)."""

MAX_REASON = 100
"""A check's reason is shown in the reply; longer text is cut."""


@dataclass
class CheckArgs:
    """What `.ra`-style arguments ask for: a stat or a bare modifier, bonus, threshold."""

    stat: str | None = None
    bare: int | None = None
    bonus: int = 0
    threshold: int = plurk.DEFAULT_THRESHOLD
    mode: str = "roll"
    reason: str | None = None


def check_args(terms: list[Term], mode: str | None) -> CheckArgs:
    """One stat (``觀察+2``) or one bare number, bonuses, at most one ``>=N``, and a
    reason: ``.ra 觀察 開門`` checks 觀察 for 開門, as ``.r 1d20 開門`` rolls for it.

    The first word is the stat; a number right after it is the threshold (``.ra 觀察
    15`` = ``.ra 觀察 >=15``); every later word is the reason — unless it is a stat
    the system declares (``.ra 觀察 潛行`` is two stats: refused rather than
    guessed) or starts like a comparison (``<15``). Mode words (``取10``) and
    thresholds are taken out before.
    """
    terms, leading = attach_bonuses(terms)
    args = CheckArgs(bonus=leading, mode=mode or "roll")
    thresholds = [t.threshold for t in terms if t.threshold is not None]
    if len(thresholds) > 1:
        raise CommandError("plurk.error.check_usage")
    if thresholds:
        args.threshold = thresholds[0]
    reason: list[str] = []
    for index, term in enumerate(terms):
        args.bonus += term.bonus
        if term.word is not None:
            if term.word[:1] in COMPARISONS:  # `<15`, `=15`: not a threshold PL-2 knows
                raise CommandError("plurk.error.syntax", text=term.word[:30])
            if args.stat is None and args.bare is None:
                args.stat = term.word
            elif (plurk.resolve_stat(term.word) is not None
                  or term.word.casefold() in PUSH_WORDS):
                raise CommandError("plurk.error.check_usage")
            else:
                reason.append(term.word)
        elif term.number is not None:
            if args.stat is None and args.bare is None:
                args.bare = term.number
                continue
            if args.stat is not None and index == 1 and not thresholds:
                # `.ra 觀察 15`: the number right after the stat is the threshold, as
                # CoC bots read it (issue 12 item 10)
                args.threshold = term.number
                thresholds.append(term.number)
                continue
            raise CommandError("plurk.error.check_usage")
    if reason:
        args.reason = " ".join(reason)[:MAX_REASON]
    return args


def parse_check(text: str) -> CheckArgs:
    """The arguments of a `.ra` line."""
    terms, mode = parse_terms(text)
    return check_args(terms, mode)


CONSENT_VERBS = frozenset({"allow", "允許", "允许", "deny", "拒絕", "拒绝"})
"""`.ra allow …` / `.ra deny …`: the GM's consent to take 10 / 20 and push (PL-10)."""


def precheck_check(args: str) -> None:
    """Refuse malformed `.ra` arguments before any database work."""
    first = args.strip().partition(" ")[0].casefold()
    if args.strip().casefold() not in PUSH_WORDS and first not in CONSENT_VERBS:
        parse_check(args)


def roll_for(ctx: Context, character: Sheet | None, args: CheckArgs) -> plurk.CheckResult:
    """Roll a check with the sheet's modifier (or the bare number given)."""
    modifier, stat = args.bare or 0, None
    if args.stat is not None:
        if character is None:
            raise CommandError("core.error.pc_no_active")
        stat, modifier = stat_modifier(character, args.stat)
    if args.reason is not None and character is not None and any(
            sheet_key(character, word) is not None for word in args.reason.split()):
        raise CommandError("plurk.error.check_usage")  # a second stat of the sheet
    return plurk.check(ctx.dice, modifier, bonus=args.bonus, threshold=args.threshold,
                       stat=stat, mode=args.mode)
