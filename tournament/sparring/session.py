"""Sparring: a person plays a game against a bot, in the terminal (``cardarena play``,
``tournament.sparring.console``) or in the browser (``tournament.web``), which share
the match held here (docs/play.md).

The person sees what their seat may see and nothing more: the board is the game's
``render`` of ``observation_dict(seat)``, and every other move is told as
``action_view`` lets that seat see it.  A game is its seed and its history of actions.
Each chance outcome and each bot's seed derive from the seed and the number of the
step, so replaying a history rebuilds the position exactly, and a game undone, saved
or loaded goes on as it would have gone.
"""
import json
import os
import random
import re

import core
import search
from tournament.sparring import review as reviews
from tournament.tables import write_file

FORMAT = "cardarena play"


class SaveFileError(core.CardArenaError):
    """A saved game that cannot be resumed: missing, unreadable, not a saved game, or
    one whose game, bot or moves this program refuses."""


class Match:
    """A person in ``seat`` of ``game`` against a bot of the ``bot`` spec in every other
    seat, dealt from ``seed``.  ``history`` holds every action and chance outcome so
    far, and ``state`` the position they lead to."""

    def __init__(self, game, bot, seat, seed, history=()):
        self.game = search.engine_game(game) if isinstance(game, str) else game
        players = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise core.PlayerError(f"a seat of {self.game.name} is from 0 to {players - 1}, "
                                   f"not {seat!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise core.ParameterError(f"a seed is an integer, not {seed!r}")
        self.seat, self.seed = seat, seed
        # One bot made now checks the spec and gives its normal form, which is saved.
        self.bot = search.make_bot(bot, self.game, (seat + 1) % players, seed).spec
        self._replay(history)

    def _replay(self, history):
        self.history = []
        self.state = self.game.new_initial_state()
        for i, action in enumerate(history):
            try:
                self.apply(action)
            except core.IllegalActionError:
                # Not the engine's message, which lists the legal moves: at the bot's
                # step or a draw they name cards the person may not see.
                raise core.IllegalActionError(f"step {i + 1} of the history: action "
                                              f"{action!r} is not legal there") from None

    @property
    def save_path(self):
        """Where ``quit`` saves a new game: a file in the current directory named by
        the game string (parameters and all), the bot's spec, the person's seat and the
        seed, so that games against other bots or from other seats are saved apart; in
        letters, digits and ``_ . + -`` only, which no shell needs quoted."""
        return (f"cardarena-{_shell_safe(str(self.game))}-{_shell_safe(self.bot)}"
                f"-seat{self.seat}-{self.seed}.json")

    def apply(self, action):
        """Play ``action`` (or a chance outcome); raises ``core.IllegalActionError``
        and changes nothing if it is not legal."""
        self.state.apply_action(action)
        # OpenSpiel's bots answer with numpy integers, which a save cannot write as JSON.
        self.history.append(int(action))

    def _seed(self, purpose):
        # A string seed goes through SHA-512, so the streams do not depend on the
        # process's hash randomisation.
        return random.Random(f"{self.seed} {purpose} {len(self.history)}").getrandbits(63)

    def chance_outcome(self):
        """The outcome chance draws at this step, each outcome as likely as the rules
        make it."""
        outcomes = self.state.chance_outcomes()
        rng = random.Random(self._seed("chance"))
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]

    def bot_action(self, deadline=None):
        """The move the bot in the seat to move plays at this step, by ``deadline``
        (a ``search.Deadline``) if given."""
        bot = search.make_bot(self.bot, self.game, self.state.current_player(),
                              self._seed("bot"), deadline)
        return bot.step(self.state)

    def hint(self, deadline=None):
        """``(action, confidence)``: what a bot of this match's spec would play in the
        person's seat here, and how sure it is, in words, found by ``deadline`` if
        given.  It uses a stream of its own, so asking changes nothing that follows."""
        legal = self.state.legal_actions()
        seed = self._seed("hint")
        bot = search.make_bot(self.bot, self.game, self.seat, seed, deadline)
        # The bot is shown a world drawn from what the person knows: a bot that reads
        # the true state (cheater) would otherwise hint at the hidden cards.  An
        # OpenSpiel game whose sampler refuses this position leaves the true world,
        # and counts it (``unsampled``).
        refused = getattr(self.game, "unsampled", 0)
        world = self.state.determinized(self.seat, seed)
        if getattr(self.game, "unsampled", 0) > refused:
            raise core.CardArenaError(f"{self.game.name} cannot draw the cards hidden from "
                                      "you afresh in this position, and a hint must not "
                                      "read them")
        action = bot.step(world)
        if len(legal) == 1:
            return action, "your only legal move"
        return action, _confidence(bot, action)

    def judge(self, action, iterations=reviews.ITERATIONS, seed=0):
        """How the reviewer rates the person's playing ``action`` here, a decision
        with a choice: a :class:`tournament.sparring.review.Decision`.  It is the same rating
        ``review`` gives the step once the move is played."""
        reviewer = reviews.Reviewer(self.game, self.seat, iterations, seed)
        return reviewer.judge(self.state, len(self.history), action)

    def review(self, iterations=reviews.ITERATIONS, seed=0):
        """The :class:`tournament.sparring.review.Review` of the person's decisions so far."""
        return reviews.Reviewer(self.game, self.seat, iterations, seed).review(self.history)

    def forced(self):
        """Whether the person is to move and has one legal move."""
        return self.state.current_player() == self.seat \
            and len(self.state.legal_actions()) == 1

    def undo(self):
        """Go back to the person's previous decision (a move with a choice): False, with
        nothing changed, if there is none."""
        state = self.game.new_initial_state()
        back = None
        for i, action in enumerate(self.history):
            if state.current_player() == self.seat and len(state.legal_actions()) > 1:
                back = i
            state.apply_action(action)
        if back is None:
            return False
        self._replay(self.history[:back])
        return True

    def result(self):
        """How the game ended for the person, in words, with every seat's return;
        None while it goes on."""
        if not self.state.is_terminal():
            return None
        returns = self.state.returns()
        sides = self.game.teams()
        totals = [sum(returns[p] for p in side) for side in sides]
        best = [side for side, total in zip(sides, totals) if total == max(totals)]
        if len(best) == len(sides):
            verdict = "A draw."
        elif self.seat in best[0] and len(best) == 1:
            verdict = "You win." if len(best[0]) == 1 else "Your side wins."
        elif any(self.seat in side for side in best):
            verdict = "You share the win."
        else:
            winners = [p for side in best for p in side]
            verb = "wins" if len(winners) == 1 else "win"
            verdict = f"{_players(winners).capitalize()} ({self.bot}) {verb}."
        scores = ", ".join(f"player {p} {r:+g}" for p, r in enumerate(returns))
        return f"{verdict} Returns: {scores}."

    def to_dict(self):
        """Everything a saved game holds: the seed and the history rebuild the rest."""
        return {"format": FORMAT, "game": str(self.game), "bot": self.bot, "seat": self.seat,
                "seed": self.seed, "history": list(self.history)}

    def save(self, path):
        """Write the game to ``path`` as JSON; raises ``OSError`` if it cannot."""
        write_file(os.path.expanduser(path), json.dumps(self.to_dict()) + "\n")

    @classmethod
    def load(cls, path):
        """The game saved in ``path``; raises :class:`SaveFileError` saying what is
        wrong with it."""
        try:
            with open(os.path.expanduser(path)) as f:
                data = json.load(f)
        except OSError as e:
            raise SaveFileError(f"cannot read {path}: {e.strerror}") from None
        except ValueError as e:
            raise SaveFileError(f"{path} is not a saved game: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError(f"{path} is not a saved game of cardarena play")
        if "seed" not in data:
            # The web page's record of a game still going keeps its secret seed, which
            # would tell the cards to come: the game goes on here with draws of its own.
            data["seed"] = random.SystemRandom().randrange(10**6)
        kinds = {"game": str, "bot": str, "seat": int, "seed": int, "history": list}
        for key, kind in kinds.items():
            if not isinstance(data.get(key), kind) or isinstance(data[key], bool):
                raise SaveFileError(f"{path}: {key} is missing or not {kind.__name__}")
        try:
            return cls(data["game"], data["bot"], data["seat"], data["seed"], data["history"])
        except core.CardArenaError as e:
            raise SaveFileError(f"{path}: {e}") from None


def _confidence(bot, action):
    """How sure ``bot`` is of the ``action`` it just chose, in words."""
    result = bot.last
    if result is None:
        return f"{bot.spec} gives no confidence"
    value = f"expected score {result.values[action]:.2f} of 1"
    if isinstance(bot.searcher, search.MCTS):
        share = result.policy()[action]
        return f"{share:.0%} of {sum(result.visits.values())} visits, {value}"
    return value


def _shell_safe(text):
    """``text`` with each run of characters a shell reads specially made one ``-``.

    >>> _shell_safe("ismcts(seconds=1,rollout_depth=8)")
    'ismcts-seconds-1-rollout_depth-8'
    """
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", text).strip("-")


def _real(path):
    """One name for every way of writing a file's path."""
    return os.path.realpath(os.path.expanduser(path))


def board(state, seat):
    """What ``seat`` sees of ``state``, as the game renders an observation."""
    return state.game.render(state.observation_dict(seat))


def _players(seats):
    """``player 1``, ``players 1 and 3``, ``players 1, 2 and 3``."""
    names = [str(p) for p in seats]
    if len(names) == 1:
        return f"player {names[0]}"
    return f"players {', '.join(names[:-1])} and {names[-1]}"
