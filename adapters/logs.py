"""Keep tokens and secret results out of the logs, at every level, DEBUG included.

Several libraries log what crosses the wire when their logger is at DEBUG:
uvicorn and websockets print handshake headers (the OneBot access token),
discord.py prints gateway events (interaction tokens) and REST bodies (DMs
carrying GM secrets), oauthlib prints every signed parameter. Their loggers
are held at INFO whatever the operator's level, so `TRPGBOT_LOG_LEVEL=DEBUG`
debugs the bot without publishing its secrets.

The database is the other wire: aiosqlite logs every statement with its
parameters at DEBUG (hidden check results, kept private texts), and SQLAlchemy's
engine logs result rows at DEBUG. `bot.store.db.quiet_sql_loggers` holds those
(the drivers at WARNING, SQLAlchemy's engine at INFO at most, where
`hide_parameters=True` keeps values out of the SQL log); `make_engine` calls it,
and so does `protect_secrets_in_logs`.

The format (:func:`start_logging`) is the operator's choice: text lines, or with
``TRPGBOT_LOG_FORMAT=json`` one JSON object per line (python-json-logger's formatter)
with the same fields as a text line — time, level, logger, message and a traceback —
and nothing else a library may attach to a record.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from bot.store.db import quiet_sql_loggers

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JSON_FIELDS = ("levelname", "name", "message")
JSON_NAMES = {"levelname": "level", "name": "logger"}
JSON_KEPT = ("time", "level", "logger", "message", "exc_info", "stack_info")
"""The keys of a JSON line, in this order."""

SECRET_BEARING_LOGGERS = (
    "uvicorn.error",
    "websockets",
    "discord.http",
    "discord.gateway",
    "discord.webhook",
    "discord.client",
    "oauthlib",
)


def protect_secrets_in_logs() -> None:
    """Give the wire-logging loggers an explicit level of at least INFO (the SQL
    drivers' WARNING), so a DEBUG root level set later does not reach them
    (idempotent; never lowers a level)."""
    for name in SECRET_BEARING_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET or logger.level < logging.INFO:
            logger.setLevel(logging.INFO)
    quiet_sql_loggers()


class JsonLines(JsonFormatter):
    """One JSON object per record: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, and ``exc_info`` / ``stack_info`` when there is one. The ``extra``
    fields a library adds to its records (uvicorn's coloured copy of each message)
    are left out, as the text format leaves them out."""

    def __init__(self) -> None:
        super().__init__(list(JSON_FIELDS), rename_fields=JSON_NAMES, timestamp="time",
                         json_ensure_ascii=False)

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        return {key: log_data[key] for key in JSON_KEPT if key in log_data}


def start_logging(level: str, log_format: str) -> None:
    """The root logger at ``level``, to stderr, as text lines or JSON lines
    (``log_format``: ``text`` or ``json``); then the secrets held back."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
    protect_secrets_in_logs()  # before any library logs: no level writes a secret
