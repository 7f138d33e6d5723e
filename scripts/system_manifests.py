"""Rewrite every rule system's ``bot/systems/<package>/manifest.toml`` from its plugin.

    .venv/bin/python scripts/system_manifests.py

Run it after changing a system's commands, adapter verbs, stats, names or ``layer_of``
(``tests/bot/test_system_manifests.py`` fails until you do). The manifest is what the
core knows of a system without importing it — see ``bot/manifests.py`` and
docs/architecture.md, "Adding a rule system".
"""

from __future__ import annotations

from bot.systems import write_manifests

if __name__ == "__main__":
    write_manifests()
