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
"""

from __future__ import annotations

import logging

from bot.store.db import quiet_sql_loggers

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
