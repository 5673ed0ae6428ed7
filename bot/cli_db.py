"""`python -m bot db upgrade|downgrade|current`: the database's migrations from the terminal.

The URL is ``DATABASE_URL`` from the settings unless ``--url`` is given.
"""

from __future__ import annotations

import argparse
from typing import Any

from bot.storage import migrate


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser("db", help="upgrade, downgrade or show the database schema")
    p.add_argument("action", choices=["upgrade", "downgrade", "current"])
    p.add_argument("revision", nargs="?", help="target revision (default: head to upgrade, one step back to downgrade)")
    p.add_argument("--url", help="database URL (default: DATABASE_URL from the settings)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "upgrade":
        migrate.upgrade(args.url, args.revision or "head")
    elif args.action == "downgrade":
        migrate.downgrade(args.url, args.revision or "-1")
    print(migrate.current(args.url) or "(empty database: no revision)")
    return 0
