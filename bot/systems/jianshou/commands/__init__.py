"""The `jianshou` commands, one module per subject; the plugin collects them."""
