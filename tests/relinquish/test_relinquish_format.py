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


def test_an_enchanters_side_asked_with_no_negate_standing_is_refused():
    # The Enchanter's side answers only a Negate, whose cancel takes the levels down
    # one: asked with none standing, a cancel took them below the first, and the
    # position read far past its table of levels.
    desc = enchanting()
    desc["phase"] = "counter"
    desc["magick"].update(picker=None, pool=[], picked=[], pick_left=0, defending=False,
                          to_ask=[0], levels=[{"value": 16, "cards": ["W3"]}])
    with pytest.raises(core.StateFormatError, match=r"^magick\.defending: the Enchanter's "
                       "side is asked only to cancel a Negate, and no Negate stands"):
        core.load_game("relinquish").state_from_dict(desc)
    desc["magick"]["defending"] = True
    desc["magick"]["to_ask"] = [1]
    assert core.load_game("relinquish").state_from_dict(desc).to_dict()["phase"] == "counter"
