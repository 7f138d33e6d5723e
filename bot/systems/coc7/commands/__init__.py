"""The `coc7` commands, one module per subject; the plugin collects them."""
