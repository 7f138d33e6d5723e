"""A refusal speaks the table's language from the first command a process runs: the
language is read with the channel, not only remembered after a success (found by a
play-test of issue 22: after a restart, refusals came in 繁體 at an English table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.config import Settings
from bot.core import Core
from tests.conftest import make_settings
from tests.support import Table


@pytest.mark.parametrize("group_commit", [True, False])
async def test_a_refusal_after_a_restart_is_in_the_tables_language(
    settings: Settings, group_commit: bool,
) -> None:
    core = await Core.open(settings, group_commit=group_commit)
    try:
        await Table(core).text("gm", ".gm")
        await Table(core).text("gm", ".lang en")
    finally:
        await core.close()
    core = await Core.open(settings, group_commit=group_commit)  # a new process
    try:
        assert await Table(core).text("bob", ".system ace") == (
            "⚠ Only a GM of this channel can do that.")
    finally:
        await core.close()


async def test_a_refusal_names_a_stat_as_the_tables_system_does(core: Core) -> None:
    """精神力 is ace's SPI but ap20's MP: a refusal at an ap20 table reads MP for an
    English reader, whether the command refused it (`.ra`) or the rules did (`.ap
    spend` in a fight) — never the first system's word."""
    elsewhere = Table(core, "elsewhere")  # ace loaded first: its SPI is known too
    await elsewhere.text("gm", ".system ace")
    assert await elsewhere.text("gm", ".st 精神力 3") == "gm 的數值已更新：精神力:3"
    table = Table(core)
    for line in (".gm", ".system ap20", ".lang en"):
        await table.text("gm", line)
    await table.text("amy", ".pc new Amy")
    assert (await table.text("amy", ".ra 精神力")).startswith("⚠ What is “MP”? ")
    await table.text("amy", ".init join", dice=[4])
    await table.text("gm", ".init start")
    assert (await table.text("amy", ".ap spend 精神力")).startswith("⚠ No action “MP”. ")


async def test_a_typo_and_a_limit_after_a_restart_are_in_the_tables_language(
        tmp_path: Path) -> None:
    """Play-test finding: the first `.hlep` of a new process at an English table was
    answered in the platform's language (QQ: 简体) — the refusal of the text alone was
    rendered before the table was read. It is rendered once the look at the table's
    controls has read the table's language; so are a too-long command and the rate
    limit's notice."""
    settings = make_settings(tmp_path, rate={"burst": 2, "refill_seconds": 5})

    async def fresh(line: str) -> str:  # a new process, its first command
        core = await Core.open(settings)
        try:
            return await Table(core, "20000", platform="qq").text("bob", line)
        finally:
            await core.close()
    core = await Core.open(settings)
    try:
        qq = Table(core, "20000", platform="qq")
        await qq.text("gm", ".gm")
        await qq.text("gm", ".lang en")
    finally:
        await core.close()
    assert await fresh(".hlep") == "⚠ There is no .hlep command; did you mean .help?"
    assert await fresh(".r " + "1" * 1000) == (
        "⚠ Command too long (1002 characters, limit 1000); not run.")
    core = await Core.open(settings)
    try:
        qq = Table(core, "20000", platform="qq")
        for value in (3, 4):
            assert await qq.text("bob", ".r 1d6", dice=[value]) == (
                f"🎲 bob: 1d6 = [{value}] = {value}")
        [notice] = await qq.say("bob", ".r 1d6", display_name="Bob")
        assert (notice.to, notice.channel, notice.text) == (
            "channel", "20000", "Bob, slow down: I will answer your commands again in 5 s.")
    finally:
        await core.close()
