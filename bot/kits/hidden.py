"""Hidden results, for every rule system: the channel learns *that* something was
rolled in secret, the roller and every GM learn *what* — privately.

A system's hidden check hands its rendered result here
instead of replying in the channel, so that no system re-implements (and none
forgets) the rule that nothing of the result reaches the channel.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.context import Context
from bot.messages import Outgoing


def told(ctx: Context, owner: str) -> list[str]:
    """The GMs :func:`deliver` sends ``owner``'s hidden result to now (every GM but the
    owner; none in a private conversation). A system that keeps a hidden result for a
    later step stores them: only they, and the owner, may learn more of it (issue 22:
    taking the GM seat later gives nothing a player could not see)."""
    if ctx.incoming.is_private:
        return []
    return [gm for gm in ctx.gm_users if gm != owner]


def deliver(ctx: Context, owner: str, who: str, text: str, data: dict[str, Any],
            *, hidden: bool, kind: str = "hidden_check",
            gms: Iterable[str] | None = None, attack: bool = False,
            words: str = "core.hidden") -> list[Outgoing]:
    """Post a result in the channel, or — ``hidden`` — announce it there (``kind``
    names the announcement's data; ``attack`` words the announcement and the copies as an attack)
    and send it to ``owner`` and the GMs privately: every GM, or only ``gms`` (a later
    step of a kept hidden result goes to the GMs who were sent the result, never to
    one seated since). What the target's player must learn of a hidden attack (that
    they were hit, that they are down, a choice to make) the system tells them itself.
    ``words``: the catalog table of the announcement and the copies (``announce``,
    ``result``, ``result_gm``): a secret draw is worded as one (`.drawh`)."""
    if not hidden:
        return [ctx.reply(text, data)]
    suffix = "_attack" if attack else ""
    own = ctx.private(owner, ctx.t(f"{words}.result{suffix}", text=text), data)
    if ctx.incoming.is_private:
        return [own]
    announce = ctx.reply(ctx.t(f"{words}.announce{suffix}", who=who),
                         {"kind": kind, "user": owner})
    gm_text = ctx.t(f"{words}.result_gm{suffix}", who=who, text=text)
    if gms is None:
        return [announce, own, *ctx.to_gms(gm_text, data, exclude=owner)]
    return [announce, own, *(ctx.private(gm, gm_text, data) for gm in gms if gm != owner)]
