"""``levels``, ``marks``, ``compare``, ``matchups`` and ``skill``: calibrations,
match-ups of per-seat choices, and the skill-ceiling analysis."""
import json
import os
import shlex
import sys

import core
from tournament import stops
from tournament.cli.common import (check_game, fail, make_folder, open_store, positive,
                                   run_options)
from tournament.skill import defaults
from tournament.sparring import review as reviews
from tournament.tables import count


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
        fail(command, f"cannot write {out}: {e.strerror}", 1)
    print(text)
    print(f"Wrote {out}", file=sys.stderr)


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
        fail(command, f"--{given[0].replace('_', '-')} is for --calibrate", 2)
    return False


def _levels(args):
    """List the strength levels that play --elo takes for a game, or make them with
    --calibrate: random, greedy and a searcher (--player) at doubling budgets play
    duplicate deals through the tournament harness, each rung against the two above
    it and against random and greedy play, and their Elo is fitted with random play
    at 0, as cardarena skill does.  From the searcher's weakest budget up, its Elo is
    fitted to rise with the budget; a step that rises more than 150 Elo is split at
    the budget half-way between (on a log scale) and played again.  play --elo N plays
    the smallest budget the fit puts at N.  With --climb-to, the levels go on above
    the top with the same searcher guided by the game's network, doubling its budget.
    The calibration is written where play --elo reads it, unless --out says where
    else.  Games are stored as they end: run
    the same command again to resume, or with more --deals to extend.  See
    docs/play.md."""
    from tournament.harness import runner
    from tournament.skill import levels as calibrating
    from tournament.sparring import levels
    options = {"player": defaults.PLAYER, "deals": defaults.LEVEL_DEALS, "seed": 0,
               "min_budget": 1, "max_budget": defaults.LEVEL_MAX_BUDGET, "climb_to": None,
               "db": None,
               "workers": None, "scheduler": None, "bootstrap": 1000, "out": None}
    check_game("levels", args.game)
    if not _calibrating(args, "levels", options):
        try:
            print(calibrating.table(levels.load(args.game)))
        except core.CardArenaError as e:
            fail("levels", str(e), 1)
        return
    try:
        plan = calibrating.plan(args.game, args.deals, args.seed, args.min_budget,
                                args.max_budget, player=args.player,
                                climb_to=args.climb_to)
    except core.CardArenaError as e:
        fail("levels", str(e), 2)
    out = levels.path(plan.game, args.out)
    make_folder(out.parent, "levels")
    db = args.db or f"{out.stem}.db"
    command = "cardarena levels " + shlex.join(args.argv)
    with open_store(db, journal=args.journal) as store:
        def play(plan):
            schedule = plan.configs()
            total = sum(c.deals * c.games_per_deal for c in schedule)
            stored = sum(len(store.done(c)) for c in schedule)
            budgets = ", ".join(str(b) for b in plan.ladder.budgets)
            guided = ", ".join(str(b) for b in plan.climb)
            climb = f", guided at {guided}" if guided else ""
            print(f"{plan.game}: random, greedy and {budgets} iterations{climb}, "
                  f"{count(len(schedule), 'match', 'matches')}: {count(total, 'game')}; "
                  f"{stored} stored in {db}", file=sys.stderr)
            runner.run(schedule, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet)

        try:
            calibration, _ = calibrating.calibrate(store, plan, command, play,
                                                   args.bootstrap)
        except KeyboardInterrupt as e:
            print(f"\nStopped: the games played are stored in {db}; run the same "
                  "command again to play the rest.", file=sys.stderr)
            sys.exit(stops.status(e))
    _save_calibration("levels", calibration, out, calibrating.table(calibration))


def _marks(args):
    """Show the thresholds that mark a game's reviewed decisions doubtful, bad or very
    bad, or make them with --calibrate: at each of --positions decisions from games the
    greedy player plays, the reviewer picks its move, and the reviewer under the next
    seed judges that move.  Whatever it gives up is the reviewer's noise; the noise
    floor is the loss reached at 5% of positions, and the thresholds are the base ones
    (0.02, 0.05, 0.10 of expected score) raised by it, so that a mark claims the same
    loss beyond noise in every game.  A variant without marks of its own is marked as
    its game's default rules are.  See docs/review.md."""
    from tournament.calibrations import ruleset
    from tournament.skill import marks as calibrating
    from tournament.sparring import marks, review
    options = {"positions": defaults.MARK_POSITIONS, "iterations": review.ITERATIONS,
               "seed": 0, "out": None}
    check_game("marks", args.game)
    if not _calibrating(args, "marks", options):
        try:
            found = marks.load(args.game)
        except marks.MarksError as e:
            fail("marks", str(e), 1)
        except core.CardArenaError as e:
            fail("marks", str(e), 2)
        if found is None:
            name = ruleset(args.game)
            fail("marks", f"{name} has no calibrated marks, and reviews mark it by the "
                 f"base thresholds: cardarena marks {shlex.quote(name)} --calibrate "
                 "makes them", 1)
        print(marks.describe(found))
        return
    try:
        review.Reviewer(args.game, 0, args.iterations)
        out = marks.path(args.game, args.out)
        make_folder(out.parent, "marks")
        found = calibrating.calibrate(args.game, args.iterations, args.positions,
                                      args.seed, "cardarena marks " + shlex.join(args.argv))
    except review.ReviewError as e:
        fail("marks", str(e), 1)
    except core.CardArenaError as e:
        fail("marks", str(e), 2)
    _save_calibration("marks", found, out, marks.describe(found))


def _compare(args):
    """Set skill analyses of different games (the folders cardarena skill wrote) side
    by side on the budgets their ladders share: each game's doubling gain and its x%
    of the deepest, its first seat's score and the cheater's edge, with intervals; and
    which game rewards skill most, which is fairest and where hidden information is
    worth most, each named only where the intervals tell it apart."""
    from tournament.skill import compare
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
    from tournament.harness import runner
    from tournament.skill import matchups
    try:
        only = args.only.split(",") if args.only else None
        pairs = [p.split(":") for p in args.pairs.split(",")] if args.pairs else None
        plan = matchups.Plan(args.game, args.bot, args.deals, args.seed, only, pairs)
        search.make_bot(args.bot, plan.configs()[0].game, 0)
    except core.CardArenaError as e:
        sys.exit(f"cardarena matchups: {e}")
    out = args.out or f"matchups-{plan.kind}"
    make_folder(out, "matchups")
    db = args.db or os.path.join(out, "games.db")
    store = open_store(db, journal=args.journal)
    schedule = plan.configs()
    with store:
        total = sum(c.deals * c.games_per_deal for c in schedule)
        print(f"{count(len(schedule), 'match', 'matches')} of {plan.name}s, "
              f"{count(total, 'game')}, stored in {db}", file=sys.stderr)
        try:
            runner.run(schedule, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet)
        except KeyboardInterrupt as e:
            print(f"\nStopped: the games played are stored in {db}; run the same command "
                  "again to play the rest.", file=sys.stderr)
            sys.exit(stops.status(e))
        table = matchups.measure(store, plan)
    command = "cardarena matchups " + shlex.join(args.argv)
    text = matchups.report(table, plan, command)
    path = os.path.join(out, "report.md")
    with open(path, "w") as f:
        f.write(text)
    with open(os.path.join(out, "matchups.json"), "w") as f:
        json.dump({"command": command, "bot": plan.bot, "deals": plan.deals,
                   "seed": plan.seed, "parameter": plan.name,
                   "table": {a: {b: cell.to_dict() for b, cell in row.items()}
                             for a, row in table.items()}}, f, indent=1)
    print(text)
    print(f"Wrote {path} and {os.path.join(out, 'matchups.json')}", file=sys.stderr)


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
    with more --deals or a higher --max-budget to extend.  With --climb-to, the top
    searcher then climbs above the ladder guided by the game's network (or without
    it, in every variant, where one variant has none), doubling its budget until two
    doublings in a row gain nothing the games can tell or the budget would pass
    --climb-to, and the report gives the ceiling: the budget below the doublings
    that gained nothing.  With
    --decide-to, the matches behind each question the first --deals leave open (a
    step against 50%, a depth against zero, two variants' depths, the first seat, the
    cheater's edge), and each climbing step the first --deals leave open, play
    --deals more, batch after batch, until it is decided or they reach --decide-to
    deals; the report says how many games each verdict took."""
    from tournament.harness import config as configs
    from tournament.harness import runner
    from tournament.skill import plans, report
    from tournament.skill import run as analyses
    try:
        prepared = analyses.prepare(
            args.game, args.variant, args.grid, deals=args.deals, player=args.player,
            challengers=args.challenger, trial_each=args.trial_each,
            trial_deals=args.trial_deals, min_budget=args.min_budget,
            max_budget=args.max_budget, reach=args.reach, seed=args.seed,
            seconds_per_move=args.seconds_per_move, climb_to=args.climb_to,
            decide_to=args.decide_to,
            workers=args.workers)
    except plans.SkillError as e:
        sys.exit(f"cardarena skill: {e}")
    out = args.out or _default_out(args.game)
    if os.path.exists(out) and not os.path.isdir(out):
        sys.exit(f"cardarena skill: --out {out} is a file, not a folder")
    if os.path.isdir(out) and not os.access(out, os.W_OK | os.X_OK):
        sys.exit(f"cardarena skill: --out {out}: cannot write in this folder")
    # A --db that cannot be opened is refused before --out is made, leaving nothing.
    if args.db:
        db = args.db
        store = open_store(db, journal=args.journal)
        try:
            make_folder(out)
        except SystemExit:
            store.close()  # which removes the store and journal it began
            raise
    else:
        make_folder(out)
        db = os.path.join(out, "games.db")
        store = open_store(db, journal=args.journal)

    def play(schedule, what):
        def stored():  # of the games asked for: fewer --deals than before leave some out
            return sum(d < c.deals for c in schedule for d, *_ in store.done(c))
        total = sum(c.deals * c.games_per_deal for c in schedule)
        print(f"{what}: {count(total, 'game')}; {stored()} stored in {db}", file=sys.stderr)
        try:
            runner.run(schedule, store, workers=args.workers, scheduler=args.scheduler,
                       progress=not args.quiet)
        except configs.ConfigError as e:
            sys.exit(f"cardarena skill: {e}")
        except KeyboardInterrupt as e:
            print(f"\nStopped: {stored()} of {total} games are stored in {db}; run the "
                  "same command again to play the rest.", file=sys.stderr)
            sys.exit(stops.status(e))

    with store:
        try:
            results = analyses.run(prepared, store, play=play, bootstrap=args.bootstrap,
                                   say=lambda text: print(text, file=sys.stderr))
        except plans.SkillError as e:
            sys.exit(f"cardarena skill: {e}")
    command = "cardarena skill " + shlex.join(args.argv)
    written, missing = report.write(results, out, command)
    print(report.summary(results, command))
    print("Wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    if missing:
        print(f"No plots: {missing}", file=sys.stderr)


def _default_out(game):
    """The folder a skill analysis of ``game`` writes to unless told: its name and its
    parameters, so that analyses of different rules do not overwrite each other."""
    name, params = core.parse_spec(game)
    return "-".join(["skill", name] + [f"{k}={v}".replace(os.sep, "_")
                                       for k, v in params.items()])


# The bot of a match-up run unless told: the skill ladder's searcher at a budget that
# plays a long game in well under a second.
MATCHUP_BOT = "ismcts(iterations=64,rollout_depth=8)"


def add(sub):
    """Add ``levels``, ``marks``, ``compare``, ``matchups`` and ``skill`` to ``sub``."""
    _add_levels(sub)
    _add_marks(sub)
    _add_compare(sub)
    _add_matchups(sub)
    _add_skill(sub)


def _add_levels(sub):
    """``levels``: show or calibrate the strength levels."""
    calibrating = _calibrated_command(
        sub, _levels, "list a game's strength levels for play --elo, or calibrate them",
        "play the ladder and write the levels where play --elo reads them")
    calibrating.add_argument("--player", metavar="SPEC",
                             help="the searcher whose budget the levels double, without "
                             "iterations, such as the game's yardstick from cardarena "
                             f"skill (default {defaults.PLAYER})")
    calibrating.add_argument("--deals", type=positive, metavar="N",
                             help=f"deals per match, each played in both seatings (default "
                             f"{defaults.LEVEL_DEALS})")
    calibrating.add_argument("--seed", type=int, help="fixes every deal, every bot's "
                             "choices and the bootstrap (default 0)")
    calibrating.add_argument("--min-budget", type=positive, metavar="N",
                             help="the weakest searcher's iterations a move (default 1)")
    calibrating.add_argument("--max-budget", type=positive, metavar="N",
                             help="the strongest searcher's iterations a move, doubling "
                             f"from --min-budget (default {defaults.LEVEL_MAX_BUDGET})")
    calibrating.add_argument("--climb-to", type=positive, metavar="BUDGET",
                             help="go on above --max-budget with the searcher guided by "
                             "the game's network (model=default), doubling from "
                             "--max-budget up to BUDGET, for levels stronger than the "
                             "plain searcher's (default: no climb)")
    calibrating.add_argument("--db", help="the SQLite file to store games in (default: "
                             "levels-GAME.db in this directory)")
    calibrating.add_argument("--bootstrap", type=positive, metavar="N",
                             help="resamples of the deals behind the Elo intervals "
                             "(default 1000)")
    calibrating.add_argument("--out", metavar="DIR", help="the folder to write "
                             "levels-GAME.json in (default: tournament/data, where play "
                             "--elo reads it)")
    run_options(calibrating)


def _add_marks(sub):
    """``marks``: show or calibrate the review marks."""
    measuring = _calibrated_command(
        sub, _marks, "show the thresholds that mark a game's reviewed moves, or "
        "calibrate them", "measure the reviewer's noise and write the thresholds where "
        "reviews read them")
    measuring.add_argument("--positions", type=positive, metavar="N",
                           help="decisions to measure, one from each of N games the "
                           f"greedy player plays (default {defaults.MARK_POSITIONS})")
    measuring.add_argument("--iterations", type=positive, metavar="N",
                           help="the reviewer's budget to measure at (default "
                           f"{reviews.ITERATIONS}, a review's)")
    measuring.add_argument("--seed", type=int, help="fixes the games and the first "
                           "review's searches; the second uses the next seed (default 0)")
    measuring.add_argument("--out", metavar="DIR", help="the folder to write "
                           "marks-GAME.json in (default: tournament/data, where reviews "
                           "read it)")


def _add_compare(sub):
    """``compare``: analyses of several games side by side."""
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


def _add_matchups(sub):
    """``matchups``: per-seat choices against each other."""
    mu = sub.add_parser("matchups", help="how each deck (or other per-seat choice) fares "
                        "against each other", description=_matchups.__doc__)
    mu.add_argument("game", help="a game with a per-seat parameter, e.g. creature_shrines, "
                    "or a game string whose other parameters every match-up keeps: "
                    "'creature_shrines(decks=my-decks.toml)' compares a designer's decks")
    mu.add_argument("--bot", default=MATCHUP_BOT, metavar="SPEC",
                    help="the bot in both seats (default: %(default)s)")
    mu.add_argument("--deals", type=positive, default=20,
                    help="deals per pair and side (default %(default)s)")
    mu.add_argument("--only", metavar="A,B,...", help="compare only these choices")
    mu.add_argument("--pairs", metavar="A:B,...", help="play only these pairs, each from "
                    "both seats, and no mirror: the pairs a change was meant to move")
    mu.add_argument("--seed", type=int, default=0, help="fixes every deal and every "
                    "bot's choices (default 0)")
    mu.add_argument("--out", metavar="DIR", help="where report.md and matchups.json go "
                    "(default: matchups-GAME, GAME's name alone)")
    mu.add_argument("--db", help="the SQLite file to store games in (default: games.db "
                    "in --out)")
    run_options(mu)
    mu.set_defaults(run=_matchups)


def _add_skill(sub):
    """``skill``: the skill-ceiling analysis."""
    skill = sub.add_parser("skill", help="measure how much skill a game and its variants "
                           "reward", description=_skill.__doc__)
    skill.add_argument("game", help="the game, e.g. shrine or 'card_duel(max_exchanges=200)'")
    skill.add_argument("--variant", action="append", default=[], metavar="PARAMS",
                       help="a variant to compare, as name=value,... over the game's own "
                       "(default for its rules as they stand); give it once per variant")
    skill.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                       help="compare every value of a parameter; two --grid lines give "
                       "every combination, drawn as heat maps")
    skill.add_argument("--deals", type=positive, default=30,
                       help="deals per match, each played in both seatings "
                       "(default %(default)s)")
    skill.add_argument("--player", metavar="SPEC",
                       help="the searcher the ladder climbs with, without iterations; "
                       "skips the yardstick's trial (default: the trial's choice for each "
                       f"variant, {defaults.PLAYER} unless a challenger beats it "
                       "clearly)")
    skill.add_argument("--challenger", action="append", default=[], metavar="SPEC",
                       help="a searcher the trial tries against the default, without "
                       "iterations; give it once per challenger (default: "
                       f"{', '.join(defaults.CHALLENGERS)})")
    skill.add_argument("--trial-each", action="store_true",
                       help="choose each variant's searcher from its own trial (default: "
                       "one searcher for every variant, from all their trials pooled)")
    skill.add_argument("--trial-deals", type=positive, default=defaults.TRIAL_DEALS,
                       metavar="N", help="deals each challenger plays against the "
                       "default, each in every seating (default %(default)s)")
    skill.add_argument("--min-budget", type=positive, default=8, metavar="N",
                       help="the lowest rung's iterations per move (default %(default)s)")
    skill.add_argument("--max-budget", type=positive, default=1024, metavar="N",
                       help="the highest rung's iterations per move, doubling from "
                       "--min-budget (default %(default)s)")
    skill.add_argument("--climb-to", type=positive, metavar="BUDGET",
                       help="climb above the ladder with the top searcher given the "
                       "game's network (model=default; without it in every variant "
                       "where one has none), doubling from the top budget, until two "
                       "doublings in a row gain nothing the games show or the next would "
                       "pass BUDGET (default: no climb)")
    skill.add_argument("--decide-to", type=positive, metavar="DEALS",
                       help="after the first --deals, play more deals, --deals at a "
                       "time, only in the matches whose questions are still undecided "
                       "and in the climb's undecided steps, up to this many deals a "
                       "match (default: every match plays --deals)")
    skill.add_argument("--reach", type=positive, default=1,
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
    skill.add_argument("--bootstrap", type=positive, default=1000, metavar="N",
                       help="resamples of the deals behind the Elo intervals "
                       "(default %(default)s)")
    run_options(skill)
    skill.set_defaults(run=_skill)
