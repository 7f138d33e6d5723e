"""System-free building blocks that rule systems share (pure, no I/O).

- ``turns``: an initiative order with a current index and a round number;
  advance / skip / insert / remove keep the index right, and a system passes
  its own ``on_turn_start`` / ``on_turn_end`` hooks (cf. Avrae ``advance_turn``).
- ``grid``: a board of lettered columns and numbered rows (``A1``): cell names,
  parsing, bounds, distances, a plain text rendering.
- ``costs``: action-cost tables: alias spellings → canonical keys, custom costs.
- ``advantage``: d20 advantage / disadvantage layers (add up, cancel), attack kinds,
  and a tactical layer's verdict on an attack (``AttackTactics``) — what ap20 and the
  v6 layer share without importing each other.

A kit never imports a system (an import-linter contract in ``pyproject.toml``); refusals that need a
system's error codes are left to the system (the kits return None / False).
"""
