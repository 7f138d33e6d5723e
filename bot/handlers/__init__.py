"""The common commands, one module per subject: :mod:`bot.routes` collects every
handler ``@command`` marks here, so a feature adds its handlers by adding a module."""
