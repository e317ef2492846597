"""Deals played with their cards rotated through the seats (``Config.rotations``): the
config option, the games it asks for, how the runner deals and rotates them, what the
store keeps, and replays of the games it played."""
import io
import random
import sqlite3

import pyspiel
import pytest

from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.deals import Deal
from tournament.harness.store import Store
from tournament.sparring.narrate import narrate
from tournament.stats.ratings import list_games
from tournament_helpers import make_config

DUEL = {"game": "card_duel", "deals": 2, "seed": 1,
        "bots": {"random": "random", "greedy": "greedy"}}


def duel(**fields):
    return configs.parse({**DUEL, **fields})


# --- the config ---------------------------------------------------------------------


def test_rotations_are_off_by_default_and_leave_every_key_as_it_was():
    # The key this config had before rotations existed.
    assert duel().key == "0c20468b78365a61"
    assert duel(rotations=False).key == duel().key and not duel().rotations
    assert duel(rotations=True).key != duel().key


def test_a_rotated_config_plays_each_deal_in_every_seating_and_every_rotation():
    config = duel(rotations=True)
    assert config.deal_rotations() == (0, 1) and config.games_per_deal == 4
    assert list(config.games(1)) == [(0, ("random", "greedy"), 0), (0, ("random", "greedy"), 1),
                                     (0, ("greedy", "random"), 0), (0, ("greedy", "random"), 1)]
    three = configs.parse({**DUEL, "game": "relinquish(players=3)", "rotations": True})
    assert three.deal_rotations() == (0, 1, 2)
    assert three.games_per_deal == len(three.seatings()) * 3
    assert [g[1:] for g in duel().games(1)] == [(("random", "greedy"), 0),
                                                (("greedy", "random"), 0)]


@pytest.mark.parametrize("fields, message", [
    ({"game": "creature_shrines"}, "rotations: creature_shrines: the seats play different "
                                   "decks (red and blue), so rotating them would change "
                                   "the match-up, not the luck of the draw"),
    ({"game": "leduc_poker"}, "rotations: leduc_poker is OpenSpiel's game, which does not "
                              "say what its seats are dealt, so its deal cannot be rotated"),
    ({"rotations": "yes"}, "rotations is true or false, not 'yes'"),
])
def test_a_game_that_cannot_rotate_its_deal_is_refused_in_one_line(fields, message):
    with pytest.raises(configs.ConfigError) as refused:
        configs.parse({**DUEL, "rotations": True, **fields})
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


# --- playing and storing ---------------------------------------------------------------


def test_the_games_are_stored_with_their_rotation_and_a_rerun_plays_none(tmp_path):
    config = duel(rotations=True)
    with Store(str(tmp_path / "r.db")) as store:
        assert runner.run(config, store, workers=1, progress=False) == 8
        rows = store.games(config.key)
        assert sorted((r.deal, tuple(r.seating), r.rotation) for r in rows) == \
            sorted(config.games())
        assert store.done(config) == set(config.games())
        assert runner.run(config, store, workers=1, progress=False) == 0
        assert store.tournaments()[-1]["config"]["rotations"] is True


def test_a_rotated_game_holds_the_cards_the_other_seat_was_dealt(tmp_path):
    config = duel(rotations=True)
    with Store(str(tmp_path / "r.db")) as store:
        runner.run(config, store, workers=1, progress=False)
        rows = {(r.deal, tuple(r.seating), r.rotation): r for r in store.games(config.key)}
    seating = ("random", "greedy")
    pools = [dealt_pools(rows[0, seating, k]) for k in (0, 1)]
    assert pools[1] == pools[0][::-1]
    # Both rotations deal the same cards: the same chance outcomes up to the rotation.
    assert rows[0, seating, 0].history[:26] == rows[0, seating, 1].history[:26]


def dealt_pools(row):
    """Each seat's pool in the game of ``row``, where its deal has just been played."""
    state = pyspiel.load_game(row.game).new_initial_state()
    deal = Deal(None, row.rotation)
    for action in row.history:
        deal.step(state)
        if state.core.just_dealt() and deal.rotated:
            return [p["deck"] for p in state.core.to_dict()["players"]]
        state.apply_action(action)
    raise AssertionError("the game was never dealt")


def test_every_stored_rotated_game_replays_to_its_result(tmp_path):
    config = configs.parse({**DUEL, "game": "shrine", "rotations": True})
    with Store(str(tmp_path / "r.db")) as store:
        runner.run(config, store, workers=1, progress=False)
        rows = store.games(config.key)
    for row in rows:
        state, out = pyspiel.load_game(row.game).new_initial_state(), io.StringIO()
        told = narrate(state, row.history, row.seating, out, row.rotation)
        assert told.returns() == row.returns
        assert ("The cards dealt move 1 seat on." in out.getvalue()) == bool(row.rotation)


def test_a_game_as_dealt_draws_from_one_stream_seeded_by_its_deal():
    config = duel()
    row = runner.play(runner.job(config, 0, ("random", "greedy")))
    assert row.rotation == 0
    chance = random.Random(config.deal_seed(0))
    state = pyspiel.load_game("card_duel").new_initial_state()
    for action in row.history:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert action == chance.choices(actions, probs)[0]
        state.apply_action(action)


def test_a_seats_own_libraries_follow_it_into_the_other_seat():
    # In a Creature Shrines mirror nothing is dealt from a shared pile: a rotation
    # moves the order of each seat's libraries, as a shuffled deck would go with its
    # seat.  Seat 0's first draws in rotation 1 are seat 1's in rotation 0.
    config = configs.parse({**DUEL, "game": "creature_shrines(deck0=red,deck1=red)",
                            "deals": 1, "rotations": True,
                            "bots": {"a": "random", "b": "random"}})
    rows = {k: runner.play(runner.job(config, 0, ("a", "b"), k)) for k in (0, 1)}
    draws = {k: opening_draws(rows[k]) for k in (0, 1)}
    assert draws[1][0] == draws[0][1] and draws[1][1] == draws[0][0]
    assert draws[0][0] != draws[0][1]


def opening_draws(row):
    """The first three cards each seat of ``row`` drew from its Primary Library."""
    state = pyspiel.load_game(row.game).new_initial_state()
    drawn = {0: [], 1: []}
    for action in row.history:
        if state.is_chance_node():
            seat, pile = state.core.chance_source()
            if pile == "primary":
                drawn[seat].append(action)
        state.apply_action(action)
    return {seat: cards[:3] for seat, cards in drawn.items()}


# --- stores written before rotations ------------------------------------------------

# The games table as stores had it before rotations.
OLD_GAMES = """
CREATE TABLE tournaments (key TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
                          created REAL NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY, tournament TEXT NOT NULL REFERENCES tournaments(key),
    game TEXT NOT NULL, deal INTEGER NOT NULL, deal_seed INTEGER NOT NULL,
    seating TEXT NOT NULL, specs TEXT NOT NULL, returns TEXT NOT NULL,
    length INTEGER NOT NULL, history TEXT NOT NULL, status TEXT NOT NULL, failed TEXT,
    message TEXT, seconds TEXT NOT NULL, finished REAL NOT NULL,
    UNIQUE (tournament, deal, seating));
"""


def old_store(path, config):
    """A store as written before rotations, holding one game of ``config``."""
    row = runner.play(runner.job(config, 0, ("random", "greedy")))
    with sqlite3.connect(path) as db:
        db.executescript(OLD_GAMES)
        db.execute("INSERT INTO tournaments VALUES (?, ?, '{}', 0)", (config.key, config.game))
        db.execute("INSERT INTO games (tournament, game, deal, deal_seed, seating, specs, "
                   "returns, length, history, status, seconds, finished) "
                   "VALUES (?, ?, 0, ?, '[\"random\", \"greedy\"]', '[]', ?, ?, '[]', "
                   "'ok', '[0, 0]', 0)",
                   (config.key, config.game, row.deal_seed, str(row.returns), row.length))
    return row


def test_an_old_store_reads_as_dealt_and_takes_rotated_games_once_opened_to_write(tmp_path):
    path, config = str(tmp_path / "old.db"), duel()
    old_store(path, config)
    with Store(path, readonly=True) as store:
        (row,) = store.games(config.key)
        assert row.rotation == 0 and store.done(config) == {(0, ("random", "greedy"), 0)}
    with Store(path) as store:
        (row,) = store.games(config.key)
        assert row.rotation == 0
        rotated = duel(rotations=True)
        assert runner.run(rotated, store, workers=1, progress=False) == 8
        assert runner.run(config, store, workers=1, progress=False) == 3
    with sqlite3.connect(path) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master "
                                                 "WHERE type = 'table'")]
    assert tables == ["tournaments", "games"]


def test_the_games_list_shows_the_rotation_only_where_there_is_one(tmp_path):
    with Store(str(tmp_path / "r.db")) as store:
        for config in (duel(), duel(rotations=True)):
            runner.run(config, store, workers=1, progress=False)
        plain, rotated = (store.games(c.key) for c in (duel(), duel(rotations=True)))
    assert "rotat" not in list_games(plain) + list_games(plain, "json")
    assert "rotated 1" in list_games(rotated)
    assert list_games(rotated, "csv").splitlines()[0] == \
        "id,deal,rotation,seating,returns,status,failed,decisions"
    assert '"rotation": 1' in list_games(rotated, "json")


def test_the_harness_config_of_a_tournament_file_takes_rotations(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('game = "card_duel"\ndeals = 1\nrotations = true\n'
                    '[bots]\na = "random"\nb = "random"\n')
    assert configs.load(str(path)).rotations
    assert not make_config().rotations
