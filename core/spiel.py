"""One generic OpenSpiel game and state over any cardarena ruleset.

pyspiel clones a Python-defined state by calling ``new_initial_state()`` and then
deep-copying every attribute, so the state wrapper keeps a single attribute, the core
state (whose ``__deepcopy__`` is one memcpy), and its constructor only clones a
prototype."""
import numpy as np
import pyspiel

from core.errors import ParameterError


def register(core_game_class):
    """Register ``core_game_class`` (a ``core.state.Game`` subclass) with OpenSpiel
    under its ``name``."""
    game_type = pyspiel.GameType(
        short_name=core_game_class.name,
        long_name=core_game_class.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if core_game_class.zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=core_game_class.player_counts()[1],
        min_num_players=core_game_class.player_counts()[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(core_game_class.parameters),
    )

    # pyspiel keeps the factory until the process ends; a class (as OpenSpiel's own
    # Python games register) survives interpreter shutdown where a closure does not.
    factory = type(f"Spiel{core_game_class.__name__}", (SpielGame,),
                   {"game_type": game_type, "core_class": core_game_class})
    pyspiel.register_game(game_type, factory)


class SpielGame(pyspiel.Game):
    """A core game as a pyspiel.Game; ``register`` makes one subclass per ruleset."""

    game_type = None
    core_class = None

    def __init__(self, params=None):
        game_type, core_game_class, params = self.game_type, self.core_class, params or {}
        try:
            self.core = core_game_class(**params)
        except ParameterError as e:
            raise pyspiel.SpielError(str(e)) from None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.core.num_distinct_actions,
            max_chance_outcomes=self.core.max_chance_outcomes,
            num_players=self.core.num_players,
            min_utility=self.core.min_utility,
            max_utility=self.core.max_utility,
            utility_sum=0.0 if self.core.zero_sum else None,
            max_game_length=self.core.max_game_length)
        super().__init__(game_type, info, dict(self.core.params))
        self._prototype = self.core.new_initial_state()

    def new_initial_state(self):
        return SpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        # Under the rulings a shuffled pile is forgotten, so what a player knows is the
        # same whether or not perfect recall is asked for.  What one player knows is the
        # only view offered: a public-only or all-players view would need views of its
        # own, and handing out this one instead would leak or hide cards.
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        if iig_obs_type is not None and not (
                iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{self.core.name} offers one observation, a player's own "
                             "(public_info=True, private_info=SINGLE_PLAYER), not "
                             f"public_info={iig_obs_type.public_info}, "
                             f"private_info={iig_obs_type.private_info.name}")
        return SpielObserver(self.core.observation_tensor_size)


class SpielState(pyspiel.State):
    """A core state as a pyspiel.State."""

    def __init__(self, game, core_state=None):
        super().__init__(game)
        self.core = game._prototype.clone() if core_state is None else core_state

    def current_player(self):
        # The core's CHANCE and TERMINAL are OpenSpiel's own ids.
        return self.core.current_player()

    def _legal_actions(self, player):
        return self.core.legal_actions()

    def chance_outcomes(self):
        return self.core.chance_outcomes()

    def _apply_action(self, action):
        self.core.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.core.action_to_string(action)

    def is_terminal(self):
        return self.core.is_terminal()

    def returns(self):
        return self.core.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state sampled from ``player_id``'s information set; the sampler's numbers
        seed the core determinization, so a seeded sampler gives reproducible worlds."""
        seed = int(probability_sampler() * 2 ** 53)
        world = SpielState(self.get_game(), self.core.determinized(player_id, seed))
        return world

    def __str__(self):
        return self.core.serialize()


class SpielObserver:
    """The PyObserver interface over the core state's knowledge summary."""

    def __init__(self, size):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.core.observation_tensor(player)

    def string_from(self, state, player):
        return state.core.information_state_string(player)
