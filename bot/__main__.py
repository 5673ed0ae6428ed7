"""`python -m bot`: run the Telegram bot, or one of the terminal commands.

Each terminal command lives in its own module with a ``register`` function that
adds its sub-parser; this file only lists them. Without a command the bot
runs (``bot.run``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from bot import cli_db, cli_game, cli_health, cli_photo, cli_puzzle, cli_solve

COMMANDS = [cli_solve, cli_db, cli_puzzle, cli_game, cli_photo, cli_health]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="The Rummikub assistant.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(commands)
    args = parser.parse_args(argv)
    if args.command is None:
        from bot.run import main as run_bot

        return run_bot()
    try:
        code: int = args.run(args)
    except BrokenPipeError:
        # the reader went away (`... | head`): nothing more to say, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
