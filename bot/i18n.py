"""Message catalogs: every word the bot says, per locale.

Catalogs are TOML files `bot/locales/<locale>/<feature>.toml` (and
`bot/systems/<id>/locales/<locale>/*.toml` for each rule system), merged per
locale, with dotted keys and `str.format` templates. Features add their own
file instead of editing a shared one. An operator may override any message
from one TOML file whose top-level tables are locales
(`[zh-Hant] "core.roll.result" = "…"`). A key missing in a locale falls back to
zh-Hant, then to the key itself, so a missing translation is visible but
never crashes a command.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
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


def rule_key(code: str) -> str:
    """The catalog key of a ``RuleError`` code: ``<owner>.<code>`` →
    ``<owner>.error.<code>`` (each owner's refusals live in its own namespace)."""
    owner, _, rest = code.partition(".")
    return f"{owner}.error.{rest}"


class DuplicateKeyError(ValueError):
    """A catalog key defined twice: one file would silently overwrite the other."""


class Catalog:
    """All locales' messages, loaded once at start.

    Keys are namespaced by owner — ``core.*``, ``dice.*``, ``platform.<name>.*`` and
    ``<system>.*`` from each rule system's own folder (``folders``) — and a key that
    two files define is an error at load, never a silent overwrite.
    """

    def __init__(self, override_file: Path | None = None,
                 folders: Iterable[Path] | None = None) -> None:
        """``folders``: the rule systems' catalog folders; None means every system's."""
        self._messages: dict[str, dict[str, str]] = {}
        if folders is None:
            from bot.systems import plugins

            folders = [p.locales for p in plugins().values() if p.locales is not None]
        roots = [_DIR, *folders]
        for locale in LOCALES:
            merged: dict[str, str] = {}
            origin: dict[str, Path] = {}
            for root in roots:
                for path in sorted((root / locale).glob("*.toml")):
                    for key, value in _flatten(tomllib.loads(path.read_text("utf-8"))).items():
                        if key in merged:
                            raise DuplicateKeyError(
                                f"{key!r} is defined in {origin[key]} and in {path}")
                        merged[key], origin[key] = value, path
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
