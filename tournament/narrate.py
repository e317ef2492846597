"""A played game told move by move in words, for ``cardarena demo`` and ``replay``."""
from core.spiel import SpielState


def narrate(state, history, names, out):
    """Write to ``out`` the game that ``history`` (every action, chance outcomes
    included) plays from the pyspiel ``state``, with ``names[p]`` for player ``p``.

    Our games show the position at each new turn; positions are read from a game's
    ``to_dict``, which shares with other games only the contract's keys, so ``turn``
    and ``step`` are used where a game has them.  Returns the final state."""
    ours = isinstance(state, SpielState)
    turn = None
    for action in history:
        view = state.core.to_dict() if ours else {}
        dealing = view.get("step") == "deal"
        if ours and view.get("turn") != turn and not dealing:
            turn = view.get("turn")
            active = view.get("active", state.current_player())
            out.write(f"\nTurn {turn + 1}, {names[active]} to play\n")
            out.write(state.core.game.render(view) + "\n")
        who = "chance" if state.is_chance_node() else names[state.current_player()]
        if not dealing:
            out.write(f"  {who}: {state.action_to_string(state.current_player(), action)}\n")
        state.apply_action(action)
    if ours:
        out.write("\n" + state.core.game.render(state.core.to_dict()) + "\n")
    if state.is_terminal():
        returns = state.returns()
        played = f" after {turn + 1} turns" if turn is not None else ""
        best = max(returns)
        winners = [names[p] for p, r in enumerate(returns) if r == best]
        if len(winners) == len(returns):
            out.write(f"Draw{played}.\n")
        else:
            text = " and ".join(winners)
            out.write(f"{text[0].upper()}{text[1:]} "
                      f"win{'s' if len(winners) == 1 else ''}{played}.\n")
    return state
