"""How checks and refusals read in the channel.

One place for the words of a check (raw die, modifiers, outcome, crit / fumble)
so that `.ra`, `.push`, `.secret`, `.rm` and `.rg` report a check alike, and the
GM audits the same numbers whichever command rolled it.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.context import Context
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk


def text_or(ctx: Context, key: str, fallback: str) -> str:
    """The catalog's text for ``key`` in the reader's locale, else ``fallback``: names
    the catalog labels (a rules parameter, a default action) read in the reader's
    words, names it does not (an action the GM made up) read as written."""
    return ctx.t(key) if ctx.has(key) else fallback


def outcome_text(ctx: Context, success: bool) -> str:
    """成功 / 失敗 in the reader's words."""
    return ctx.t("plurk.check.success" if success else "plurk.check.failure")


def check_body(ctx: Context, result: plurk.CheckResult) -> str:
    """The numbers of one check as the GM audits them: raw, each modifier, value,
    threshold, outcome, and crit / fumble as words of their own (PL-3: they are
    reported apart from success / failure)."""
    parts = [ctx.t(f"plurk.check.raw_{result.mode}", raw=result.raw)]
    if result.stat is not None or result.modifier:
        label = result.stat or ctx.t("plurk.check.mod")
        if "+" in label:  # a compound check (PL-8) adds the mean of its stats
            label = ctx.t("plurk.check.mean")
        parts.append(ctx.t("plurk.check.modifier", stat=label, value=f"{result.modifier:+d}"))
    if result.bonus:
        parts.append(ctx.t("plurk.check.bonus", value=f"{result.bonus:+d}"))
    specials = []
    if result.crit:
        specials.append(ctx.t("plurk.check.crit"))
    if result.fumble:
        pushed = result.mode == "push" and result.raw != 1
        specials.append(ctx.t("plurk.check.push_fumble" if pushed else "plurk.check.fumble"))
    return ctx.t("plurk.check.body", detail=" ".join(parts), value=result.value,
                 threshold=result.threshold, cmp="≥" if result.success else "<",
                 outcome=outcome_text(ctx, result.success),
                 special="".join(ctx.t("plurk.check.special", text=s) for s in specials))


def check_text(ctx: Context, who: str, result: plurk.CheckResult,
               reason: str | None = None) -> str:
    """One check with who made it, of what and why: ``🎲 艾莉絲「觀察」檢定（開門）：…``."""
    key = "plurk.check.line_reason" if reason else "plurk.check.line"
    return ctx.t(key, who=who, stat=result.stat or ctx.t("plurk.check.unnamed"),
                 body=check_body(ctx, result), reason=reason)


def result_dict(result: plurk.CheckResult) -> dict[str, Any]:
    """A check's fields as JSON; the stat's kind is ``stat_kind`` because ``kind``
    names the message kind in every ``Outgoing.data``."""
    data = asdict(result)
    data["stat_kind"] = data.pop("kind")
    return data


def check_data(result: plurk.CheckResult, **extra: Any) -> dict[str, Any]:
    """The structured result for JSON consumers (console ``--json``)."""
    return {"kind": "plurk_check", **result_dict(result), **extra}


def readable_amount(ctx: Context, exc: RuleError) -> RuleError:
    """The rules name a negative amount by its parameter (``amount``, ``cost``); say
    it in the reader's words (``給予的行動點數``). Any other refusal is returned as is."""
    name = exc.params.get("name")
    if exc.code == "plurk.negative_amount" and isinstance(name, str):
        return RuleError(exc.code, **{**exc.params, "name": text_or(
            ctx, f"plurk.param.{name}", name)})
    return exc
