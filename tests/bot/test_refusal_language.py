"""A refusal speaks the table's language from the first command a process runs: the
language is read with the channel, not only remembered after a success (found by a
play-test of issue 22: after a restart, refusals came in 繁體 at an English table)."""

from __future__ import annotations

import pytest

from adapters.config import Settings
from bot.core import Core
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
    table = Table(core)
    for line in (".gm", ".system ap20", ".lang en"):
        await table.text("gm", line)
    await table.text("amy", ".pc new Amy")
    assert (await table.text("amy", ".ra 精神力")).startswith("⚠ What is “MP”? ")
    await table.text("amy", ".init join", dice=[4])
    await table.text("gm", ".init start")
    assert (await table.text("amy", ".ap spend 精神力")).startswith("⚠ No action “MP”. ")
