"""``demo`` and ``bots``: a seeded game between bots told in words, and the kinds of bot."""
import random
import sys

import core
from tournament.cli.common import check_game, fail
from tournament.sparring.narrate import narrate


def _demo(args):
    """Play one seeded game between bots (a random player in every seat unless
    --players says otherwise), in words."""
    import search
    from tournament.harness import config as configs
    game = check_game("demo", args.game)
    try:
        args.players = args.players or ["random"] * game.num_players
        if len(args.players) != game.num_players:
            raise core.ParameterError(f"{game.name} takes {game.num_players} players, "
                                      f"not {len(args.players)}")
        bots = [search.make_bot(spec, game, p, seed=args.seed * 64 + p)
                for p, spec in enumerate(args.players)]
    except core.ParameterError as e:
        fail("demo", str(e), 2)
    rng = random.Random(args.seed)
    spiel_game = configs.load_game(args.game)
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
    models = [text + (f" (any {', '.join(across)})" if across else "")
              for kind in core.GAMES.values() for text, across in search.shipped(kind)]
    print("\nmodel=default reads the game's own trained network, shipped for: "
          + (", ".join(models) if models else "none yet") + ".")


def add(sub):
    """Add ``demo`` and ``bots`` to ``sub``."""
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
