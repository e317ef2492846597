"""What every ruleset needs and none should write again.

* ``core/kit/piles.pxd``: piles held as counts per card kind (size, a card drawn as a
  chance event, sampled, moved), and a finished game's returns, as inline C helpers
  for the hot path.
* :mod:`core.kit.position`: reading a position from plain data, with its checks.
* :mod:`core.kit.tensor`: observation tensors from named blocks.
* :mod:`core.kit.carddata`: designed card sets and decks read from TOML and checked,
  effects compiled to opcodes; ``core/kit/effects.pxd`` holds their C side (the effect
  table, and the stack of pending decisions an interpreter runs on).

Declarative parameters (bounds and the reason for each) and the Python-side methods of
a state (``to_dict``, ``observation_dict``, ``information_state_string``,
``observation_tensor``) live in the base classes of :mod:`core.state`, over small
hooks each ruleset writes.  ``docs/adding-a-game.md`` says which.
"""
from core.kit.position import (Cards, check_current_player, check_keys, read_bool,
                               read_int, read_name, read_players, read_winner)
from core.kit.tensor import TensorLayout

__all__ = ["Cards", "TensorLayout", "check_current_player", "check_keys", "read_bool",
           "read_int", "read_name", "read_players", "read_winner"]
