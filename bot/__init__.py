"""The application: command router, handlers, store, message catalogs, config."""
