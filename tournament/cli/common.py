"""What every group of commands shares: one voice for errors, argument types, the
options of a run, and opening stores and configs."""
import argparse
import os
import sys


def fail(command, message, status):
    print(f"cardarena {command}: {message}", file=sys.stderr)
    sys.exit(status)

def is_database(path):
    """Whether ``path`` is an SQLite file, by the header every one begins with."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def run_options(parser):
    """Where and how quietly the games of a command are played."""
    parser.add_argument("--workers", type=positive, default=None,
                        help="local worker processes (default: one per CPU it may use)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on a Dask cluster, e.g. tcp://host:8786 "
                        "(needs pip install \"cardarena[cluster]\")")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--journal", metavar="FILE",
                        help="keep a text copy of the games in FILE, first storing the "
                        "games it holds: a run goes on from it on another machine")


def report_options(parser, games=False):
    """The options of a ratings report; ``games``: the command lists games too."""
    parser.add_argument("--format", choices=("text", "markdown", "csv", "json"),
                        default="text", help="how to print the ratings"
                        + (", or the games with --games" if games else "")
                        + " (default: text)")
    parser.add_argument("--bootstrap", type=positive, default=1000, metavar="N",
                        help="resamples of the deals behind the 95%% intervals "
                        "(default: %(default)s)")


def make_folder(out, command="skill"):
    """Make the folder ``--out`` names, or exit saying why it cannot be made."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        sys.exit(f"cardarena {command}: --out {out}: cannot make the folder: {e.strerror}")


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def share(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"a score given up, from 0 up to 1, not {text!r}")
    return value


def load_config(args):
    from tournament.harness import config as configs
    try:
        return configs.load(args.config)
    except configs.ConfigError as e:
        sys.exit(f"cardarena {args.command}: {e}")


def default_db(config_path):
    stem = os.path.splitext(os.path.basename(config_path))[0]
    return f"{stem}.db"


def open_store(path, readonly=False, journal=None):
    from core.errors import CardArenaError
    from tournament.harness.store import Store, StoreError
    if path.endswith(".toml") and os.path.isfile(path) and not is_database(path):
        sys.exit(f"cardarena: {path} is a tournament's config, not its database: the "
                 f"games are in {default_db(path)} unless --db named another file")
    try:
        return Store(path, readonly, journal=journal)
    except (StoreError, CardArenaError, OSError) as e:
        sys.exit(f"cardarena: {e}")


def check_game(command, text):
    """The game string ``text`` as search plays it, or ``command`` stopped with the
    reason in the words every command uses."""
    from core.errors import CardArenaError
    from tournament.harness import config as configs
    try:
        return configs.check_game(text)
    except CardArenaError as e:
        fail(command, str(e), 2)
