"""Issue 16 item 2 in the terminal: an attachment (a game log, a battle map) is written
to ``<data_dir>/exports/`` — never over an existing file — and its path printed; `--json`
keeps the description (no bytes) and adds the path. The installed `trpgbot console`
as a subprocess, and the helpers on their own."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

from adapters.console import render, save_attachment
from bot.messages import Attachment, Outgoing
from tests.adapters.console.test_console import TRPGBOT, run_console

LOG = Attachment("第一夜.md", "# 第一夜\n".encode(), "file")

SESSION = "\n".join(["gm: .gm", "gm: .log on 第一夜", "alice: .r 1d20+2 開門",
                     "bob: .rh 1d100", "gm: .log export", ""])


def test_save_never_overwrites(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    first = save_attachment(LOG, folder)
    (folder / "第一夜-2.md").write_text("someone else's", "utf-8")
    second = save_attachment(Attachment(LOG.filename, b"second", "file"), folder)
    third = save_attachment(Attachment(LOG.filename, b"third", "file"), folder)
    assert first == folder.absolute() / "第一夜.md" and first.read_bytes() == LOG.data
    assert second is not None and second.name == "第一夜-3.md"
    assert second.read_bytes() == b"second"
    assert third is not None and third.name == "第一夜-4.md"
    assert (folder / "第一夜-2.md").read_text("utf-8") == "someone else's"
    plain = save_attachment(Attachment("README", b"x", "file"), folder)
    again = save_attachment(Attachment("README", b"y", "file"), folder)
    assert plain is not None and again is not None and again.name == "README-2"


def test_an_unwritable_folder_is_logged_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "exports"
    blocker.write_text("a file where the folder should be", "utf-8")
    assert save_attachment(LOG, blocker) is None


def test_render_names_the_path(tmp_path: Path) -> None:
    out = Outgoing("channel", "console", "the log", attachment=LOG)
    path = tmp_path / "第一夜.md"
    assert render(out, as_json=False, path=path) == (
        f"[#console] the log\n[附件 第一夜.md：file，{len(LOG.data)} bytes → {path}]")
    assert f'"path": "{path}"' in render(out, as_json=True, path=path)


def test_log_export_from_the_console(tmp_path: Path) -> None:
    *_, players, gm = run_console(tmp_path, SESSION, "--dice", "15,42")
    exports = tmp_path / "exports"
    assert players["to"] == "channel" and gm["to"] == "private" and gm["user"] == "gm"
    public_path = Path(players["attachment"]["path"])
    gm_path = Path(gm["attachment"]["path"])
    assert public_path == exports.absolute() / "第一夜.html"
    assert gm_path == exports.absolute() / "第一夜-gm.html"
    assert players["attachment"]["size"] == public_path.stat().st_size
    assert "data" not in players["attachment"]  # the description, never the bytes
    public, secret = public_path.read_text("utf-8"), gm_path.read_text("utf-8")
    assert ".rh 1d100" in public and "[42]" not in public
    assert "[42]" in secret
    # a second export writes new files beside the first ones
    *_, players2, gm2 = run_console(tmp_path, "gm: .log export md\n")
    assert Path(players2["attachment"]["path"]).name == "第一夜.md"
    *_, players3, _ = run_console(tmp_path, "gm: .log export md\n")
    assert Path(players3["attachment"]["path"]).name == "第一夜-2.md"
    assert sorted(p.name for p in exports.iterdir()) == [
        "第一夜-2.md", "第一夜-gm-2.md", "第一夜-gm.html", "第一夜-gm.md", "第一夜.html",
        "第一夜.md"]
    assert gm2["attachment"]["kind"] == "file"


def test_plain_text_prints_the_path(tmp_path: Path) -> None:
    env = {**os.environ, "TRPGBOT_DATA_DIR": str(tmp_path)}
    done = subprocess.run([TRPGBOT, "console"], input=SESSION, capture_output=True,
                          text=True, env=env, timeout=60, check=True)
    lines = io.StringIO(done.stdout).read().splitlines()
    written = [line for line in lines if line.startswith("[附件 ")]
    assert written == [
        f"[附件 第一夜.html：file，{(tmp_path / 'exports' / '第一夜.html').stat().st_size} "
        f"bytes → {(tmp_path / 'exports' / '第一夜.html').absolute()}]",
        f"[附件 第一夜-gm.html：file，{(tmp_path / 'exports' / '第一夜-gm.html').stat().st_size}"
        f" bytes → {(tmp_path / 'exports' / '第一夜-gm.html').absolute()}]"]
