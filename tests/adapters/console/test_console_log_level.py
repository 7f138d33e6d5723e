"""The console is a chat in the terminal: at the default level its log stays quiet
(WARNING), so the first start's schema migrations (INFO) do not fall between the
replies; `trpgbot run` keeps INFO (issue 25, item 2), and an operator's explicit
TRPGBOT_LOG_LEVEL wins everywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def console(data_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TRPGBOT_")}
    return subprocess.run(
        [sys.executable, "-m", "adapters.cli", "console"], input=".r 1d1\n", text=True,
        capture_output=True, cwd=data_dir, timeout=120, check=True,
        env={**clean, "PYTHONPATH": str(ROOT), "TRPGBOT_DATA_DIR": str(data_dir), **env})


def test_the_console_logs_no_info_lines_by_default(tmp_path: Path) -> None:
    done = console(tmp_path)  # a first start: every migration runs
    assert "🎲 player：1d1 = [1] = 1" in done.stdout
    assert " INFO " not in done.stderr


def test_an_explicit_level_is_the_operators(tmp_path: Path) -> None:
    done = console(tmp_path, TRPGBOT_LOG_LEVEL="INFO")
    assert "INFO alembic.runtime.migration: Running upgrade" in done.stderr
