"""Slash-command names and descriptions, and the adapter's own replies, from the
message catalogs (``bot/locales/<locale>/discord.toml``, keys ``platform.discord.*``).

Discord shows a command in the viewer's client language when it was synced with a
localisation for it. discord.py collects those at sync time from the tree's
``Translator``: every name and description is a ``locale_str`` whose message is the
English catalog's text (Discord's default) and whose ``key`` finds the zh-TW and zh-CN
texts in the catalogs. Interactions carry the default names whatever the client shows,
so the handlers never see a translated name.

Replies to players come from the core's catalogs in the channel's locale; the two
adapter replies here follow the user's client language.
"""

from __future__ import annotations

from functools import lru_cache

from discord import Locale, app_commands
from discord.app_commands import TranslationContextTypes, locale_str

from bot.i18n import Catalog

#: Discord client languages → the bot's locales (others see the English default).
DISCORD_LOCALES: dict[Locale, str] = {
    Locale.taiwan_chinese: "zh-Hant",
    Locale.chinese: "zh-Hans",
    Locale.american_english: "en",
    Locale.british_english: "en",
}

PREFIX = "platform.discord."
DEFAULT = "en"
"""The catalog whose texts are Discord's defaults (what other languages see)."""


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The bot's own catalogs (no operator override: the commands are the same for
    every deployment of one version, and the sync hash follows the files)."""
    return Catalog()


def catalog_text(locale: str, key: str) -> str:
    """``platform.discord.<key>`` in ``locale``."""
    return catalog().text(locale, PREFIX + key)


def text(key: str) -> locale_str:
    """A translatable name or description (``command.roll.name``): the English text
    is the default, the key finds the translations."""
    return locale_str(catalog_text(DEFAULT, key), key=key)


def command_text(command: str, field: str) -> locale_str:
    """A command's ``name`` or ``description``."""
    return text(f"command.{command}.{field}")


def option_text(command: str, option: str, field: str) -> locale_str:
    """An option's ``name`` or ``description``."""
    return text(f"command.{command}.option.{option}.{field}")


def reply(key: str, locale: Locale | None) -> str:
    """An adapter reply (``reply.none``) in the user's client language."""
    lang = DISCORD_LOCALES.get(locale, DEFAULT) if locale is not None else DEFAULT
    return catalog_text(lang, key)


class CommandTranslator(app_commands.Translator):
    """Gives Discord the zh-TW / zh-CN names and descriptions at sync time."""

    async def translate(self, string: locale_str, locale: Locale,
                        context: TranslationContextTypes) -> str | None:
        lang = DISCORD_LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or lang == DEFAULT or key is None \
                or not catalog().has(PREFIX + key, lang):
            return None
        return catalog_text(lang, key)
