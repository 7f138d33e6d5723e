"""Run mutmut 3 on one area of the code and print the score (see docs/testing.md).

Usage (normally through ``scripts/mutation.sh``)::

    python scripts/mutation.py [AREA|all|systems] [--max-children N]
                               [--fresh | --survivors | --unchecked] [--score-only]
                               [MUTANT_GLOB ...]

AREA is ``rules`` (all of rules/), one part of it — ``rules.<system id>`` (one
package of rules/systems/), ``rules.kits``, ``rules.dice`` — or ``core`` or
``adapters``; ``all`` is rules, core and adapters, ``systems`` every
``rules.<system id>`` in turn.

mutmut reads its settings from ``pyproject.toml`` in the current directory and
writes its copy of the tree to ``./mutants``. To give each area its own settings
(what to mutate, which tests to run) and its own result cache, every area runs
in ``mutants/area-<area>/``: symlinks to the project's folders plus a copy of
``pyproject.toml`` whose ``[tool.mutmut]`` section is the project's one with the
area's paths. mutmut keeps its results there, so a second run only tests the
functions that changed; ``--fresh`` starts over. mutmut does not test a mutant
again because a test changed: after adding tests, ``--survivors`` re-tests the
last run's survivors (new tests are picked up), or ``--fresh`` re-tests all.
``--unchecked`` tests only what was not checked yet; with globs it measures a part
of an area (a glob alone re-tests every mutant it matches).

Score: killed / total, where "killed" includes timeouts (mutmut's own rule) and
"total" is every mutant of the area that was checked (mutants with no covering
test count as not killed).
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = ROOT / ".venv" / "bin" / "mutmut"

# What each area mutates and which tests mutmut may run for it. mutmut then runs,
# for each mutant, only the tests that executed the mutated function (fastest
# first, stopping at the first failure), so a surviving mutant costs every test
# that reaches it. Any other [tool.mutmut] key given here overrides the project's.

# The core: nearly every test in tests/bot runs Core.handle, so each surviving core
# mutant would run all of them (about 90 s). These files test the core, the router
# and the store directly and take well under a second per test; left out (slow, and
# about the rule systems or the property rather than the core's own code):
# test_router_fuzz.py (one 18 s property test; its seeded run is in CI),
# test_plurk_*.py and test_jianshou_session.py (a system's rules through the core:
# 130 tests, 35 s, and a 19 s restart-between-every-line set-up), the catalog and
# script checks (no core code), and the kill -9 test of test_writer.py (a
# subprocess killed mid-burst, 5 s).
CORE_TESTS = [
    "tests/bot/test_core.py",
    "tests/bot/test_working_set.py",
    "tests/bot/test_router.py",
    "tests/bot/test_commands.py",
    "tests/bot/test_outbox.py",
    "tests/bot/test_campaign.py",
    "tests/bot/test_systems.py",
    "tests/bot/test_writer.py",
    "tests/bot/test_documents.py",
    "tests/bot/test_sessions.py",
    "tests/bot/test_rolls.py",
    "tests/bot/test_table_habits.py",
    "tests/bot/test_two_processes.py",
    "tests/bot/test_gamelog.py",
    "tests/bot/test_unit_of_work.py",
    "tests/bot/test_schema.py",
    # the dispatcher's controls and rate limit, chatter, private log lines, refusals'
    # language, secrets before a GM sits, the outbox's accounts, the schema upgrade lock
    "tests/bot/test_group_controls.py",
    "tests/bot/test_chatter_routing.py",
    "tests/bot/test_gamelog_private.py",
    "tests/bot/test_refusal_language.py",
    "tests/bot/test_secrets_before_the_gm_seat.py",
    "tests/bot/test_outbox_accounts.py",
    "tests/bot/test_concurrent_start.py",
    "--deselect",
    "tests/bot/test_writer.py::test_kill_9_during_a_burst_loses_no_acknowledged_change",
]

RULES_TESTS = ["tests/rules"]


def rules_part(*globs: str) -> dict[str, object]:
    """An area that mutates only part of ``rules/`` (one system, the kits, the dice)
    and may run every rules test, with its own result cache."""
    return {
        "source_paths": ["rules"],
        "only_mutate": list(globs),
        "pytest_add_cli_args_test_selection": RULES_TESTS,
    }


# One area per rule system (`rules.<id>`), found the way the registry finds them: a
# package under rules/systems/.
SYSTEM_AREAS = {
    f"rules.{path.name}": rules_part(f"rules/systems/{path.name}/*")
    for path in sorted((ROOT / "rules" / "systems").iterdir())
    if (path / "__init__.py").exists()
}

AREAS: dict[str, dict[str, object]] = {
    "rules": rules_part(),
    **SYSTEM_AREAS,
    "rules.kits": rules_part("rules/kits/*"),
    "rules.dice": rules_part("rules/dice/*"),
    "core": {
        "source_paths": ["bot"],
        "only_mutate": ["bot/core.py", "bot/dispatcher.py", "bot/unit_of_work.py",
                        "bot/documents.py", "bot/router.py", "bot/store/*"],
        "pytest_add_cli_args_test_selection": CORE_TESTS,
    },
    "adapters": {
        "source_paths": ["adapters"],
        "only_mutate": [
            "adapters/*/convert.py",
            "adapters/delivery.py",
            "adapters/discord/delivery.py",
            "adapters/onebot/delivery.py",
            "adapters/plurk/emoticons.py",
            "adapters/plurk/outbox.py",
            "adapters/retry.py",
            "adapters/split.py",
        ],
        # left out: the tests that run the bot in a child process (`trpgbot` console
        # runs, the runner's signal tests, a SIGKILL restart): mutmut's mutants live
        # in its own process only, so those tests cannot see them
        "pytest_add_cli_args_test_selection": [
            "tests/adapters",
            "--ignore=tests/adapters/console/test_console.py",
            "--ignore=tests/adapters/test_runner.py",
            "--ignore=tests/adapters/plurk/test_plurk_restart.py",
        ],
        # tests/adapters/onebot needs the nonebug plugin, which initialises nonebot
        # once per pytest run: keep it, and let every pytest run (the stats, the
        # clean run, each mutant) happen in a fresh fork of a server that has only
        # imported pytest and collected the tests, never in mutmut's own process
        "pytest_add_cli_args": ["-p", "no:cacheprovider"],
        "process_isolation": "forkserver",
    },
}

# Names for several areas, run one after the other.
GROUPS = {"all": ["rules", "core", "adapters"], "systems": list(SYSTEM_AREAS)}

# Linked into every area folder (the tests import across layers).
PACKAGES = ("rules", "bot", "adapters", "migrations")
LINKED = (*PACKAGES, "tests", "docs")

KILLED = {"killed", "timeout"}


def area_dir(area: str) -> Path:
    return ROOT / "mutants" / f"area-{area}"


def toml_value(value: object) -> str:
    # Strings, numbers, booleans and lists of strings: JSON spells them as TOML does.
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def area_pyproject(area: str) -> str:
    """The project's pyproject.toml with the area's [tool.mutmut] section."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    base = dict(tomllib.loads(text).get("tool", {}).get("mutmut", {}))
    base.update(AREAS[area])
    # The tests import every layer; mutmut puts only its copy of `source_paths` first
    # on the path, so the other packages would come from wherever the venv's editable
    # install points (another checkout, when worktrees share one venv): copy this
    # checkout's along.
    base["also_copy"] = [*base.get("also_copy", []),
                         *(name for name in PACKAGES if name not in base["source_paths"])]
    # Drop the project's [tool.mutmut] section (up to the next table header).
    text = re.sub(r"(?ms)^\[tool\.mutmut\]\n.*?(?=^\[|\Z)", "", text)
    section = "\n".join(f"{key} = {toml_value(value)}" for key, value in base.items())
    return f"{text.rstrip()}\n\n[tool.mutmut]\n{section}\n"


def prepare(area: str, fresh: bool) -> Path:
    work = area_dir(area)
    if fresh and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = work / name
        if not link.is_symlink():
            link.symlink_to(Path("..") / ".." / name, target_is_directory=True)
    config = area_pyproject(area)
    target = work / "pyproject.toml"
    if not target.exists() or target.read_text("utf-8") != config:
        target.write_text(config, "utf-8")
    sync_data_files(area, work / "mutants")
    return work


def sync_data_files(area: str, tree: Path) -> None:
    """Bring the non-Python files of the mutated packages (catalogs, deck data) up to
    date in mutmut's copy: mutmut regenerates only changed Python files, so a catalog
    edited since the copy was made would fail the unmutated run ("failed to collect
    stats") or, worse, judge mutants against stale texts."""
    if not tree.exists():
        return
    for root in AREAS[area]["source_paths"]:  # type: ignore[union-attr]
        for source in (ROOT / str(root)).rglob("*"):
            if source.is_dir() or source.suffix in (".py", ".pyc"):
                continue
            copy = tree / source.relative_to(ROOT)
            if not copy.exists() or copy.read_bytes() != source.read_bytes():
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, copy)


def run_mutmut(work: Path, max_children: int, names: list[str]) -> int:
    cmd = [str(MUTMUT), "run", "--max-children", str(max_children), *names]
    shown = cmd if len(names) < 5 else [*cmd[:4], f"<{len(names)} mutants>"]
    print("$", " ".join(shown), f"(in {work.relative_to(ROOT)})", flush=True)
    return subprocess.call(cmd, cwd=work)


def results(work: Path) -> dict[str, str]:
    """mutant name → status, from `mutmut results --all true`."""
    out = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"],
        cwd=work,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    statuses = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            statuses[name] = status
    return statuses


def module_of(mutant: str) -> str:
    return mutant.rsplit(".", 1)[0]


def package_of(module: str) -> str:
    """The part a module's score is summed into: its rule system, or its package."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[:2] == ["rules", "systems"] else parts[:2])


def score(area: str) -> tuple[int, int]:
    work = area_dir(area)
    if not (work / "mutants").exists():
        print(f"{area}: not run yet")
        return 0, 0
    statuses = results(work)
    checked = {k: v for k, v in statuses.items() if v not in {"not checked", "skipped"}}
    per_module: dict[str, collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    for name, status in checked.items():
        per_module[module_of(name)][status] += 1
    print(f"\n== {area} ==")
    for module, counts in sorted(per_module.items()):
        killed = sum(counts[s] for s in KILLED)
        total = sum(counts.values())
        print(f"  {module:32} {killed:5} / {total:<5} {100 * killed / total:5.1f}%")
    per_package: dict[str, collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    for module, counts in per_module.items():
        per_package[package_of(module)].update(counts)
    if len(per_package) > 1:
        for package, counts in sorted(per_package.items()):
            killed = sum(counts[s] for s in KILLED)
            total = sum(counts.values())
            print(f"  {package + ' (all)':32} {killed:5} / {total:<5}"
                  f" {100 * killed / total:5.1f}%")
    killed = sum(1 for v in checked.values() if v in KILLED)
    total = len(checked)
    by_status = collections.Counter(checked.values())
    unchecked = len(statuses) - len(checked)
    survivors = sorted(k for k, v in checked.items() if v not in KILLED)
    (work / "survivors.txt").write_text(
        "".join(f"{k}: {checked[k]}\n" for k in survivors), "utf-8"
    )
    pct = 100 * killed / total if total else 0.0
    print(f"  {'statuses':32} {dict(sorted(by_status.items()))}")
    if unchecked:
        print(f"  {'not checked yet':32} {unchecked}")
    print(f"  SCORE {area}: {killed} / {total} killed ({pct:.1f}%)")
    print(f"  survivors: {(work / 'survivors.txt').relative_to(ROOT)}"
          f" (`cd {work.relative_to(ROOT)} && ../../.venv/bin/mutmut show NAME`)")
    return killed, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("area", nargs="?", default="rules", choices=[*AREAS, *GROUPS])
    parser.add_argument("names", nargs="*", help="only these mutants (mutmut globs)")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument("--score-only", action="store_true", help="print the last score")
    parser.add_argument("--survivors", action="store_true",
                        help="test the last run's survivors again (after adding tests)")
    parser.add_argument("--unchecked", action="store_true",
                        help="test only mutants not checked yet (with globs: a part of an "
                             "area, without re-testing what was checked)")
    args = parser.parse_intermixed_args()
    if not MUTMUT.exists():
        sys.exit(f"{MUTMUT} missing: run scripts/mutation.sh (it installs the extra)")
    areas = GROUPS.get(args.area, [args.area])
    os.chdir(ROOT)
    status = 0
    for area in areas:
        work = prepare(area, args.fresh)
        names = list(args.names)
        if (args.survivors or args.unchecked) and (work / "mutants").exists():
            # the given globs only narrow the set (a glob alone re-tests every mutant
            # it matches, checked or not)
            names = [k for k, v in results(work).items()
                     if (args.survivors and v not in KILLED)
                     or (args.unchecked and v == "not checked")
                     if not names or any(fnmatch.fnmatchcase(k, g) for g in names)]
            if not names:
                print(f"{area}: no mutant to test")
                continue
        if not args.score_only:
            status |= run_mutmut(work, args.max_children, names)
    for area in areas:
        score(area)
    return status


if __name__ == "__main__":
    sys.exit(main())
