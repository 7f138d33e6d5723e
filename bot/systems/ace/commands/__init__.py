"""The `ace` commands, one module per subject; the plugin collects them."""
