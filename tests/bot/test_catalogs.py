"""Every refusal the rules can raise has a message in every locale."""

from __future__ import annotations

import pytest

from bot import systems
from bot.i18n import LOCALES, rule_key
from rules.dice import ERROR_CODES


@pytest.mark.parametrize("locale", LOCALES)
def test_every_dice_error_has_a_message(locale: str) -> None:
    catalog = systems.catalog()
    missing = [code for code in ERROR_CODES
               if not catalog.has(rule_key(code), locale)]
    assert missing == []


def test_locales_define_the_same_keys() -> None:
    catalog = systems.catalog()
    keys = {locale: set(catalog._messages[locale]) for locale in LOCALES}
    assert keys["zh-Hans"] == keys["zh-Hant"]
    assert keys["en"] == keys["zh-Hant"]


def test_operator_override_file(tmp_path) -> None:
    override = tmp_path / "messages.toml"
    override.write_text('[zh-Hant]\n"core.roll.result" = "骰：{detail}"\n', "utf-8")
    catalog = systems.catalog(override)
    assert catalog.text("zh-Hant", "core.roll.result", detail="1d6 = 3") == "骰：1d6 = 3"
    assert catalog.text("en", "core.roll.result", name="a", detail="x") == "🎲 a: x"


def test_every_translation_uses_the_same_placeholders() -> None:
    """A translation that names a parameter the code does not pass would show a raw
    `{name}` to players (Catalog.text falls back to the unformatted template)."""
    import string

    catalog = systems.catalog()

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    for key, reference in catalog._messages["zh-Hant"].items():
        for locale in ("zh-Hans", "en"):
            assert fields(catalog._messages[locale][key]) == fields(reference), (locale, key)
