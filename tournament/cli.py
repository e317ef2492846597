"""The ``cardarena`` command."""
import argparse
import random
import signal
import sys

import pyspiel

import core
from tournament.narrate import narrate


def _demo(args):
    """Play one seeded game between two bots (random players unless --players says
    otherwise), in words."""
    import search
    try:
        game = core.load_game(args.game)
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


def main(argv=None):
    """Run the ``cardarena`` command with ``argv`` (the process's arguments if None)."""
    parser = argparse.ArgumentParser(
        prog="cardarena",
        description="Game-AI search and tournaments for hidden-information card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="play and print one seeded game between random players",
                          description=_demo.__doc__)
    demo.add_argument("game", help="a game string, e.g. shrine or 'shrine(alt_heal=true)'; "
                      f"games: {', '.join(sorted(core.GAMES))}")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    demo.add_argument("--players", nargs="+", default=["random", "random"], metavar="SPEC",
                      help="one bot spec per seat, e.g. 'ismcts(iterations=500)' greedy "
                      "(default: random random); see cardarena bots")
    demo.set_defaults(run=_demo)
    bots = sub.add_parser("bots", help="list the kinds of bot and their parameters",
                          description=_bots.__doc__)
    bots.set_defaults(run=_bots)
    play = sub.add_parser("play", help="play a game against a bot in the terminal",
                          description=_play.__doc__)
    play.add_argument("game", help="a game string, e.g. shrine or 'card_duel(life=15)'")
    play.add_argument("--bot", default="ismcts(seconds=1,rollout_depth=8)", metavar="SPEC",
                      help="the bot you play against (default: %(default)s); "
                      "see cardarena bots")
    play.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed for the deal and the bot (default: a fresh one, shown)")
    play.add_argument("--load", metavar="FILE", help="resume a game saved with save FILE")
    play.set_defaults(run=_play)
    args = parser.parse_args(argv)
    # Piping into head or less must end quietly, as other Unix tools do.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    args.run(args)


if __name__ == "__main__":
    main()
