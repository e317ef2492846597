"""Move review and the tutor (``cardarena review``, ``play --tutor``): ratings that
repeat, that never read a hidden card, and that tell a weak player from a stronger
one; the command's answers to bad input; the tutor driven through the console."""
import io
import math
import os
import random
import statistics
import subprocess

import numpy as np
import pytest

import core
import search
from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store
from tournament.sparring import console, levels, narrate, review, session
from tournament_helpers import CARDARENA

# Small budgets: these tests check what a review is, not how good its searches are.
ITERATIONS = 200


def finished(game, seat, seed, person="random", bot="greedy"):
    """A match played to the end, the person's moves by a bot of spec ``person``."""
    match = session.Match(game, bot, seat, seed)
    player = search.make_bot(person, match.game, seat, seed)
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            action = match.chance_outcome()
        elif match.state.current_player() != seat:
            action = match.bot_action()
        else:
            action = player.step(match.state)
        match.apply(action)
    return match


def states(game, history):
    """Each state ``history`` passes through, with the action taken there."""
    state = game.new_initial_state()
    for action in history:
        yield state.clone(), action
        state.apply_action(action)


def cli(*args, cwd=None):
    return subprocess.run([CARDARENA, *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


# --- the search behind it ----------------------------------------------------------


def test_a_search_values_any_position_for_the_player_it_is_told():
    game = core.load_game("card_duel")
    match = finished("card_duel", 0, 5)
    for state, _ in list(states(game, match.history))[::7]:
        for player in range(2):
            result = search.MCTS(game, "so", iterations=100, seed=1).search(state, player)
            assert 0 <= result.value <= 1 and result.iterations == 100
            if state.current_player() != player:
                assert result.action is None and result.visits == {}
            else:
                # Every iteration passes through one of the player's root moves.
                mean = sum(result.values[a] * n for a, n in result.visits.items()) / 100
                assert math.isclose(result.value, mean)
    with pytest.raises(search.SearchError, match="the game is over"):
        search.MCTS(game, "so", iterations=10).search(match.state, 0)
    with pytest.raises(search.SearchError, match="player is a seat from 0 to 1, not 2"):
        search.MCTS(game, "so", iterations=10).search(game.new_initial_state(), 2)


# --- what a review is --------------------------------------------------------------


@pytest.mark.parametrize("game", ["card_duel", "shrine"])
def test_a_review_repeats_under_a_seed(game):
    match = finished(game, 1, 4)
    first, again = (review.Reviewer(game, 1, ITERATIONS, seed=9).review(match.history)
                    for _ in range(2))
    assert first == again and first.decisions
    other = review.Reviewer(game, 1, ITERATIONS, seed=10).review(match.history)
    assert [d.chosen_value for d in other.decisions] != \
        [d.chosen_value for d in first.decisions]


@pytest.mark.parametrize("game", ["card_duel", "shrine"])
def test_playing_the_reviewers_own_move_every_time_gives_up_nothing(game):
    reviewer = review.Reviewer(game, 0, ITERATIONS, seed=2)
    match = session.Match(game, "greedy", 0, 8)
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance_node():
            action = match.chance_outcome()
        elif state.current_player() != 0:
            action = match.bot_action()
        elif len(state.legal_actions()) == 1:
            action = state.legal_actions()[0]
        else:
            action = reviewer.preferred(state, len(match.history))
        match.apply(action)
    result = reviewer.review(match.history)
    assert len(result.decisions) >= 5
    assert all(d.chosen == d.preferred and d.loss == 0 for d in result.decisions)
    assert result.error_rate == 0 and result.costliest() == []
    assert set(result.marks().values()) == {0}


def test_forced_moves_are_skipped_and_every_choice_is_reviewed():
    game = core.load_game("shrine")
    match = finished("shrine", 0, 3)
    result = review.Reviewer(game, 0, ITERATIONS).review(match.history)
    mine = [(step, len(state.legal_actions()))
            for step, (state, _) in enumerate(states(game, match.history))
            if state.current_player() == 0]
    assert result.forced == sum(n == 1 for _, n in mine) > 0
    assert [d.step for d in result.decisions] == [step for step, n in mine if n > 1]
    assert all(d.choices > 1 for d in result.decisions)


@pytest.mark.parametrize("game", ["card_duel", "shrine"])
def test_positions_that_differ_only_in_hidden_cards_are_rated_alike(game):
    engine = core.load_game(game)
    reviewer = review.Reviewer(engine, 0, ITERATIONS, seed=1)
    compared = 0
    for step, (state, _) in enumerate(states(engine, finished(game, 0, 6).history)):
        if step % 3:
            continue
        # Another position the person cannot tell from this one.
        twin = next((world for k in range(20)
                     if (world := state.determinized(0, k)).to_dict() != state.to_dict()), None)
        if twin is None:
            continue
        assert twin.information_state_string(0) == state.information_state_string(0)
        assert reviewer.value(twin, step) == reviewer.value(state, step)
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            for action in state.legal_actions():
                assert reviewer.judge(twin, step, action) == reviewer.judge(state, step, action)
        compared += 1
    assert compared >= 5


def test_the_luck_of_each_chance_run_is_the_change_in_the_expected_score_across_it():
    match = finished("card_duel", 1, 2)
    reviewer = review.Reviewer("card_duel", 1, ITERATIONS)
    result = reviewer.review(match.history)
    game = match.game
    all_states = [s for s, _ in states(game, match.history)] + [match.state]
    assert result.chance and result.chance[0].step == 0 and result.chance[0].kind == "deal"
    for run in result.chance:
        assert all(s.is_chance_node() for s in all_states[run.step:run.step + run.steps])
        assert not all_states[run.step + run.steps].is_chance_node()
        assert run.before == reviewer.value(all_states[run.step], run.step)
        after = run.step + run.steps
        assert run.after == reviewer.value(all_states[after], after)
    assert math.isclose(result.luck, sum(result.luck_by_kind().values()))
    assert result.result == reviewer.score(match.state) in (0.0, 0.5, 1.0)


@pytest.mark.parametrize("game", ["relinquish", "card_duel"])
def test_a_chance_run_is_named_as_the_seat_was_told_it_never_by_the_card_drawn(game):
    # A Relinquish deal's events are named by the card dealt ("W1 to the Scry pile"),
    # which neither seat sees: the seat was told "deal ??", and so is the review.
    match = finished(game, 0, 0, person="random", bot="random")
    result = review.Reviewer(game, 0, 64).review(match.history)
    cards = set(match.game.cards.kinds) if match.game.cards is not None else set()
    told = {narrate.describe(state, action, 0).split()[0]
            for state, action in states(match.game, match.history) if state.is_chance_node()}
    assert result.chance and result.chance[0].kind == "deal"
    assert {run.kind for run in result.chance} <= told - cards, (told, cards)
    assert "Luck: " in review.report(result) and not any(
        f" {card} " in review.report(result).split("Luck: ")[1] for card in cards)


def test_the_report_gives_each_decision_its_mark_and_the_summary():
    match = finished("card_duel", 0, 11)
    result = review.Reviewer("card_duel", 0, ITERATIONS).review(match.history)
    text = review.report(result)
    assert text.count("\n  step ") >= len(result.decisions)
    assert f"Error rate: {result.error_rate:.3f} given up per decision." in text
    for name, n in result.marks().items():
        assert f"{name} {n}" in text
    for d in result.costliest():
        assert f"  step {d.step + 1}: {d.chosen_name} for {d.preferred_name}, {d.loss:.3f}" \
            in text
    assert f"Luck: {result.luck:+.3f} (deal " in text
    assert review.mark(0.019) is None and review.mark(0.02) == "doubtful"
    assert review.mark(0.05) == "bad" and review.mark(0.5) == "very bad"


def test_a_move_scoring_above_the_reviewers_own_is_not_called_worse():
    def decision(step, chosen_value, preferred_value):
        return review.Decision(step, "", 3, 1, "attack with 8 from hand", chosen_value, 2,
                               "attack with A from hand", preferred_value)

    found = review.Review("card_duel", 0, 100, 0, 4, (decision(0, 0.67, 0.64),
                                                      decision(2, 0.45, 0.60)), 0, (), None)
    lines = review.report(found).splitlines()
    assert ("  step 1: attack with 8 from hand: 0.67, no worse than the reviewer's move, "
            "attack with A from hand, 0.64") in lines
    assert ("  step 3: attack with 8 from hand: 0.45; the reviewer prefers attack with A "
            "from hand, 0.60: gives up 0.150, very bad") in lines


# Three rungs of each game's calibrated ladder (tournament/data), weakest first by
# their measured Elo and far apart in it where the ladder allows, and no stronger than
# the reviewer can rate (its random playouts rate Relinquish's searcher at 32
# iterations and at 512 alike); the reviewer's budget; the deals.  Each was measured
# on these settings (docs/review.md, Checks).
LADDERS = {
    "card_duel": (("random", "ismcts-32", "greedy"), 200, 60),
    "shrine": (("random", "ismcts-16", "greedy"), 1000, 30),
    "relinquish": (("random", "ismcts-4", "ismcts-32"), 1000, 180),
    "creature_shrines": (("random", "ismcts-4", "ismcts-512"), 1000, 60),
    "energy_deckbuilder": (("random", "ismcts-2", "ismcts-512"), 2000, 40),
}
# Checks that take minutes, not seconds, run only when CARDARENA_LONG_CHECKS is set.
# Creature Shrines' failed on its settings with the decks first shipped, on the
# corrected rules (p = 0.056); with the decks shipped now it passes on the same
# settings (docs/review.md, Checks).
LONG = {"relinquish", "creature_shrines"}


def ladder_check(game):
    """The ladder test's parameter for ``game``, skipped as ``LONG`` says."""
    return pytest.param(game, marks=[pytest.mark.skipif(
        game in LONG and not os.environ.get("CARDARENA_LONG_CHECKS"),
        reason="takes minutes: set CARDARENA_LONG_CHECKS")])


def trend_test(blocks, rounds=20_000, seed=0):
    """A permutation test of ordered alternatives: the one-sided p-value of the
    hypothesis that the values of each block (a row, its treatments in the predicted
    order) fall from first to last, against none of the treatments differing.  The
    statistic is Page's, each value weighed by its treatment's place in the order,
    on the values rather than their ranks (a few large losses are the difference
    between two players, and ranks would hide their size).  Under the null hypothesis
    a block's values are exchangeable, so the p-value counts the permutations within
    blocks, ``rounds`` of them drawn under a fixed ``seed``, that give a statistic as
    large."""
    values = np.asarray(blocks, dtype=float)
    weights = np.arange(values.shape[1], 0, -1)
    observed = (values @ weights).sum()
    shuffled = np.random.default_rng(seed).permuted(
        np.broadcast_to(values, (rounds, *values.shape)), axis=2)
    # A permutation that only reorders equal values sums them in another order: equal
    # to the observed statistic but for rounding, and it must count as reaching it.
    higher = np.count_nonzero((shuffled @ weights).sum(axis=1) >= observed - 1e-12)
    return (higher + 1) / (rounds + 1)


def test_the_trend_test_finds_an_order_and_not_its_absence():
    assert trend_test([[3, 2, 1]] * 8) < 0.01
    assert trend_test([[1, 2, 3]] * 8) > 0.99
    assert trend_test([[1, 1, 1]] * 8) == 1.0
    assert 0.3 < trend_test([[3, 2, 1], [1, 2, 3]] * 8) < 0.7


@pytest.mark.parametrize("game", [ladder_check(game) for game in sorted(LADDERS)])
def test_error_rates_fall_as_the_ladder_rises_over_the_same_deals(game):
    # The three rungs each play the same deals, in turn in every seat, against the
    # same greedy opponent.  One decision with a choice is sampled from each rung's
    # game of a deal, and at each of those positions every rung chooses its move and
    # the reviewer rates the three moves with one search: the rungs are compared at
    # the same positions, which the weaker rungs' games and the stronger ones' both
    # bring.  A rung's error rate on a deal is its mean loss over the deal's three
    # positions.  A test of ordered alternatives (``trend_test``), one-sided, at the 1%
    # level: the error rates fall from the weakest rung to the strongest, against no
    # difference.  Every seed is fixed, so it passes or fails the same way every time.
    names, iterations, deals = LADDERS[game]
    rungs = {r.name: r for r in levels.load(game).rungs}
    ladder = [rungs[name] for name in names]
    assert ladder[0].elo < ladder[1].elo < ladder[2].elo
    engine = core.load_game(game)
    blocks = []
    for deal in range(deals):
        seat = deal % engine.num_players
        reviewer = review.Reviewer(engine, seat, iterations, seed=deal)
        losses = [[] for _ in ladder]
        for home in ladder:
            history = finished(game, seat, deal, home.spec).history
            choices = [(step, state) for step, (state, _) in enumerate(states(engine, history))
                       if state.current_player() == seat and len(state.legal_actions()) > 1]
            step, state = random.Random(f"{deal} {home.name}").choice(choices)
            moves = [search.make_bot(r.spec, engine, seat, deal).step(state.clone())
                     for r in ladder]
            for loss, decision in zip(losses, reviewer.judge_each(state, step, moves)):
                loss.append(decision.loss)
        blocks.append([statistics.fmean(loss) for loss in losses])
    p = trend_test(blocks)
    assert p < 0.01, (game, [statistics.fmean(column) for column in zip(*blocks)], p)


def test_a_budget_too_small_to_try_every_move_is_refused_with_a_reason():
    match = finished("shrine", 0, 3)
    with pytest.raises(review.ReviewError, match="1 iterations did not try all"):
        review.Reviewer("shrine", 0, 1).review(match.history)


def test_a_history_with_a_move_the_rules_refuse_is_refused_naming_the_step():
    history = finished("card_duel", 0, 3).history
    reviewer = review.Reviewer("card_duel", 0, ITERATIONS)
    for bad in (history[:30] + [10**6], history + [0]):
        with pytest.raises(review.ReviewError, match=f"step {len(bad)} of the history: "
                           f"action {bad[-1]} is not legal there"):
            reviewer.review(bad)


def test_bad_reviewer_settings_are_refused():
    with pytest.raises(core.PlayerError, match="a seat of card_duel is from 0 to 1, not 2"):
        review.Reviewer("card_duel", 2)
    with pytest.raises(core.ParameterError, match="iterations is a whole number"):
        review.Reviewer("card_duel", 0, 0)


# --- the command -------------------------------------------------------------------


def test_the_command_reviews_a_saved_game_and_repeats_itself(tmp_path):
    match = finished("card_duel", 1, 11)
    match.save(str(tmp_path / "g.json"))
    first = cli("review", "g.json", "--iterations", str(ITERATIONS), "--seed", "4",
                cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    expected = review.Reviewer("card_duel", 1, ITERATIONS, 4).review(match.history)
    assert first.stdout == review.report(expected) + "\n"
    assert first.stdout.startswith("Review of player 1 in card_duel: ")
    again = cli("review", "g.json", "--iterations", str(ITERATIONS), "--seed", "4",
                cwd=tmp_path)
    assert again.stdout == first.stdout


def test_a_review_guided_by_the_games_network_repeats_and_plays_out_to_the_end(tmp_path):
    match = finished("card_duel", 1, 11)
    match.save(str(tmp_path / "g.json"))
    guided = cli("review", "g.json", "--iterations", str(ITERATIONS), "--seed", "4",
                 "--model", "default", cwd=tmp_path)
    assert guided.returncode == 0, guided.stderr
    reviewer = review.Reviewer("card_duel", 1, ITERATIONS, 4, model="default")
    assert guided.stdout == review.report(reviewer.review(match.history)) + "\n"
    assert cli("review", "g.json", "--iterations", str(ITERATIONS), "--seed", "4",
               "--model", "default", cwd=tmp_path).stdout == guided.stdout
    # The network chooses what is tried: the review is its own, not the plain one.
    plain = cli("review", "g.json", "--iterations", str(ITERATIONS), "--seed", "4",
                cwd=tmp_path)
    assert plain.stdout != guided.stdout
    # Its values are playouts' to the end, never the network's, even for a network
    # made to be read at the leaves (value_weight 1): each move's value is a mean of
    # the game's returns (a win 1, a loss 0, a draw a half), which the value head's
    # estimates would not add up to.
    engine = core.load_game("card_duel")
    valued = search.random_model(engine)
    assert valued.value_weight == 1.0
    valued.save(str(tmp_path / "valued.npz"))
    state = engine.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    result = review.Reviewer("card_duel", state.current_player(), ITERATIONS, 4,
                             model=str(tmp_path / "valued.npz"))._search(state, 0)
    assert sum(result.visits.values()) >= ITERATIONS - 1   # the first expands the root
    assert result.values
    for action, value in result.values.items():
        halves = 2 * result.visits[action] * value
        assert abs(halves - round(halves)) < 1e-6, (action, result.visits[action], value)


def test_where_the_network_leaves_a_move_untried_the_reviewer_searches_without_it():
    # Three moves and three iterations: the guided search spends its first iteration
    # on the network at the root and cannot try all three; the plain search tries
    # each once.  The guided reviewer's rating is then the plain one's.
    state = core.load_game("card_duel").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat, moves = state.current_player(), len(state.legal_actions())
    assert moves == 3
    guided = review.Reviewer("card_duel", seat, moves, 4, model="default")._search(state, 0)
    plain = review.Reviewer("card_duel", seat, moves, 4)._search(state, 0)
    assert sorted(guided.values) == sorted(state.legal_actions())
    assert (guided.values, guided.visits) == (plain.values, plain.visits)


@pytest.mark.parametrize("model, message", [
    ("nothing.npz", "no model file nothing.npz"),
    ("other.npz", "was made for shrine, not card_duel"),
])
def test_a_model_the_reviewer_cannot_use_is_refused_in_one_line(tmp_path, model, message):
    finished("card_duel", 0, 1).save(str(tmp_path / "g.json"))
    search.random_model(core.load_game("shrine")).save(str(tmp_path / "other.npz"))
    result = cli("review", "g.json", "--model", model, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("cardarena review: ") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A tournament database of two games of Card Duel, and its rows."""
    db = str(tmp_path_factory.mktemp("db") / "t.db")
    config = configs.parse({"game": "card_duel", "deals": 1, "seed": 3,
                            "seconds_per_move": 10.0,
                            "bots": {"random": "random", "greedy": "greedy"}})
    with Store(db) as store:
        runner.run(config, store, workers=1, progress=False)
        return db, store.games(config.key)


def test_the_command_reviews_a_stored_game_from_the_seat_asked(stored):
    db, rows = stored
    row = rows[0]
    result = cli("review", db, str(row.id), "--seat", "1", "--iterations", str(ITERATIONS))
    assert result.returncode == 0, result.stderr
    expected = review.Reviewer(row.game, 1, ITERATIONS).review(row.history)
    assert result.stdout == review.report(expected) + "\n"
    assert expected.result == (row.returns[1] + 1) / 2


@pytest.mark.parametrize("args, status, message", [
    (["nothing.json"], 1, "cannot read nothing.json: No such file or directory"),
    (["notes.txt"], 1, "notes.txt is not a saved game: "),
    (["DB"], 2, "DB is a tournament database: give a game's id too"),
    (["DB", "999"], 1, "no game 999"),
    (["DB", "1"], 2, "give --seat N, the player of game 1 to review: 0 ("),
    (["DB", "1", "--seat", "2"], 2, "a seat of card_duel is from 0 to 1, not 2"),
    (["g.json", "--seat", "0"], 2, "--seat is for a stored game"),
    (["missing.db", "1", "--seat", "0"], 1, "no such file: missing.db"),
])
def test_the_command_says_clearly_what_is_wrong(tmp_path, stored, args, status, message):
    (tmp_path / "notes.txt").write_text("a shopping list\n")
    finished("card_duel", 0, 1).save(str(tmp_path / "g.json"))
    args = [stored[0] if a == "DB" else a for a in args]
    result = cli("review", *args, cwd=tmp_path)
    assert result.returncode == status and result.stdout == ""
    assert result.stderr.startswith("cardarena review: ")
    assert message.replace("DB", stored[0]) in result.stderr
    assert len(result.stderr.splitlines()) == 1


# --- in the console ----------------------------------------------------------------


class Script:
    """Lines typed at the console, then end of input; what it asked is kept."""

    def __init__(self, lines):
        self.lines, self.prompts = list(lines), []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def first_decision(game, bot, seat, seed):
    """A match brought to the person's first decision with a choice."""
    match = session.Match(game, bot, seat, seed)
    while match.state.is_chance_node() or match.state.current_player() != seat \
            or match.forced():
        state = match.state
        action = match.chance_outcome() if state.is_chance_node() else \
            match.bot_action() if state.current_player() != seat else state.legal_actions()[0]
        match.apply(action)
    return match


def test_the_tutor_warns_before_a_bad_move_and_plays_it_when_asked_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    match = first_decision("card_duel", "greedy", 0, 11)
    legal = match.state.legal_actions()
    rated = [match.judge(a, ITERATIONS) for a in legal]
    worst = max(rated, key=lambda d: d.loss)
    assert worst.loss > 0.05, "no bad move here: this test tells nothing"
    bad = legal.index(worst.chosen) + 1
    before = list(match.history)
    out = io.StringIO()
    script = Script([str(bad), str(bad)])
    console.Console(match, out=out, status=io.StringIO(), read=script, tutor=0.05,
                 iterations=ITERATIONS).run()
    text = out.getvalue()
    best = legal.index(worst.preferred) + 1
    assert f"tutor: {bad}. {worst.chosen_name} gives up {worst.loss:.3f} of your expected " \
        f"score ({worst.mark}): {worst.chosen_value:.2f}, where {best}. " \
        f"{worst.preferred_name} has {worst.preferred_value:.2f}." in text
    assert f"Type {bad} again to play it anyway, or choose another move." in text
    # Warned once, then played at the second asking.
    assert text.count("tutor: ") == 1
    assert match.history[len(before)] == worst.chosen
    assert text.index("tutor: ") < text.index(f"  you: {worst.chosen_name}")


def test_the_tutor_lets_a_good_move_through_and_a_changed_mind_is_not_warned(tmp_path,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    match = first_decision("card_duel", "greedy", 0, 11)
    legal = match.state.legal_actions()
    rated = [match.judge(a, ITERATIONS) for a in legal]
    worst = max(rated, key=lambda d: d.loss)
    good = legal.index(worst.preferred) + 1
    step = len(match.history)
    out = io.StringIO()
    console.Console(match, out=out, status=io.StringIO(), tutor=0.05, iterations=ITERATIONS,
                 read=Script([str(legal.index(worst.chosen) + 1), str(good)])).run()
    text = out.getvalue()
    assert text.count("tutor: ") == 1
    assert match.history[step] == worst.preferred


@pytest.mark.parametrize("given, warnings", [([], 1), (["doubtful"], 1), (["very bad"], 1),
                                             (["0.03"], 2)])
def test_the_tutor_warns_above_the_games_threshold_of_the_mark_asked(tmp_path, given,
                                                                     warnings):
    # Here the moves give up 0.039 and 0.142: between them lie Card Duel's thresholds of
    # a doubtful and a bad move, below both that of a very bad one.
    match = first_decision("card_duel", "greedy", 0, 11)
    legal = match.state.legal_actions()
    thresholds = dict(review.Reviewer("card_duel", 0).thresholds)
    threshold = float(given[0]) if given and given[0][0].isdigit() else \
        thresholds[given[0] if given else "bad"]
    warned = []
    for decision in (match.judge(a, ITERATIONS) for a in legal):
        if decision.loss == 0:
            continue
        result = subprocess.run([CARDARENA, "play", "card_duel", "--seed", "11", "--tutor",
                                 *given, "--review-iterations", str(ITERATIONS)],
                                input=f"{legal.index(decision.chosen) + 1}\n",
                                capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert ("tutor: " in result.stdout) == (decision.loss > threshold)
        warned.append("tutor: " in result.stdout)
    assert sum(warned) == warnings


def test_the_tutor_refuses_a_threshold_it_cannot_read(tmp_path):
    result = cli("play", "card_duel", "--tutor", "awful", cwd=tmp_path)
    assert result.returncode == 2
    assert "argument --tutor: a score given up, from 0 up to 1, or a mark (very bad, bad, " \
        "doubtful), not 'awful'" in result.stderr


def test_review_at_the_prompt_and_after_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    match = first_decision("card_duel", "greedy", 1, 3)
    out = io.StringIO()
    moves = ["review"] + ["1"] * 200

    def read(prompt):
        if prompt.startswith("review your moves?"):
            return "review"
        return moves.pop(0)

    assert console.Console(match, out=out, status=io.StringIO(), read=read, offer_review=True,
                        iterations=ITERATIONS).run() == 0
    text = out.getvalue()
    assert match.state.is_terminal()
    assert text.count("Review of player 1 in card_duel: ") == 2
    final = match.review(ITERATIONS)
    assert text.rstrip("\n").endswith(review.report(final))
    assert "review       rate each of your decisions so far" in console.HELP
