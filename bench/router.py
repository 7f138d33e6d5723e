"""How fast a message is routed, against a scan of every command name.

Run from the repository root: ``python bench/router.py``. Times
``router.is_command`` + ``router.unambiguous`` + ``router.resolve`` for a few typical
lines, and, as the reference measured in the same run, the routing the router did
before: every registered name of every system tried with ``str.startswith``
(longest first). Prints µs per line and the ratio. Not collected by pytest.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import router, systems
from bot.routes import router as _router

ROUTER = _router()

LINES = ("st 體力-1", "r 1d20", "ra 觀察", "ap spend 移動", "help", "rabbit hello")
"""Message bodies as the core routes them: the prefix (`.` `。` `/`) already taken off."""


def routed(body: str) -> None:
    if ROUTER.is_command(body):
        ROUTER.unambiguous(body)
        ROUTER.resolve(body, "plurk")


def _scan(names: list[str], folded: str) -> str | None:
    return next((n for n in names if folded.startswith(n)
                 and router._ends_at_a_boundary(n, folded[len(n):])), None)


def scanned(body: str, tables: dict[str, list[str]], every: list[str]) -> None:
    """The reference: the same three questions answered by scanning names, as the
    router did before (one scan of every name; one per table for each resolve)."""
    folded = body.casefold()
    if _scan(every, folded) is None:
        return
    common = tables[router.CORE]
    for system in (*systems.plugins(), "", *systems.plugins(), "plurk"):  # unambiguous,
        _scan(common, folded)  # then resolve: the system's table and the common one
        if system:
            _scan(tables[system], folded)


def main() -> None:
    systems.plugins()
    longest = {"key": len, "reverse": True}
    tables = {owner: sorted(plugin.commands.names(), **longest)
              for owner, plugin in systems.plugins().items()}
    tables[router.CORE] = sorted(ROUTER.common.names(), **longest)
    names = sorted({n for table in tables.values() for n in table}, **longest)
    n = 2000
    ours = min(timeit.repeat(lambda: [routed(b) for b in LINES], number=n, repeat=3))
    ref = min(timeit.repeat(lambda: [scanned(b, tables, names) for b in LINES], number=n,
                            repeat=3))
    per = len(LINES) * n
    print(f"{len(names)} command names, {len(systems.plugins())} systems")
    print(f"router:              {ours / per * 1e6:6.1f} µs per line")
    print(f"reference (scan):    {ref / per * 1e6:6.1f} µs per line")
    print(f"ratio reference / router: {ref / ours:.1f}×")


if __name__ == "__main__":
    main()
