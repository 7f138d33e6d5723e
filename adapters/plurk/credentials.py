"""The four OAuth secrets, from settings or a plurk-oauth ``API.keys`` file.

Operators migrating from plurk-oauth already hold a JSON file
``{"CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"}``;
accepting it avoids copying secrets around. Explicit settings win field by
field, so one secret can be overridden from the environment. Values never
appear in reprs, logs or error messages — only the names of missing fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import SecretStr

from adapters.plurk.errors import PlurkConfigError
from adapters.plurk.settings import PlurkSettings

#: settings field -> key in the plurk-oauth API.keys file
KEYS_FILE_FIELDS = {
    "app_key": "CONSUMER_KEY",
    "app_secret": "CONSUMER_SECRET",
    "token": "ACCESS_TOKEN",
    "token_secret": "ACCESS_TOKEN_SECRET",
}


@dataclass(frozen=True)
class PlurkCredentials:
    """App key/secret and access token/secret; the secrets hide from repr."""

    app_key: str
    app_secret: str = field(repr=False)
    token: str | None = field(default=None, repr=False)
    token_secret: str | None = field(default=None, repr=False)


def read_keys_file(path: Path) -> dict[str, str]:
    """Read a plurk-oauth ``API.keys`` file into settings field names."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise PlurkConfigError(f"Plurk keys file not found: {path}") from exc
    except (OSError, ValueError) as exc:
        # the message names the file, never its content
        raise PlurkConfigError(f"Plurk keys file is not readable JSON: {path}") from exc
    if not isinstance(raw, dict):
        raise PlurkConfigError(f"Plurk keys file must hold a JSON object: {path}")
    found: dict[str, str] = {}
    for name, key in KEYS_FILE_FIELDS.items():
        value = raw.get(key)
        if isinstance(value, str) and value:
            found[name] = value
    return found


def _secret(value: SecretStr | None) -> str | None:
    if value is None:
        return None
    text = value.get_secret_value()
    return text or None


def load_credentials(settings: PlurkSettings, *, need_token: bool = True) -> PlurkCredentials:
    """Merge settings and the keys file; settings win. Raise if incomplete.

    ``need_token=False`` is for ``trpgbot plurk-auth``, which only has the app
    key and secret yet.
    """
    from_file = read_keys_file(settings.keys_file) if settings.keys_file else {}
    values: dict[str, str | None] = {}
    for name in KEYS_FILE_FIELDS:
        values[name] = _secret(getattr(settings, name)) or from_file.get(name)
    required = list(KEYS_FILE_FIELDS) if need_token else ["app_key", "app_secret"]
    missing = [name for name in required if not values[name]]
    if missing:
        names = ", ".join(f"TRPGBOT_PLURK__{name.upper()}" for name in missing)
        raise PlurkConfigError(f"Plurk credentials missing: {names} (or keys_file)")
    return PlurkCredentials(
        app_key=values["app_key"] or "",
        app_secret=values["app_secret"] or "",
        token=values["token"],
        token_secret=values["token_secret"],
    )
