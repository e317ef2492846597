"""A played game told move by move in words, for ``cardarena demo`` and ``replay``, and
the telling of chance events that ``cardarena play`` shares with them."""
import textwrap

from core.spiel import SpielState
from tournament.harness.deals import Deal

def describe(state, action, observer):
    """``action`` (legal in ``state``, or a chance outcome) in words as ``observer`` sees
    it: its name; or, for one ``observer`` cannot see, the kind that every action it
    cannot tell apart from it shares, then ``??`` ("draw ??"); or just ``??``.
    Actions ``observer`` cannot tell apart are told in the same words."""
    view = state.action_view(action, observer)
    if view == action:
        return state.action_to_string(action)
    kind = _shared_kind(state, view, observer)
    return f"{kind} ??" if kind is not None else "??"


def seen_kind(state, action, observer):
    """The kind of ``action`` (legal in ``state``, or a chance outcome) as ``observer``
    may be told it: its own where ``observer`` sees the action; else the kind every
    action it cannot tell apart from it shares, or None where they differ.  The kind,
    not the name's first word: a name may begin with the very card it hides."""
    view = state.action_view(action, observer)
    if view == action:
        return state.action_kind(action)
    return _shared_kind(state, view, observer)


def _shared_kind(state, view, observer):
    """The kind every action ``observer`` sees as ``view`` shares; None if they differ."""
    kinds = {state.action_kind(a) for a in state.legal_actions()
             if state.action_view(a, observer) == view}
    return kinds.pop() if len(kinds) == 1 else None


# A run of chance events told on one line (a whole deal) wraps to fit a terminal.
WIDTH = 88


class ChanceRuns:
    """Chance events told on ``out`` a run at a time: events in a row whose words
    start alike (a deal of many cards) are gathered on one line, written when
    something else is to be told (``flush``), wrapped to ``width`` columns, or left
    whole with ``width=None``."""

    def __init__(self, out, width=WIDTH):
        self.out = out
        self.width = width
        self.line = None  # (verb, [the rest of each event])

    def tell(self, text):
        verb, _, rest = text.partition(" ")
        if self.line is not None and self.line[0] == verb and rest:
            self.line[1].append(rest)
            return
        self.flush()
        if rest:
            self.line = (verb, [rest])
        else:
            self.out.write(f"chance: {text}" if self.width is None else f"  chance: {text}\n")

    def flush(self):
        if self.line is None:
            return
        verb, parts = self.line
        # A run is gathered by its first word; the rest of a verb of several words
        # ("add face down") is told once, not in every part, and so are the words
        # every part ends with ("to player 0").
        words = [part.split(" ") for part in parts]
        while len(words) > 1 and all(len(w) > 1 and w[0] == words[0][0] for w in words):
            verb += " " + words[0][0]
            words = [w[1:] for w in words]
        tail = []
        while len(words) > 1 and all(len(w) > 1 and w[-1] == words[0][-1] for w in words):
            tail.insert(0, words[0][-1])
            words = [w[:-1] for w in words]
        text = " ".join([f"chance: {verb}", ", ".join(" ".join(w) for w in words)] + tail)
        if self.width is None:
            self.out.write(text)
        else:
            self.out.write(textwrap.fill(text, self.width, initial_indent="  ",
                                         subsequent_indent="    ") + "\n")
        self.line = None


def narrate(state, history, names, out, rotation=0):
    """Write to ``out`` the game that ``history`` (every action, chance outcomes
    included) plays from the pyspiel ``state``, its deal rotated by ``rotation`` seats
    as the harness played it, with ``names[p]`` for player ``p``.

    A turn starts where the game's position says a new one does (its ``turn``, where
    it has one), or else where another player comes to decide; our games show the
    position, as their ``render`` draws the position dict, at the start of each turn
    and at the end.  Runs of chance events (a deal) are told one run a line.  Returns
    the final state."""
    ours = isinstance(state, SpielState)
    chance = ChanceRuns(out)
    turns, mark = 0, None
    deal = Deal(None, rotation)
    for action in history:
        if deal.step(state):
            chance.flush()
            out.write(f"  {deal.told().capitalize()}.\n")
        player = state.current_player()
        if state.is_chance_node():
            chance.tell(state.action_to_string(player, action))
        else:
            chance.flush()
            view = state.core.to_dict() if ours else {}
            if view.get("turn", player) != mark:
                mark, turns = view.get("turn", player), turns + 1
                out.write(f"\nTurn {turns}, {names[view.get('active', player)]} to play\n")
                if ours:
                    out.write(state.core.game.render(view) + "\n")
            out.write(f"  {names[player]}: {state.action_to_string(player, action)}\n")
        state.apply_action(action)
    chance.flush()
    if ours:
        out.write("\n" + state.core.game.render(state.core.to_dict()) + "\n")
    if state.is_terminal():
        returns = state.returns()
        played = f" after {turns} turn{'' if turns == 1 else 's'}" if turns else ""
        best = max(returns)
        winners = [names[p] for p, r in enumerate(returns) if r == best]
        if len(winners) == len(returns):
            out.write(f"Draw{played}.\n")
        else:
            text = " and ".join(winners)
            out.write(f"{text[0].upper()}{text[1:]} "
                      f"win{'s' if len(winners) == 1 else ''}{played}.\n")
    return state
