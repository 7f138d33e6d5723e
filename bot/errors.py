"""The refusal a handler raises: a catalog key and its parameters."""

from __future__ import annotations

from typing import Any


class CommandError(Exception):
    """Refuse a command: the transaction is rolled back and `key` is rendered."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params
