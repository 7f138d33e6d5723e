"""Platform adapters and the `trpgbot` entry point that composes them."""
