"""Settings of the console chat, environment ``TRPGBOT_CONSOLE__<FIELD>``
(docs/configuration.md)."""

from __future__ import annotations

from adapters.plugin import PlatformSettings


class ConsoleSettings(PlatformSettings):
    """The embedded terminal chat (the default when nothing else is enabled)."""

    user: str = "player"
    channel: str = "console"
    locale: str = "zh-Hant"
