"""Match-ups of a per-seat parameter (Creature Shrines' decks): every pair played from
both seats by one bot, each choice's score against each other with its interval."""
import json

import pytest

from tournament.harness import runner
from tournament.harness.store import Store
from tournament.skill import matchups
from tournament_helpers import cli

BOT = "greedy"


def test_a_game_without_a_per_seat_parameter_is_refused():
    assert matchups.sided("creature_shrines") == (
        "deck", ("blue", "yellow", "red", "green", "purple"))
    with pytest.raises(matchups.MatchupError, match="shrine has no parameter chosen per seat"):
        matchups.sided("shrine")
    with pytest.raises(matchups.MatchupError, match="deck is one of .*; not pink"):
        matchups.Plan("creature_shrines", BOT, 2, chosen=["red", "pink"])


def test_each_pair_is_played_from_both_seats_and_scores_add_to_one(tmp_path):
    plan = matchups.Plan("creature_shrines", BOT, 3, seed=1, chosen=["red", "blue", "green"])
    assert [c.game for c in plan.configs()[:2]] == [
        "creature_shrines(deck0=red,deck1=red)", "creature_shrines(deck0=red,deck1=blue)"]
    with Store(str(tmp_path / "g.db")) as store:
        runner.run(plan.configs(), store, workers=1, progress=False)
        table = matchups.measure(store, plan)
        rows = {c.game: list(store.games(c.key)) for c in plan.configs()}
    for a in plan.choices:
        # A mirror is its 3 deals, each with its cards in both seats; a pair, both
        # orders of them.
        assert table[a][a].games == 6
        assert sorted(r.rotation for r in rows[f"creature_shrines(deck0={a},deck1={a})"]) \
            == [0, 0, 0, 1, 1, 1]
        assert table[a][a].low <= table[a][a].score <= table[a][a].high
        for b in plan.choices:
            if a != b:
                assert table[a][b].games == 6
                assert table[a][b].score + table[b][a].score == pytest.approx(1)
    # red against blue counted by hand: seat 0's wins as red, seat 1's as red.
    red = 0.0
    for game, seat in (("creature_shrines(deck0=red,deck1=blue)", 0),
                       ("creature_shrines(deck0=blue,deck1=red)", 1)):
        for row in rows[game]:
            mine, theirs = row.returns[seat], row.returns[1 - seat]
            red += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert table["red"]["blue"].score == pytest.approx(red / 6)
    low, high = table["red"]["blue"].low, table["red"]["blue"].high
    assert low <= table["red"]["blue"].score <= high
    text = matchups.report(table, plan, "cardarena matchups creature_shrines")
    assert "| deck \\ against | red | blue | green |" in text
    assert text.count("\n| red |") == 2 and "Each against all the others" in text
    assert "with its cards in both seats (its interval from resampling whole deals)" in text


def test_the_command_writes_the_table_and_resumes(tmp_path):
    out = tmp_path / "mu"
    args = ["matchups", "creature_shrines", "--bot", BOT, "--deals", "2", "--only",
            "yellow,purple", "--out", str(out), "--workers", "1", "--quiet"]
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    assert "12 games" in first.stderr  # each mirror's 2 deals in both rotations
    data = json.loads((out / "matchups.json").read_text())
    assert data["parameter"] == "deck" and data["table"]["yellow"]["purple"]["games"] == 4
    again = cli(*args)
    assert again.returncode == 0 and again.stdout == first.stdout
    bad = cli("matchups", "shrine")
    assert bad.returncode == 1 and "no parameter chosen per seat" in bad.stderr
