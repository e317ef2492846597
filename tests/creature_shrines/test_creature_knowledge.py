"""Creature Shrines' knowledge for search, ``evaluate`` and ``heuristic_action``, where a
mode changes what is worth doing: in King of the Hill the Neutral row is the only way
to win (C8), so a creature is sent there, not past it, and one there stays."""
import pytest

from creature_positions import act, names, position, unit

RED = {"sources": {"ember_vent": 5}}
HILL = "creature_shrines(mode=king_of_the_hill)"


def heuristic(st):
    """The heuristic's move, the same on every seed: no ties are left to draw."""
    moves = {st.action_to_string(st.heuristic_action(seed)) for seed in range(8)}
    assert len(moves) == 1, moves
    return moves.pop()


def test_on_the_hill_a_creature_travels_to_the_neutral_row_not_past_it():
    # Ember Charger travels 2 (Sprint 1): from 1a, 2 would carry it past the Neutral row.
    units = [{"slot": 0, "card": "ember_charger", "owner": 0, "site": "1a"}]
    st = position(HILL, players=[dict(RED), {}], units=units, turn=2, act="travel")
    act(st, "travel with ember_charger at 1a")
    assert names(st) == ["travel 1 site", "travel 2 sites"]
    assert heuristic(st) == "travel 1 site"
    # Elsewhere the furthest travel is still the heuristic's.
    st = position(players=[dict(RED), {}], units=units, turn=2, act="travel")
    act(st, "travel with ember_charger at 1a")
    assert heuristic(st) == "travel 2 sites"


def test_on_the_hill_a_creature_on_the_neutral_row_stays():
    units = [{"slot": 0, "card": "ember_charger", "owner": 0, "site": "2a"},
             {"slot": 1, "card": "ember_charger", "owner": 0, "site": "0b"}]
    st = position(HILL, players=[dict(RED), {}], units=units, turn=2, act="travel")
    assert "travel with ember_charger at 2a" in names(st)
    assert heuristic(st) == "travel with ember_charger at 0b"
    act(st, "travel with ember_charger at 0b")
    assert heuristic(st) == "travel 2 sites"
    act(st, "travel 2 sites")
    assert heuristic(st) == "pass the travel act"
    act(st, "pass the travel act")
    assert unit(st, 0)["site"] == "2a" and unit(st, 1)["site"] == "2b"


@pytest.mark.parametrize("mode, nearer", [("king_of_the_hill", "2b"), ("standard", "3b")])
def test_evaluate_counts_the_hill_where_it_scores(mode, nearer):
    # The same creature on the Neutral row and one row past it: on the hill the row is
    # worth more, elsewhere the row nearer the opposing player is.
    def value(site):
        units = [{"slot": 0, "card": "ember_charger", "owner": 0, "site": site}]
        return position(f"creature_shrines(mode={mode})", players=[dict(RED), {}],
                        units=units, turn=2).evaluate(0)
    farther = "3b" if nearer == "2b" else "2b"
    assert value(nearer) > value(farther)
