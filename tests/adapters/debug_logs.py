"""No log level writes a secret or a token: helpers shared by the
``test_*_debug_logs`` tests of every platform.

The tests open every log at once: the root logger at DEBUG, every logger
propagating to it, and SQLAlchemy's engine logger at DEBUG (what ``echo="debug"``
does), then play the same table on a platform — a hidden check (``.rah 觀察``
after ``.st 觀察 5``), a GM's ``.secret``, and a private message that cannot be
delivered and is kept for ``.gm pending`` — and look for the secrets in every
captured record.

A secret can reach a log verbatim (a kept private text as an SQL parameter),
JSON-encoded (the outbox and the channel state are JSON columns, so 觀察 is
``\\u89c0\\u5bdf``) or JSON-encoded inside a ``repr`` (aiosqlite logs the tuple
of parameters): each form is looked for, and so are short ASCII fragments that
survive any encoding or truncation (``1d20=13``, ``"raw": 13``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

import pytest
from sqlalchemy import select

from adapters.config import Settings
from bot.core import Core
from tests.orm import ChannelState, sessions

HIDDEN_DIE, SECRET_DIE = 13, 16
"""The hidden check rolls 13 (13 + 觀察 5 = 18), the GM's secret roll 16 (= 21)."""

SECRET_FRAGMENTS = (
    f"1d20={HIDDEN_DIE}", f"1d20={SECRET_DIE}",      # the result texts
    f'"raw": {HIDDEN_DIE}', f'"raw": {SECRET_DIE}',  # the results as JSON (outbox, state)
    f"'raw': {HIDDEN_DIE}", f"'raw': {SECRET_DIE}",  # … and as a repr'd dict
    f"= {HIDDEN_DIE + 5} ", f"= {SECRET_DIE + 5} ",  # the values
)

SQL_PARAMETERS_HIDDEN = "[SQL parameters hidden due to hide_parameters=True]"


def open_every_log(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root at DEBUG, SQLAlchemy's statement log at DEBUG, every logger propagating.
    Call it before the bot starts (the levels are those the operator sets)."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="sqlalchemy.engine")
    for logger in list(logging.root.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger):
            monkeypatch.setattr(logger, "propagate", True)
            monkeypatch.setattr(logger, "disabled", False)


def first_start(settings: Settings) -> None:
    """Start from no store at all, as an operator's first start does (the tests' SQLite
    file is otherwise a copy of a migrated one): the migrations' DEBUG lines are part of
    what is checked, and they are the records that prove DEBUG was captured."""
    if not settings.database_url:
        (settings.data_dir / "trpgbot.db").unlink(missing_ok=True)


def forms(secret: str) -> set[str]:
    """The ways ``secret`` can be written into a log line."""
    as_json = json.dumps(secret)[1:-1]
    return {secret, repr(secret)[1:-1], as_json, repr(as_json)[1:-1]}


async def stored_checks(core: Core) -> list[dict[str, Any]]:
    """The channel state documents that keep the last checks (the hidden one's JSON)."""
    async with sessions(core) as session:
        rows = await session.scalars(select(ChannelState).where(
            ChannelState.key == "plurk.checks"))
        return [row.data for row in rows]


def assert_no_secret_logged(caplog: pytest.LogCaptureFixture, *, secrets: Iterable[str],
                            stored: Iterable[dict[str, Any]], tokens: Iterable[str]) -> None:
    """Neither a secret text, nor a stored hidden check, nor a token in any record."""
    records = caplog.records
    assert records, "nothing was logged: the test would prove nothing"
    assert any(r.levelno == logging.DEBUG for r in records), "no DEBUG record was captured"
    logged = "\n".join([caplog.text, *(record.getMessage() for record in records)])
    stored = list(stored)
    assert any(doc.get("last") for doc in stored), "no hidden check was stored"
    documents = [json.dumps(doc) for doc in stored]
    documents += [json.dumps(record) for doc in stored for record in doc["last"].values()]
    documents += [json.dumps(record["check"]) for doc in stored
                  for record in doc["last"].values()]
    candidates: dict[str, str] = {}
    for kind, texts in (("secret text", secrets), ("stored hidden check", documents),
                        ("token", tokens)):
        for text in texts:
            for form in forms(text):
                candidates.setdefault(form, f"{kind} {text!r}")
    for fragment in SECRET_FRAGMENTS:
        candidates.setdefault(fragment, f"secret fragment {fragment!r}")
    leaked = {what for form, what in candidates.items() if form and form in logged}
    assert not leaked, f"logged: {sorted(leaked)}"
    # SQLAlchemy's statement log was on, and showed no parameter
    assert SQL_PARAMETERS_HIDDEN in logged, "SQLAlchemy's statement log was not captured"
