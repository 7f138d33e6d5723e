"""What the core must know of each platform, handed to it by whoever composed it.

The core knows no platform by name: the adapters (their plugins, adapters/plugin.py)
tell it, per platform id (``Incoming.platform``), the language a table speaks until
a player picks one (`.lang`), which user ids can be a real person there (a
secret is never sent to an id that names nobody, or everybody) and whether its
users' commands are rate-limited. A platform nobody
described gets :data:`DEFAULT_LOCALE`, :func:`any_user_id` and no rate limit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

DEFAULT_LOCALE = "zh-Hant"

UserIdRule = Callable[[str], bool]
"""Whether a user id can be a real person on a platform (the bot's own id aside)."""


def any_user_id(user: str) -> bool:
    """Any id but an empty one or one made of zeros."""
    return user.strip("0") != ""


def positive_integer_id(user: str) -> bool:
    """A positive integer in ASCII digits (``0`` is no one; some platforms read it as
    "all my friends" in a recipient list)."""
    return user.isdigit() and user.isascii() and int(user) > 0


@dataclass(frozen=True)
class Platform:
    locale: str = DEFAULT_LOCALE
    is_user_id: UserIdRule = any_user_id
    rate_limited: bool = False
    """Whether its users' commands pass the per-user rate limit (bot/rate_limit.py):
    every chat platform's; not the console's (the operator's own terminal, scripted)."""


@dataclass(frozen=True)
class Platforms:
    """The platforms a core serves, by id; an unknown id gets :class:`Platform`'s defaults."""

    known: Mapping[str, Platform] = field(default_factory=dict)

    def get(self, platform: str) -> Platform:
        return self.known.get(platform) or Platform()

    def locale(self, platform: str) -> str:
        return self.get(platform).locale

    def is_user_id(self, platform: str, user: str) -> bool:
        return self.get(platform).is_user_id(user)

    def rate_limited(self, platform: str) -> bool:
        return self.get(platform).rate_limited
