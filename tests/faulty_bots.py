"""Bots that fail in each way a tournament must survive, built from a config as
``{ python = "faulty_bots:NAME" }``; each plays legally until move ``after``."""
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


def raiser(game, player, seed, **args):
    return Raiser(game, player, seed, **args)


def sleeper(game, player, seed, **args):
    return Sleeper(game, player, seed, **args)


def cheat(game, player, seed, **args):
    return Cheat(game, player, seed, **args)


def not_a_bot(game, player, seed):
    return "a string"
