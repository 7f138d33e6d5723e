"""Plurk's side of `.dismiss` (bot/controls.py): stop following the thread.

Plurk's API 2.0 has no call to unfollow a plurk; the one that stops its notices is
``/APP/Timeline/mutePlurks`` (``ids``: a JSON list of plurk ids), what Plurk's own
"mute" does. The core switches the thread off as well, so a mention that still
reaches the bot there is answered with nothing (docs/decisions.md, issue 25).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from adapters.plurk.errors import PlurkError

log = logging.getLogger(__name__)


async def mute_thread(client: Any, plurk_id: int) -> None:
    """Mute the plurk ``plurk_id`` for the bot's account; a refusal is logged (the
    thread is off in the core anyway)."""
    try:
        await client.call("Timeline/mutePlurks", {"ids": json.dumps([plurk_id])})
    except PlurkError as exc:
        log.warning("plurk: could not mute thread %s: %s", plurk_id, exc)
