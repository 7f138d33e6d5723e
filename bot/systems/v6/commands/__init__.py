"""The `v6` commands, one module per subject; the plugin collects them."""
