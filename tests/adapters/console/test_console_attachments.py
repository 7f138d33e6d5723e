"""Issue 16 item 3 in the terminal: a picture is named, never printed; `--json`
describes it (name, kind, type, size) without its bytes."""

from __future__ import annotations

import base64
from pathlib import Path

from adapters.console import render
from bot.messages import Attachment, Outgoing
from tests.adapters.console.test_console import run_console

PNG = Attachment("field.png", b"\x89PNG\r\n\x1a\n" + b"x" * 100, "picture")


def test_plain_text_names_the_attachment() -> None:
    out = Outgoing("channel", "console", "the board", attachment=PNG)
    assert render(out, as_json=False) == \
        "[#console] the board\n[附件 field.png：picture，108 bytes]"
    private = Outgoing("private", "console", "yours", user="gm", attachment=PNG)
    assert render(private, as_json=False).startswith("[私訊 → gm] yours\n[附件 field.png")


def test_json_describes_the_attachment_without_its_bytes() -> None:
    line = render(Outgoing("channel", "console", "the board", attachment=PNG), as_json=True)
    assert '"attachment": {"filename": "field.png", "kind": "picture", "mime": "image/png", ' \
           '"size": 108}' in line
    assert base64.b64encode(PNG.data).decode()[:16] not in line


def test_field_png_from_the_console(tmp_path: Path) -> None:
    script = "\n".join(["gm: .gm", "alice: .st 靈巧 2 體力 8", ".battle join", "gm: .battle start",
                        ".place alice B2", ".field png", ""])
    *_, line = run_console(tmp_path, script, "--dice", "15")
    attachment = line["attachment"]
    assert (attachment["filename"], attachment["kind"], attachment["mime"]) == (
        "field.png", "picture", "image/png")
    assert 1000 < attachment["size"] < 200_000
    assert "a=alice@B2" in line["text"]
