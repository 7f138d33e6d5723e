"""Settings of the Plurk adapter."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, SecretStr


class PlurkSettings(BaseModel):
    enabled: bool = False
    app_key: SecretStr | None = None
    app_secret: SecretStr | None = None
    token: SecretStr | None = None
    token_secret: SecretStr | None = None
    keys_file: Path | None = None
    base_url: str = "https://www.plurk.com"
    locale: str = "zh-Hant"
