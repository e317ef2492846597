"""Sparring (``cardarena play``): the installed program driven through a pseudo-terminal
as a person drives it, and its pieces through ``tournament.sparring``."""
import io
import json
import os
import random
import re
import shlex
import signal
import subprocess
import threading

import pexpect
import pytest

import core
from tournament.sparring import console, narrate, session
from tournament_helpers import CARDARENA

BOT = "ismcts(iterations=50,rollout_depth=4)"
PROMPT = r"your move \(1-(\d+), or help\)> "
OVER = r"(You win\.|Player \d \(.*\) wins\.|A draw\.) Returns: player 0 [-+]\d+, player 1 [-+]\d+\."


class Terminal:
    """``cardarena play ARGS`` on a pseudo-terminal, read one prompt at a time."""

    def __init__(self, *args, cwd):
        self.child = pexpect.spawn(CARDARENA, ["play", *args], cwd=str(cwd), encoding="utf-8",
                                   timeout=60, dimensions=(40, 200))
        # pexpect waits 50 ms before each line it sends by default: a whole game's
        # worth adds seconds and proves nothing.
        self.child.delaybeforesend = None
        self.moves = None

    def wait(self):
        """The text shown up to the next prompt, or to the end of the game (then
        ``moves`` is None)."""
        if self.child.expect([PROMPT, OVER]) == 0:
            self.moves = int(self.child.match.group(1))
            return clean(self.child.before)
        self.moves = None
        return clean(self.child.before + self.child.after)

    def send(self, line):
        self.child.sendline(line)
        return self.wait()

    def exit_status(self):
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


def clean(text):
    """``text`` as it reads on the screen: plain newlines, spinner frames wiped."""
    text = text.replace("\r\n", "\n")
    return re.sub(r"\r[^\n]*?\x1b\[K", "", text)


@pytest.mark.parametrize("how, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_game_is_saved_and_exits_as_a_shell_expects(tmp_path, how, status):
    term = Terminal("card_duel", "--bot", "random", "--seed", "2", cwd=tmp_path)
    term.wait()
    term.send("1")
    term.child.kill(how)
    saved = "cardarena-card_duel-random-seat0-2.json"
    term.child.expect_exact(f"Saved to {saved}.")
    assert term.exit_status() == status
    assert session.Match.load(str(tmp_path / saved)).seed == 2


def test_a_game_stopped_before_the_person_moved_saves_nothing(tmp_path):
    term = Terminal("card_duel", "--bot", "random", "--seed", "2", cwd=tmp_path)
    term.wait()
    term.child.sendline("quit")
    term.child.expect_exact("Nothing played since the game began: nothing saved.")
    assert term.exit_status() == 0
    assert os.listdir(tmp_path) == []


def test_quit_after_load_saves_back_to_the_loaded_file_and_says_so(tmp_path):
    term = Terminal("card_duel", "--bot", "random", "--seed", "2", cwd=tmp_path)
    term.wait()
    term.send("1")
    term.send("save my game.json")
    term.child.sendline("quit")
    term.child.expect_exact("Nothing played since")
    assert term.exit_status() == 0
    again = Terminal("card_duel", "--load", "my game.json", cwd=tmp_path)
    again.wait()
    again.send("1")
    again.child.sendline("quit")
    again.child.expect_exact("Saved back to my game.json, the file the game was loaded "
                             "from.")
    assert again.exit_status() == 0
    assert sorted(os.listdir(tmp_path)) == ["my game.json"]
    assert len(session.Match.load(str(tmp_path / "my game.json")).history) > len(
        session.Match("card_duel", "random", 0, 2).history) + 2


def test_a_default_save_name_needs_no_quoting_in_a_shell():
    match = session.Match("shrine(alt_heal=true)", "ismcts(seconds=1,rollout_depth=8)", 1, 7)
    assert match.save_path == ("cardarena-shrine-alt_heal-true-ismcts-seconds-1.0-"
                               "rollout_depth-8-seat1-7.json")
    assert shlex.quote(match.save_path) == match.save_path


def screen(text):
    """The last board and list of moves in ``text``, from its heading on."""
    return text[text.rindex("== Your move"):]


def test_a_whole_game_of_shrine_at_the_terminal(tmp_path):
    term = Terminal("shrine", "--bot", BOT, "--seed", "3", cwd=tmp_path)
    text = term.wait()
    assert f"you are player 0 against {BOT}, seed 3." in text
    # The deal, on one wrapped line: both Shrine tops and the person's hand, no more.
    assert re.search(r"chance: deal (\?\?, ){4}\w+, (\?\?, ){4}(\w+, ){6}(\?\?, ){4}\?\?\n",
                     text.replace("\n    ", " "))
    first, moves = screen(text), term.moves
    assert re.search(r"player 1: Shrine (\?\? ){4}\w+ \(top last\) \| Field - \| "
                     r"hand 5: \?\? \?\? \?\? \?\? \?\?\n", first)
    assert f"{moves:2}. " in first and f"{moves + 1:2}. " not in first

    for line, message in [("abc", "'abc' is neither a move number nor a command"),
                          ("0", f"There is no move 0: choose one from 1 to {moves}."),
                          (str(moves + 1), f"There is no move {moves + 1}"),
                          ("", f"Type a move's number, from 1 to {moves}, or help."),
                          ("1 2", "'1 2': only save, load and card take something after them"),
                          ("undo 2", "'undo 2': only save, load and card take something after them"),
                          ("load missing.json", "cannot read missing.json: No such file"),
                          ("help", "undo         go back to your previous decision")]:
        assert message in term.send(line)
        assert term.moves == moves
    (tmp_path / "bad.json").write_text("{not json")
    assert "bad.json is not a saved game" in term.send("load bad.json")

    hint = re.search(r"hint: (\d+)\. (.+): (\d+)% of 50 visits, expected score [01]\.\d\d of 1",
                     term.send("hint"))
    assert hint and 1 <= int(hint.group(1)) <= moves
    assert f"{int(hint.group(1)):2}. {hint.group(2)}\n" in first

    assert "Nothing to undo: this is your first decision." in term.send("undo")
    after = term.send("1")
    assert after.startswith("1\n  you: ")
    text = term.send("undo")
    assert "Back to your previous decision." in text and screen(text) == first

    assert "Saved to mid.json." in term.send("save mid.json")
    term.send(str(moves))
    text = term.send("load mid.json")
    assert "Loaded mid.json: Shrine (shrine): you are player 0" in text
    assert screen(text) == first

    # Play on with seeded choices; stop with end of input part-way.
    rng = random.Random(1)
    for _ in range(6):
        text = term.send(str(rng.randint(1, term.moves)))
        assert term.moves, "the game ended too soon for this test"
    before_eof = screen(text)
    term.child.sendeof()
    # The game was loaded from mid.json, and goes on being saved there.
    saved = "mid.json"
    term.child.expect_exact(f"Saved back to {saved}, the file the game was loaded from.")
    term.child.expect_exact(f"Resume with: cardarena play shrine --load {saved}")
    assert term.exit_status() == 0

    term = Terminal("shrine", "--load", saved, cwd=tmp_path)
    text = term.wait()
    assert f"Loaded {saved}: Shrine (shrine)" in text
    assert screen(text) == before_eof
    while term.moves:
        text = term.send(str(rng.randint(1, term.moves)))
    assert re.search(OVER, text) and "== Game over after " in text
    assert term.exit_status() == 0


def test_quit_saves_the_game_and_load_resumes_it(tmp_path):
    term = Terminal("shrine", "--bot", "greedy", "--seed", "5", "--seat", "1", cwd=tmp_path)
    term.wait()
    first = screen(term.send("1"))
    term.child.sendline("quit")
    term.child.expect_exact("Saved to cardarena-shrine-greedy-seat1-5.json.")
    assert term.exit_status() == 0
    saved = json.loads((tmp_path / "cardarena-shrine-greedy-seat1-5.json").read_text())
    assert saved["game"] == "shrine" and saved["bot"] == "greedy"
    assert saved["seat"] == 1 and saved["seed"] == 5 and saved["history"]

    term = Terminal("shrine", "--load", "cardarena-shrine-greedy-seat1-5.json", cwd=tmp_path)
    assert screen(term.wait()) == first
    term.child.sendline("quit")
    assert term.exit_status() == 0


def run(*args, cwd):
    """``cardarena play ARGS`` that plays the first move offered, then meets the end of
    its input, which saves the game."""
    return subprocess.run([CARDARENA, "play", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd, input="1\n")


@pytest.mark.parametrize("args, status, message", [
    (["shrin"], 2, "cardarena play: unknown game 'shrin' (did you mean shrine"),
    (["shrine", "--bot", "ismcts(rollout=smart)"], 2,
     "cardarena play: ismcts: rollout is one of random, heuristic, not 'smart'"),
    (["shrine", "--seat", "2"], 2, "cardarena play: a seat of shrine is from 0 to 1, not 2"),
    (["shrine", "--load", "nowhere.json"], 1,
     "cardarena play: cannot read nowhere.json: No such file or directory"),
])
def test_bad_arguments_stop_with_one_clear_line(tmp_path, args, status, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == status
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_a_closed_standard_input_stops_with_one_clear_line(tmp_path):
    result = subprocess.run(["sh", "-c", f"'{CARDARENA}' play shrine <&-"], capture_output=True,
                            text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "cardarena play: standard input is closed: there is nothing to " \
                            "read moves from\n" and result.stdout == ""


def test_a_saved_game_loads_only_as_the_game_it_is(tmp_path):
    session.Match("shrine(alt_heal=true)", "random", 0, 1).save(str(tmp_path / "g.json"))
    result = run("shrine", "--load", "g.json", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "cardarena play: g.json holds a game of shrine(alt_heal=true), " \
                            "not shrine\n"


def test_a_game_against_openspiels_bot_is_saved_at_the_end_of_input(tmp_path):
    # OpenSpiel's bot answers with numpy integers, which the save must still write.
    bot = "openspiel_ismcts(iterations=5)"
    result = run("card_duel", "--seat", "1", "--bot", bot, "--seed", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    path = "cardarena-card_duel-openspiel_ismcts-iterations-5-seat1-1.json"
    assert f"Saved to {path}." in result.stdout
    saved = session.Match.load(str(tmp_path / path))
    assert saved.bot == bot and "player 0: keep ??" in result.stdout


def talk(*lines, env=None, cwd):
    """``cardarena play shrine`` (random bot, seed 1) fed ``lines``, as bytes."""
    return subprocess.run([CARDARENA, "play", "shrine", "--bot", "random", "--seed", "1"],
                          input=b"".join(line + b"\n" for line in lines), capture_output=True,
                          timeout=60, cwd=cwd, env={**os.environ, **(env or {})})


def test_a_line_the_terminals_encoding_cannot_read_is_answered(tmp_path):
    # Strict decoding, as in most locales (C.UTF-8 escapes such bytes instead).
    result = talk(b"caf\xe9", b"quit", env={"PYTHONIOENCODING": "utf-8:strict"}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert "'caf\ufffd' is neither a move number nor a command" in result.stdout.decode()


def test_a_file_name_no_file_can_have_is_answered(tmp_path):
    result = talk(b"save a\x00b", b"1", b"quit", cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert "Cannot save to 'a\\x00b': embedded null byte." in result.stdout.decode()
    assert os.listdir(tmp_path) == ["cardarena-shrine-random-seat0-1.json"]


def test_a_quit_that_cannot_save_says_how_to_go_on(tmp_path):
    (tmp_path / "cardarena-shrine-random-seat0-1.json").mkdir()
    out = talk(b"1", b"quit", cwd=tmp_path).stdout.decode()
    assert "Cannot save to cardarena-shrine-random-seat0-1.json: Is a directory.\nThe game goes on: " \
           "save FILE saves it elsewhere, and end of input (Ctrl-D) stops without saving." in out


def test_a_game_that_ends_is_saved_for_a_later_review(tmp_path):
    result = subprocess.run([CARDARENA, "play", "card_duel", "--bot", "random", "--seed",
                             "2"], input="1\n" * 300, capture_output=True, text=True,
                            timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    saved = "cardarena-card_duel-random-seat0-2.json"
    assert f"Saved to {saved}.\nReview it with: cardarena review {saved}\n" in result.stdout
    assert session.Match.load(str(tmp_path / saved)).state.is_terminal()


def test_load_keeps_the_moves_of_the_game_it_leaves(tmp_path):
    talk(b"save other.json", b"quit", cwd=tmp_path)
    out = talk(b"1", b"load other.json", b"quit", cwd=tmp_path).stdout.decode()
    left = "cardarena-shrine-random-seat0-1.json"
    assert f"Saved to {left}.\nLoaded other.json: " in out
    assert len(session.Match.load(str(tmp_path / left)).history) > len(
        session.Match.load(str(tmp_path / "other.json")).history)


def test_two_games_of_one_seed_are_saved_apart(tmp_path):
    games = ["shrine", "shrine(alt_heal=true)"]
    for game in games:
        assert run(game, "--bot", "random", "--seed", "3", cwd=tmp_path).returncode == 0
    for game, name in zip(games, ["shrine", "shrine-alt_heal-true"]):
        path = tmp_path / f"cardarena-{name}-random-seat0-3.json"
        assert session.Match.load(str(path)).game == core.load_game(game)


def test_games_against_other_bots_or_from_other_seats_are_saved_apart(tmp_path):
    for bot, seat in (("random", "0"), ("greedy", "0"), ("random", "1")):
        result = run("shrine", "--bot", bot, "--seat", seat, "--seed", "3", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == [
        "cardarena-shrine-greedy-seat0-3.json", "cardarena-shrine-random-seat0-3.json",
        "cardarena-shrine-random-seat1-3.json"]


def test_quit_never_writes_over_a_save_this_game_did_not_make(tmp_path):
    talk(b"save cardarena-shrine-random-seat0-1.json", b"1", b"quit", cwd=tmp_path)
    made = (tmp_path / "cardarena-shrine-random-seat0-1.json").read_text()
    out = talk(b"1", b"quit", cwd=tmp_path).stdout.decode()
    assert "cardarena-shrine-random-seat0-1.json holds another save, kept as it is.\n" \
           "Saved to cardarena-shrine-random-seat0-1-2.json." in out
    assert (tmp_path / "cardarena-shrine-random-seat0-1.json").read_text() == made
    # A game loaded from the file, or saved to it, goes on saving there.
    out = talk(b"load", b"1", b"quit", cwd=tmp_path).stdout.decode()
    assert "kept as it is" not in out
    assert ("Saved back to cardarena-shrine-random-seat0-1.json, the file the game was "
            "loaded from.") in out
    out = talk(b"save", b"1", b"quit", cwd=tmp_path).stdout.decode()
    assert "kept as it is" not in out
    assert out.count("Saved to cardarena-shrine-random-seat0-1.json.") == 2


def test_without_a_seed_one_is_chosen_and_shown(tmp_path):
    result = run("shrine", "--bot", "random", cwd=tmp_path)
    assert result.returncode == 0
    seed = re.search(r"against random, seed (\d+)\.", result.stdout).group(1)
    assert (tmp_path / f"cardarena-shrine-random-seat0-{seed}.json").exists()


# --- the pieces ------------------------------------------------------------------------


def test_card_duel_plays_to_the_end_with_the_bots_hand_kept_secret(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    match = session.Match("card_duel", "greedy", 1, 11)
    out = io.StringIO()
    rng = random.Random(2)
    term = console.Console(match, out=out, status=io.StringIO(),
                           read=lambda prompt: str(rng.randint(1, len(
                               match.state.legal_actions()))))
    assert term.run() == 0
    text = out.getvalue()
    assert text.startswith("Card Duel (card_duel): you are player 1 against greedy, seed 11.")
    # Player 0 builds in secret: one choice per class of its pool, each unseen, told on
    # one line.
    assert re.search(r"\n  player 0: keep \?\? \(\d+ times\)\n", text)
    assert "player 0: keep " not in text.replace("player 0: keep ??", "")
    assert "== Game over after " in text and re.search(OVER, text)
    assert match.state.is_terminal()


def played(game, bot, seat, seed):
    """A whole game through the console, the person choosing at random from ``seed``:
    the match at its end and what the screen showed."""
    match = session.Match(game, bot, seat, seed)
    out = io.StringIO()
    rng = random.Random(seed)
    console.Console(match, out=out, status=io.StringIO(),
                 read=lambda prompt: str(rng.randint(1, len(match.state.legal_actions())))).run()
    return match, out.getvalue()


# A Balance card the bot draws in this game makes the person's Shrine take cards face down.
BALANCE = ("shrine(balance=true)", "greedy", 0, 15)


def test_a_run_of_chance_events_named_in_several_words_names_them_once():
    # Only the card that ends on top is seen; those under it are told as ??, with
    # their kind, "add face down", told once for the run.
    run = re.search(r"chance: add (.*)", played(*BALANCE)[1]).group(1)
    assert "," in run and run.count("face down") == 1 and run.startswith("face down ??")


def test_no_chance_event_is_told_in_more_detail_than_the_person_learns():
    match, _ = played(*BALANCE)
    state = match.game.new_initial_state()
    for action in match.history:
        if state.is_chance_node():
            told = {}
            for a in state.legal_actions():
                after = state.clone()
                after.apply_action(a)
                told.setdefault(after.information_state_string(match.seat), set()).add(
                    narrate.describe(state, a, match.seat))
            assert all(len(words) == 1 for words in told.values()), told
        state.apply_action(action)


def states(game, seed):
    """Every position of a seeded game between random players (one state, moved on
    after each is yielded)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", ["shrine", "card_duel"])
def test_moves_are_told_alike_when_the_person_cannot_tell_them_apart(game):
    hidden = 0
    for state in states(core.load_game(game), 4):
        for observer in (0, 1):
            told = {}
            for a in state.legal_actions():
                told.setdefault(state.action_view(a, observer), set()).add(
                    narrate.describe(state, a, observer))
            for view, words in told.items():
                assert len(words) == 1, (view, words)
                if view < 0:
                    hidden += 1
                    assert words.pop().endswith("??")
    assert hidden


@pytest.mark.parametrize("game", ["shrine", "card_duel"])
def test_the_board_shows_nothing_the_person_cannot_know(game):
    for i, state in enumerate(states(core.load_game(game), 5)):
        if i % 7 == 0:
            for seat in (0, 1):
                world = state.determinized(seat, i)
                assert session.board(world, seat) == session.board(state, seat)


def advance(match):
    """Play chance, the bot and forced moves up to the person's next choice."""
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            match.apply(match.chance_outcome())
        elif match.state.current_player() != match.seat:
            match.apply(match.bot_action())
        elif match.forced():
            match.apply(match.state.legal_actions()[0])
        else:
            return match
    return match


def drive(match, seed, hints, choices=100):
    """Play ``match`` on for up to ``choices`` of the person's choices, made at random
    from ``seed``, asking for a hint before each if ``hints``."""
    rng = random.Random(seed)
    for _ in range(choices):
        if advance(match).state.is_terminal():
            break
        if hints:
            hint, confidence = match.hint()
            assert hint in match.state.legal_actions() and confidence
        match.apply(rng.choice(match.state.legal_actions()))
    return match


def test_hints_change_nothing_and_a_history_replays_to_the_same_game():
    hinted = drive(session.Match("shrine", BOT, 0, 9), seed=3, hints=True)
    plain = drive(session.Match("shrine", BOT, 0, 9), seed=3, hints=False)
    assert hinted.history == plain.history
    again = session.Match("shrine", BOT, 0, 9, plain.history)
    assert again.state == plain.state
    # Chance and the bot draw from the step's own stream: a game resumed from any
    # point goes on as it went.
    for k in range(0, len(plain.history), 25):
        resumed = session.Match("shrine", BOT, 0, 9, plain.history[:k])
        if resumed.state.is_chance_node():
            assert resumed.chance_outcome() == plain.history[k]
        elif resumed.state.current_player() == 1:
            assert resumed.bot_action() == plain.history[k]


def test_undo_goes_back_to_the_previous_choice_and_skips_forced_moves():
    match = advance(session.Match("shrine", "greedy", 0, 2))
    assert not match.undo()
    rng = random.Random(0)
    seen = []
    for _ in range(3):
        seen.append((list(match.history), match.state.clone()))
        match.apply(rng.choice(match.state.legal_actions()))
        advance(match)
    for history, state in reversed(seen):
        assert match.undo()
        assert match.history == history and match.state == state
    assert not match.undo()


def test_a_hint_is_worked_out_in_a_world_drawn_from_what_the_person_knows(monkeypatch):
    match = advance(session.Match("shrine", "cheater(iterations=20)", 0, 4))
    shown = []
    make_bot = session.search.make_bot

    def spying(*args, **kwargs):
        bot = make_bot(*args, **kwargs)
        step = bot.step
        bot.step = lambda state: shown.append(state.clone()) or step(state)
        return bot

    monkeypatch.setattr(session.search, "make_bot", spying)
    match.hint()
    world, = shown
    assert world.information_state_string(0) == match.state.information_state_string(0)
    assert world.to_dict()["players"][1]["hand"] != match.state.to_dict()["players"][1]["hand"]


def test_no_hint_reads_a_true_world_left_where_the_game_cannot_draw_one():
    # OpenSpiel's hearts draws no world afresh at some of seat 3's decisions (its
    # sampler refuses them), which leaves the true cards: a cheater's hint would read
    # them there.  It is refused there alone, saying why.
    match = session.Match("hearts", "cheater(iterations=20)", 3, 1)
    rng, hinted, refused = random.Random(0), 0, 0
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance_node():
            match.apply(match.chance_outcome())
        elif state.current_player() != 3:
            match.apply(match.bot_action())
        else:
            left = match.game.unsampled
            try:
                hinted += match.hint()[0] in state.legal_actions()
                said = None
            except core.CardArenaError as e:
                said, refused = str(e), refused + 1
            # The cheater draws no worlds itself: refused exactly where the hint's world
            # could not be drawn.
            assert (said is not None) == (match.game.unsampled > left)
            assert said in (None, "hearts cannot draw the cards hidden from you afresh in "
                            "this position, and a hint must not read them")
            match.apply(rng.choice(state.legal_actions()))
    assert hinted > 5 and refused > 0, (hinted, refused)


def test_a_hint_on_a_game_that_draws_no_worlds_is_refused_and_the_game_goes_on(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    match = session.Match("liars_dice", "random", 0, 1)
    out, lines = io.StringIO(), ["1", "hint"]

    def read(prompt):
        if not lines:
            raise EOFError
        return lines.pop(0)
    assert console.Console(match, out=out, status=io.StringIO(), read=read).run() == 0
    assert "No hint here: OpenSpiel's liars_dice cannot be determinized: " in out.getvalue()
    assert len(session.Match.load(str(tmp_path / match.save_path)).history) == len(
        match.history)


def test_a_save_round_trips_and_bad_files_are_refused_with_a_reason(tmp_path):
    match = session.Match("card_duel(life=15)", "ismcts(iterations=20)", 1, 7)
    while match.state.is_chance_node():
        match.apply(match.chance_outcome())
    path = str(tmp_path / "duel.json")
    match.save(path)
    loaded = session.Match.load(path)
    assert loaded.to_dict() == match.to_dict() and loaded.state == match.state
    assert os.listdir(tmp_path) == ["duel.json"]

    def refused(text):
        (tmp_path / "bad.json").write_text(text)
        with pytest.raises(session.SaveFileError) as e:
            session.Match.load(str(tmp_path / "bad.json"))
        return str(e.value)

    good = match.to_dict()
    assert "is not a saved game" in refused("[1, 2")
    assert "is not a saved game of cardarena play" in refused('{"game": "shrine"}')
    assert "seat is missing or not int" in refused(json.dumps({**good, "seat": "1"}))
    assert "unknown bot kind 'wizard'" in refused(json.dumps({**good, "bot": "wizard"}))
    # In one line: OpenSpiel's own error for a name it lacks lists every game it has.
    assert refused(json.dumps({**good, "game": "shrin"})).endswith(
        "bad.json: unknown game 'shrin': neither ours nor OpenSpiel's")
    wrong = refused(json.dumps({**good, "history": good["history"] + [999]}))
    assert wrong.endswith(f"step {len(good['history']) + 1} of the history: action 999 is "
                          "not legal there")
    with pytest.raises(session.SaveFileError, match="cannot read"):
        session.Match.load(str(tmp_path / "none.json"))


def test_a_refused_history_names_no_card_the_person_cannot_see(tmp_path):
    # The engine's refusal lists the legal moves: at the bot's step, its hand; at a
    # draw, what is left in the Library.
    match = session.Match("shrine", "greedy", 0, 3)
    steps = {}
    while len(steps) < 2:
        player = match.state.current_player()
        if player == 1 or player < 0 and len(match.history) > 20:
            steps.setdefault(player, list(match.history))
        match.apply(match.chance_outcome() if match.state.is_chance_node()
                    else match.bot_action() if player == 1 else match.state.legal_actions()[0])
    path = tmp_path / "tampered.json"
    for history in steps.values():
        path.write_text(json.dumps({**match.to_dict(), "history": history + [999]}))
        with pytest.raises(session.SaveFileError) as e:
            session.Match.load(str(path))
        assert str(e.value) == f"{path}: step {len(history) + 1} of the history: action 999 " \
                               "is not legal there"


def test_the_spinner_turns_on_a_terminal_and_wipes_itself():
    class Tty(io.StringIO):
        def __init__(self):
            super().__init__()
            self.wrote = threading.Event()

        def isatty(self):
            return True

        def write(self, text):
            self.wrote.set()
            return super().write(text)

    tty = Tty()
    with console.Spinner(tty, "player 1 is thinking"):
        assert tty.wrote.wait(30)
    assert tty.getvalue().startswith("\rplayer 1 is thinking | ")
    assert tty.getvalue().endswith("s\r\x1b[K")
    quiet = io.StringIO()
    with console.Spinner(quiet, "thinking"):
        pass
    assert quiet.getvalue() == ""
