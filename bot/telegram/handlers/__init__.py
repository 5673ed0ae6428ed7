"""The handlers, one module per feature: what each chat message or button tap does (through the game core)."""
