"""The `plurk` commands, one module per subject; the plugin collects them."""
