"""`trpgbot`: the console chat by default; `run` for configured platforms; `db upgrade`,
`db backup`, `db restore` (docs/operations.md); `discord sync` (docs/discord.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError
from pydantic_settings import SettingsError

from adapters.config import Settings
from adapters.logs import start_logging
from adapters.store_hold import opened
from bot.config import Settings as CoreSettings
from bot.heap import freeze_start_up
from bot.store import db
from rules.dice.source import DiceSource, ScriptedSource, SeededSource, SystemSource


def _dice_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError as exc:
        raise argparse.ArgumentTypeError("--dice takes numbers separated by commas") from exc


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trpgbot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    console = sub.add_parser("console", help="chat in the terminal (the default)")
    console.add_argument("--json", action="store_true", help="one JSON object per message")
    console.add_argument("--dice", type=_dice_list, default=None,
                         help="scripted die results, used in order (e.g. 4,5,20)")
    console.add_argument("--seed", type=int, default=None,
                         help="seed a reproducible dice RNG (testing only; without it "
                              "the dice come from the OS's CSPRNG)")
    console.add_argument("--db", default=None, help="database URL (default: data/trpgbot.db)")
    console.add_argument("--user", default=None, help="who speaks (default: player)")
    console.add_argument("--channel", default=None, help="channel id (default: console)")
    sub.add_parser("run", help="run every adapter the configuration enables")
    database = sub.add_parser("db", help="database maintenance")
    database.add_argument("--db", default=None, help="database URL")
    db_actions = database.add_subparsers(dest="db_action", required=True)
    for action, help_text in (
            ("upgrade", "bring the schema to the newest revision (`run` does it at start)"),
            ("backup", "copy the SQLite store into PATH, safe while the bot runs"),
            ("restore", "replace the SQLite store with the backup PATH (the bot stopped)")):
        command = db_actions.add_parser(action, help=help_text)
        if action != "upgrade":
            command.add_argument("path", type=Path, metavar="PATH")
        # after the action too (`db upgrade --db URL`), without hiding one given before it
        command.add_argument("--db", default=argparse.SUPPRESS, help="database URL")
    discord = sub.add_parser("discord", help="Discord maintenance")
    discord_actions = discord.add_subparsers(dest="discord_action", required=True)
    discord_actions.add_parser(
        "sync", help="sync the slash commands now, changed or not (docs/discord.md)")
    sub.add_parser("plurk-auth", help="obtain a Plurk access token (OAuth 1.0a)")
    logs = sub.add_parser("log", help="the game logs kept in the database")
    log_actions = logs.add_subparsers(dest="log_action", required=True)
    export = log_actions.add_parser(
        "export", help="write a log's whole file here on the server (any length)")
    export.add_argument("name", help="the log's name (as `.log list` shows it)")
    export.add_argument("--platform", required=True, help="qq, discord, plurk or console")
    export.add_argument("--channel", required=True,
                        help="the channel id: a QQ group, a Discord channel, a plurk id")
    export.add_argument("--out", default=None,
                        help="the file to write (default: <data dir>/exports/<name>.<format>)")
    export.add_argument("--format", choices=["html", "md", "txt"], default="html")
    export.add_argument("--for", dest="viewer", default=None, metavar="USER",
                        help="USER's copy, with the private messages USER was sent "
                             "(default: the players' copy)")
    export.add_argument("--db", default=None, help="database URL")
    return parser


async def _console(args: argparse.Namespace, settings: CoreSettings) -> None:
    from adapters.console import PLUGIN, serve_console

    # A seed only from the operator's own command line: the one reproducible source.
    source: DiceSource = SeededSource(args.seed) if args.seed is not None else SystemSource()
    dice = ScriptedSource(args.dice, source) if args.dice else source
    async with opened(settings, dice=dice) as core:
        freeze_start_up()
        section = PLUGIN.of(settings)
        await serve_console(core, args.user or section.user, args.channel or section.channel,
                            as_json=args.json)


async def _upgrade(settings: CoreSettings) -> None:
    engine = db.make_engine(settings.resolved_database_url())
    await db.upgrade(engine)
    await engine.dispose()
    print("database schema is up to date")


def _database(args: argparse.Namespace, settings: CoreSettings) -> int:
    """`trpgbot db backup|restore PATH`: SQLite only; PostgreSQL has its own tools."""
    from adapters import backup, store_hold

    database = store_hold.sqlite_file(settings.resolved_database_url())
    if database is None:
        how = (f"pg_dump; with docker compose:\n  {backup.PG_DUMP}" if args.db_action == "backup"
               else "psql into an empty database (docs/operations.md, \"Restore\"); with "
                    f"docker compose:\n  {backup.PG_RESTORE}")
        print(f"trpgbot: `db {args.db_action}` is for a SQLite store; this one is not. "
              f"Use {how}", file=sys.stderr)
        return 2
    try:
        if args.db_action == "backup":
            held = store_hold.hold(settings.resolved_database_url())  # no restore meanwhile
            try:
                target = (args.path / backup.name_at(datetime.now(UTC))
                          if args.path.is_dir() else args.path)
                backup.backup_sqlite(database, target)
            finally:
                held.release()
            print(target.absolute())
        else:
            kept = backup.restore_sqlite(database, args.path)
            print(f"restored {database} from {args.path}"
                  + (f"; the replaced store is kept as {kept}" if kept else ""))
    except (backup.BackupError, store_hold.StoreInUse) as exc:
        print(f"trpgbot: {exc}", file=sys.stderr)
        return 1
    return 0


async def _log_export(args: argparse.Namespace, settings: CoreSettings) -> int:
    """`trpgbot log export`: the whole log as a file on the server — what Plurk cuts
    (its GM copy is bounded) and what no chat command should post at once."""
    from bot.handlers.log import server_export

    async with opened(settings, group_commit=False) as core:
        made = await server_export(core, args.platform, args.channel, args.name,
                                   args.format, args.viewer)
    if made is None:
        print(f"trpgbot: no log named {args.name!r} at {args.platform} channel "
              f"{args.channel}", file=sys.stderr)
        return 1
    name, text = made
    data = text.encode("utf-8")
    if args.out is not None:
        targets = [Path(args.out)]
    else:
        folder = Path(settings.data_dir) / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        stem, suffix = Path(name).stem, Path(name).suffix
        targets = [folder / (name if n == 1 else f"{stem}-{n}{suffix}") for n in range(1, 1000)]
    for path in targets:
        try:
            with path.open("xb") as file:  # never over an existing file
                file.write(data)
        except FileExistsError:
            continue
        except OSError as exc:
            print(f"trpgbot: could not write {path}: {exc}", file=sys.stderr)
            return 1
        print(path.absolute())
        return 0
    print(f"trpgbot: {targets[-1]} exists; name another file with --out", file=sys.stderr)
    return 1


async def _discord_sync(settings: CoreSettings) -> int:
    """``discord sync``: the slash commands synced now (``run`` syncs only changes)."""
    import discord

    from adapters.discord.settings import discord_section
    from adapters.discord.sync import RECORD_FILE, sync_now

    try:
        count = await sync_now(discord_section(settings), settings.data_dir / RECORD_FILE)
    except (RuntimeError, discord.DiscordException) as exc:
        print(f"trpgbot: Discord sync failed: {exc}", file=sys.stderr)
        return 1
    print(f"{count} slash commands synced")
    return 0


def settings_problems(error: ValidationError) -> str:
    """What is wrong with the settings, one line each, without the values given: a
    section's input holds its secrets (a token)."""
    return "\n".join(f"  {'.'.join(map(str, problem['loc']))}: {problem['msg']}"
                     for problem in error.errors(include_input=False, include_url=False))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = Settings()
    except (ValidationError, SettingsError) as exc:  # refused before anything connects
        problems = settings_problems(exc) if isinstance(exc, ValidationError) else f"  {exc}"
        print(f"trpgbot: invalid settings (docs/configuration.md):\n{problems}",
              file=sys.stderr)
        return 2
    command = args.command or "console"
    level = settings.log_level
    if command == "console" and "log_level" not in settings.model_fields_set:
        level = "WARNING"  # the terminal is the chat: no INFO lines (migrations) between replies
    start_logging(level, settings.log_format)
    if getattr(args, "db", None):
        settings.database_url = args.db
    if command == "console":
        if args.command is None:
            args = build_parser().parse_args(["console"])
        asyncio.run(_console(args, settings))
    elif command == "run":
        from adapters.runner import run

        return asyncio.run(run(settings))
    elif command == "db" and args.db_action == "upgrade":
        asyncio.run(_upgrade(settings))
    elif command == "db":
        return _database(args, settings)
    elif command == "log":
        return asyncio.run(_log_export(args, settings))
    elif command == "discord":
        return asyncio.run(_discord_sync(settings))
    elif command == "plurk-auth":
        from adapters.plurk.auth_flow import main as plurk_auth

        return plurk_auth(settings)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
