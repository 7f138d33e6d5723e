"""What start-up loaded stays for the life of the process: kept out of the cyclic
garbage collector's way.

After start-up a bot process holds ~100,000 objects the collector tracks — modules,
catalogs, command tables, SQLAlchemy's and pydantic's schemas — and keeps them to the
end. Every full collection walks them all: the commands' allocations set one off
every few thousand commands, and while it runs (50–120 ms on the shared development
machine, more under load) no command does. ``bench/store.py`` at 50 channels showed
such a pause as its p99: one round of every channel held up at once.
"""

from __future__ import annotations

import gc


def freeze_start_up() -> None:
    """Move every object alive now out of the collector's generations (``gc.freeze``):
    full collections walk only what was made since. Nothing is freed later than it
    would be — these objects live on anyway, and reference counting still frees any
    of them dropped. Called once, after the core opened (``trpgbot run``, the
    console)."""
    gc.freeze()
