"""The installed ``cardarena`` command, run as a user runs it."""
import importlib.metadata
import re
import subprocess

import pytest

from tournament_helpers import CARDARENA


def run(*args):
    return subprocess.run([CARDARENA, *args], capture_output=True, text=True, timeout=120)


def test_the_command_is_installed_and_lists_its_subcommands():
    result = run("--help")
    assert result.returncode == 0
    assert "demo" in result.stdout


def test_the_command_alone_lists_the_commands_as_argparse_does_for_a_missing_argument():
    result = run()
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("usage: cardarena")
    for command in ("demo", "bots", "play", "tournament", "replay", "ratings", "sprt",
                    "skill"):
        assert f"\n    {command} " in result.stderr or f"\n    {command}\n" in result.stderr


GAME_COMMANDS = ["demo", "play", "levels", "marks"]


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_command_names_a_misspelt_game_in_one_line_with_the_closest(command):
    result = subprocess.run([CARDARENA, command, "shrin"], capture_output=True, text=True,
                            timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"cardarena {command}: unknown game 'shrin' (did you mean "
                             "shrine or sheriff or shogi?); ours are card_duel, "
                             "creature_shrines, energy_deckbuilder, relinquish, shrine, and "
                             "every game OpenSpiel registers (pyspiel.registered_names()) "
                             "can be played\n")


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_command_says_what_a_bad_parameter_takes_in_the_same_words(command):
    result = subprocess.run([CARDARENA, command, "shrine(alt_heal=maybe)"],
                            capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr == (f"cardarena {command}: shrine parameter alt_heal must be bool "
                             "(default false), not 'maybe'\n")


def test_demo_plays_an_openspiel_game_as_play_does():
    result = run("demo", "leduc_poker", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Leduc Poker (leduc_poker), seed 3: player 0 random "
                                    "against player 1 random\n")


@pytest.mark.parametrize("command, lacks", [("levels", "has no strength levels"),
                                            ("marks", "has no calibrated marks, and reviews "
                                                      "mark it by the base thresholds")])
def test_a_calibration_command_names_an_openspiel_game_as_the_user_wrote_it(command, lacks):
    for written in ("leduc_poker", "leduc_poker()"):
        result = run(command, written)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == (f"cardarena {command}: leduc_poker {lacks}: cardarena "
                                 f"{command} leduc_poker --calibrate makes them\n")
    result = run(command, "leduc_poker(players=3)")
    assert result.stderr.startswith(f"cardarena {command}: leduc_poker(players=3) {lacks}")


def test_the_version_is_the_packages():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout == f"cardarena {importlib.metadata.version('cardarena')}\n"


def test_the_help_does_not_say_demo_seats_only_random_players():
    demo = [line for line in run("--help").stdout.splitlines()
            if line.strip().startswith("demo ")]
    assert demo and "random" not in demo[0]


def test_demo_plays_a_whole_seeded_game_in_words_and_repeats_it_exactly():
    first, second = run("demo", "shrine", "--seed", "1"), run("demo", "shrine", "--seed", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert lines[0] == "Shrine (shrine), seed 1: player 0 random against player 1 random"
    assert "Turn 1, player 0 to play" in lines
    assert any(line.startswith("  chance: draw ") for line in lines)
    assert any(line.startswith("  player 1: ") for line in lines)
    last = lines[-1]
    assert last.startswith(("Player 0 wins after", "Player 1 wins after", "Draw after"))
    assert run("demo", "shrine", "--seed", "2").stdout != first.stdout


def test_demo_shows_card_duels_position_at_each_turn_and_its_deal_on_one_line():
    result = run("demo", "card_duel", "--seed", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    turns = [k for k, line in enumerate(lines) if re.fullmatch(r"Turn \d+, player \d to play",
                                                               line)]
    assert len(turns) > 5
    for k in turns:  # the position, as the game renders it, under every turn's heading
        assert lines[k + 1].startswith("  player 0 (")
        assert lines[k + 3].startswith("  exchange ")
    assert lines[-1].endswith(f"after {len(turns)} turns.")
    deal = [line for line in lines if line.startswith("  chance: deal ")]
    assert len(deal) == 1 and re.match(r"  chance: deal (\w+, )+", deal[0])


def test_demo_takes_a_game_string_with_parameters():
    result = run("demo", "shrine(alt_heal=true,max_turns=6)", "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("Shrine (shrine(alt_heal=true,max_turns=6))")


@pytest.mark.parametrize("game,message", [
    ("no_such_game", "unknown game 'no_such_game'"),
    ("shrine(alt_heal=maybe)", "alt_heal must be bool"),
    ("shrine(max_turns=-5)", "max_turns must be from 1 to 30000"),
])
def test_demo_refuses_a_bad_game_with_a_clear_message(game, message):
    result = run("demo", game)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_demo_seats_the_bots_it_is_given():
    specs = ["ismcts(iterations=50,rollout_depth=6)", "greedy"]
    result = run("demo", "shrine", "--seed", "3", "--players", *specs)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == ("Shrine (shrine), seed 3: player 0 "
                                             "ismcts(iterations=50,rollout_depth=6) against "
                                             "player 1 greedy")
    assert result.stdout == run("demo", "shrine", "--seed", "3", "--players", *specs).stdout


@pytest.mark.parametrize("players, message", [
    (["random"], "shrine takes 2 players, not 1"),
    (["random", "alphazero"], "unknown bot kind 'alphazero'"),
    (["random", "ismcts(iterations=-3)"], "iterations must be >= 1, not -3"),
])
def test_demo_refuses_bad_players_with_a_clear_message(players, message):
    result = run("demo", "shrine", "--players", *players)
    assert result.returncode != 0
    assert message in result.stderr and "Traceback" not in result.stderr


def test_bots_lists_every_kind_with_its_parameters():
    result = run("bots")
    assert result.returncode == 0, result.stderr
    for kind in ("random:", "greedy:", "ismcts:", "mo_ismcts:", "determinized:", "cheater:",
                 "expectimax:", "openspiel_ismcts:", "openspiel_mcts:"):
        assert any(line.startswith(kind) for line in result.stdout.splitlines()), kind
    assert "    iterations=1000  (>= 1)  search iterations per move" in result.stdout
    assert "None" not in result.stdout
    assert "    python=false  (true|false)  " in result.stdout
    assert "    rollout=random  (random|heuristic)  rollout policy" in result.stdout
