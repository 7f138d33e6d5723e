"""Settings of the QQ adapter (nonebot2 + OneBot v11)."""

from __future__ import annotations

from pydantic import BaseModel, SecretStr


class OneBotSettings(BaseModel):
    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080
    access_token: SecretStr | None = None
    locale: str = "zh-Hans"
