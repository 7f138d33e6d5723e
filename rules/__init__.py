"""Pure game rules: the dice engine and one module per game system.

Nothing here does I/O, touches asyncio or a database, or produces chat text;
callers get dataclasses and error codes and render them themselves.
"""
