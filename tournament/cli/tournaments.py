"""``tournament``, ``replay``, ``ratings`` and ``sprt``: round-robins played and
stored, their games replayed, their bots rated, and one bot tested against another."""
import dataclasses
import os
import sys

import pyspiel
from tqdm import tqdm

from tournament import stops
from tournament.cli.common import (default_db, load_config, open_store, positive,
                                   report_options, run_options)
from tournament.sparring.narrate import narrate
from tournament.tables import count


def _tournament(args):
    """Play a round-robin tournament from a TOML config, every deal in every seating,
    storing each game as it ends; run the same command again to resume an interrupted
    run or to add deals.  Prints the ratings at the end."""
    from tournament.harness import config as configs
    from tournament.harness import runner
    config = load_config(args)
    db = args.db or default_db(args.config)
    with open_store(db, journal=args.journal) as store:
        def stored():  # of the deals asked for: a run given more before holds more
            return sum(d < config.deals for d, *_ in store.done(config))
        total = config.deals * config.games_per_deal
        rotations = (f" in {count(len(config.deal_rotations()), 'rotation')}"
                     if config.rotations else "")
        print(f"{config.game}: {count(len(config.bots), 'bot')}, "
              f"{count(config.deals, 'deal')} of {count(len(config.seatings()), 'seating')}"
              f"{rotations} = {count(total, 'game')}; {stored()} stored in {db}"
              f" (tournament {config.key})", file=sys.stderr)
        leader = Leader(config)
        for row in store.games(config.key):
            leader.add(row)
        try:
            runner.run(config, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet, on_row=leader.add, postfix=leader.text)
        except configs.ConfigError as e:
            sys.exit(f"cardarena tournament: {e}")
        except KeyboardInterrupt as e:
            print(f"\nStopped: {stored()} of {total} games are stored in "
                  f"{db}; run the same command again to play the rest.", file=sys.stderr)
            sys.exit(stops.status(e))
        _print_report(store, config.key, args.format, bootstrap=args.bootstrap)


class Leader:
    """The running score of each bot, for the progress bar."""

    def __init__(self, config):
        self.points = dict.fromkeys(config.bots, 0.0)
        self.matches = dict.fromkeys(config.bots, 0)
        self.sides = config.sides

    def add(self, row):
        from tournament.stats.ratings import match_scores
        for bot, opponent, score in match_scores(row, self.sides):
            for name, points in ((bot, score), (opponent, 1 - score)):
                self.points[name] += points
                self.matches[name] += 1

    def text(self):
        scores = {n: self.points[n] / m for n, m in self.matches.items() if m}
        if not scores:
            return ""
        best = max(scores, key=scores.get)
        return f"leader {best} {scores[best]:.0%}"


def _print_report(store, key, fmt, bootstrap):
    from tournament.harness import config as configs
    from tournament.stats.ratings import rate
    tournament = _chosen(store, key)
    game = tournament["config"]["game"]
    report = rate(store.games(tournament["key"]), tournament["config"]["bots"],
                  bootstrap=bootstrap, sides=configs.sides(game),
                  scored=configs.rules(game).scored)
    if fmt == "text":
        print(f"{tournament['game']}, tournament {tournament['key']}")
    print({"text": report.to_text, "markdown": report.to_markdown, "csv": report.to_csv,
           "json": report.to_json}[fmt]())


def _ratings(args):
    """Rate the bots of a stored tournament: Elo with 95% intervals from a bootstrap
    over deals, score, likelihood of superiority, failures, the crosstable,
    duplicate-pair results, seat advantage and the dominance graph."""
    from tournament.harness.store import StoreError
    from tournament.stats.ratings import NoGamesError, list_games
    if not os.path.exists(args.db):
        sys.exit(f"cardarena ratings: no such file: {args.db}")
    with open_store(args.db, readonly=True) as store:
        try:
            if args.list:
                default = _chosen(store, None)["key"]
                for t in store.tournaments():
                    mark = " (default)" if t["key"] == default else ""
                    print(f"{t['key']}  {_kind(t) + mark:<20}  {t['game']}  "
                          f"{count(t['games'], 'game')}  bots: " + ", ".join(t["config"]["bots"]))
                return
            if args.games:
                rows = store.games(_chosen(store, args.tournament)["key"])
                listing = list_games(rows, args.format)
                if listing:
                    print(listing)
                return
            _print_report(store, args.tournament, args.format, args.bootstrap)
        except (StoreError, NoGamesError) as e:
            sys.exit(f"cardarena ratings: {e}")


def _chosen(store, key):
    """The run of ``store`` that ``--tournament KEY`` names; without a key, the latest
    tournament (not an SPRT's or a skill analysis's run), or the latest run if the
    store holds no tournament."""
    if key is not None:
        return store.tournament(key)
    runs = store.tournaments()
    tournaments = [t for t in runs if _kind(t) == "tournament"]
    return tournaments[-1] if tournaments else store.tournament()


def _kind(run):
    # Stores written before runs were marked hold tournaments' runs unmarked.
    return run["config"].get("kind", "tournament")


def _sprt(args):
    """Test whether bot A is at least ELO1 stronger than bot B (H1) or at most ELO0
    (H0), playing duplicate pairs of the config's game, deal after deal, until the test
    decides.  The games are stored, so an interrupted test resumes."""
    from tournament.harness import config as configs
    from tournament.harness import runner
    from tournament.stats import sprt
    config = load_config(args)
    for bot in (args.a, args.b):
        if bot not in config.bots:
            sys.exit(f"cardarena sprt: no bot {bot!r} in {args.config}; its bots: "
                     + ", ".join(config.bots))
    if args.a == args.b:
        sys.exit("cardarena sprt: --a and --b name the same bot")
    if len(config.sides) != 2:
        sys.exit(f"cardarena sprt: duplicate pairs need a game of two sides (two seats, "
                 f"or two teams), and {config.game} has {len(config.sides)}")
    try:
        test = sprt.Sprt(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as e:
        sys.exit(f"cardarena sprt: {e}")
    pair = dataclasses.replace(config.only([args.a, args.b]), kind="sprt")
    db = args.db or default_db(args.config)
    batch = 4 * (args.workers or runner.cpus())
    with open_store(db, journal=args.journal) as store:
        # The LLR, not a count to --max-deals: most tests end long before it.
        bar = tqdm(bar_format="{desc} [{elapsed}]", desc=test.progress(),
                   disable=args.quiet)
        deals = 0
        try:
            while test.decision() is None and deals < args.max_deals:
                # Each batch's deals are all played before the test takes them, in deal
                # order, so a resumed test takes the same pairs as one never stopped,
                # though a stopped run may have stored later deals before earlier ones.
                played, deals = deals, min(deals + batch, args.max_deals)
                runner.run(pair, store, workers=args.workers, scheduler=args.scheduler,
                           progress=False, deals=deals)
                rows = store.games(pair.key, range(played, deals))
                test.extend(sprt.pair_scores(rows, args.a, args.b, config.sides))
                bar.set_description_str(test.progress())
        except configs.ConfigError as e:
            sys.exit(f"cardarena sprt: {e}")
        except KeyboardInterrupt as e:
            print(f"\nStopped after {test.pairs} pairs; the games are stored in {db}: "
                  "run the same command again to go on.", file=sys.stderr)
            sys.exit(stops.status(e))
        finally:
            bar.close()
    print(f"{args.a} against {args.b} on {config.game}: {test.summary(args.a)}")
    if test.decision() is None:
        print(f"Undecided after {count(args.max_deals, 'deal')} (--max-deals).")


def _replay(args):
    """Replay a stored game move by move, in words."""
    from tournament.harness.store import StoreError
    if not os.path.exists(args.db):
        sys.exit(f"cardarena replay: no such file: {args.db}")
    with open_store(args.db, readonly=True) as store:
        try:
            row = store.game(args.game_id)
        except StoreError as e:
            sys.exit(f"cardarena replay: {e}")
    seats = ", ".join(f"player {p} {name} = {spec}" for p, (name, spec)
                      in enumerate(zip(row.seating, row.specs)))
    rotated = f", its cards rotated by {count(row.rotation, 'seat')}" if row.rotation else ""
    print(f"Game {row.id}: {row.game}, deal {row.deal} (seed {row.deal_seed}){rotated}; "
          f"{seats}")
    state = pyspiel.load_game(row.game).new_initial_state()
    names = [f"player {p} ({name})" for p, name in enumerate(row.seating)]
    narrate(state, row.history, names, sys.stdout, row.rotation)
    if row.status == "length":
        print(f"Stopped at the length limit after {count(row.length, 'decision')}.")
    elif row.status != "ok":
        print(f"{row.failed} lost by {row.status}: {row.message}")
    print("Returns: " + ", ".join(f"{name} {r:g}" for name, r in zip(names, row.returns)))


def add(sub):
    """Add ``tournament``, ``replay``, ``ratings`` and ``sprt`` to ``sub``."""
    tour = sub.add_parser("tournament", help="play a duplicate round-robin from a TOML config",
                          description=_tournament.__doc__)
    tour.add_argument("config", help="the TOML config, e.g. examples/shrine.toml")
    tour.add_argument("--db", help="the SQLite file to store games in (default: the "
                      "config's name with .db, in this directory)")
    run_options(tour)
    report_options(tour)
    tour.set_defaults(run=_tournament)
    replay = sub.add_parser("replay", help="replay a stored game move by move",
                            description=_replay.__doc__)
    replay.add_argument("db", help="the tournament's SQLite file")
    replay.add_argument("game_id", type=int, help="the game's id, as ratings DB --games lists")
    replay.set_defaults(run=_replay)
    ratings = sub.add_parser("ratings", help="rate the bots of a stored tournament",
                             description=_ratings.__doc__)
    ratings.add_argument("db", help="the tournament's SQLite file")
    ratings.add_argument("--tournament", metavar="KEY",
                         help="which tournament of the file, by the start of its key "
                         "(default: the latest tournament, not an sprt, skill, levels or "
                         "matchup run; "
                         "--list shows which)")
    ratings.add_argument("--list", action="store_true",
                         help="list the file's tournaments instead")
    ratings.add_argument("--games", action="store_true",
                         help="list the tournament's games, with the ids replay takes")
    report_options(ratings, games=True)
    ratings.set_defaults(run=_ratings)
    test = sub.add_parser("sprt", help="a sequential test of one bot against another",
                          description=_sprt.__doc__)
    test.add_argument("config", help="the TOML config naming the game and the bots")
    test.add_argument("--a", required=True, metavar="BOT", help="the bot under test")
    test.add_argument("--b", required=True, metavar="BOT", help="the bot it is tested against")
    test.add_argument("--elo0", type=float, default=0.0,
                      help="H0: A is at most this much stronger (default 0)")
    test.add_argument("--elo1", type=float, default=20.0,
                      help="H1: A is at least this much stronger (default 20)")
    test.add_argument("--alpha", type=float, default=0.05,
                      help="the chance of accepting H1 when H0 holds (default 0.05)")
    test.add_argument("--beta", type=float, default=0.05,
                      help="the chance of accepting H0 when H1 holds (default 0.05)")
    test.add_argument("--max-deals", type=positive, default=10_000,
                      help="give up undecided after this many deals (default 10000)")
    test.add_argument("--db", help="the SQLite file to store games in (default: the "
                      "config's name with .db)")
    run_options(test)
    test.set_defaults(run=_sprt)
