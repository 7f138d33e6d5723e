"""`trpgbot` checks its settings before anything starts: a wrong one stops it with exit
code 2 and one line per problem, naming the setting, never showing the values given
(a section's values hold its token)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli import main


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setenv("TRPGBOT_DATA_DIR", str(tmp_path))
    return monkeypatch


def test_trpgbot_refuses_shards_outside_the_count_at_start_without_showing_the_token(
        environment: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch = environment
    monkeypatch.setenv("TRPGBOT_DISCORD__ENABLED", "true")
    monkeypatch.setenv("TRPGBOT_DISCORD__TOKEN", "a-secret-token")
    monkeypatch.setenv("TRPGBOT_DISCORD__SHARD_COUNT", "2")
    monkeypatch.setenv("TRPGBOT_DISCORD__SHARD_IDS", "1,2")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err == ("trpgbot: invalid settings (docs/configuration.md):\n  discord: Value "
                   "error, TRPGBOT_DISCORD__SHARD_IDS [2] not within 0 to 1 "
                   "(TRPGBOT_DISCORD__SHARD_COUNT=2)\n")
    assert not (tmp_path / "trpgbot.db").exists()  # nothing was opened


def test_trpgbot_refuses_a_list_it_cannot_read_without_a_traceback(
        environment: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    environment.setenv("TRPGBOT_ONEBOT__ACCESS_TOKEN", "a-secret-token")
    environment.setenv("TRPGBOT_ONEBOT__WS_URLS", "ws://a,ws://b")  # JSON wanted
    assert main(["run"]) == 2
    assert capsys.readouterr().err == (
        "trpgbot: invalid settings (docs/configuration.md):\n"
        '  error parsing value for field "onebot" from source "EnvSettingsSource"\n')
    assert not (tmp_path / "trpgbot.db").exists()


@pytest.mark.parametrize("value", ["bogus", "v6"])
def test_trpgbot_refuses_a_default_system_no_table_can_play(
        environment: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, value: str) -> None:
    """Play-test finding: an unknown default system (or a layer, which is played only on
    its base) started, then every `.r` of a new channel was an internal error."""
    environment.setenv("TRPGBOT_DEFAULT_SYSTEM", value)
    assert main(["console"]) == 2
    assert capsys.readouterr().err == (
        "trpgbot: invalid settings (docs/configuration.md):\n  default_system: Value "
        f"error, no rule system '{value}'; one of: ace, ap20, coc7, jianshou, plurk\n")
    assert not (tmp_path / "trpgbot.db").exists()


def test_the_default_system_is_read_as_players_type_it(
        environment: pytest.MonkeyPatch) -> None:
    environment.setenv("TRPGBOT_DEFAULT_SYSTEM", "CoC7")
    from adapters.config import Settings
    assert Settings().default_system == "coc7"
