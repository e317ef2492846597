"""Relinquish: a malformed position is refused with a StateFormatError that says where
in the dict the fault lies, never with an error from inside the reading."""
import pytest

import core
from relinquish_positions import act, position


def enchanting():
    """The dict of a position in which T16's Enchant has named its first target."""
    state = position(players=[{"hand": ["T16"]}, {"resting": ["W3", "W4", "W9"]}])
    act(state, "enchant T16 against player 1")
    act(state, "target W3")
    return state.to_dict()


def test_the_enchanting_position_reads_back():
    desc = enchanting()
    assert core.load_game("relinquish").state_from_dict(desc).to_dict() == desc


@pytest.mark.parametrize("level", ["W1", 16, None, ["T16"]])
def test_a_magick_level_that_is_not_a_dict_is_a_format_error(level):
    desc = enchanting()
    desc["magick"]["levels"] = [level]
    with pytest.raises(core.StateFormatError,
                       match=rf"^magick\.levels\[0\]: .* not {type(level).__name__}$"):
        core.load_game("relinquish").state_from_dict(desc)


def test_the_level_at_fault_is_named():
    desc = enchanting()
    desc["magick"]["levels"].append("W1")
    with pytest.raises(core.StateFormatError, match=r"^magick\.levels\[1\]: "):
        core.load_game("relinquish").state_from_dict(desc)
