"""Match-ups of a per-seat parameter (Creature Shrines' decks): every pair played from
both seats by one bot, each choice's score against each other with its interval."""
import json
import pathlib

import pytest

import core.creature_shrines

from tournament.harness import runner
from tournament.harness.store import Store
from tournament.skill import matchups
from tournament_helpers import cli

BOT = "greedy"


def test_a_game_without_a_per_seat_parameter_is_refused():
    plan = matchups.Plan("creature_shrines", BOT, 2)
    assert (plan.name, plan.choices) == ("deck", ("blue", "yellow", "red", "green", "purple"))
    with pytest.raises(matchups.MatchupError, match="shrine has no parameter chosen per seat"):
        matchups.Plan("shrine", BOT, 2)
    with pytest.raises(matchups.MatchupError, match="deck is one of .*; not pink"):
        matchups.Plan("creature_shrines", BOT, 2, chosen=["red", "pink"])
    with pytest.raises(matchups.MatchupError, match="choose deck0 themselves"):
        matchups.Plan("creature_shrines(deck0=red)", BOT, 2)


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


def test_the_pairs_asked_for_are_played_alone_from_both_seats(tmp_path):
    out = tmp_path / "mu"
    result = cli("matchups", "creature_shrines", "--bot", BOT, "--deals", "2", "--pairs",
                 "purple:red", "--out", str(out), "--workers", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "2 matches of decks, 4 games" in result.stderr
    assert "| deck \\ against | purple | red |" in result.stdout
    assert "| purple | - |" in result.stdout and "a pair not asked for is left blank" \
        in result.stdout
    table = json.loads((out / "matchups.json").read_text())["table"]
    assert table["purple"]["red"]["games"] == table["red"]["purple"]["games"] == 4
    assert table["purple"]["red"]["score"] + table["red"]["purple"]["score"] == \
        pytest.approx(1)
    assert table["purple"]["purple"]["games"] == 0
    with pytest.raises(matchups.MatchupError, match="a pair is two different choices"):
        matchups.Plan("creature_shrines", BOT, 2, pairs=[["red", "red"]])
    with pytest.raises(matchups.MatchupError, match="not pink"):
        matchups.Plan("creature_shrines", BOT, 2, pairs=[["red", "pink"]])
    with pytest.raises(matchups.MatchupError, match="the choices or the pairs, not both"):
        matchups.Plan("creature_shrines", BOT, 2, chosen=["red"], pairs=[["red", "blue"]])


def test_a_designers_deck_file_is_matched_up_and_an_edit_replays_it(tmp_path):
    shipped = (pathlib.Path(core.creature_shrines.__file__).parent / "data" / "decks.toml")
    decks = tmp_path / "decks.toml"
    # Two decks of the designer's own, alike until the edit below: red as shipped,
    # under two names.
    red = shipped.read_text().split("[deck.red]")[1].split("[deck.green]")[0]
    decks.write_text("[deck.red]" + red + "[deck.tame]"
                     + red.replace("[deck.red.primary]", "[deck.tame.primary]"))
    out = tmp_path / "mu"
    args = ["matchups", f"creature_shrines(mode=rush,decks={decks})", "--bot", BOT,
            "--deals", "1", "--out", str(out), "--workers", "1", "--quiet"]
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    assert "| deck \\ against | red | tame |" in first.stdout
    data = json.loads((out / "matchups.json").read_text())
    assert set(data["table"]) == {"red", "tame"}
    plan = matchups.Plan(f"creature_shrines(mode=rush,decks={decks})", BOT, 1)
    assert plan.configs()[1].game == (f"creature_shrines(mode=rush,decks={decks},"
                                      "deck0=red,deck1=tame)")
    key = plan.configs()[1].key
    # A copy moved, as a designer would.
    decks.write_text(decks.read_text().replace('"Firebolt" = 3', '"Firebolt" = 2', 1)
                     .replace('"Twinfang Raider" = 1', '"Twinfang Raider" = 2', 1))
    edited = matchups.Plan(f"creature_shrines(mode=rush,decks={decks})", BOT, 1)
    assert edited.configs()[1].key != key
    # A deck the rules refuse is named in one line, and nothing is played.
    decks.write_text('[deck.red]\nshrine = "Blaze Hound"\nsecondary = {}\n'
                     '[deck.red.primary]\n')
    bad = cli("matchups", f"creature_shrines(decks={decks})", "--out", str(tmp_path / "b"))
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1
    assert "must be a legendary creature" in bad.stderr
