"""The ``cardarena`` command: one module a group of commands, each adding its own
subcommands (``add``) and importing what a command runs only when it runs, so that
``--version`` and ``--help`` stay quick."""
import argparse
import errno
import importlib.metadata
import os
import signal
import sqlite3
import sys

from tournament import stops
from tournament.cli import games, learn, skill, sparring, tournaments

# Arguments that name files, which may be any bytes the system allows.
PATHS = ("config", "db", "load", "source")


def _undecodable(args):
    """The first argument (files' names aside) that holds bytes which are not UTF-8,
    as those bytes written out in escapes; None if there is none.  Python carries such
    bytes in strings as lone surrogates, which game strings and reports cannot hold."""
    for dest, value in vars(args).items():
        if dest in PATHS:
            continue
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str):
                try:
                    text.encode()
                except UnicodeEncodeError:
                    return text.encode(errors="surrogateescape").decode(
                        errors="backslashreplace")
    return None


def main(argv=None):
    """Run the ``cardarena`` command with ``argv`` (the process's arguments if None)."""
    parser = argparse.ArgumentParser(
        prog="cardarena",
        description="Game-AI search and tournaments for hidden-information card games.")
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {importlib.metadata.version('cardarena')}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in (games, sparring, tournaments, skill, learn):
        group.add(sub)
    args = parser.parse_args(argv)
    if args.command is None:
        # Without a command there is nothing to do but say what the commands are; the
        # status is argparse's for a missing argument.
        parser.print_help(sys.stderr)
        sys.exit(2)
    args.argv = list(sys.argv[1:] if argv is None else argv)[1:]
    odd = _undecodable(args)
    if odd is not None:
        sys.exit(f"cardarena {args.command}: '{odd}' is not UTF-8 text")
    try:
        # SIGTERM (from timeout, a batch system or a service manager) stops a command
        # as Ctrl-C does: a run keeps its stored games and ends its workers. Taken up
        # inside the try, so that a stop that comes the moment it is caught ends as one.
        signal.signal(signal.SIGTERM, stops.terminate)
        args.run(args)
    except KeyboardInterrupt as e:  # a command with nothing to say when stopped
        sys.exit(stops.status(e))
    except BrokenPipeError:
        # Piping into head or less must end quietly, as other Unix tools do.  (Not by
        # restoring SIGPIPE's default: a worker process stopped mid-run would then
        # kill this one through the pipe between them.)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except (OSError, sqlite3.OperationalError) as e:
        # A disk that fills (or fails, or turns read-only) while a run writes: what
        # was written before stays, in a store or journal that reads.
        if not _full(e):
            raise
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        sys.exit(f"cardarena {args.command}: cannot write: {where}"
                 f"{getattr(e, 'strerror', None) or e}; what was written before is kept")


def _full(error):
    """Whether ``error`` is the disk's, not the program's: out of space or quota,
    read-only, or failing."""
    if isinstance(error, sqlite3.OperationalError):
        return "full" in str(error) or "readonly" in str(error) or "disk I/O" in str(error)
    return error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)
