"""Alembic migrations of the bot's schema (run on start, or `trpgbot db upgrade`)."""
