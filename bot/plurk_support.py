"""Shared helpers of the `plurk` commands (checks, points, battle).

Handlers parse arguments and call ``rules.systems.plurk``; what several of them
need around that lives here, so the check and battle commands behave alike:

- which character a command is about (the speaker's active one, ``@user`` or a
  character name) and the numbers on its sheet (stat modifiers, HP / SAN / CP);
- the **fatal event** of PL-12: a loss that would bring HP or SAN to 0 is *not*
  applied; it is recorded as pending in the channel state ``plurk.fatal`` and the
  investigator may intervene (spend CP, the loss is cancelled) or accept it (the
  loss is applied). :func:`fatal_event` records one; :func:`resolve_fatal` settles
  one. A feature that must undo something of its own on resolution (the battle
  keeps HP in its own state) registers a hook with :func:`on_fatal_resolved`.

Everything here runs inside the command's one transaction: a refusal raised
later in the same command rolls the pending record back with the rest.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

from sqlalchemy import select

from bot.context import Context
from bot.errors import CommandError
from bot.names import canonical, fold
from bot.store.models import Character
from rules.errors import RuleError
from rules.systems import plurk

# --------------------------------------------------------------------------- vocabulary


def _declared(alias: str) -> str:
    """The canonical sheet name the system declares for ``alias`` (HP → 體力)."""
    stat = plurk.SYSTEM.stat(alias)
    assert stat is not None, alias
    return stat.name


HP = _declared("HP")
"""Sheet name of hit points (體力)."""
SAN = _declared("SAN")
"""Sheet name of sanity (理智)."""
CP = _declared("CP")
"""Sheet name of causality points (因果點數)."""
FATAL_RESOURCES = (HP, SAN)
"""The resources whose loss to 0 is a fatal event (PL-12)."""

FATAL_KEY = "plurk.fatal"
"""Channel state document of pending fatal events and the intervention cost."""

Outcome = Literal["accepted", "intervened"]


def require_plurk(ctx: Context) -> None:
    """The plurk commands only make sense in a channel that plays plurk."""
    if ctx.system.id != plurk.SYSTEM.id:
        raise CommandError("error.plurk.wrong_system", system=ctx.system.id)


def resource_name(spelling: str) -> str:
    """``hp`` / ``体力`` / ``SAN`` → the declared sheet name; refuses anything else."""
    name = canonical(spelling, plurk.SYSTEM)
    if name not in (HP, SAN, CP):
        raise CommandError("error.plurk.not_resource", name=spelling)
    return name


# --------------------------------------------------------------------------- characters

_MENTION = re.compile(r"^(?:<@!?(\d+)>|\[CQ:at,qq=(\d+)\]|@(\S+))$")


def mention(token: str) -> str | None:
    """The user id of a ``@user`` / Discord ``<@id>`` / QQ at-code token, else None."""
    match = _MENTION.match(token.strip())
    if match is None:
        return None
    return next(group for group in match.groups() if group)


async def active_sheet(ctx: Context, owner: str | None = None) -> Character:
    """The active character of ``owner`` (default: the speaker); refuses without one."""
    character = await ctx.active_character(owner)
    if character is None:
        if owner is None or owner == ctx.user:
            raise CommandError("error.pc_no_active")
        raise CommandError("error.plurk.no_character", who=owner)
    return character


async def channel_characters(ctx: Context) -> list[Character]:
    """Every character of the channel, all owners, oldest first."""
    rows = await ctx.session.scalars(
        select(Character).where(Character.channel_id == ctx.channel.id).order_by(Character.id)
    )
    return list(rows)


async def find_character(ctx: Context, ref: str) -> Character | None:
    """The character ``ref`` names, or None: ``@user`` (their active character) or a
    character name of any owner.

    The name as written wins over a traditional/simplified or case fold (艾莉絲 and
    艾莉丝 are two characters when both exist); among several characters of that
    spelling the active ones win; a still ambiguous name is refused with the
    candidates rather than guessed."""
    user = mention(ref)
    if user is not None:
        return await ctx.active_character(user)
    name = ref.strip()
    everyone = await channel_characters(ctx)
    for matcher in (lambda c: c.name == name, lambda c: fold(c.name) == fold(name)):
        found = [c for c in everyone if matcher(c)]
        if len(found) > 1:
            active = [c for c in found if c.active]
            if len(active) == 1:
                return active[0]
            raise CommandError("error.plurk.ambiguous_character", name=name,
                               candidates=candidates_text(ctx, active or found))
        if len(found) == 1:
            return found[0]
    return None


def candidates_text(ctx: Context, characters: list[Character]) -> str:
    """``艾莉絲（alice）、艾莉丝（bob）``: who an ambiguous name could mean."""
    return ctx.t("plurk.list_sep").join(
        ctx.t("plurk.candidate", name=c.name, owner=c.owner) for c in characters)


def same_character(record: Mapping[str, Any], character: Character) -> bool:
    """Whether a stored record (last check, fatal event) is about ``character``:
    by its id when the record has one (a renamed sheet stays the same character),
    else — records written before ids were kept — by owner and name."""
    if record.get("character_id") is not None:
        return bool(record["character_id"] == character.id)
    return bool(record.get("owner", character.owner) == character.owner
                and record.get("character") == character.name)


async def investigator(ctx: Context, ref: str) -> Character:
    """Like :func:`find_character` but refuses an unknown reference."""
    found = await find_character(ctx, ref)
    if found is None:
        raise CommandError("error.plurk.no_character", who=ref.strip())
    return found


async def target_or_self(ctx: Context, ref: str | None) -> Character:
    """The named investigator (GM, or the owner naming their own), else the speaker's.

    A player may name only their own characters; the GM anyone's. A channel
    without GMs is run by everyone (docs/decisions.md), so there anyone may.
    """
    if not ref:
        return await active_sheet(ctx)
    character = await investigator(ctx, ref)
    require_owner_or_gm(ctx, character.owner)
    return character


def require_owner_or_gm(ctx: Context, owner: str) -> None:
    """Only the investigator's player or a GM speaks for an investigator."""
    if owner != ctx.user and ctx.gm_users and not ctx.is_gm:
        raise CommandError("error.plurk.not_yours")


# --------------------------------------------------------------------------- sheet values


def sheet_key(character: Character, spelling: str) -> str | None:
    """The sheet entry ``spelling`` names (folded, aliases), trying the base skill of a
    ``知識：醫學`` specialisation when the specialisation itself is not on the sheet."""
    stats = character.stats or {}
    name = canonical(spelling, plurk.SYSTEM, stats)
    if name in stats:
        return name
    base = plurk.resolve_stat(spelling)
    if base is not None and base.name in stats:
        return base.name
    return None


def stat_modifier(character: Character, spelling: str) -> tuple[str, int]:
    """(label, sheet value) of a stat for a check; refuses a stat not on the sheet,
    because a silent 0 would misreport a check the GM audits."""
    key = sheet_key(character, spelling)
    if key is None:
        raise CommandError("error.plurk.stat_missing", pc=character.name,
                           name=plurk.stat_label(spelling))
    value = character.stats[key]
    if not isinstance(value, int):
        raise CommandError("error.plurk.stat_missing", pc=character.name, name=key)
    return key, value


def resource_value(character: Character, resource: str) -> int:
    """Current HP / SAN / CP on the sheet; HP and SAN must be set (CP defaults to 0)."""
    value = (character.stats or {}).get(resource)
    if value is None:
        if resource == CP:
            return 0
        raise CommandError("error.plurk.stat_missing", pc=character.name, name=resource)
    return int(value)


def set_resource(character: Character, resource: str, value: int) -> None:
    """Write one sheet value (a new dict: JSON columns do not track mutation)."""
    character.stats = {**(character.stats or {}), resource: value}


# --------------------------------------------------------------------------- fatal events

FatalHook = Callable[[Context, dict[str, Any], Outcome], Awaitable[list[str]]]
_HOOKS: dict[str, FatalHook] = {}


def on_fatal_resolved(source: str) -> Callable[[FatalHook], FatalHook]:
    """Register ``hook(ctx, record, outcome)`` for fatal events of ``source``.

    It runs in the resolving command's transaction after the sheet was handled
    (``"accepted"``: the loss is on the sheet; ``"intervened"``: CP spent, the sheet
    unchanged) and returns extra reply lines. The battle uses it to restore the
    HP its own state already took (``cancel_damage``) when the investigator intervened.
    """

    def register(hook: FatalHook) -> FatalHook:
        _HOOKS[source] = hook
        return hook

    return register


async def _fatal_doc(ctx: Context) -> tuple[Any, dict[str, Any]]:
    row = await ctx.state(FATAL_KEY)
    data = dict(row.data or {})
    data.setdefault("events", [])
    data.setdefault("next", 1)
    data.setdefault("cost", plurk.INTERVENTION_MIN_COST)
    return row, data


async def intervention_cost(ctx: Context) -> int:
    """The CP an intervention costs in this channel (5 unless the GM set more)."""
    _row, data = await _fatal_doc(ctx)
    return int(data["cost"])


async def set_intervention_cost(ctx: Context, cost: int) -> None:
    """GM: the channel's intervention cost (never below the rules' minimum)."""
    if cost < plurk.INTERVENTION_MIN_COST:
        raise RuleError("plurk.intervention_cost_too_low", cost=cost,
                               minimum=plurk.INTERVENTION_MIN_COST)
    row, data = await _fatal_doc(ctx)
    row.data = {**data, "cost": cost}


async def fatal_event(
    ctx: Context,
    owner: str,
    character_name: str,
    resource: str,
    loss: int,
    *,
    source: str,
    current: int | None = None,
    details: Mapping[str, Any] | None = None,
    character_id: int | None = None,
) -> list[str]:
    """Record a PL-12 fatal event and return the localised lines announcing it.

    Call it instead of applying a loss of ``loss`` (> 0) to ``resource`` (``體力`` /
    ``理智``, any alias) of the investigator ``character_name`` owned by ``owner``
    when ``plurk.is_fatal(current, loss)``. The sheet is NOT changed: the loss waits
    in the channel state until the investigator intervenes (``.intervene``: CP spent,
    loss cancelled) or accepts (``.accept``: loss applied to the sheet then, from the
    sheet's value at that time); a GM may resolve it for them.

    ``source`` names the caller (``"check"``, ``"sanity"``, ``"hp"``, ``"battle"`` …);
    a hook registered with :func:`on_fatal_resolved` for that source runs on
    resolution. ``current`` is the value the loss was judged against (default: the
    sheet's). ``details`` is stored as is (JSON) for that hook, e.g. the battle's
    ``DamageResult`` fields and combatant name, so it can ``cancel_damage`` later.
    ``character_id`` (``Character.id``) names the sheet when the caller knows it
    (the battle, whose combatant may carry a name the sheet no longer has);
    otherwise it is looked up by owner and name. The record keeps the id, so a
    ``.pc rename`` while the event is pending does not orphan it.

    The record (an item of ``ctx.state("plurk.fatal").data["events"]``)::

        {"id": 3, "owner": "u1", "character": "艾莉絲", "character_id": 4,
         "resource": "體力", "loss": 7, "before": 5, "after": 0, "source": "battle",
         "details": {...}}

    The lines tell the channel whether intervention is possible now (≥ 10 CP held)
    and how to resolve; add them to the reply that reported the hit / check.
    """
    name = resource_name(resource)
    if name not in FATAL_RESOURCES:
        raise CommandError("error.plurk.not_resource", name=resource)
    character = await _owned_character(ctx, owner, character_name, character_id)
    before = resource_value(character, name) if current is None else current
    row, data = await _fatal_doc(ctx)
    record = {
        "id": data["next"], "owner": owner, "character": character.name,
        "character_id": character.id, "resource": name, "loss": loss, "before": before,
        "after": max(0, before - loss),
        "source": source, "details": dict(details or {}),
    }
    row.data = {**data, "events": [*data["events"], record], "next": data["next"] + 1}
    cp = resource_value(character, CP)
    cost = int(data["cost"])
    lines = [ctx.t("plurk.fatal.announce", pc=character.name, resource=name,
                   before=before, after=record["after"], loss=loss, id=record["id"])]
    if cp >= plurk.INTERVENTION_MIN_CP and cp >= cost:
        lines.append(ctx.t("plurk.fatal.can_intervene", pc=character.name, cp=cp, cost=cost))
    else:
        lines.append(ctx.t("plurk.fatal.cannot_intervene", pc=character.name, cp=cp,
                           cost=cost, minimum=plurk.INTERVENTION_MIN_CP))
    return lines


async def _owned_character(ctx: Context, owner: str, name: str,
                           character_id: int | None = None) -> Character:
    """The sheet of a record: by id when known (renames keep it), else owner + name."""
    character = None
    if character_id is not None:
        character = await ctx.session.get(Character, character_id)
        if character is not None and (character.channel_id != ctx.channel.id
                                      or character.owner != owner):
            character = None
    if character is None:
        character = await ctx.session.scalar(select(Character).where(
            Character.channel_id == ctx.channel.id, Character.owner == owner,
            Character.name == name))
    if character is None:
        raise CommandError("error.plurk.no_character", who=name)
    return character


async def pending_fatal(ctx: Context) -> list[dict[str, Any]]:
    """Every unresolved fatal event of the channel, oldest first."""
    _row, data = await _fatal_doc(ctx)
    return list(data["events"])


async def resolve_fatal(
    ctx: Context, event_id: int, outcome: Outcome, *, cost: int | None = None
) -> list[str]:
    """Settle a pending fatal event: apply the loss, or spend CP and cancel it.

    Intervention goes through ``plurk.intervene`` (≥ 5 CP, holding ≥ 10, the
    channel's cost at least); its refusals leave the event pending. Returns the
    reply lines, including the hook's for the event's source.
    """
    row, data = await _fatal_doc(ctx)
    record = next((e for e in data["events"] if e["id"] == event_id), None)
    if record is None:
        raise CommandError("error.plurk.no_fatal")
    character = await _owned_character(ctx, record["owner"], record["character"],
                                       record.get("character_id"))
    if outcome == "intervened":
        minimum = int(data["cost"])
        spend = minimum if cost is None else cost
        if spend < minimum:
            raise RuleError("plurk.intervention_cost_too_low", cost=spend,
                                   minimum=minimum)
        result = plurk.intervene(resource_value(character, CP), spend)
        set_resource(character, CP, result.cp_after)
        lines = [ctx.t("plurk.fatal.intervened", pc=character.name, resource=record["resource"],
                       loss=record["loss"], cost=result.cost, cp_before=result.cp_before,
                       cp_after=result.cp_after)]
    else:
        applied = plurk.apply_loss(resource_value(character, record["resource"]),
                                   record["loss"])
        set_resource(character, record["resource"], applied.after)
        lines = [ctx.t("plurk.fatal.accepted", pc=character.name, resource=record["resource"],
                       loss=record["loss"], before=applied.before, after=applied.after)]
    row.data = {**data, "events": [e for e in data["events"] if e["id"] != event_id]}
    hook = _HOOKS.get(record["source"])
    if hook is not None:
        lines.extend(await hook(ctx, record, outcome))
    return lines


async def lose(
    ctx: Context, character: Character, resource: str, loss: int, *, source: str
) -> tuple[list[str], bool]:
    """Apply an HP/SAN loss to a sheet, or record a fatal event instead (PL-12).

    Returns (reply lines, fatal). A non-fatal loss is applied at once; a fatal one
    leaves the sheet unchanged until ``.accept`` / ``.intervene``.
    """
    current = resource_value(character, resource)
    if plurk.is_fatal(current, loss):
        lines = await fatal_event(ctx, character.owner, character.name, resource, loss,
                                  source=source, current=current, character_id=character.id)
        return lines, True
    applied = plurk.apply_loss(current, loss)
    set_resource(character, resource, applied.after)
    return [], False


# --------------------------------------------------------------------------- argument terms

MODES: dict[str, str] = {
    "取10": "take10", "t10": "take10", "take10": "take10",
    "取20": "take20", "t20": "take20", "take20": "take20",
}
"""Check-mode words (PL-10) as players type them → the rules' mode name."""

_THRESHOLD = r"(?:>=|≥|≧|=>|(?<![A-Za-z0-9@_])(?i:dc))"
"""How players write a threshold: ``>=15``, ``≥15``, ``≧15``, ``=>15``, ``DC15`` (``dc``
only where it starts a word or follows a stat, so ``@dc99`` stays a name)."""
_SUFFIX = re.compile(rf"([+-]\d{{1,6}})|{_THRESHOLD}(-?\d{{1,6}})")
_NUMBER = re.compile(r"^-?\d{1,6}$")
_THRESHOLD_ONLY = re.compile(rf"^{_THRESHOLD}$")


class Term:
    """One whitespace-separated piece of a command's arguments.

    ``word`` is a stat, a character, a mention or a keyword (None for a bare
    ``+2`` / ``>=15`` / number); ``bonus`` sums the ``+N``/``-N`` written right
    after it (``觀察+2``), ``threshold`` a ``>=N`` written right after it.
    """

    __slots__ = ("bonus", "number", "threshold", "word")

    def __init__(self, word: str | None = None, number: int | None = None,
                 bonus: int = 0, threshold: int | None = None) -> None:
        self.word = word
        self.number = number
        self.bonus = bonus
        self.threshold = threshold

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Term({self.word!r}, {self.number!r}, {self.bonus!r}, {self.threshold!r})"


def _split_suffixes(token: str) -> Term:
    """``觀察+2>=15`` → Term("觀察", bonus=2, threshold=15); ``+2`` → Term(bonus=2)."""
    match = _SUFFIX.search(token)
    head = token if match is None else token[: match.start()]
    term = Term(word=head or None)
    position = len(head)
    while position < len(token):
        match = _SUFFIX.match(token, position)
        if match is None:
            raise CommandError("error.plurk.syntax", text=token[:30])
        if match.group(1) is not None:
            term.bonus += int(match.group(1))
        else:
            term.threshold = int(match.group(2))
        position = match.end()
    return term


def parse_terms(text: str) -> tuple[list[Term], str | None]:
    """Split arguments into terms and the check mode (取10 / 取20 / None).

    A stray ``1d20`` / ``d20`` token is dropped: with Plurk emoticon dice the core
    turns ``(dice20)`` into ``1d20`` and feeds the player's value through the dice
    source (PL-1), so the token only says "my own die". ``>= 15`` with a space is
    joined to ``>=15`` (``DC 15`` to ``DC15``) and ``+ 2`` to ``+2``.
    """
    text = re.sub(r"(>=|≥|≧|=>)\s+", r"\1", text)
    text = re.sub(r"(^|\s)([dD][cC])\s+(?=-?\d)", r"\1\2", text)
    text = re.sub(r"(^|\s)([+-])\s+(\d)", r"\1\2\3", text)
    terms: list[Term] = []
    mode: str | None = None
    for token in text.split():
        dice = re.match(r"^1?d20(?=[+-]|$)", token, re.IGNORECASE)
        if dice is not None:
            token = token[dice.end():]
            if not token:
                continue
        if token.casefold() in MODES:
            mode = MODES[token.casefold()]
            continue
        if _NUMBER.match(token) and not token.startswith("-"):
            terms.append(Term(number=int(token)))
            continue
        if _THRESHOLD_ONLY.match(token):
            raise CommandError("error.plurk.syntax", text=token)
        terms.append(_split_suffixes(token))
    return terms, mode


def attach_bonuses(terms: list[Term]) -> tuple[list[Term], int]:
    """Fold a lone ``+2`` into the word before it (``觀察 +2`` = ``觀察+2``).

    Returns the terms and the bonus that stood before any word (a global bonus).
    A lone ``>=N`` stays a term of its own (the default threshold).
    """
    merged: list[Term] = []
    leading = 0
    for term in terms:
        lone_bonus = term.word is None and term.number is None and term.threshold is None
        if lone_bonus:
            if merged:
                merged[-1].bonus += term.bonus
            else:
                leading += term.bonus
            continue
        merged.append(term)
    return merged, leading


# --------------------------------------------------------------------------- rendering


def check_body(ctx: Context, result: plurk.CheckResult) -> str:
    """The numbers of one check as the GM audits them: raw, each modifier, value,
    threshold, outcome, and crit / fumble as words of their own (PL-3: they are
    reported apart from success / failure)."""
    parts = [ctx.t(f"plurk.check.raw_{result.mode}", raw=result.raw)]
    if result.stat is not None or result.modifier:
        label = result.stat or ctx.t("plurk.check.mod")
        if "+" in label:  # a compound check (PL-8) adds the mean of its stats
            label = ctx.t("plurk.check.mean")
        parts.append(ctx.t("plurk.check.modifier", stat=label, value=signed(result.modifier)))
    if result.bonus:
        parts.append(ctx.t("plurk.check.bonus", value=signed(result.bonus)))
    specials = []
    if result.crit:
        specials.append(ctx.t("plurk.check.crit"))
    if result.fumble:
        pushed = result.mode == "push" and result.raw != 1
        specials.append(ctx.t("plurk.check.push_fumble" if pushed else "plurk.check.fumble"))
    return ctx.t("plurk.check.body", detail=" ".join(parts), value=result.value,
                 threshold=result.threshold, cmp="≥" if result.success else "<",
                 outcome=ctx.t("plurk.check.success" if result.success
                               else "plurk.check.failure"),
                 special="".join(ctx.t("plurk.check.special", text=s) for s in specials))


def check_text(ctx: Context, who: str, result: plurk.CheckResult,
               reason: str | None = None) -> str:
    """One check with who made it, of what and why: ``🎲 艾莉絲「觀察」檢定（開門）：…``."""
    key = "plurk.check.line_reason" if reason else "plurk.check.line"
    return ctx.t(key, who=who, stat=result.stat or ctx.t("plurk.check.unnamed"),
                 body=check_body(ctx, result), reason=reason)


def param_label(ctx: Context, name: str) -> str:
    """The reader's word for a rules parameter named in a refusal (``amount`` →
    ``給予的行動點數``), else the name itself."""
    key = f"plurk.param.{name}"
    return ctx.t(key) if ctx.core.catalog.has(key, ctx.locale) else name


def refusal_text(ctx: Context, exc: CommandError | RuleError) -> str:
    """A refusal rendered as the core renders it (``⚠ …``), for a handler that must
    answer it somewhere else than the channel (a hidden check's refusal, PL-7)."""
    if isinstance(exc, RuleError):
        key, params = f"error.{exc.code}", dict(exc.params)
        if not ctx.core.catalog.has(key, ctx.locale):
            key, params = "error.rule", {"code": exc.code}
    else:
        key, params = exc.key, dict(exc.params)
    return ctx.t("error.prefix", text=ctx.t(key, **params))


def signed(value: int) -> str:
    """``+3`` / ``-2`` / ``+0``: modifiers are always shown with their sign."""
    return f"{value:+d}"


def result_dict(result: plurk.CheckResult) -> dict[str, Any]:
    """A check's fields as JSON; the stat's kind is ``stat_kind`` because ``kind``
    names the message kind in every ``Outgoing.data``."""
    data = result.to_dict()
    data["stat_kind"] = data.pop("kind")
    return data


def check_data(result: plurk.CheckResult, **extra: Any) -> dict[str, Any]:
    """The structured result for JSON consumers (console ``--json``)."""
    return {"kind": "plurk_check", **result_dict(result), **extra}
