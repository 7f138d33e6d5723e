"""Stress the core: a million seeded, fuzzed inputs through ``Core.handle``.

Run from the repository root::

    .venv/bin/python bench/stress.py [--count N] [--seed S] [--channels K]
                                     [--workers W] [--start I] [--concurrent]
                                     [--dir D] [--stop] [--replay INDEX]

Inputs come from ``bench/stress_inputs.py`` (grammar-aware dice, every command name
of every system with random arguments, unicode and markup edge cases; see its
docstring) in blocks of 1,000, each on a fresh ``Core`` on SQLite (a file, WAL, as in
production; even blocks with group commit, odd ones without) in ``--dir`` (default
``/dev/shm`` when writable, else the system's temporary directory). Every input has
a message id; several channels on every platform, several users, a GM in some
channels, channels that switch among every system with ``.system <id>``.

Checked for every input:

- ``Core.handle`` raises nothing, answers no internal-error reply (any locale) and
  logs no error (a handler that failed, or a message the game log lost);
- every reply is non-empty and at most ``MAX_REPLY`` (2,000) characters, a secret
  reply goes to one user in private;
- no reply shows a catalog key (a missing message) or an unfilled ``{placeholder}``
  that the block's inputs did not type themselves;
- once escaped by the adapter of the input's platform (Discord ``message_pieces``,
  QQ ``defuse_links``, Plurk ``neutralise``), no reply holds a live mention or link.

Prints progress, throughput and figures per kind of input, then every distinct
failure: the first in full (input, replies, traceback) with the command that replays
it. ``--replay INDEX`` (with the same ``--seed`` and ``--channels``) runs the block of
input INDEX on a fresh core up to it and shows it in full — at most 1,000 inputs.
``--workers W`` runs W blocks at once, one process each (the core is CPU-bound);
``--start`` skips whole blocks, to share one run between machines. ``--concurrent``
runs a block's channels at the same time (group commit then batches several
commands), one block's failures may then not replay exactly. Exit status 1 when any
input failed. Times: bench/README.md. Not collected by pytest; the test suite runs
10^4 of the same inputs (``tests/bot/test_stress.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.config import Settings
from adapters.discord.convert import message_pieces
from adapters.onebot.convert import defuse_links
from adapters.plurk.text import neutralise
from bench.stress_inputs import BLOCK, Block, Step, vocabulary
from bot import systems
from bot.core import Core
from bot.dispatcher import MAX_REPLY
from bot.i18n import LOCALES, Catalog
from bot.messages import Incoming, Outgoing
from bot.normalize import normalize
from rules.dice.source import SeededSource

# --- what must never be seen ------------------------------------------------------------

#: live markup left in a reply after the platform's own escaping, per platform
_LIVE: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "discord": (
        ("@everyone/@here", re.compile(r"@(?:everyone|here)")),
        ("a live <…> (mention, channel, emoji, timestamp)", re.compile(r"(?<!\\)(?:\\\\)*<")),
        ("a link", re.compile(r"://")),
        ("an invite", re.compile(r"(?i)\bdiscord(?:app)?\.(?:gg|com|io|me|li|new)\b")),
    ),
    "qq": (
        ("a link", re.compile(r"://")),
        ("a domain", re.compile(r"(?<=[A-Za-z0-9])\.(?=[A-Za-z])")),
    ),
    "plurk": (
        ("a mention", re.compile(r"@")),
        ("a link", re.compile(r"://|(?i:(?<![A-Za-z0-9])www\.)")),
        ("bold or italic", re.compile(r"\*")),
        ("an underline", re.compile(r"__")),
        ("a hashtag", re.compile(r"(?<!\S)#(?=[^\s#])")),
    ),
}


_PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")


def _escaped(platform: str, out: Outgoing) -> list[str]:
    """What the adapter of ``platform`` sends for ``out`` (escaped, maybe split)."""
    if platform == "discord":
        return message_pieces(out.text, out.block)
    if platform == "qq":
        return [defuse_links(out.text)]
    if platform == "plurk":
        return [neutralise(out.text)]
    return []


class Checker:
    """The promises every reply keeps (see the module docstring)."""

    def __init__(self, catalog: Catalog) -> None:
        self.internal = {catalog.text(locale, "core.error.prefix",
                                      text=catalog.text(locale, "core.error.internal"))
                         for locale in LOCALES}
        owners = "|".join(map(re.escape, ("core", "dice", "platform", *systems.plugins())))
        # what Catalog.text gives when a key is missing (the key) or its template does
        # not format (the template, placeholders and all)
        self.key = re.compile(rf"(?<![\w.])(?:{owners})\.[a-z_][\w]*(?:\.\w+)+(?![\w.])")
        self.echoed: set[str] = set()
        """``{placeholder}`` texts the block's inputs held: a reply may echo them."""

    def problems(self, incoming: Incoming, outs: list[Outgoing]) -> list[str]:
        said = f"{incoming.text} {incoming.display_name}"
        self.echoed.update(_PLACEHOLDER.findall(f"{said} {normalize(said)}"))  # ｛ｎ｝ too
        found = []
        for n, out in enumerate(outs):
            where = f"reply {n}"
            if out.text in self.internal:
                found.append(f"{where}: the internal-error reply")
            key = self.key.search(out.text)
            if key:
                found.append(f"{where}: a catalog key instead of its message: {key.group()}")
            unformatted = set(_PLACEHOLDER.findall(out.text)) - self.echoed
            if unformatted:
                found.append(f"{where}: a template not filled in: {sorted(unformatted)}")
            if not out.text.strip():
                found.append(f"{where}: empty")
            if len(out.text) > MAX_REPLY:
                found.append(f"{where}: {len(out.text)} characters (> {MAX_REPLY})")
            if out.secret and (out.to != "private" or not out.user):
                found.append(f"{where}: a secret reply not sent privately to one user")
            if out.to == "private" and not out.user:
                found.append(f"{where}: a private reply without a user")
            for piece in _escaped(incoming.platform, out):
                if incoming.platform == "discord" and out.block:
                    if "`" in piece[4:-4]:
                        found.append(f"{where}: a backtick inside a Discord code block")
                    continue
                for what, pattern in _LIVE[incoming.platform]:
                    if pattern.search(piece):
                        found.append(f"{where}: {what} live on {incoming.platform} after "
                                     f"escaping: {piece[:200]!r}")
        return found


_CURRENT: ContextVar[int | None] = ContextVar("stress_input", default=None)
"""The index of the input whose ``Core.handle`` is running in this task."""


class _Errors(logging.Handler):
    """The errors logged while each input runs (a handler's traceback), by input —
    told apart by the task's context, so channels may run concurrently."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: dict[int | None, list[str]] = defaultdict(list)

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.records[_CURRENT.get()].append(f"[{record.name}] {text}")

    def take(self, index: int | None) -> str:
        return "\n".join(self.records.pop(index, []))


# --- results ----------------------------------------------------------------------------

@dataclass
class Failure:
    seed: int
    channels: int
    step: Step
    problems: list[str]
    replies: list[Outgoing]
    errors: str

    def signature(self) -> tuple[str, ...]:
        """Failures with the same signature are one bug, reported once (with a count)."""
        parts = self.problems[0].split(": ")
        what = re.sub(r"\d+", "N", parts[1] if parts[0].startswith("reply ")
                      and len(parts) > 1 else parts[0])
        lines = [line.strip() for line in self.errors.splitlines() if line.strip()]
        if lines:  # the same exception raised at the same place
            frames = [line for line in lines if line.startswith("File ")]
            return (what, frames[-1] if frames else "", lines[-1].split(":")[0])
        words = self.step.incoming.text.strip().lstrip(".。．/｡／ ").split()
        return (what, words[0][:12] if words else "")  # the same command

    def replay(self) -> str:
        return (f"python bench/stress.py --seed {self.seed} --channels {self.channels} "
                f"--replay {self.step.index}")

    def describe(self) -> str:
        inc = self.step.incoming
        lines = [f"input {self.step.index} ({self.step.kind}) — replay: {self.replay()}",
                 f"  incoming: {inc!r}", *(f"  problem: {p}" for p in self.problems)]
        lines += [f"  reply: to={o.to} user={o.user!r} secret={o.secret} "
                  f"({len(o.text)} chars) {o.text[:300]!r}" for o in self.replies]
        if self.errors:
            lines.append("  logged:\n" + "\n".join("    " + line
                                                   for line in self.errors.splitlines()))
        return "\n".join(lines)


@dataclass
class Result:
    seed: int
    channels: int
    inputs: int = 0
    replies: int = 0
    answered: int = 0
    longest: int = 0
    elapsed: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    slowest: list[tuple[float, int, str]] = field(default_factory=list)

    def record(self, step: Step, outs: list[Outgoing], spent: float) -> None:
        self.inputs += 1
        self.replies += len(outs)
        self.answered += bool(outs)
        self.longest = max([self.longest, *(len(o.text) for o in outs)])
        self.by_kind.setdefault(step.kind, []).append(spent)
        if len(self.slowest) < 5 or spent > self.slowest[0][0]:
            self.slowest = sorted([*self.slowest, (spent, step.index,
                                                   step.incoming.text[:80])])[-5:]

    def merge(self, other: Result) -> None:
        """Add the figures and failures of ``other`` (a block run elsewhere)."""
        self.inputs += other.inputs
        self.replies += other.replies
        self.answered += other.answered
        self.longest = max(self.longest, other.longest)
        self.failures = sorted([*self.failures, *other.failures], key=lambda f: f.step.index)
        for kind, times in other.by_kind.items():
            self.by_kind.setdefault(kind, []).extend(times)
        self.slowest = sorted([*self.slowest, *other.slowest])[-5:]

    def distinct(self) -> dict[tuple[str, ...], list[Failure]]:
        groups: dict[tuple[str, ...], list[Failure]] = {}
        for failure in self.failures:
            groups.setdefault(failure.signature(), []).append(failure)
        return groups

    def report(self) -> str:
        """Every distinct failure: the first of each in full, and how often it came."""
        parts = []
        for group in self.distinct().values():
            parts.append(f"{len(group)}× " + group[0].describe())
        return "\n\n".join(parts)


# --- running ----------------------------------------------------------------------------

def default_dir() -> str | None:
    """Where the blocks' databases go: tmpfs when there is one (fsync costs nothing)."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


OnStep = Callable[[Step, list[Outgoing], list[str], str], None]


async def run_block(seed: int, number: int, channels: int, directory: Path, result: Result,
                    until: int | None = None, on_step: OnStep | None = None,
                    stop: bool = False, concurrent: bool = False) -> None:
    """Run block ``number`` on a fresh core in ``directory`` (up to input ``until``);
    ``concurrent``: each channel's inputs in order, the channels at the same time."""
    data = directory / f"block{number}"
    settings = Settings(_env_file=None, data_dir=data)
    dice = SeededSource(random.Random(f"dice:{seed}:{number}").randrange(2**32))  # replayable
    core = await Core.open(settings, dice=dice, group_commit=number % 2 == 0)  # both paths
    checker = Checker(core.catalog)
    errors = _Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    steps = [step for step in Block(seed, number, channels)
             if until is None or step.index <= until]

    async def one(step: Step) -> bool:
        token = _CURRENT.set(step.index)
        started = time.perf_counter()
        try:
            outs = await core.handle(step.incoming)
        except Exception:  # the core must never raise for any input
            outs = []
            problems = ["Core.handle raised"]
            errors.records[step.index].append(traceback.format_exc())
        else:
            problems = checker.problems(step.incoming, outs)
        finally:
            _CURRENT.reset(token)
        spent = time.perf_counter() - started
        logged = errors.take(step.index)
        if logged and not problems:
            problems = ["an error was logged"]
        result.record(step, outs, spent)
        if problems:
            result.failures.append(Failure(seed, channels, step, problems, outs, logged))
        if on_step is not None:
            on_step(step, outs, problems, logged)
        return bool(problems)

    async def lane(steps: list[Step]) -> None:
        for step in steps:
            await one(step)

    try:
        if concurrent:
            lanes: dict[tuple[str, str], list[Step]] = defaultdict(list)
            for step in steps:
                lanes[step.incoming.platform, step.incoming.channel].append(step)
            await asyncio.gather(*(lane(steps) for steps in lanes.values()))
        else:
            for step in steps:
                if await one(step) and stop:
                    break
    finally:
        await core.close()
        root.removeHandler(errors)
        shutil.rmtree(data, ignore_errors=True)
    outside = errors.take(None)
    if outside and steps:  # logged by no input's handling (a background flush, closing)
        result.failures.append(Failure(seed, channels, steps[-1], [
            "an error was logged outside any input (reported with the block's last)"], [],
            outside))


def _block_job(seed: int, number: int, channels: int, directory: str, until: int,
               concurrent: bool) -> Result:
    """One block in a worker process (``--workers``): its own event loop and core."""
    result = Result(seed, channels)
    asyncio.run(run_block(seed, number, channels, Path(directory), result, until=until,
                          concurrent=concurrent))
    return result


async def run(seed: int, count: int, channels: int = 4, start: int = 0,
              directory: str | None = None, progress: Callable[[Result], None] | None = None,
              every: int = 10_000, stop: bool = False, concurrent: bool = False,
              workers: int = 1) -> Result:
    """``count`` inputs of ``seed`` from block ``start // BLOCK`` on; failures collected.
    ``workers`` > 1 runs that many blocks at once, each in a process of its own (the
    core is CPU-bound: one process uses one core)."""
    result = Result(seed, channels)
    vocabulary()  # read the tables once, outside the timing
    plan = []  # (block, its last input)
    first = start // BLOCK
    for number in range(first, first + -(-count // BLOCK)):
        plan.append((number, min(number * BLOCK + BLOCK, first * BLOCK + count) - 1))
    began = time.perf_counter()
    last_report = 0

    def done(block: Result) -> None:
        nonlocal last_report
        result.merge(block)
        result.elapsed = time.perf_counter() - began
        if progress is not None and result.inputs - last_report >= every:
            last_report = result.inputs
            progress(result)

    with tempfile.TemporaryDirectory(prefix="trpgbot-stress-", dir=directory) as tmp:
        if workers <= 1:
            for number, until in plan:
                block = Result(seed, channels)
                await run_block(seed, number, channels, Path(tmp), block, until=until,
                                stop=stop, concurrent=concurrent)
                done(block)
                if stop and result.failures:
                    break
        else:
            loop = asyncio.get_running_loop()
            context = multiprocessing.get_context("spawn")  # no fork of a running loop
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                jobs = [loop.run_in_executor(pool, _block_job, seed, number, channels, tmp,
                                             until, concurrent) for number, until in plan]
                for job in asyncio.as_completed(jobs):
                    done(await job)
    result.elapsed = time.perf_counter() - began
    return result


# --- the command line -------------------------------------------------------------------

def _progress(total: int) -> Callable[[Result], None]:
    shown = False

    def show(result: Result) -> None:
        nonlocal shown
        rate = result.inputs / result.elapsed
        eta = (total - result.inputs) / rate
        print(f"  {result.inputs:>9,} inputs  {rate:6.0f}/s  {result.elapsed:7.0f} s  "
              f"eta {eta / 60:5.1f} min  failing {len(result.failures)}", flush=True)
        if result.failures and not shown:  # at once: a long run need not be waited for
            shown = True
            print("first failing input:\n" + result.failures[0].describe(), flush=True)
    return show


def _summary(result: Result) -> None:
    rate = result.inputs / result.elapsed if result.elapsed else 0.0
    print(f"\nseed {result.seed}, {result.channels} channels: {result.inputs:,} inputs in "
          f"{result.elapsed:.1f} s — {rate:,.0f} inputs/s, {1000 / rate if rate else 0:.2f} "
          f"ms each; 10^6 would take {1e6 / rate / 60 if rate else 0:.0f} min")
    print(f"replies {result.replies:,} to {result.answered:,} inputs; longest reply "
          f"{result.longest:,} characters (limit {MAX_REPLY:,})")
    print("per kind:   inputs    mean ms   max ms")
    for kind, times in sorted(result.by_kind.items(), key=lambda kv: -len(kv[1])):
        print(f"  {kind:9} {len(times):7,} {1000 * sum(times) / len(times):9.2f} "
              f"{1000 * max(times):9.1f}")
    print("slowest inputs:")
    for spent, index, text in reversed(result.slowest):
        print(f"  {1000 * spent:7.1f} ms  #{index}  {text!r}")
    groups = result.distinct()
    print(f"\nfailing inputs: {len(result.failures):,} ({len(groups)} distinct)")
    for n, group in enumerate(groups.values()):
        first = group[0]
        if n == 0:
            print(f"first ({len(group)}×):\n{first.describe()}")
        else:
            print(f"- {len(group)}× #{first.step.index} {first.problems[0][:100]} — "
                  f"{first.step.incoming.text[:80]!r} — {first.replay()}")


async def _replay(seed: int, channels: int, index: int, directory: str | None) -> int:
    number = index // BLOCK
    result = Result(seed, channels)
    history: list[str] = []
    target = None

    def show(step: Step, outs: list[Outgoing], problems: list[str], logged: str) -> None:
        nonlocal target
        line = f"#{step.index} {step.kind} {step.incoming.channel}/{step.incoming.user}: " \
               f"{step.incoming.text[:100]!r} -> {len(outs)} replies" \
               + (f" PROBLEM {problems[0]}" if problems else "")
        if step.index < index:
            history.append(line)
        else:
            target = Failure(seed, channels, step, problems, outs, logged)

    print(f"replaying block {number} (inputs {number * BLOCK}..{index}) of seed {seed}")
    with tempfile.TemporaryDirectory(prefix="trpgbot-replay-", dir=directory) as tmp:
        await run_block(seed, number, channels, Path(tmp), result, until=index, on_step=show)
    print("the 15 inputs before it:\n  " + "\n  ".join(history[-15:]))
    if target is None:
        print(f"input {index} is not in the block")
        return 2
    print(target.describe() if target.problems else "input passes:\n" + target.describe())
    for n, out in enumerate(target.replies):
        print(f"--- reply {n} in full ({out.to}):\n{out.text}")
    return 1 if target.problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=None,
                        help="default: a random one (printed)")
    parser.add_argument("--channels", type=int, default=4)
    parser.add_argument("--start", type=int, default=0, help="first input (rounded down "
                        f"to a block of {BLOCK})")
    parser.add_argument("--dir", default=default_dir(), help="where the databases go")
    parser.add_argument("--stop", action="store_true",
                        help="stop at the first failure (one worker only)")
    parser.add_argument("--concurrent", action="store_true",
                        help="a block's channels at the same time (group commit batches "
                        "several commands; a failure may then not replay exactly)")
    parser.add_argument("--replay", type=int, metavar="INDEX")
    parser.add_argument("--workers", type=int, default=1,
                        help="blocks run at once, one process each (default 1)")
    parser.add_argument("--every", type=int, default=None, help="progress every N inputs")
    args = parser.parse_args()
    if args.replay is not None and args.seed is None:
        parser.error("--replay needs the --seed (and --channels) of the run")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    logging.getLogger().setLevel(logging.WARNING)
    if args.replay is not None:
        return asyncio.run(_replay(seed, args.channels, args.replay, args.dir))
    voc = vocabulary()
    print(f"seed {seed}, {args.count:,} inputs from #{args.start // BLOCK * BLOCK}, "
          f"{args.channels} channels, {args.workers} worker(s), {len(voc.names)} command "
          f"names, systems "
          f"{', '.join(voc.systems)}; databases in {args.dir or tempfile.gettempdir()}",
          flush=True)
    every = args.every or max(BLOCK, min(10_000, args.count // 20 // BLOCK * BLOCK))
    result = asyncio.run(run(seed, args.count, args.channels, args.start, args.dir,
                             _progress(args.count), every, args.stop, args.concurrent,
                             args.workers))
    _summary(result)
    kinds = Counter(f.step.kind for f in result.failures)
    if kinds:
        print("failing inputs by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.items()))
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.exit(main())
