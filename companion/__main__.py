"""Start the companion: `python -m companion [--lan] [--port N]`; delete the tables untouched
for a year: `python -m companion prune [--days N]`; or back the database up, safely while it
runs: `python -m companion backup FILE`.

Serves with gunicorn, bounded in workers, threads and time (`companion.serving`). Listens on
127.0.0.1 by default; --lan listens on every interface so phones on the same network can join,
and prints the address to type in. Never runs the debugger. A damaged database file is not
served: the command exits, saying which file and what to do. For public hosting, put it behind
an HTTPS reverse proxy (README).
"""

from __future__ import annotations

import argparse
import socket
import sys
from datetime import timedelta

from . import storage
from .app import create_app
from .serving import Server, log_access


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def prune(argv: list[str]) -> None:
    """`python -m companion prune [--days N]`: delete the tables untouched (not started,
    written or opened) for N days (default: RETENTION_DAYS in the configuration, 365), with
    their logs and results; say how many."""
    parser = argparse.ArgumentParser(prog="python -m companion prune",
                                     description="Delete tables untouched for a while.")
    parser.add_argument("--days", type=int, help="untouched for this many days (default 365)")
    args = parser.parse_args(argv)
    try:
        app = create_app()
    except storage.DamagedError as damaged:
        sys.exit(str(damaged))
    days = args.days if args.days is not None else int(app.config["RETENTION_DAYS"])
    if days < 1:
        sys.exit("--days must be 1 or more.")
    before = storage.now(-timedelta(days=days))
    db = storage.connect(app.config["DATABASE"], app.config["DATABASE_TIMEOUT"])
    try:
        deleted = storage.prune(db, before)
    finally:
        db.close()
    print(f"Deleted {deleted} table(s) untouched since {before}.", flush=True)


def backup(argv: list[str]) -> None:
    """`python -m companion backup FILE`: a checked copy of the whole database into FILE, safe
    while the server runs (README: how to restore it, and to run it from cron)."""
    parser = argparse.ArgumentParser(prog="python -m companion backup",
                                     description="Copy the database into a file, safely while "
                                                 "the server runs, and check the copy.")
    parser.add_argument("file", help="the backup file to write (replaced if it exists)")
    args = parser.parse_args(argv)
    try:
        app = create_app()
    except storage.DamagedError as damaged:
        sys.exit(str(damaged))
    db = storage.connect(app.config["DATABASE"], app.config["DATABASE_TIMEOUT"])
    try:
        events = storage.backup(db, args.file)
    except (storage.DamagedError, OSError) as error:
        sys.exit(f"No backup was made: {error}")
    finally:
        db.close()
    print(f"Backed up {app.config['DATABASE']} to {args.file} ({events} events); the copy "
          "passed SQLite's integrity check.", flush=True)


def main() -> None:
    if sys.argv[1:2] == ["prune"]:
        return prune(sys.argv[2:])
    if sys.argv[1:2] == ["backup"]:
        return backup(sys.argv[2:])
    parser = argparse.ArgumentParser(description="Run the board game table companion.")
    parser.add_argument("--lan", action="store_true",
                        help="listen on all interfaces so phones on this network can connect")
    parser.add_argument("--port", type=int, default=5000, help="port (0 picks a free one)")
    parser.add_argument("--access-log", nargs="?", const="-", metavar="FILE",
                        help="log each request (time, address, method, path with tables' short "
                             "ids, status, bytes, duration) to FILE, or to stderr ('-' or none)")
    args = parser.parse_args()
    listener = socket.create_server(("0.0.0.0" if args.lan else "127.0.0.1", args.port))
    port = listener.getsockname()[1]
    try:
        app = create_app()
    except storage.DamagedError as damaged:
        sys.exit(str(damaged))
    if args.access_log:
        try:
            log_access(app, args.access_log)
        except OSError as error:
            sys.exit(f"The access log cannot be written: {error}")
    print(f"Companion is running: http://127.0.0.1:{port}/", flush=True)
    if args.lan:
        print(f"Phones on the same network: http://{lan_address()}:{port}/", flush=True)
    else:
        print("(Start with --lan to let phones on your network connect.)", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    Server(app, listener).run()


if __name__ == "__main__":
    main()
