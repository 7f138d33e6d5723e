"""System-free helpers that every rule system's commands share: which character a
command names (``references``), hidden results (``hidden``), refusals answered
privately (``refusals``) and the hooks between a base system and a tactical layer
played on it (``layers``: `.system ap20+v6`). Nothing here knows a rule system; a system package
imports a kit, never another system."""
