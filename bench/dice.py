"""Throughput of rules.dice against Avrae's d20 on one shared corpus.

Run from the repository root: ``python bench/dice.py [rounds]``.

Both engines cache parsed expressions, so after the first round this measures
evaluation plus result construction, which is what a bot does all day. Where
the two notations differ (d20 writes explode as ``e6``, reroll as ``rr1``,
drop-lowest as ``pl1``) the corpus lists each engine's spelling of the same
roll. SealDice's notations (issue 26) are in the corpus too: where d20 has the same
roll (``4d6k`` = ``4d6kh1``, ``d20优势+5`` = ``2d20kh1+5``, ``2d`` = ``2d20`` with the
default die) it is the same roll; where d20 has no such term (``b2``, ``5a8``, ``3c8``,
``f``) the d20 side rolls the same dice with comparable work (``b2``: four d10 kept
lowest; ``5a8``: five d10 exploding on 8+; ``3c8``: three d10 exploding on 8+, keep
the highest; ``f``: ``4d3-8``). Not collected by pytest (it lives outside ``tests/``
and is not named ``test_*``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import d20

from rules.dice import SeededSource, SystemSource, roll

# (ours, d20) — the same roll in each engine's notation.
CORPUS: list[tuple[str, str]] = [
    ("1d20", "1d20"),
    ("1d20+5", "1d20+5"),
    ("d20+3", "d20+3"),
    ("2d20kh1+5", "2d20kh1+5"),
    ("2d20kl1+3", "2d20kl1+3"),
    ("1d20+5 adv", "2d20kh1+5"),
    ("4d6kh3", "4d6kh3"),
    ("4d6dl1", "4d6pl1"),
    ("8d6", "8d6"),
    ("10d10", "10d10"),
    ("(1d8+2)*2", "(1d8+2)*2"),
    ("2d6+1d4+3", "2d6+1d4+3"),
    ("d%", "1d%"),
    ("3d6!", "3d6e6"),
    ("4d6r1", "4d6rr1"),
    ("2d8ro1+4", "2d8ro1+4"),
    ("1d12-2", "1d12-2"),
    ("6d6+6", "6d6+6"),
    ("1d20+1d4+2", "1d20+1d4+2"),
    ("-1d4+10", "-1d4+10"),
    ("3d6*10", "3d6*10"),
    # SealDice notation (issue 26 item 9)
    ("4d6k", "4d6kh1"),
    ("2d20q1", "2d20kl1"),
    ("d20优势+5", "2d20kh1+5"),
    ("2d", "2d20"),
    ("b2", "(3d10kl1-1)*10+1d10"),
    ("p+10", "(2d10kh1-1)*10+1d10+10"),
    ("5a8", "5d10e>7"),
    ("3c8", "3d10e>7kh1"),
    ("f", "4d3-8"),
]


SLICES = 20
"""Each contender runs its rounds in this many slices, taking turns with the others, so
a change of load on a shared machine falls on all of them alike (one block each let
the ratio swing from 2.5x to 4x between runs on a busy machine)."""


def _rates(contenders: list[tuple[str, object]], rounds: int, per_call: int) -> dict[str, float]:
    """Calls per second (times ``per_call`` rolls) of each function, measured in turns."""
    spent = dict.fromkeys((name for name, _ in contenders), 0.0)
    step = max(rounds // SLICES, 1)
    for _ in range(SLICES):
        for name, fn in contenders:
            start = time.perf_counter()
            for _ in range(step):
                fn()
            spent[name] += time.perf_counter() - start
    return {name: step * SLICES * per_call / seconds for name, seconds in spent.items()}


def main(rounds: int = 4000) -> None:
    source = SystemSource()  # production dice: the OS's CSPRNG
    ours = [text for text, _ in CORPUS]
    theirs = [text for _, text in CORPUS]

    def ours_roll() -> None:
        for text in ours:
            roll(text, source)

    seeded = SeededSource(2024)

    def ours_seeded() -> None:  # what the CSPRNG costs: the old Mersenne Twister source
        for text in ours:
            roll(text, seeded)

    def d20_roll() -> None:
        for text in theirs:
            d20.roll(text)

    def ours_render() -> None:
        for text in ours:
            roll(text, source).render()

    def d20_render() -> None:
        for text in theirs:
            str(d20.roll(text))

    # Warm both parse caches and check that every expression is valid in both.
    for text, other in CORPUS:
        roll(text, source)
        d20.roll(other)

    results = _rates(
        [
            ("ours  roll", ours_roll),
            ("d20   roll", d20_roll),
            ("ours  roll (MT)", ours_seeded),
            ("ours  roll+render", ours_render),
            ("d20   roll+str", d20_render),
        ],
        rounds,
        len(CORPUS),
    )
    for name, rate in results.items():
        print(f"{name:18} {rate:>11,.0f} rolls/s")
    print(f"ratio ours/d20 (roll)        {results['ours  roll'] / results['d20   roll']:.2f}x")
    print("ratio CSPRNG/MT source       "
          f"{results['ours  roll'] / results['ours  roll (MT)']:.2f}x")
    print(
        "ratio ours/d20 (with text)   "
        f"{results['ours  roll+render'] / results['d20   roll+str']:.2f}x"
    )

    print("\nper expression (roll only):")
    per_rounds = max(rounds // 2, 1)
    for text, other in CORPUS:
        rates = _rates(
            [("ours", lambda text=text: roll(text, source)),
             ("d20", lambda other=other: d20.roll(other))],
            per_rounds,
            1,
        )
        a, b = rates["ours"], rates["d20"]
        print(f"  {text:12} {a:>10,.0f}/s   d20 {other:22} {b:>10,.0f}/s   {a / b:5.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
