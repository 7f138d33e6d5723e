"""Plurk user ids with a meaning of their own."""

from __future__ import annotations

ANONYMOUS_USER_ID = 99999
"""The `user_id` of every post in an anonymous plurk; posters differ by `handle`."""
