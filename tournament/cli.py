"""The ``cardarena`` command."""
import argparse
import dataclasses
import importlib.metadata
import json
import os
import random
import shlex
import signal
import sys

import pyspiel
from tqdm import tqdm

import core
from tournament.narrate import narrate
from tournament.tables import count


def _demo(args):
    """Play one seeded game between bots (a random player in every seat unless
    --players says otherwise), in words."""
    import search
    try:
        game = core.load_game(args.game)
        args.players = args.players or ["random"] * game.num_players
        if len(args.players) != game.num_players:
            raise core.ParameterError(f"{game.name} takes {game.num_players} players, "
                                      f"not {len(args.players)}")
        bots = [search.make_bot(spec, game, p, seed=args.seed * 64 + p)
                for p, spec in enumerate(args.players)]
    except core.ParameterError as e:
        sys.exit(f"cardarena demo: {e}")
    rng = random.Random(args.seed)
    spiel_game = pyspiel.load_game(str(game))
    state = spiel_game.new_initial_state()
    history = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = bots[state.current_player()].step(state)
        history.append(action)
        state.apply_action(action)
    seats = " against ".join(f"player {p} {bot.spec}" for p, bot in enumerate(bots))
    print(f"{game.long_name} ({game}), seed {args.seed}: {seats}")
    narrate(spiel_game.new_initial_state(), history,
            [f"player {p}" for p in range(game.num_players)], sys.stdout)


def _bots(args):
    """List every kind of bot with its parameters, defaults and a one-line
    description."""
    import search
    print(search.describe())
    print("\nA bot is written as KIND or KIND(param=value,...), for instance "
          "ismcts(iterations=4000,uct_c=0.7,rollout=heuristic).")


def _play(args):
    """Play a game against a bot in the terminal: you see only what your seat may see,
    choose moves by number, and can ask for a hint, undo, save and load."""
    from tournament import play
    sys.exit(play.run(args))


def _review(args):
    """Rate every decision one player made in a game saved by cardarena play, or in a
    game a tournament stored: the move chosen, the move a search from that player's own
    knowledge prefers, and the expected score given up (0 the worst return, 1 the
    best), marked doubtful, bad or very bad by the game's thresholds (cardarena marks
    GAME shows them); then the error rate, the costliest moves, and how much the
    chance events favoured the player.  See docs/review.md."""
    from tournament import play
    from tournament import review as reviews
    from tournament.store import StoreError
    if args.game_id is None:
        if args.seat is not None:
            _fail("review", "--seat is for a stored game: a saved game is reviewed from "
                  "the seat it was played from", 2)
        if _is_database(args.source):
            _fail("review", f"{args.source} is a tournament database: give a game's id "
                  f"too (cardarena ratings {shlex.quote(args.source)} --games lists them)", 2)
        try:
            match = play.Match.load(args.source)
        except play.SaveFileError as e:
            _fail("review", str(e), 1)
        game, seat, history = match.game, match.seat, match.history
    else:
        if not os.path.exists(args.source):
            _fail("review", f"no such file: {args.source}", 1)
        with _open_store(args.source, readonly=True) as store:
            try:
                row = store.game(args.game_id)
            except StoreError as e:
                _fail("review", str(e), 1)
        game, seat, history = row["game"], args.seat, row["history"]
        if seat is None:
            seats = ", ".join(f"{p} ({name})" for p, name in enumerate(row["seating"]))
            _fail("review", f"give --seat N, the player of game {args.game_id} to review: "
                  f"{seats}", 2)
    try:
        review = reviews.Reviewer(game, seat, args.iterations, args.seed).review(history)
    except reviews.ReviewError as e:
        _fail("review", str(e), 1)
    except core.CardArenaError as e:
        _fail("review", str(e), 2)
    print(reviews.report(review))


def _is_database(path):
    """Whether ``path`` is an SQLite file, by the header every one begins with."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _fail(command, message, status):
    print(f"cardarena {command}: {message}", file=sys.stderr)
    sys.exit(status)

def _serve(args):
    """Serve the web app: play against a bot in the browser, and follow the
    tournaments of --db live.  Sparring games are kept in --db too, so a restart loses
    none."""
    try:
        from tournament.web import app
    except ImportError as e:
        sys.exit(f"cardarena serve: {e.name} is missing: pip install \"cardarena[web]\"")
    from tournament.store import StoreError
    try:
        app.serve(args.host, args.port, args.db)
    except StoreError as e:
        sys.exit(f"cardarena serve: {e}")


def _tournament(args):
    """Play a round-robin tournament from a TOML config, every deal in every seating,
    storing each game as it ends; run the same command again to resume an interrupted
    run or to add deals.  Prints the ratings at the end."""
    from tournament import config as configs, runner
    config = _load_config(args)
    db = args.db or _default_db(args.config)
    with _open_store(db) as store:
        done = len(store.done(config))
        total = config.deals * len(config.seatings())
        print(f"{config.game}: {count(len(config.bots), 'bot')}, "
              f"{count(config.deals, 'deal')} of {count(len(config.seatings()), 'seating')}"
              f" = {count(total, 'game')}; {done} stored in {db}"
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
            print(f"\nStopped: {len(store.done(config))} of {total} games are stored in "
                  f"{db}; run the same command again to play the rest.", file=sys.stderr)
            sys.exit(_stop_status(e))
        _print_report(store, config.key, args.format, bootstrap=args.bootstrap)


class Leader:
    """The running score of each bot, for the progress bar."""

    def __init__(self, config):
        self.points = dict.fromkeys(config.bots, 0.0)
        self.matches = dict.fromkeys(config.bots, 0)
        self.sides = config.sides

    def add(self, row):
        from tournament.ratings import match_scores
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


def _calibrated_command(sub, run, help, calibrate):
    """The subcommand ``run`` names (``_levels`` is ``levels``), which shows a game's
    calibration or, with --calibrate, makes it; returns the group its calibrating
    options go in."""
    command = sub.add_parser(run.__name__.lstrip("_"), help=help, description=run.__doc__)
    command.add_argument("game", help="the game, e.g. shrine or 'card_duel(life=15)'")
    command.add_argument("--calibrate", action="store_true",
                         help=f"{calibrate} (the options below are for this)")
    command.set_defaults(run=run)
    return command.add_argument_group("calibrating")


def _save_calibration(command, calibration, out, text):
    """Write ``calibration`` to ``out`` and print ``text``, its description; a file
    that cannot be written stops ``command``."""
    try:
        calibration.save(out)
    except OSError as e:
        _fail(command, f"cannot write {out}: {e.strerror}", 1)
    print(text)
    print(f"Wrote {out}", file=sys.stderr)


def _run_options(parser):
    """Where and how quietly the games of a command are played."""
    parser.add_argument("--workers", type=_positive, default=None,
                        help="local worker processes (default: one per CPU it may use)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on a Dask cluster, e.g. tcp://host:8786 "
                        "(needs pip install \"cardarena[cluster]\")")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _report_options(parser):
    parser.add_argument("--format", choices=("text", "markdown", "csv", "json"),
                        default="text", help="how to print the ratings, or the games with "
                        "--games (default: text)")
    parser.add_argument("--bootstrap", type=_positive, default=1000, metavar="N",
                        help="resamples of the deals behind the 95%% intervals "
                        "(default: %(default)s)")


def _print_report(store, key, fmt, bootstrap):
    from tournament.ratings import rate
    from tournament import config as configs
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
    from tournament.ratings import NoGamesError, list_games
    from tournament.store import StoreError
    if not os.path.exists(args.db):
        sys.exit(f"cardarena ratings: no such file: {args.db}")
    with _open_store(args.db, readonly=True) as store:
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
    from tournament import config as configs, runner, sprt
    config = _load_config(args)
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
    db = args.db or _default_db(args.config)
    batch = 4 * (args.workers or runner.cpus())
    with _open_store(db) as store:
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
            sys.exit(_stop_status(e))
        finally:
            bar.close()
    print(f"{args.a} against {args.b} on {config.game}: {test.summary(args.a)}")
    if test.decision() is None:
        print(f"Undecided after {count(args.max_deals, 'deal')} (--max-deals).")


def _skill(args):
    """Measure how much skill a game rewards, variant by variant: a ladder of players
    (random, greedy, a searcher at doubling budgets, and the cheater at the top
    budget) plays on duplicate deals through the tournament harness, and the report
    gives each rung's Elo, the skill chain, SkillTrace, the seat advantage, the game's
    length and branching, the cheater's edge, and how often the strongest and the
    greedy player choose each kind of move and how they score when they do, and says
    which variant is deepest and which fairest.  Unless --player names the searcher,
    a short trial first chooses each variant's: the default searcher meets each
    challenger at the top budget, and one that beats it clearly climbs the ladder
    instead, for every variant (pooled) or, with --trial-each, for each.  Games are
    stored as they end: run the same command again to resume, or
    with more --deals or a higher --max-budget to extend."""
    from tournament import config as configs, runner, skill, skill_report, yardstick
    if args.player and (args.challenger or args.trial_each):
        sys.exit("cardarena skill: --challenger and --trial-each shape the trial, and "
                 "--player skips it; give one or the other")
    workers = args.workers or runner.cpus()
    try:
        plan = skill.Plan(skill.variants(args.game, args.variant, args.grid),
                          skill.ladder(args.player or skill.PLAYER, args.min_budget,
                                       args.max_budget),
                          deals=args.deals, seed=args.seed, reach=args.reach,
                          seconds_per_move=args.seconds_per_move)
        plan.check()
        trials = [] if args.player else yardstick.trials(
            plan.variants, skill.PLAYER, plan.ladder.budgets[-1],
            args.challenger or yardstick.CHALLENGERS, deals=args.trial_deals,
            seed=args.seed, seconds_per_move=args.seconds_per_move)
        plan.check_cost(workers)
        trial_seconds = yardstick.check_cost(trials, workers)
    except skill.SkillError as e:
        sys.exit(f"cardarena skill: {e}")
    out = args.out or _default_out(args.game)
    if os.path.exists(out) and not os.path.isdir(out):
        sys.exit(f"cardarena skill: --out {out} is a file, not a folder")
    if os.path.isdir(out) and not os.access(out, os.W_OK | os.X_OK):
        sys.exit(f"cardarena skill: --out {out}: cannot write in this folder")
    # A --db that cannot be opened is refused before --out is made, leaving nothing.
    if args.db:
        db = args.db
        store = _open_store(db)
        _make_folder(out)
    else:
        _make_folder(out)
        db = os.path.join(out, "games.db")
        store = _open_store(db)

    def play(schedule, what):
        def stored():  # of the games asked for: fewer --deals than before leave some out
            return sum(d < c.deals for c in schedule for d, _ in store.done(c))
        total = sum(c.deals * len(c.seatings()) for c in schedule)
        print(f"{what}: {count(total, 'game')}; {stored()} stored in {db}", file=sys.stderr)
        try:
            runner.run(schedule, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet)
        except configs.ConfigError as e:
            sys.exit(f"cardarena skill: {e}")
        except KeyboardInterrupt as e:
            print(f"\nStopped: {stored()} of {total} games are stored in {db}; run the "
                  "same command again to play the rest.", file=sys.stderr)
            sys.exit(_stop_status(e))

    with store:
        if trials:
            play([c for t in trials for c in t.configs()],
                 f"The yardstick's trial, {count(len(trials[0].challengers), 'challenger')} "
                 f"at {trials[0].budget} iterations in each of "
                 f"{count(len(trials), 'variant')} (about {skill.duration(trial_seconds)})")
            choices = [yardstick.choose(store, t) for t in trials]
            if args.trial_each or len(choices) == 1:
                for choice in choices:
                    print(f"{choice['variant']}: {yardstick.describe(choice)}.",
                          file=sys.stderr)
            else:
                choices = yardstick.pool(choices)
                print(f"Every variant: {yardstick.describe(choices[0])}.", file=sys.stderr)
            choices = tuple(choices)
            plan = dataclasses.replace(plan, yardsticks=choices)
            try:
                plan.check_cost(workers)
            except skill.SkillError as e:
                sys.exit(f"cardarena skill: {e}")
        schedule = plan.schedule()
        play(schedule, f"{count(len(plan.variants), 'variant')}, "
                       f"{count(len(schedule) // len(plan.variants), 'match', 'matches')} "
                       "each")
        results = skill.measure(store, plan, bootstrap=args.bootstrap, seed=args.seed)
    command = "cardarena skill " + shlex.join(args.argv)
    written, missing = skill_report.write(results, out, command)
    print(skill_report.summary(results, command))
    print("Wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    if missing:
        print(f"No plots: {missing}", file=sys.stderr)


def _compare(args):
    """Set skill analyses of different games (the folders cardarena skill wrote) side
    by side on the budgets their ladders share: each game's doubling gain and its x%
    of the deepest, its first seat's score and the cheater's edge, with intervals; and
    which game rewards skill most, which is fairest and where hidden information is
    worth most, each named only where the intervals tell it apart."""
    from tournament import compare
    from tournament.tables import write_file
    try:
        analyses = [compare.load(folder) for folder in args.folders]
        found = compare.compare(analyses, [os.path.basename(os.path.normpath(f))
                                           for f in args.folders], seed=args.seed)
    except compare.CompareError as e:
        sys.exit(f"cardarena compare: {e}")
    text = compare.report(found, "cardarena compare " + shlex.join(args.argv))
    if args.out:
        try:
            write_file(args.out, text)
        except OSError as e:
            sys.exit(f"cardarena compare: --out {args.out}: {e.strerror or e}")
        print(f"Wrote {args.out}", file=sys.stderr)
    else:
        print(text, end="")


def _matchups(args):
    """How each choice of a per-seat parameter (Creature Shrines' decks) fares against
    each other: one bot plays both seats on duplicate deals, each pair from both
    sides, and the table gives each choice's score against each other with its 95%
    interval, each choice's score against the field, and the lopsided pairs.  Games are
    stored as they end: run the same command again to resume, or with more --deals to
    extend."""
    import search
    from tournament import matchups, runner
    try:
        only = args.only.split(",") if args.only else None
        plan = matchups.Plan(args.game, args.bot, args.deals, args.seed, only)
        search.make_bot(args.bot, plan.configs()[0].game, 0)
    except core.CardArenaError as e:
        sys.exit(f"cardarena matchups: {e}")
    out = args.out or f"matchups-{args.game}"
    _make_folder(out, "matchups")
    db = args.db or os.path.join(out, "games.db")
    store = _open_store(db)
    schedule = plan.configs()
    with store:
        total = sum(c.deals for c in schedule)
        print(f"{count(len(schedule), 'match', 'matches')} of {plan.name}s, "
              f"{count(total, 'game')}, stored in {db}", file=sys.stderr)
        try:
            runner.run(schedule, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet)
        except KeyboardInterrupt as e:
            print(f"\nStopped: the games played are stored in {db}; run the same command "
                  "again to play the rest.", file=sys.stderr)
            sys.exit(_stop_status(e))
        table = matchups.measure(store, plan)
    command = "cardarena matchups " + shlex.join(args.argv)
    text = matchups.report(table, plan, command)
    path = os.path.join(out, "report.md")
    with open(path, "w") as f:
        f.write(text)
    with open(os.path.join(out, "matchups.json"), "w") as f:
        json.dump({"command": command, "bot": plan.bot, "deals": plan.deals,
                   "seed": plan.seed, "parameter": plan.name, "table": table}, f, indent=1)
    print(text)
    print(f"Wrote {path} and {os.path.join(out, 'matchups.json')}", file=sys.stderr)


def _calibrating(args, command, options):
    """Whether ``args`` ask ``command`` to --calibrate.  If so, each of ``options``
    (the calibrate-only options by name, with their defaults) left unset takes its
    default; if not, one given at all stops the command."""
    if args.calibrate:
        for name, default in options.items():
            if getattr(args, name) is None:
                setattr(args, name, default)
        return True
    given = [name for name in options if getattr(args, name) is not None] \
        + ["quiet"] * getattr(args, "quiet", False)
    if given:
        _fail(command, f"--{given[0].replace('_', '-')} is for --calibrate", 2)
    return False


def _levels(args):
    """List the strength levels that play --elo takes for a game, or make them with
    --calibrate: random, greedy and a searcher (--player) at doubling budgets play
    duplicate deals through the tournament harness, each rung against the two above
    it and against random and greedy play, and their Elo is fitted with random play
    at 0, as cardarena skill does.  From the searcher's weakest budget up, its Elo is
    fitted to rise with the budget; a step that rises more than 150 Elo is split at
    the budget half-way between (on a log scale) and played again.  play --elo N plays
    the smallest budget the fit puts at N.  The calibration is written where play
    --elo reads it, unless --out says where else.  Games are stored as they end: run
    the same command again to resume, or with more --deals to extend.  See
    docs/play.md."""
    from tournament import levels, runner, skill
    options = {"player": skill.PLAYER, "deals": levels.DEALS, "seed": 0, "min_budget": 1,
               "max_budget": levels.MAX_BUDGET, "db": None, "workers": None,
               "scheduler": None, "bootstrap": 1000, "out": None}
    if not _calibrating(args, "levels", options):
        try:
            print(levels.table(levels.load(args.game)))
        except core.CardArenaError as e:
            _fail("levels", str(e), 1)
        return
    try:
        plan = levels.plan(args.game, args.deals, args.seed, args.min_budget,
                           args.max_budget, player=args.player)
    except core.CardArenaError as e:
        _fail("levels", str(e), 2)
    out = levels.path(plan.game, args.out)
    _make_folder(out.parent, "levels")
    db = args.db or f"{out.stem}.db"
    command = "cardarena levels " + shlex.join(args.argv)
    with _open_store(db) as store:
        def play(plan):
            schedule = plan.configs()
            total = sum(c.deals * len(c.seatings()) for c in schedule)
            stored = sum(len(store.done(c)) for c in schedule)
            budgets = ", ".join(str(b) for b in plan.ladder.budgets)
            print(f"{plan.game}: random, greedy and {budgets} iterations, "
                  f"{count(len(schedule), 'match', 'matches')}: {count(total, 'game')}; "
                  f"{stored} stored in {db}", file=sys.stderr)
            runner.run(schedule, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet)

        try:
            calibration, _ = levels.calibrate(store, plan, command, play, args.bootstrap)
        except KeyboardInterrupt as e:
            print(f"\nStopped: the games played are stored in {db}; run the same "
                  "command again to play the rest.", file=sys.stderr)
            sys.exit(_stop_status(e))
    _save_calibration("levels", calibration, out, levels.table(calibration))


def _marks(args):
    """Show the thresholds that mark a game's reviewed decisions doubtful, bad or very
    bad, or make them with --calibrate: at each of --positions decisions from games the
    greedy player plays, the reviewer picks its move, and the reviewer under the next
    seed judges that move.  Whatever it gives up is the reviewer's noise; the noise
    floor is the loss reached at 5% of positions, and the thresholds are the base ones
    (0.02, 0.05, 0.10 of expected score) raised by it, so that a mark claims the same
    loss beyond noise in every game.  A variant without marks of its own is marked as
    its game's default rules are.  See docs/review.md."""
    from tournament import levels, marks, review
    options = {"positions": marks.POSITIONS, "iterations": review.ITERATIONS, "seed": 0,
               "out": None}
    if not _calibrating(args, "marks", options):
        try:
            found = marks.load(args.game)
        except marks.MarksError as e:
            _fail("marks", str(e), 1)
        except core.CardArenaError as e:
            _fail("marks", str(e), 2)
        if found is None:
            name = levels.ruleset(args.game)
            _fail("marks", f"{name} has no calibrated marks, and reviews mark it by the "
                  f"base thresholds: cardarena marks {shlex.quote(name)} --calibrate "
                  "makes them", 1)
        print(marks.describe(found))
        return
    try:
        review.Reviewer(args.game, 0, args.iterations)
        out = marks.path(args.game, args.out)
        _make_folder(out.parent, "marks")
        found = marks.calibrate(args.game, args.iterations, args.positions, args.seed,
                                "cardarena marks " + shlex.join(args.argv))
    except review.ReviewError as e:
        _fail("marks", str(e), 1)
    except core.CardArenaError as e:
        _fail("marks", str(e), 2)
    _save_calibration("marks", found, out, marks.describe(found))


def _terminate(signum, frame):
    from tournament.runner import Terminated
    raise Terminated


def _stop_status(stop):
    """The exit status of a command stopped by ``stop``, a KeyboardInterrupt: a shell's
    128 plus the signal's number, 143 for SIGTERM and 130 for Ctrl-C."""
    from tournament.runner import Terminated
    return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)


def _default_out(game):
    """The folder a skill analysis of ``game`` writes to unless told: its name and its
    parameters, so that analyses of different rules do not overwrite each other."""
    name, params = core.parse_spec(game)
    return "-".join(["skill", name] + [f"{k}={v}".replace(os.sep, "_")
                                       for k, v in params.items()])


def _make_folder(out, command="skill"):
    """Make the folder ``--out`` names, or exit saying why it cannot be made."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        sys.exit(f"cardarena {command}: --out {out}: cannot make the folder: {e.strerror}")


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def _share(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"a score given up, from 0 up to 1, not {text!r}")
    return value


def _tutor(text):
    from tournament.marks import BASE
    if text in dict(BASE):
        return text
    try:
        return _share(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"a score given up, from 0 up to 1, or a mark ({', '.join(dict(BASE))}), "
            f"not {text!r}") from None


def _load_config(args):
    from tournament import config as configs
    try:
        return configs.load(args.config)
    except configs.ConfigError as e:
        sys.exit(f"cardarena {args.command}: {e}")


def _default_db(config_path):
    stem = os.path.splitext(os.path.basename(config_path))[0]
    return f"{stem}.db"


def _open_store(path, readonly=False):
    from tournament.store import Store, StoreError
    try:
        return Store(path, readonly)
    except StoreError as e:
        sys.exit(f"cardarena: {e}")


def _replay(args):
    """Replay a stored game move by move, in words."""
    from tournament.store import StoreError
    if not os.path.exists(args.db):
        sys.exit(f"cardarena replay: no such file: {args.db}")
    with _open_store(args.db, readonly=True) as store:
        try:
            row = store.game(args.game_id)
        except StoreError as e:
            sys.exit(f"cardarena replay: {e}")
    seats = ", ".join(f"player {p} {name} = {spec}" for p, (name, spec)
                      in enumerate(zip(row["seating"], row["specs"])))
    print(f"Game {row['id']}: {row['game']}, deal {row['deal']} (seed {row['deal_seed']}); "
          f"{seats}")
    state = pyspiel.load_game(row["game"]).new_initial_state()
    names = [f"player {p} ({name})" for p, name in enumerate(row["seating"])]
    narrate(state, row["history"], names, sys.stdout)
    if row["status"] == "length":
        print(f"Stopped at the length limit after {count(row['length'], 'decision')}.")
    elif row["status"] != "ok":
        print(f"{row['failed']} lost by {row['status']}: {row['message']}")
    print("Returns: " + ", ".join(f"{name} {r:g}" for name, r in zip(names, row["returns"])))


# Arguments that name files, which may be any bytes the system allows.
PATHS = ("config", "db", "load", "source")
# The bot of a match-up run unless told: the skill ladder's searcher at a budget that
# plays a long game in well under a second.
MATCHUP_BOT = "ismcts(iterations=64,rollout_depth=8)"


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
    from tournament import levels as levels_module
    from tournament import marks as marks_module
    from tournament import review as reviews
    from tournament import skill as skill_module
    from tournament import yardstick
    parser = argparse.ArgumentParser(
        prog="cardarena",
        description="Game-AI search and tournaments for hidden-information card games.")
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {importlib.metadata.version('cardarena')}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="play and print one seeded game between bots, in "
                          "words", description=_demo.__doc__)
    demo.add_argument("game", help="a game string, e.g. shrine or 'shrine(alt_heal=true)'; "
                      f"games: {', '.join(sorted(core.GAMES))}")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    demo.add_argument("--players", nargs="+", default=None, metavar="SPEC",
                      help="one bot spec per seat, e.g. 'ismcts(iterations=500)' greedy "
                      "(default: random in every seat); see cardarena bots")
    demo.set_defaults(run=_demo)
    bots = sub.add_parser("bots", help="list the kinds of bot and their parameters",
                          description=_bots.__doc__)
    bots.set_defaults(run=_bots)
    play = sub.add_parser("play", help="play a game against a bot in the terminal",
                          description=_play.__doc__)
    play.add_argument("game", help="a game string, e.g. shrine or 'card_duel(life=15)'")
    opponent = play.add_mutually_exclusive_group()
    opponent.add_argument("--bot", default="ismcts(seconds=1,rollout_depth=8)",
                          metavar="SPEC", help="the bot you play against (default: "
                          "%(default)s); see cardarena bots")
    opponent.add_argument("--elo", type=float, metavar="N",
                          help="play a bot of this strength instead, on the Elo scale of "
                          "the game's skill ladder, where random play is 0; cardarena "
                          "levels GAME lists the range")
    play.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed for the deal and the bot (default: a fresh one, shown)")
    play.add_argument("--load", metavar="FILE", help="resume a game saved with save FILE")
    play.add_argument("--tutor", nargs="?", type=_tutor, const=reviews.TUTOR_MARK,
                      metavar="THRESHOLD",
                      help="before playing a move of yours that gives up more than "
                      "THRESHOLD of your expected score (0 to 1, or a mark: the game's "
                      "threshold of a doubtful, bad or 'very bad' move, which cardarena "
                      f"marks GAME shows; default {reviews.TUTOR_MARK}), say so and ask "
                      "again; the same move again plays it. Implies --review")
    play.add_argument("--review", action="store_true",
                      help="offer a review of your moves when the game ends (review at "
                      "the prompt gives one at any time)")
    play.add_argument("--review-iterations", type=_positive, default=reviews.ITERATIONS,
                      metavar="N", help="search iterations per position for the tutor "
                      "and reviews (default %(default)s)")
    play.set_defaults(run=_play)
    rev = sub.add_parser("review", help="rate every decision a player made in a saved or "
                         "stored game", description=_review.__doc__)
    rev.add_argument("source", metavar="FILE", help="a game saved by cardarena play, or "
                     "a tournament's SQLite file (then give the game's ID)")
    rev.add_argument("game_id", nargs="?", type=int, metavar="ID",
                     help="with a database: the game's id, as ratings DB --games lists")
    rev.add_argument("--seat", type=int, help="with a database: the player to review, from "
                     "0 (a saved game is reviewed from the seat it was played from)")
    rev.add_argument("--iterations", type=_positive, default=reviews.ITERATIONS, metavar="N",
                     help="search iterations per position: more are slower and surer "
                     "(default %(default)s)")
    rev.add_argument("--seed", type=int, default=0, help="seed of the searches: a review "
                     "with the same seed and iterations repeats exactly (default 0)")
    rev.set_defaults(run=_review)

    serve = sub.add_parser("serve", help="play and watch tournaments in the browser",
                           description=_serve.__doc__)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on "
                       "(default: %(default)s, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="default: %(default)s")
    serve.add_argument("--db", default="cardarena.db", help="the SQLite file of sparring "
                       "games and tournaments (default: %(default)s)")
    serve.set_defaults(run=_serve)
    tour = sub.add_parser("tournament", help="play a duplicate round-robin from a TOML config",
                          description=_tournament.__doc__)
    tour.add_argument("config", help="the TOML config, e.g. examples/shrine.toml")
    tour.add_argument("--db", help="the SQLite file to store games in (default: the "
                      "config's name with .db, in this directory)")
    _run_options(tour)
    _report_options(tour)
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
                         "(default: the latest tournament, not an sprt or skill run; "
                         "--list shows which)")
    ratings.add_argument("--list", action="store_true",
                         help="list the file's tournaments instead")
    ratings.add_argument("--games", action="store_true",
                         help="list the tournament's games, with the ids replay takes")
    _report_options(ratings)
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
    test.add_argument("--max-deals", type=_positive, default=10_000,
                      help="give up undecided after this many deals (default 10000)")
    test.add_argument("--db", help="the SQLite file to store games in (default: the "
                      "config's name with .db)")
    _run_options(test)
    test.set_defaults(run=_sprt)
    calibrating = _calibrated_command(
        sub, _levels, "list a game's strength levels for play --elo, or calibrate them",
        "play the ladder and write the levels where play --elo reads them")
    calibrating.add_argument("--player", metavar="SPEC",
                             help="the searcher whose budget the levels double, without "
                             "iterations, such as the game's yardstick from cardarena "
                             f"skill (default {skill_module.PLAYER})")
    calibrating.add_argument("--deals", type=_positive, metavar="N",
                             help=f"deals per match, each played in both seatings (default "
                             f"{levels_module.DEALS})")
    calibrating.add_argument("--seed", type=int, help="fixes every deal, every bot's "
                             "choices and the bootstrap (default 0)")
    calibrating.add_argument("--min-budget", type=_positive, metavar="N",
                             help="the weakest searcher's iterations a move (default 1)")
    calibrating.add_argument("--max-budget", type=_positive, metavar="N",
                             help="the strongest searcher's iterations a move, doubling "
                             f"from --min-budget (default {levels_module.MAX_BUDGET})")
    calibrating.add_argument("--db", help="the SQLite file to store games in (default: "
                             "levels-GAME.db in this directory)")
    calibrating.add_argument("--bootstrap", type=_positive, metavar="N",
                             help="resamples of the deals behind the Elo intervals "
                             "(default 1000)")
    calibrating.add_argument("--out", metavar="DIR", help="the folder to write "
                             "levels-GAME.json in (default: tournament/data, where play "
                             "--elo reads it)")
    _run_options(calibrating)
    measuring = _calibrated_command(
        sub, _marks, "show the thresholds that mark a game's reviewed moves, or "
        "calibrate them", "measure the reviewer's noise and write the thresholds where "
        "reviews read them")
    measuring.add_argument("--positions", type=_positive, metavar="N",
                           help="decisions to measure, one from each of N games the "
                           f"greedy player plays (default {marks_module.POSITIONS})")
    measuring.add_argument("--iterations", type=_positive, metavar="N",
                           help="the reviewer's budget to measure at (default "
                           f"{reviews.ITERATIONS}, a review's)")
    measuring.add_argument("--seed", type=int, help="fixes the games and the first "
                           "review's searches; the second uses the next seed (default 0)")
    measuring.add_argument("--out", metavar="DIR", help="the folder to write "
                           "marks-GAME.json in (default: tournament/data, where reviews "
                           "read it)")
    cmp = sub.add_parser("compare", help="set skill analyses of different games side by "
                         "side", description=_compare.__doc__)
    cmp.add_argument("folders", nargs="+", metavar="DIR",
                     help="a folder cardarena skill wrote (its skill.json); each is named "
                     "by its folder")
    cmp.add_argument("--out", metavar="FILE", help="write the Markdown here instead of "
                     "printing it")
    cmp.add_argument("--seed", type=int, default=0,
                     help="fixes the resampling behind the intervals (default 0)")
    cmp.set_defaults(run=_compare)
    mu = sub.add_parser("matchups", help="how each deck (or other per-seat choice) fares "
                        "against each other", description=_matchups.__doc__)
    mu.add_argument("game", help="a game with a per-seat parameter, e.g. creature_shrines")
    mu.add_argument("--bot", default=MATCHUP_BOT, metavar="SPEC",
                    help="the bot in both seats (default: %(default)s)")
    mu.add_argument("--deals", type=_positive, default=20,
                    help="deals per pair and side (default %(default)s)")
    mu.add_argument("--only", metavar="A,B,...", help="compare only these choices")
    mu.add_argument("--seed", type=int, default=0, help="fixes every deal and every "
                    "bot's choices (default 0)")
    mu.add_argument("--out", metavar="DIR", help="where report.md and matchups.json go "
                    "(default: matchups-GAME)")
    mu.add_argument("--db", help="the SQLite file to store games in (default: games.db "
                    "in --out)")
    _run_options(mu)
    mu.set_defaults(run=_matchups)
    skill = sub.add_parser("skill", help="measure how much skill a game and its variants "
                           "reward", description=_skill.__doc__)
    skill.add_argument("game", help="the game, e.g. shrine or 'card_duel(max_exchanges=200)'")
    skill.add_argument("--variant", action="append", default=[], metavar="PARAMS",
                       help="a variant to compare, as name=value,... over the game's own "
                       "(default for its rules as they stand); give it once per variant")
    skill.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                       help="compare every value of a parameter; two --grid lines give "
                       "every combination, drawn as heat maps")
    skill.add_argument("--deals", type=_positive, default=30,
                       help="deals per match, each played in both seatings "
                       "(default %(default)s)")
    skill.add_argument("--player", metavar="SPEC",
                       help="the searcher the ladder climbs with, without iterations; "
                       "skips the yardstick's trial (default: the trial's choice for each "
                       f"variant, {skill_module.PLAYER} unless a challenger beats it "
                       "clearly)")
    skill.add_argument("--challenger", action="append", default=[], metavar="SPEC",
                       help="a searcher the trial tries against the default, without "
                       "iterations; give it once per challenger (default: "
                       f"{', '.join(yardstick.CHALLENGERS)})")
    skill.add_argument("--trial-each", action="store_true",
                       help="choose each variant's searcher from its own trial (default: "
                       "one searcher for every variant, from all their trials pooled)")
    skill.add_argument("--trial-deals", type=_positive, default=yardstick.DEALS,
                       metavar="N", help="deals each challenger plays against the "
                       "default, each in every seating (default %(default)s)")
    skill.add_argument("--min-budget", type=_positive, default=8, metavar="N",
                       help="the lowest rung's iterations per move (default %(default)s)")
    skill.add_argument("--max-budget", type=_positive, default=1024, metavar="N",
                       help="the highest rung's iterations per move, doubling from "
                       "--min-budget (default %(default)s)")
    skill.add_argument("--reach", type=_positive, default=1,
                       help="each rung meets this many rungs above it (default "
                       "%(default)s; more tightens the Elo and lets a skill chain skip a "
                       "rung)")
    skill.add_argument("--seed", type=int, default=0, help="fixes every deal and every "
                       "bot's choices, and the bootstrap (default 0)")
    skill.add_argument("--seconds-per-move", type=float, default=60.0, metavar="S",
                       help="a move that takes longer loses its game (default "
                       "%(default)s)")
    skill.add_argument("--out", metavar="DIR", help="where the report, skill.json and "
                       "the plots go (default: skill-GAME, with the game's parameters if it has "
                       "any, e.g. skill-card_duel-life=15)")
    skill.add_argument("--db", help="the SQLite file to store games in (default: "
                       "games.db in --out)")
    skill.add_argument("--bootstrap", type=_positive, default=1000, metavar="N",
                       help="resamples of the deals behind the Elo intervals "
                       "(default %(default)s)")
    _run_options(skill)
    skill.set_defaults(run=_skill)
    args = parser.parse_args(argv)
    if args.command is None:
        # Without a command there is nothing to do but say what the commands are; the
        # status is argparse's for a missing argument.
        parser.print_help(sys.stderr)
        sys.exit(2)
    args.argv = list(sys.argv[1:] if argv is None else argv)[1:]
    # SIGTERM (from timeout, a batch system or a service manager) stops a command as
    # Ctrl-C does: a run keeps its stored games and ends its workers.
    signal.signal(signal.SIGTERM, _terminate)
    odd = _undecodable(args)
    if odd is not None:
        sys.exit(f"cardarena {args.command}: '{odd}' is not UTF-8 text")
    try:
        args.run(args)
    except KeyboardInterrupt as e:  # a command with nothing to say when stopped
        sys.exit(_stop_status(e))
    except BrokenPipeError:
        # Piping into head or less must end quietly, as other Unix tools do.  (Not by
        # restoring SIGPIPE's default: a worker process stopped mid-run would then
        # kill this one through the pipe between them.)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
