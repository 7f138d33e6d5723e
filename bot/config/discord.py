"""Settings of the Discord adapter (discord.py)."""

from __future__ import annotations

from pydantic import BaseModel, SecretStr


class DiscordSettings(BaseModel):
    enabled: bool = False
    token: SecretStr | None = None
    dev_guild_id: int | None = None
    message_content: bool = False
    locale: str = "zh-Hant"
