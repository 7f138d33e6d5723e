"""The game log (`.log on/off/export/list`): what a table said and rolled, kept for
the players and the GM after the session — as SealDice and DicePP users expect.

- :mod:`bot.gamelog.book` — which tables are logging (cached) and the recording of
  lines, in the same transaction as the command (or the chatter) they record;
- :mod:`bot.gamelog.export` — Markdown and a self-contained HTML page.
"""
