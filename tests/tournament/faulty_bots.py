"""Bots that fail in each way a tournament must survive, built from a config as
``{ python = "faulty_bots:NAME" }``; each plays legally until move ``after``."""
import os
import signal
import time

import pyspiel


class _Faulty(pyspiel.Bot):
    def __init__(self, game, player, seed, after=0, seconds=0.0):
        pyspiel.Bot.__init__(self)
        self.after, self.seconds, self.moves = after, seconds, 0

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def step(self, state):
        self.moves += 1
        if self.moves > self.after:
            return self.fail(state)
        return state.legal_actions()[0]


class Raiser(_Faulty):
    def fail(self, state):
        raise RuntimeError("the bot broke")


class Sleeper(_Faulty):
    def fail(self, state):
        time.sleep(self.seconds)
        return state.legal_actions()[0]


class Cheat(_Faulty):
    def fail(self, state):
        legal = set(state.legal_actions())
        return next(a for a in range(state.num_distinct_actions()) if a not in legal)


class Floater(_Faulty):
    def fail(self, state):
        return float(state.legal_actions()[0])


class Meddler(_Faulty):
    """Plays its move on the state it is handed instead of returning it alone."""

    def fail(self, state):
        action = state.legal_actions()[0]
        state.apply_action(action)
        return action


class Gossip(_Faulty):
    """Breaks when told of another player's move."""

    def inform_action(self, state, player_id, action):
        self.moves += 1
        if self.moves > self.after:
            raise RuntimeError("the bot broke on being told a move")

    def fail(self, state):
        return state.legal_actions()[0]


class Stubborn(_Faulty):
    """Thinks for ``seconds`` in a loop that catches every Exception, as a bot that
    guards its search might."""

    def fail(self, state):
        start = time.perf_counter()
        while time.perf_counter() - start < self.seconds:
            try:
                time.sleep(0.01)
            except Exception:
                pass
        return state.legal_actions()[0]


class Deaf(_Faulty):
    """Thinks for ``seconds`` without hearing the timer's signal, as a search in
    compiled code does; hears it when it is done."""

    def fail(self, state):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(self.seconds)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        return state.legal_actions()[0]


class Killed(_Faulty):
    """Dies with its process, as a bot that crashes in compiled code or is killed for
    the memory it takes."""

    def fail(self, state):
        os.kill(os.getpid(), signal.SIGKILL)


class Quitter(_Faulty):
    def fail(self, state):
        raise SystemExit(3)


class Interrupter(_Faulty):
    """Raises KeyboardInterrupt itself, as a bot that stops a subprocess of its own."""

    def fail(self, state):
        raise KeyboardInterrupt("the bot's own")


class Abort(BaseException):
    """A bot's own exception outside the Exception hierarchy."""


class Aborter(_Faulty):
    def fail(self, state):
        raise Abort("gave up")


def raiser(game, player, seed, **args):
    return Raiser(game, player, seed, **args)


def sleeper(game, player, seed, **args):
    return Sleeper(game, player, seed, **args)


def cheat(game, player, seed, **args):
    return Cheat(game, player, seed, **args)


def floater(game, player, seed, **args):
    return Floater(game, player, seed, **args)


def meddler(game, player, seed, **args):
    return Meddler(game, player, seed, **args)


def gossip(game, player, seed, **args):
    return Gossip(game, player, seed, **args)


def stubborn(game, player, seed, **args):
    return Stubborn(game, player, seed, **args)


def deaf(game, player, seed, **args):
    return Deaf(game, player, seed, **args)


def killed(game, player, seed, **args):
    return Killed(game, player, seed, **args)


def quitter(game, player, seed, **args):
    return Quitter(game, player, seed, **args)


def interrupter(game, player, seed, **args):
    return Interrupter(game, player, seed, **args)


def aborter(game, player, seed, **args):
    return Aborter(game, player, seed, **args)


def not_a_bot(game, player, seed):
    return "a string"
