"""The `ap20` commands, one module per subject; the plugin collects them."""
