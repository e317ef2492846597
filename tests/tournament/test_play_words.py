"""What a player reads, in the terminal and on the page: where the game stands in the
game's words (``Game.status``), turns counted alike everywhere, and what a card says
(``Game.card_text``, the ``card`` command)."""
import io
import re

import pytest

import core
from kit.helpers import walk
from tournament.sparring import console
from tournament.sparring.session import Match

GAMES = ["shrine", "card_duel", "relinquish(players=3)", "creature_shrines",
         "creature_shrines(mode=king_of_the_hill)", "energy_deckbuilder"]


@pytest.mark.parametrize("game", GAMES)
def test_where_a_game_stands_is_told_in_a_players_words(game):
    # No engine bookkeeping (step wait, builder 0, phase response), no names with
    # underscores, and turns counted from 1.
    said = set()
    for seed in range(3):
        for state in walk(game, seed, 600):
            for seat in range(state.game.num_players):
                said.add(state.game.status(state.observation_dict(seat)))
    assert said and all(line for line in said)
    for line in said:
        assert not re.search(r"\b(step|phase) \w+|\bbuilder \d|\bwait\b|_|(turn|exchange) 0\b", line), line
    if "king_of_the_hill" in game:
        assert all("life" not in line for line in said)


@pytest.mark.parametrize("game", GAMES)
def test_a_boards_names_are_explained_where_the_page_shows_them(game):
    # The glossary explains keys the page lays out, and only those: a key it names
    # that no board shows would be a word nobody reads.
    layout = core.load_game(game).layout
    glossary = layout["glossary"]
    shown = set(layout["player"]) | set(layout["table"])
    assert glossary and set(glossary) <= shown
    assert all(isinstance(words, str) and len(words) > 10 for words in glossary.values())
    if "king_of_the_hill" in game:
        assert "points" in glossary and "life" not in glossary


def test_the_words_command_tells_what_the_boards_names_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = play(Match("relinquish", "random", 0, 3), ["help", "words"])
    assert re.search(r"^  words +what the board's words mean", text, re.M)
    glossary = core.load_game("relinquish").layout["glossary"]
    assert f"  standing: {glossary['standing']}\n" in text
    assert f"  set aside: {glossary['set_aside']}" in text


def test_king_of_the_hill_shows_no_life_on_the_page_or_in_the_terminal():
    # (C8) The mode has no life: both players showed "life 0".
    game = core.load_game("creature_shrines(mode=king_of_the_hill)")
    state = game.new_initial_state()
    assert "life" not in game.layout["player"] and "points" in game.layout["player"]
    assert "life" not in game.render(state.observation_dict(0))
    standard = core.load_game("creature_shrines")
    assert "life" in standard.layout["player"] and "points" not in standard.layout["player"]


def play(match, lines):
    """The terminal's text of ``match`` played with ``lines`` typed, then end of input."""
    out = io.StringIO()
    typed = iter(lines)

    def read(prompt):
        out.write(prompt + "\n")
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    console.Console(match, out=out, status=io.StringIO(), read=read).run()
    return out.getvalue()


def test_the_deckbuilders_heading_and_board_count_turns_alike(tmp_path, monkeypatch):
    # The heading said turn 2 over a board that said turn 1.
    monkeypatch.chdir(tmp_path)
    text = play(Match("energy_deckbuilder", "random", 0, 5), ["1"] * 30)
    headings = re.findall(r"== Your move \(player 0\), turn (\d+).*\n  turn (\d+),", text)
    assert len(headings) > 5
    assert all(heading == board for heading, board in headings)
    assert headings[0][0] == "1"


def test_creature_shrines_tells_the_start_of_turn_draw_as_the_new_turn():
    # The draw that starts turn 3 was told under turn 2's final act.
    for state in walk("creature_shrines", 1, 200):
        view = state.observation_dict(0)
        drawing = view.get("drawing")
        if drawing and drawing["then"] == "turn" and view["turn"] == 2:
            line = state.game.status(view)
            assert line == f"turn 3: player {drawing['player']} draws to start the turn"
            return
    pytest.fail("no start-of-turn draw at turn 3")


def test_the_card_command_reads_a_card_and_help_lists_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = play(Match("creature_shrines", "random", 0, 3),
                ["help", "card blaze_hound", "card Blaze Hound", "card blaze_hund"])
    assert re.search(r"^  card NAME +what is on a card", text, re.M)
    text_of = core.load_game("creature_shrines").card_text("blaze_hound")
    told = "\n".join(f"  {k}: {v}" for k, v in text_of.items())
    assert text.count(told) == 2
    assert "card: Blaze Hound" in told and "cost: " in told and "strength/resilience: " in told
    assert "No card 'blaze_hund' in Creature Shrines; did you mean blaze_hound?" in text
    market = play(Match("energy_deckbuilder", "random", 0, 3), ["card Emberling"])
    assert "  card: Emberling\n  type: creature\n" in market and "  buy: " in market
    duel = play(Match("card_duel", "random", 0, 3), ["card 9"])
    assert "Card Duel's cards say nothing beyond their names." in duel
    tarot = play(Match("relinquish", "random", 0, 3), ["card SK", "card T16"])
    assert "  card: SK\n  type: Court of Swords: the King, strength 2\n" in tarot
    assert "captures the defender's highest standing Common" in tarot
    assert "  type: Tarot, worth 16\n" in tarot and "  foil: " in tarot


def test_every_shrine_card_says_what_its_rank_may_do_under_its_own_name():
    # Roles come with the rank: a Token's power, the Ace's Dagger, the Joker's
    # Balance; never a heal for an Ace, which no heal may top.
    game = core.load_game("shrine(balance=true)")
    texts = {name: game.card_text(name) for name in game.cards.names}
    assert all(text["card"] == name for name, text in texts.items())
    assert texts["7R"]["type"] == "red 7" and "heal a Shrine topped by a 7" in texts["7R"]["pawn"]
    assert "attacks may total one above or below" in texts["KB"]["token"]
    assert "Jack steal" in texts["JR"]["token"] and "heals may use a pair" in texts["QR"]["token"]
    assert "heal" not in texts["AB"]["pawn"] and "Dagger token" in texts["AB"]["token"]
    assert "pawn" not in texts["JOKER"] and "matches" in texts["JOKER"]["balance"]
    text = play(Match("shrine", "random", 0, 3), ["card QB"])
    assert "  card: QB\n  type: black Queen, value 12\n" in text


def test_every_relinquish_card_says_what_its_kind_may_do_under_its_own_name():
    # The deck prints suit and rank alone: the text is the rules' for the card's kind,
    # under the name the board writes, so that the page's hand stays short.
    game = core.load_game("relinquish")
    texts = {name: game.card_text(name) for name in game.cards.names}
    assert all(text["card"] == name for name, text in texts.items())
    assert texts["W3"]["type"] == "Common of Wands, worth 3"
    assert texts["CP"]["type"] == "Court of Cups: the Page, strength 0"
    assert "one standing Cups Common" in texts["CP"]["summon"]
    assert "two standing Pence Commons" in texts["PQ"]["summon"]
    # Augur below 13, Murder from 13; the Fool cancels an Enchant, T21 negates none;
    # a Foil must beat a Murder's Tarot, 13 at least.
    assert "Augur" in texts["T12"]["magick"] and "Murder" in texts["T13"]["magick"]
    assert texts["T0"]["negate"].endswith("cancels it") and "negate" not in texts["T21"]
    assert "foil" not in texts["T13"] and "foil" in texts["T14"]
    assert game.card_text("T22") is None
