"""Every catalog key the code names exists in every locale (a missing one would show
its raw key to players), and every key lives in its owner's namespace."""

from __future__ import annotations

import ast
from pathlib import Path

from bot import systems
from bot.i18n import LOCALES, Catalog, rule_key
from bot.routes import router as _router
from rules.dice import ERROR_CODES

ROUTER = _router()

ROOT = Path(__file__).resolve().parents[2]
CALLS = {"t", "text", "has", "CommandError", "_error", "text_or"}


def owners() -> set[str]:
    return {"core", "dice", "platform", "encounter", "decks", *systems.plugins()}


def named_keys() -> tuple[set[str], set[str]]:
    """(keys, prefixes of f-string keys) named by calls in bot/ and adapters/."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "adapters").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            args = [*node.args, *(k.value for k in node.keywords if k.arg == "help_key")]
            if name not in CALLS and not any(k.arg == "help_key" for k in node.keywords):
                continue
            for arg in args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and arg.value.split(".")[0] in owners() and "." in arg.value:
                    keys.add(arg.value)
                elif isinstance(arg, ast.JoinedStr) and arg.values \
                        and isinstance(arg.values[0], ast.Constant):
                    head = str(arg.values[0].value)
                    if head.split(".")[0] in owners() and "." in head:
                        prefixes.add(head)
    return keys, prefixes


def test_every_key_the_code_names_exists_in_every_locale() -> None:
    catalog = systems.catalog()
    keys, prefixes = named_keys()
    assert len(keys) > 200 and len(prefixes) > 10  # the scan sees the code
    for locale in LOCALES:
        defined = set(catalog._messages[locale])
        assert sorted(keys - defined) == [], locale
        assert sorted(p for p in prefixes if not any(k.startswith(p) for k in defined)) == []


def test_every_command_has_help_and_every_rule_code_a_message() -> None:
    catalog = systems.catalog()
    helps = [cmd.help_key for cmd in ROUTER.common.commands()]
    helps += [cmd.help_key for plugin in systems.plugins().values()
              for cmd in plugin.commands.commands()]
    for locale in LOCALES:
        assert [key for key in helps if not catalog.has(key, locale)] == []
        assert [code for code in ERROR_CODES if not catalog.has(rule_key(code), locale)] == []


def test_every_key_is_in_its_owners_namespace() -> None:
    catalog = systems.catalog()
    assert {key.split(".")[0] for key in catalog._messages["zh-Hant"]} <= owners()
    plugin = systems.get("plurk")
    assert plugin is not None and plugin.locales is not None
    own = Catalog(folders=[plugin.locales])._messages["zh-Hant"]
    core_only = Catalog(folders=[])._messages["zh-Hant"]
    assert {key.split(".")[0] for key in set(own) - set(core_only)} == {"plurk"}


def test_a_key_defined_twice_is_an_error_at_load(tmp_path: Path) -> None:
    import pytest

    from bot.i18n import DuplicateKeyError

    for locale in LOCALES:
        (tmp_path / locale).mkdir()
        (tmp_path / locale / "x.toml").write_text('[core.roll]\nresult = "again"\n', "utf-8")
    with pytest.raises(DuplicateKeyError, match=r"core\.roll\.result"):
        Catalog(folders=[tmp_path])
