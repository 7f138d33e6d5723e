"""Hidden results, for every rule system: the channel learns *that* something was
rolled in secret, the roller and every GM learn *what* — privately.

A system's hidden check hands its rendered result here
instead of replying in the channel, so that no system re-implements (and none
forgets) the rule that nothing of the result reaches the channel.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.messages import Outgoing


def deliver(ctx: Context, owner: str, who: str, text: str, data: dict[str, Any],
            *, hidden: bool, kind: str = "hidden_check") -> list[Outgoing]:
    """Post a result in the channel, or — ``hidden`` — announce it there (``kind``
    names the announcement's data) and send it to ``owner`` and every GM privately."""
    if not hidden:
        return [ctx.reply(text, data)]
    own = ctx.private(owner, ctx.t("core.hidden.result", text=text), data)
    if ctx.incoming.is_private:
        return [own]
    announce = ctx.reply(ctx.t("core.hidden.announce", who=who), {"kind": kind, "user": owner})
    gm_text = ctx.t("core.hidden.result_gm", who=who, text=text)
    return [announce, own, *ctx.to_gms(gm_text, data, exclude=owner)]
