"""Write NapCat's OneBot 11 network config (the ``napcat-config`` service of docker-compose.yml).

Runs once before NapCat starts, with NapCat's config volume mounted at CONFIG_DIR. It puts the
reverse-WebSocket client named ``trpgbot`` of TEMPLATE (``deploy/napcat/onebot11.json``), with the
access token taken from ``TRPGBOT_ONEBOT__ACCESS_TOKEN`` (the variable the bot reads), into:

- ``onebot11_<NAPCAT_ACCOUNT>.json``, the file NapCat reads for that QQ account, when
  ``NAPCAT_ACCOUNT`` is set;
- every other ``onebot11_<QQ>.json`` already in the volume (accounts that logged in before);
- ``onebot11.json``, the file NapCat copies for an account that has no file of its own yet.

Other entries of those files (added in NapCat's WebUI) are kept; only the ``trpgbot`` client is
replaced. So the token lives in ``.env`` only, and a changed token reaches NapCat at the next
``docker compose up``. The token is never printed.

It also checks the QQ settings of ``.env`` first, and fails (so NapCat, which waits for it,
does not start) when QQ is off in the bot (``TRPGBOT_ONEBOT__ENABLED``), or the access token
or NapCat's WebUI token (``NAPCAT_WEBUI_TOKEN``) is empty: the compose file requires them
here, in the ``qq`` profile, and nowhere a deployment without QQ would need them.

Usage: ``python configure.py TEMPLATE CONFIG_DIR`` (standard library only).
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

CLIENT_NAME = "trpgbot"
TOKEN_VARIABLE = "TRPGBOT_ONEBOT__ACCESS_TOKEN"
ENABLED_VARIABLE = "TRPGBOT_ONEBOT__ENABLED"
WEBUI_TOKEN_VARIABLE = "NAPCAT_WEBUI_TOKEN"
TRUE = {"1", "on", "t", "true", "y", "yes"}
"""What the bot's settings read as true (pydantic's booleans)."""
ACCOUNT_VARIABLE = "NAPCAT_ACCOUNT"
DEFAULT_FILE = "onebot11.json"
ACCOUNT_FILE = re.compile(r"^onebot11_(\d+)\.json$")


def client_entry(template: dict[str, Any], token: str) -> dict[str, Any]:
    """The template's ``trpgbot`` WebSocket client with ``token`` filled in."""
    clients = [entry for entry in template["network"]["websocketClients"]
               if entry.get("name") == CLIENT_NAME]
    if len(clients) != 1:
        raise ValueError(f"the template needs exactly one websocketClients entry "
                         f"named {CLIENT_NAME!r}")
    return {**clients[0], "token": token}


def merged(existing: Any, template: dict[str, Any], client: dict[str, Any]) -> dict[str, Any]:
    """``existing`` (a parsed NapCat file, or None) with our client replaced or added."""
    if isinstance(existing, dict) and isinstance(existing.get("network"), dict):
        config = copy.deepcopy(existing)
    else:
        config = copy.deepcopy(template)
    network = config["network"]
    others = [entry for entry in network.get("websocketClients") or []
              if not (isinstance(entry, dict) and entry.get("name") == CLIENT_NAME)]
    network["websocketClients"] = [*others, client]
    return config


def _read(path: Path) -> Any:
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        path.replace(path.with_name(path.name + ".broken"))  # kept for the operator
        print(f"napcat-config: {path.name} was not valid JSON; kept as {path.name}.broken")
        return None


def _owner() -> tuple[int, int] | None:
    """NapCat's user (``NAPCAT_UID``/``NAPCAT_GID``), when we run as root and they are set."""
    uid, gid = os.environ.get("NAPCAT_UID", ""), os.environ.get("NAPCAT_GID", "")
    if hasattr(os, "geteuid") and os.geteuid() == 0 and uid.isdigit() and gid.isdigit():
        return int(uid), int(gid)
    return None


def _write(path: Path, config: dict[str, Any], owner: tuple[int, int] | None) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(config, handle, ensure_ascii=False, indent=2)
        handle.write("\n")
    if owner is not None:
        os.chown(tmp, *owner)
    os.replace(tmp, path)


def configure(template_path: Path, config_dir: Path, token: str, account: str = "",
              owner: tuple[int, int] | None = None) -> list[Path]:
    """Write every file (see the module docstring); returns the paths written."""
    template = json.loads(template_path.read_text("utf-8"))
    client = client_entry(template, token)
    config_dir.mkdir(parents=True, exist_ok=True)
    targets = {config_dir / DEFAULT_FILE}
    targets |= {path for path in config_dir.iterdir() if ACCOUNT_FILE.match(path.name)}
    if account:
        targets.add(config_dir / f"onebot11_{account}.json")
    written = sorted(targets)
    for path in written:
        _write(path, merged(_read(path), template, client), owner)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    if os.environ.get(ENABLED_VARIABLE, "").strip().lower() not in TRUE:
        print(f"napcat-config: the qq profile runs NapCat for the bot's QQ adapter; set "
              f"{ENABLED_VARIABLE}=true in .env", file=sys.stderr)
        return 1
    token = os.environ.get(TOKEN_VARIABLE, "")
    for variable, value in ((TOKEN_VARIABLE, token),
                            (WEBUI_TOKEN_VARIABLE, os.environ.get(WEBUI_TOKEN_VARIABLE, ""))):
        if not value:
            print(f"napcat-config: {variable} is empty; set it in .env", file=sys.stderr)
            return 1
    account = os.environ.get(ACCOUNT_VARIABLE, "").strip()
    if account and not account.isdigit():
        print(f"napcat-config: {ACCOUNT_VARIABLE} must be a QQ number", file=sys.stderr)
        return 1
    for path in configure(Path(argv[1]), Path(argv[2]), token, account, _owner()):
        print(f"napcat-config: {path.name}: client {CLIENT_NAME!r} written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
