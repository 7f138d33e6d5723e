"""Command handlers; importing this package registers every command.

Every module in this package is imported, so a feature adds its handlers by
adding a module — no shared list to edit.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
