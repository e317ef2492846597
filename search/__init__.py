"""Game-agnostic players: tree search (guided by a network or not), expectimax, a network's
policy, greedy and random, as pyspiel bots.

Nothing here names a game: searchers drive states through the contract of
``core/state.pxd``, and game knowledge reaches them only through a game's
``evaluate``, its heuristic move choice, and a network reading its observation tensor.
"""
from search.bots import KINDS, Bot, bot_spec, describe, engine_game, make_bot, parse_bot
from search.clock import Deadline
from search.expectimax import Expectimax
from search.mcts import MCTS, SearchError, SearchResult
from search.model import Model, ModelError, load_model, random_model, shipped

__all__ = ["make_bot", "parse_bot", "bot_spec", "describe", "engine_game", "KINDS", "Bot", "MCTS",
           "Expectimax", "SearchResult", "SearchError", "Deadline", "Model", "ModelError",
           "load_model", "random_model", "shipped"]
