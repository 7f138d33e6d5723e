"""Errors raised by the rules layer.

They carry a stable ``code`` and parameters instead of a message, because the
rules layer knows no language: ``bot`` renders ``error.<code>`` from its
message catalogs with ``params``.
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """A request the rules refuse (bad expression, limit exceeded, illegal move…)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:  # pragma: no cover - debugging aid only
        return f"{self.code} {self.params}" if self.params else self.code
