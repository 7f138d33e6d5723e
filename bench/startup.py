"""Idle memory of ``trpgbot run`` and console start-up, against the libraries alone.

Run from the repository root: ``python bench/startup.py [--idle S] [--runs N]``.
Both references are measured in the same run, on the same machine state:

1. **Idle RSS.** ``trpgbot run`` with the QQ (OneBot v11), Discord and Plurk adapters
   enabled (``run`` starts the console only when nothing else is), SQLite in a
   temporary ``TRPGBOT_DATA_DIR``, idle ``--idle`` seconds, then ``VmRSS`` from
   ``/proc/<pid>/status``. Nothing reaches the internet: the process runs in a network
   namespace of its own (``unshare -rn``, loopback only) — QQ listens on a 127.0.0.1
   port nobody connects to, Plurk's base URL is a 127.0.0.1 port that refuses (the
   listener retries with back-off), and Discord's login cannot resolve ``discord.com``
   (discord.py has no public setting for another API host), so that adapter fails at
   login, is logged, and the others keep serving while its library stays loaded.
   Reference: a fresh interpreter importing every third-party module that process
   imported (listed by ``-X importtime`` of the same start, nothing of ours), then its
   ``VmRSS``.
2. **Console start to first reply.** Wall time of ``printf '.r 1d20\\n' | trpgbot
   console --json --db sqlite+aiosqlite:///<tmp>/x.db`` after one warm-up that creates
   the schema, median of ``--runs``; reference: a fresh interpreter importing the
   third-party modules the console imports (listed the same way), median of ``--runs``,
   interleaved with the console runs so both see the same load.

``PYTHONDONTWRITEBYTECODE`` is removed from the children's environment so our modules
are compiled once, as an installed wheel is. Goals (issue 23): RSS difference
≤ 10 MiB, start-up difference ≤ 0.15 s. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = {"adapters", "bot", "rules", "migrations"}
SITE = Path(sysconfig.get_paths()["purelib"]).resolve()
PLATLIB = Path(sysconfig.get_paths()["platlib"]).resolve()


def child_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TRPGBOT_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TRPGBOT_DATA_DIR=str(data_dir), **extra)
    return env


def third_party(importtime_log: str) -> list[str]:
    """The third-party modules of an ``-X importtime`` log, in import order: the
    module names whose top package lives in site-packages and is not ours."""
    import importlib.util

    found: list[str] = []
    tops: dict[str, bool] = {}
    for line in importtime_log.splitlines():
        if not line.startswith("import time:") or line.count("|") < 2:
            continue
        name = line.rsplit("|", 1)[1].strip()
        top = name.split(".")[0]
        if not name or top in OURS or top.startswith("__editable__"):
            continue
        if top not in tops:
            try:
                spec = importlib.util.find_spec(top)
            except (ImportError, ValueError):
                spec = None
            origin = Path(spec.origin).resolve() if spec and spec.origin else None
            tops[top] = origin is not None and (origin.is_relative_to(SITE)
                                                or origin.is_relative_to(PLATLIB))
        if tops[top]:
            found.append(name)
    # -X importtime prints a module when its import ends: parents after children.
    # Importing in that order is fine (a child import imports its parents first).
    return list(dict.fromkeys(found))


def importer(modules: list[str], report_rss: bool) -> list[str]:
    """A fresh interpreter importing ``modules`` (a module that fails alone is skipped:
    it was imported by a path that set something up first) and printing its VmRSS."""
    code = (
        "import importlib\n"
        "skipped = 0\n"
        f"for m in {modules!r}:\n"
        "    try: importlib.import_module(m)\n"
        "    except Exception: skipped += 1\n"
    )
    if report_rss:
        code += ("print(skipped, open('/proc/self/status').read()"
                 ".split('VmRSS:')[1].split()[0])\n")
    return [sys.executable, "-c", code]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def idle_run(tmp: Path, idle: float) -> tuple[int, list[str], str]:
    """RSS (KiB) of ``trpgbot run`` after ``idle`` s, its third-party modules, its log."""
    if shutil.which("unshare") is None:
        raise SystemExit("needs unshare(1) to keep the adapters off the internet")
    data = tmp / "run"
    data.mkdir()
    env = child_env(
        data,
        TRPGBOT_LOG_LEVEL="WARNING",
        TRPGBOT_ONEBOT__ENABLED="true", TRPGBOT_ONEBOT__HOST="127.0.0.1",
        TRPGBOT_ONEBOT__PORT="18765",
        TRPGBOT_DISCORD__ENABLED="true", TRPGBOT_DISCORD__TOKEN="never.a.valid.token",
        TRPGBOT_PLURK__ENABLED="true", TRPGBOT_PLURK__BASE_URL="http://127.0.0.1:9",
        TRPGBOT_PLURK__APP_KEY="k", TRPGBOT_PLURK__APP_SECRET="s",
        TRPGBOT_PLURK__TOKEN="t", TRPGBOT_PLURK__TOKEN_SECRET="ts",
    )
    # the schema first, as on every start but the first (else alembic is in the figures)
    subprocess.run([str(Path(sys.executable).with_name("trpgbot")), "db", "upgrade"],
                   env=env, cwd=data, check=True, capture_output=True)
    # unshare and sh exec: the pid we hold is the bot's.
    script = f"ip link set lo up && exec {sys.executable} -X importtime -m adapters.cli run"
    log = tmp / "run.log"
    with log.open("w") as err:
        proc = subprocess.Popen(["unshare", "-rn", "sh", "-c", script], cwd=data, env=env,
                                stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        try:
            time.sleep(idle)
            if proc.poll() is not None:
                raise SystemExit(f"trpgbot run ended early:\n{log.read_text()[-3000:]}")
            rss = rss_kib(proc.pid)
            at_sample = log.read_text()
        finally:
            proc.terminate()
            proc.wait(15)
    lines = [ln for ln in at_sample.splitlines() if not ln.startswith("import time:")]
    return rss, third_party(log.read_text()), "\n".join(lines)


def console_cmd(db: str) -> list[str]:
    return [str(Path(sys.executable).with_name("trpgbot")), "console", "--json", "--db", db]


def timed(cmd: list[str], env: dict[str, str], cwd: Path, stdin: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, cwd=cwd,
                          check=True)
    return time.perf_counter() - start, done.stdout


def console(tmp: Path, runs: int) -> tuple[float, float, str, int]:
    data = tmp / "console"
    data.mkdir()
    env = child_env(data)
    db = f"sqlite+aiosqlite:///{data}/x.db"
    line = ".r 1d20\n"
    _, first = timed(console_cmd(db), env, data, line)  # warm-up: creates the schema
    assert "1d20" in first or "d20" in first, first
    log = subprocess.run([sys.executable, "-X", "importtime", "-m", "adapters.cli",
                          *console_cmd(db)[1:]], input=line, capture_output=True, text=True,
                         env=env, cwd=data, check=True).stderr
    modules = third_party(log)
    ours, ref = [], []
    for _ in range(runs):
        ours.append(timed(console_cmd(db), env, data, line)[0])
        ref.append(timed(importer(modules, False), env, data, "")[0])
    return statistics.median(ours), statistics.median(ref), first.strip(), len(modules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds idle (default 10)")
    parser.add_argument("--runs", type=int, default=5, help="console runs (default 5)")
    args = parser.parse_args()

    print(f"load average before: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}"
          f" ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(prefix="trpgbot-startup-") as name:
        tmp = Path(name)
        rss, modules, log = idle_run(tmp, args.idle)
        ref_out = subprocess.run(importer(modules, True), capture_output=True, text=True,
                                 env=child_env(tmp), cwd=tmp, check=True).stdout
        skipped, ref_rss = map(int, ref_out.split()[-2:])
        tops = sorted({m.split(".")[0] for m in modules})
        print(f"\n1. idle RSS, trpgbot run (QQ + Discord + Plurk, {args.idle:g} s idle)")
        print(f"   trpgbot run                                    {rss / 1024:7.1f} MiB")
        print(f"   its {len(modules)} third-party modules alone  "
              f"({len(tops)} packages)   {ref_rss / 1024:7.1f} MiB"
              f"   ({skipped} failed to import alone)")
        print(f"   difference                                     "
              f"{(rss - ref_rss) / 1024:+7.1f} MiB   (goal ≤ +10; ×{rss / ref_rss:.2f})")
        for ln in [ln for ln in log.splitlines() if " adapters." in ln][:4]:
            print(f"   log when sampled: {ln[24:150]}")

        ours, ref, reply, count = console(tmp, args.runs)
        print(f"\n2. console start to first reply (median of {args.runs})")
        print(f"   printf '.r 1d20\\n' | trpgbot console --json   {ours:6.3f} s")
        print(f"   its {count} third-party modules imported alone   {ref:6.3f} s")
        print(f"   difference                                     {ours - ref:+6.3f} s"
              f"   (goal ≤ +0.15; ×{ours / ref:.2f})")
        print(f"   reply: {reply[:100]}")
    print(f"\nload average after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(f"third-party packages of trpgbot run: {' '.join(tops)}")


if __name__ == "__main__":
    main()
