"""The runtime machinery: dependencies, solver processes and their queue, per-chat order, uploads."""
