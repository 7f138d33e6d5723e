"""Message catalogs: every word the bot says, per locale.

Catalogs are TOML files `bot/locales/<locale>/<feature>.toml` (and
`bot/systems/<id>/locales/<locale>/*.toml` for each rule system), merged per
locale, with dotted keys and `str.format` templates. Features add their own
file instead of editing a shared one. An operator may override any message
from one TOML file whose top-level tables are locales
(`[zh-Hant] "core.roll.result" = "…"`). A key missing in a locale falls back to
zh-Hant, then to the key itself, so a missing translation is visible but
never crashes a command.

A 简体 reader gets the bot's own words in simplified characters: the template is
converted, never what is substituted into it — a name a player or GM typed
(艾莉絲, a card, a deck) reads as typed in every locale (issue 24 item 8); of a
parameter only a system's declared stat names (觀察 → 观察) are the bot's words.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Protocol

from bot.t2s import to_simplified

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


@lru_cache(maxsize=256)
def _read(path: Path, mtime_ns: int) -> dict[str, str]:
    """One catalog file, flattened: parsed once per process (every Core, and every
    test's, reads the same files; the modification time makes an edit count)."""
    return _flatten(tomllib.loads(path.read_text("utf-8")))


def canonical_locale(name: str) -> str | None:
    """`zh-tw`, `zh_hant`, `ZH-HANS`, `EN` → the catalog name, or None."""
    key = name.replace("_", "-").casefold()
    aliases = {
        "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "繁體": "zh-Hant",
        "繁体": "zh-Hant", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "简体": "zh-Hans",
        "簡體": "zh-Hans", "en": "en", "en-us": "en", "en-gb": "en", "english": "en",
    }
    return aliases.get(key)


class Spelled(Protocol):
    """A declared stat as the catalog reads it (``rules``' ``Stat``, a manifest's)."""

    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> Sequence[str]: ...


class Declares(Protocol):
    """A system as the catalog reads it: its id and its stats' names — a manifest
    (:mod:`bot.manifests`), so that no system is imported for the catalog."""

    @property
    def id(self) -> str: ...
    @property
    def stats(self) -> Sequence[Spelled]: ...


_CJK = re.compile(r"[\u3400-\u9fff]")


@lru_cache(maxsize=8192)
def simplified(template: str) -> str:
    """A catalog template in simplified characters (converted once per process)."""
    return to_simplified(template)


def whole_words(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of ``words`` only as a whole Han word: 武器 inside a
    sheet entry 武器耐久 stays as the player typed it."""
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True)) or "(?!)"
    return re.compile(r"(?<![\u3400-\u9fff])(?:" + alternatives + r")(?![\u3400-\u9fff])")


def english_names(systems: Iterable[Declares]) -> dict[str, str]:
    """Each system's stat names (繁 and 简) → the first Latin alias it declares."""
    names: dict[str, str] = {}
    for system in systems:
        for stat in system.stats:
            latin = next((a for a in stat.aliases if a.isascii()), None)
            if latin is None:
                continue
            for spelling in (stat.name, to_simplified(stat.name),
                             *(a for a in stat.aliases if not a.isascii())):
                names.setdefault(spelling, latin)
    return names


def stat_spellings(systems: Iterable[Declares]) -> set[str]:
    """Every system's stat names and aliases written in Han characters: the system's
    words, which a 简体 reader reads simplified even inside a parameter."""
    return {spelling for system in systems for stat in system.stats
            for spelling in (stat.name, *stat.aliases) if _CJK.search(spelling)}


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

    def __init__(self, override_file: Path | None = None, folders: Iterable[Path] = (),
                 systems: Iterable[Declares] = ()) -> None:
        """``folders``: the rule systems' catalog folders; ``systems``: their manifests
        (whose English names the catalog knows). ``bot.systems.catalog`` gives every
        system's. The stat names' patterns are built on first use (an English or 简体
        reader): a process that meets none builds neither, nor the t2s converter."""
        self._messages: dict[str, dict[str, str]] = {}
        self._systems = list(systems)
        self._english_at: dict[str, tuple[dict[str, str], re.Pattern[str]]] = {}
        roots = [_DIR, *folders]
        for locale in LOCALES:
            merged: dict[str, str] = {}
            origin: dict[str, Path] = {}
            for root in roots:
                for path in sorted((root / locale).glob("*.toml")):
                    for key, value in _read(path, path.stat().st_mtime_ns).items():
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

    @cached_property
    def _english(self) -> dict[str, str]:
        return english_names(self._systems)

    @cached_property
    def _english_pattern(self) -> re.Pattern[str]:
        return whole_words(self._english)

    @cached_property
    def _english_of(self) -> dict[str, dict[str, str]]:
        """Each system's own English names: 精神力 is ace's SPI but ap20's MP."""
        return {system.id: english_names([system]) for system in self._systems}

    @cached_property
    def _stat_pattern(self) -> re.Pattern[str]:
        return whole_words(stat_spellings(self._systems))

    def in_script(self, locale: str, text: str, system: str | None = None) -> str:
        """A rendered text in the reader's script: English readers see a system's stats
        by their English names (觀察 → Observe) and list separators as ", "; a 简体
        reader's text is simplified before it is filled (:meth:`text`), so the names
        in it stay as typed. With ``system`` (a table's, ``ap20+v6`` for a layered
        one) its own names come first, the other systems' after."""
        if locale == "en" and self._english and _CJK.search(text):
            names, pattern = self._english_names(system)
            text = pattern.sub(lambda m: names[m.group()], text)
            return text.replace("、", ", ")
        return text

    def _english_names(self, system: str | None) -> tuple[dict[str, str], re.Pattern[str]]:
        if not system:
            return self._english, self._english_pattern
        found = self._english_at.get(system)
        if found is None:
            names: dict[str, str] = {}
            for part in system.casefold().split("+"):
                for spelling, latin in self._english_of.get(part, {}).items():
                    names.setdefault(spelling, latin)
            for spelling, latin in self._english.items():
                names.setdefault(spelling, latin)
            found = self._english_at[system] = (names, whole_words(names))
        return found

    def has(self, key: str, locale: str = FALLBACK) -> bool:
        return key in self._messages.get(locale, {}) or key in self._messages[FALLBACK]

    def text(self, locale: str, key: str, /, **params: Any) -> str:
        """``key`` rendered for ``locale`` at no particular table (:meth:`text_at`)."""
        return self.text_at(None, locale, key, **params)

    def text_at(self, system: str | None, locale: str, key: str, /, **params: Any) -> str:
        """``key`` rendered for ``locale`` at a table playing ``system``. A list (or
        tuple) parameter is joined with the locale's list separator (``core.list.sep``:
        、 or ", "), so code that names several things — even a refusal raised far
        from any reader — never picks one language's punctuation for all."""
        template = self._messages.get(locale, {}).get(key) or self._messages[FALLBACK].get(key)
        if template is None:
            return key
        for value in params.values():
            if isinstance(value, (list, tuple)):
                sep = self.text(locale, "core.list.sep")
                params = {name: sep.join(map(str, value)) if isinstance(value, (list, tuple))
                          else value for name, value in params.items()}
                break
        if locale == "zh-Hans":
            template = simplified(template)
            params = {name: self.simplified_stats(value) if isinstance(value, str) else value
                      for name, value in params.items()}
        try:
            return self.in_script(locale, template.format(**params), system)
        except (KeyError, IndexError, ValueError):
            return template

    def simplified_stats(self, text: str) -> str:
        """``text`` with every declared stat name simplified (觀察 → 观察) and all else —
        a character's, an enemy's, a card's, a deck's name — as typed."""
        return self._stat_pattern.sub(lambda m: to_simplified(m.group()), text)
