"""Persistence: SQLAlchemy 2 async models, engine setup and schema upgrades."""
