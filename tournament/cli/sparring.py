"""``play``, ``review`` and ``serve``: sparring against a bot in the terminal or the
browser, and reviews of a person's decisions."""
import argparse
import os
import shlex
import sys

import core
from tournament.cli.common import fail, is_database, open_store, positive, share
from tournament.sparring import review as reviews


def _play(args):
    """Play a game against a bot in the terminal: you see only what your seat may see,
    choose moves by number, and can ask for a hint, undo, save and load."""
    from tournament.sparring import console
    sys.exit(console.run(args))


def _review(args):
    """Rate every decision one player made in a game saved by cardarena play, or in a
    game a tournament stored: the move chosen, the move a search from that player's own
    knowledge prefers, and the expected score given up (0 the worst return, 1 the
    best), marked doubtful, bad or very bad by the game's thresholds (cardarena marks
    GAME shows them); then the error rate, the costliest moves, and how much the
    chance events favoured the player.  See docs/review.md."""
    from tournament.harness.store import StoreError
    from tournament.sparring.session import Match, SaveFileError
    if args.game_id is None:
        if args.seat is not None:
            fail("review", "--seat is for a stored game: a saved game is reviewed from "
                 "the seat it was played from", 2)
        if is_database(args.source):
            fail("review", f"{args.source} is a tournament database: give a game's id "
                 f"too (cardarena ratings {shlex.quote(args.source)} --games lists them)", 2)
        try:
            match = Match.load(args.source)
        except SaveFileError as e:
            fail("review", str(e), 1)
        game, seat, history, rotation = match.game, match.seat, match.history, 0
    else:
        if not os.path.exists(args.source):
            fail("review", f"no such file: {args.source}", 1)
        with open_store(args.source, readonly=True) as store:
            try:
                row = store.game(args.game_id)
            except StoreError as e:
                fail("review", str(e), 1)
        game, seat, history, rotation = row.game, args.seat, row.history, row.rotation
        if seat is None:
            seats = ", ".join(f"{p} ({name})" for p, name in enumerate(row.seating))
            fail("review", f"give --seat N, the player of game {args.game_id} to review: "
                 f"{seats}", 2)
    try:
        review = reviews.Reviewer(game, seat, args.iterations, args.seed,
                                  args.model).review(history, rotation)
    except reviews.ReviewError as e:
        fail("review", str(e), 1)
    except core.CardArenaError as e:
        fail("review", str(e), 2)
    print(reviews.report(review))


def _serve(args):
    """Serve the web app: play against a bot in the browser, and follow the
    tournaments of --db live.  Sparring games are kept in --db too, so a restart loses
    none."""
    try:
        from tournament.web import app
    except ImportError as e:
        sys.exit(f"cardarena serve: {e.name} is missing: pip install \"cardarena[web]\"")
    from tournament.harness.store import StoreError
    try:
        app.serve(args.host, args.port, args.db)
    except StoreError as e:
        sys.exit(f"cardarena serve: {e}")


def _tutor(text):
    from tournament.sparring.marks import BASE
    if text in dict(BASE):
        return text
    try:
        return share(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"a score given up, from 0 up to 1, or a mark ({', '.join(dict(BASE))}), "
            f"not {text!r}") from None


def add(sub):
    """Add ``play``, ``review`` and ``serve`` to ``sub``."""
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
    play.add_argument("--review-iterations", type=positive, default=reviews.ITERATIONS,
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
    rev.add_argument("--iterations", type=positive, default=reviews.ITERATIONS, metavar="N",
                     help="search iterations per position: more are slower and surer "
                     "(default %(default)s)")
    rev.add_argument("--seed", type=int, default=0, help="seed of the searches: a review "
                     "with the same seed and iterations repeats exactly (default 0)")
    rev.add_argument("--model", metavar="default|PATH", help="guide the reviewer's search "
                     "with a network, the game's own or a model file: its policy chooses "
                     "which moves to try, and playouts to the end still score them "
                     "(default: no network)")
    rev.set_defaults(run=_review)

    serve = sub.add_parser("serve", help="play and watch tournaments in the browser",
                           description=_serve.__doc__)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on "
                       "(default: %(default)s, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="default: %(default)s")
    serve.add_argument("--db", default="cardarena.db", help="the SQLite file of sparring "
                       "games and tournaments (default: %(default)s)")
    serve.set_defaults(run=_serve)
