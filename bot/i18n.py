"""Message catalogs: every word the bot says, per locale.

Catalogs are TOML files `bot/locales/<locale>/<feature>.toml`, merged per
locale, with dotted keys and `str.format` templates. Features add their own
file instead of editing a shared one. An operator may override any message
from one TOML file whose top-level tables are locales
(`[zh-Hant] "roll.result" = "…"`). A key missing in a locale falls back to
zh-Hant, then to the key itself, so a missing translation is visible but
never crashes a command.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

LOCALES = ("zh-Hant", "zh-Hans", "en")
FALLBACK = "zh-Hant"
_DIR = Path(__file__).with_name("locales")


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = str(value)
    return flat


def canonical_locale(name: str) -> str | None:
    """`zh-tw`, `zh_hant`, `ZH-HANS`, `EN` → the catalog name, or None."""
    key = name.replace("_", "-").casefold()
    aliases = {
        "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "繁體": "zh-Hant",
        "繁体": "zh-Hant", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "简体": "zh-Hans",
        "簡體": "zh-Hans", "en": "en", "en-us": "en", "en-gb": "en", "english": "en",
    }
    return aliases.get(key)


class Catalog:
    """All locales' messages, loaded once at start."""

    def __init__(self, override_file: Path | None = None) -> None:
        self._messages: dict[str, dict[str, str]] = {}
        for locale in LOCALES:
            merged: dict[str, str] = {}
            for path in sorted((_DIR / locale).glob("*.toml")):
                merged.update(_flatten(tomllib.loads(path.read_text("utf-8"))))
            self._messages[locale] = merged
        if override_file is not None:
            data = tomllib.loads(Path(override_file).read_text("utf-8"))
            for locale, table in data.items():
                target = canonical_locale(locale)
                if target is not None and isinstance(table, Mapping):
                    self._messages[target].update(_flatten(table))

    def has(self, key: str, locale: str = FALLBACK) -> bool:
        return key in self._messages.get(locale, {}) or key in self._messages[FALLBACK]

    def text(self, locale: str, key: str, /, **params: Any) -> str:
        template = self._messages.get(locale, {}).get(key) or self._messages[FALLBACK].get(key)
        if template is None:
            return key
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template
