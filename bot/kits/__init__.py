"""System-free helpers that every rule system's commands share: which character a
command names (``references``), hidden results (``hidden``) and refusals answered
privately (``refusals``). Nothing here knows a rule system; a system package
imports a kit, never another system."""
