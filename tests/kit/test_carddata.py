"""The card-data loader every designed card set goes through: each fault a designer can
make is refused with the file, the card, the field and why."""
import pytest

from core.errors import CardDataError
from core.kit.carddata import (VARIABLE, Field, Vocabulary, Word, card_table,
                               effect_table, load_cards, read_counts)

WORDS = Vocabulary([Word("draw", amount=(1, 3)),
                    Word("damage", amount=(1, 9), args=("creature", "player")),
                    Word("gain", amount=(1, 3), args=("red", "blue"), args2=("now", "later"),
                         default="red"),
                    Word("untap"),
                    Word("heal", amount=(1, 5), args=("self", "ally"), default="self")])
SCHEMA = {"colour": Field("choice", choices=("red", "blue")),
          "power": Field("int", lo=0, hi=9),
          "unique": Field("bool"),
          "text": Field("str"),
          "keywords": Field("choices", choices=("flying", "haste", "guard")),
          "cost": Field("counts", choices=("red", "blue"), hi=5),
          "play": Field("effects"),
          "upkeep": Field("effects")}


def write(tmp_path, text):
    path = tmp_path / "cards.toml"
    path.write_text(text)
    return path


def test_a_card_is_read_with_every_field_filled(tmp_path):
    path = write(tmp_path, """
[[card]]
name = "Drake"
colour = "blue"
power = 3
keywords = ["haste", "guard"]
cost = { blue = 2 }
play = ["damage 2 player", "draw 1"]

[[card]]
name = "Cub"
colour = "red"
upkeep = ["gain 1 blue later", "untap"]
""")
    drake, cub = load_cards(path, SCHEMA, WORDS)
    assert (drake.id, drake.name, drake.colour, drake.power) == (0, "Drake", 1, 3)
    assert drake.keywords == 0b110 and drake.cost == [0, 2] and not drake.unique
    assert drake.play == [(1, 2, 1, 0), (0, 1, 0, 0)]
    assert cub.power == 0 and cub.play == [] and cub.upkeep == [(2, 1, 1, 1), (3, 0, 0, 0)]
    table, spans = effect_table([drake, cub], ("play", "upkeep"))
    assert table == drake.play + cub.upkeep
    assert spans == [[(0, 2), (2, 2)], [(2, 2), (2, 4)]]
    assert [WORDS.text(e) for e in table] == ["damage 2 player", "draw 1",
                                             "gain 1 blue later", "untap"]


def test_an_amount_x_is_read_only_by_a_vocabulary_that_allows_it():
    with pytest.raises(CardDataError, match="damage needs an amount from 1 to 9$"):
        WORDS.compile("damage X player", "x")
    variable = Vocabulary(WORDS.words, variable=True)
    assert variable.compile("damage X player", "x") == (1, VARIABLE, 1, 0)
    assert variable.text((1, VARIABLE, 1, 0)) == "damage X player"
    assert variable.compile("damage 2 player", "x") == (1, 2, 1, 0)
    with pytest.raises(CardDataError, match="needs an amount from 1 to 3 or X$"):
        variable.compile("draw", "x")


def test_a_default_argument_may_be_left_out():
    assert WORDS.compile("heal 2", "x") == WORDS.compile("heal 2 self", "x") == (4, 2, 0, 0)
    assert WORDS.compile("heal 2 ally", "x") == (4, 2, 1, 0)
    # only the first argument has a default: the second must be written
    with pytest.raises(CardDataError, match="gain needs one of now, later"):
        WORDS.compile("gain 2", "x")
    assert WORDS.compile("gain 2 blue now", "x") == (2, 2, 1, 0)


@pytest.mark.parametrize("card, message", [
    ('colour = "green"', r"card 'X', field 'colour': must be one of red, blue, not 'green'"),
    ("power = 12", r"field 'power': must be an integer from 0 to 9, not 12"),
    ("power = true", r"field 'power': must be an integer from 0 to 9, not True"),
    ('unique = "yes"', r"field 'unique': must be true or false"),
    ('keywords = ["swim"]', r"field 'keywords': 'swim' is not one of flying, haste, guard"),
    ("cost = { red = 9 }", r"field 'cost': red must be an integer from 0 to 5, not 9"),
    ('cost = { green = 1 }', r"field 'cost': 'green' is not one of red, blue"),
    ('play = "draw 1"', r"field 'play': must be a list of effects"),
    ('play = ["draw"]', r"effect 'draw': draw needs an amount from 1 to 3"),
    ('play = ["draw 4"]', r"effect 'draw 4': the amount must be from 1 to 3, not 4"),
    ('play = ["fly 1"]', r"effect 'fly 1': unknown word 'fly'; known: damage, draw, gain, heal, untap"),
    ('play = ["damage 1"]', r"damage needs one of creature, player"),
    ('play = ["untap now"]', r"effect 'untap now': unexpected 'now'"),
    ('speed = 3', r"card 'X': unknown fields \['speed'\]"),
])
def test_a_bad_field_is_refused_naming_the_card_and_field(tmp_path, card, message):
    path = write(tmp_path, f'[[card]]\nname = "X"\n{card}\n')
    with pytest.raises(CardDataError, match=message):
        load_cards(path, SCHEMA, WORDS)


def test_bad_files_and_tables_are_refused(tmp_path):
    with pytest.raises(CardDataError, match="cannot read it"):
        load_cards(tmp_path / "none.toml", SCHEMA, WORDS)
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(write(tmp_path, "[[card]\n"), SCHEMA, WORDS)
    with pytest.raises(CardDataError, match=r"unknown tables \['deck'\]"):
        load_cards(write(tmp_path, "[[card]]\nname='A'\n[deck]\n"), SCHEMA, WORDS)
    with pytest.raises(CardDataError, match="card 2: the field 'name' is missing"):
        load_cards(write(tmp_path, "[[card]]\nname='A'\n[[card]]\npower=1\n"), SCHEMA, WORDS)
    with pytest.raises(CardDataError, match="card 'A': another card has this name"):
        load_cards(write(tmp_path, "[[card]]\nname='A'\n[[card]]\nname='A'\n"), SCHEMA, WORDS)


def test_counts_name_cards_of_the_set(tmp_path):
    cards = {c.name: c for c in load_cards(write(tmp_path, "[[card]]\nname='A'\n"),
                                           SCHEMA, WORDS)}
    assert read_counts({"A": 2}, cards, "deck red") == [(cards["A"], 2)]
    with pytest.raises(CardDataError, match="deck red: 'B' is not a card of the set"):
        read_counts({"B": 1}, cards, "deck red")
    with pytest.raises(CardDataError, match="'A' must have a number of copies of at least 1"):
        read_counts({"A": 0}, cards, "deck red")


def test_card_table_escapes_bars():
    assert card_table([["a|b", 1]], ["Name", "Cost"]) == (
        "| Name | Cost |\n|---|---|\n| a\\|b | 1 |\n")
