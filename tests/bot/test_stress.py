"""10^4 inputs of the stress bench (``bench/stress.py``) through a real core, in CI.

The inputs (``bench/stress_inputs.py``) have a fixed seed, so every run sends the
same ones; each failing input is named with its replies, the logged traceback and
the command that replays it (``python bench/stress.py --seed … --replay INDEX``).
The million-input run is the bench script's; see bench/README.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import stress
from bench.stress_inputs import BLOCK, Block, vocabulary
from bot import systems
from bot.dispatcher import MAX_REPLY
from bot.i18n import LOCALES
from bot.messages import Incoming, Outgoing
from bot.normalize import normalize, strip_prefix

SEED = 16
COUNT = 10_000
CHANNELS = 4


async def test_ten_thousand_fuzzed_inputs_keep_every_promise(tmp_path: Path) -> None:
    """No exception, no internal-error reply, no logged error, every reply within
    2,000 characters, no live mention or link once escaped for its platform."""
    result = await stress.run(SEED, COUNT, CHANNELS, directory=stress.default_dir()
                              or str(tmp_path), workers=min(2, os.cpu_count() or 1))
    assert result.inputs == COUNT
    if result.failures:
        pytest.fail(f"{len(result.failures)} of {COUNT} stress inputs broke a promise "
                    f"({len(result.distinct())} distinct; each listed once, with how many "
                    f"inputs failed the same way):\n\n{result.report()}", pytrace=False)


def test_the_inputs_cover_every_command_name_and_system() -> None:
    """The generator reads the tables at run time: every name of every system (and
    every system's `.system <id>`) is among the inputs the test above sends."""
    voc = vocabulary()
    bodies = [strip_prefix(normalize(step.incoming.text)) or ""
              for number in range(COUNT // BLOCK) for step in Block(SEED, number, CHANNELS)]
    starts = {body.casefold().split(" ")[0] for body in bodies}
    missing = [name for name in voc.names
               if not any(body.casefold().startswith(name.casefold()) for body in starts)]
    assert missing == []
    assert {f"system {s}" for s in voc.systems} <= {b.strip() for b in bodies}


def test_a_block_is_the_same_every_time_and_seeds_differ() -> None:
    def texts(seed: int, number: int) -> list[tuple[int, Incoming]]:
        return [(step.index, step.incoming) for step in Block(seed, number, CHANNELS)]

    first = texts(SEED, 3)
    assert first == texts(SEED, 3)
    assert [index for index, _ in first] == list(range(3 * BLOCK, 4 * BLOCK))
    assert first != texts(SEED + 1, 3)
    assert {incoming.message_id for _, incoming in first} >= {f"m{3 * BLOCK + 5}"}


def test_the_checker_flags_what_the_product_promises_never_to_send() -> None:
    catalog = systems.catalog()
    checker = stress.Checker(catalog)
    internal = catalog.text("en", "core.error.prefix",
                            text=catalog.text("en", "core.error.internal"))
    console = Incoming("console", "c", "u", ".r")

    def flagged(out: Outgoing, incoming: Incoming = console) -> list[str]:
        return checker.problems(incoming, [out])

    assert flagged(Outgoing("channel", "c", "🎲 1d20 = [4] = 4")) == []
    assert "internal-error" in flagged(Outgoing("channel", "c", internal))[0]
    assert "2001 characters" in flagged(Outgoing("channel", "c", "x" * (MAX_REPLY + 1)))[0]
    assert "empty" in flagged(Outgoing("channel", "c", " \n"))[0]
    assert flagged(Outgoing("channel", "c", "secret", secret=True))
    assert len(checker.internal) == len(LOCALES)
    # echoed markup is fine once the platform's adapter escaped it ...
    for platform in ("discord", "qq", "plurk"):
        incoming = Incoming(platform, "1", "2", ".r")
        text = "@everyone <@123> https://evil.example www.evil.example **b** #tag"
        assert flagged(Outgoing("channel", "1", text), incoming) == []
    # ... and the patterns see it when it is not
    live = {platform: [what for what, pattern in patterns if pattern.search(text)]
            for platform, patterns in stress._LIVE.items()}
    assert live == {
        "discord": ["@everyone/@here", "a live <…> (mention, channel, emoji, timestamp)",
                    "a link"],
        "qq": ["a link", "a domain"],
        "plurk": ["a mention", "a link", "bold or italic", "a hashtag"],
    }
    assert not stress._LIVE["discord"][1][1].search(r"\<@1> \\\<@2>")
    assert stress._LIVE["discord"][1][1].search(r"\\<@1>")
