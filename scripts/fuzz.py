"""Fuzz the bot core with random text, for longer than the test suite does.

    .venv/bin/python scripts/fuzz.py [N] [--seed S] [--shrink]

The same property as ``tests/bot/test_router_fuzz.py`` — whatever text arrives,
``Core.handle`` never raises and never answers with the internal-error reply,
and every reply is non-empty and at most ``MAX_REPLY`` characters — run against
a real ``Core`` on a temporary SQLite database for N examples (default 50,000),
unseeded unless ``--seed`` is given. Unlike the test it does not stop at the
first failure: it reports every failing input (with the logged traceback) at the
end and exits 1 if there was any. ``--shrink`` instead stops at the first failure
and lets hypothesis shrink it to a minimal input.

Not part of the test suite (it runs for minutes); see docs/testing.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from adapters.config import Settings  # noqa: E402
from bot.core import MAX_REPLY, Core  # noqa: E402
from bot.messages import Incoming  # noqa: E402

# the same inputs as the test suite's fuzz test: one definition of them
from tests.bot.test_router_fuzz import _TEXT  # noqa: E402

LOCALES = ("zh-Hant", "zh-Hans", "en")


class _Errors(logging.Handler):
    """Keeps the tracebacks the core logs when a handler crashes."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("examples", nargs="?", type=int, default=50_000)
    parser.add_argument("--seed", type=int, help="repeat a run (default: unseeded)")
    parser.add_argument("--shrink", action="store_true",
                        help="stop at the first failure and shrink it")
    args = parser.parse_args()

    errors = _Errors()
    logging.getLogger().addHandler(errors)
    failures: dict[tuple[str, str], str] = {}  # (user, text) -> what went wrong
    count = 0
    started = time.monotonic()

    with tempfile.TemporaryDirectory(prefix="trpgbot-fuzz-") as tmp:
        loop = asyncio.new_event_loop()
        core = loop.run_until_complete(Core.open(Settings(_env_file=None, data_dir=Path(tmp))))
        internal = {
            core.catalog.text(locale, "error.prefix",
                              text=core.catalog.text(locale, "error.internal"))
            for locale in LOCALES
        }

        def problem(text: str, user: str) -> str | None:
            errors.records.clear()
            try:
                outs = loop.run_until_complete(core.handle(Incoming("fuzz", "c", user, text)))
            except Exception as exc:  # the core must never raise for user input
                return f"raised {exc!r}"
            for out in outs:
                if out.text in internal:
                    return "internal-error reply\n" + "\n".join(errors.records)
                if not out.text.strip():
                    return "empty reply"
                if len(out.text) > MAX_REPLY:
                    return f"reply of {len(out.text)} characters (> {MAX_REPLY})"
            return None

        phases = [Phase.generate, Phase.shrink] if args.shrink else [Phase.generate]

        @hypothesis_settings(max_examples=args.examples, deadline=None, database=None,
                             phases=phases, print_blob=False,
                             suppress_health_check=list(HealthCheck))
        @given(text=_TEXT, user=st.sampled_from(["a", "b"]))
        def check(text: str, user: str) -> None:
            nonlocal count
            count += 1
            if count % 5000 == 0:
                print(f"  {count} inputs, {time.monotonic() - started:.0f} s", flush=True)
            found = problem(text, user)
            if found is None:
                return
            if args.shrink:
                raise AssertionError(f"{user}: {text!r}: {found}")
            if (user, text) not in failures:
                failures[user, text] = found
                print(f"FAIL {user}: {text!r}: {found.splitlines()[0]}", flush=True)

        if args.seed is not None:
            check = seed(args.seed)(check)
        try:
            check()
        except AssertionError as exc:
            print(f"shrunk failure: {exc}")
            return 1
        finally:
            loop.run_until_complete(core.close())
            loop.close()

    elapsed = time.monotonic() - started
    print(f"{count} inputs in {elapsed:.0f} s: {len(failures)} failing")
    for (user, text), found in failures.items():
        print(f"\n--- user {user!r}, text {text!r}\n{found}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
