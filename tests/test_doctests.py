"""The examples in the docstrings of the packages' modules run and give what they show."""
import doctest
import importlib

import pytest

import core

# Every ruleset's engine module shows its game in an example.
ENGINES = [game.__module__ for game in core.GAMES.values()]
MODULES = ["core", "core.state", "core.spiel", "core.foreign", "core.kit.tensor",
           "core.kit.carddata",
           "search", "search.bots", "search.mcts", "search.expectimax"] + ENGINES
# Modules whose docstrings hold examples today.  If they disappear, the test says so
# instead of passing on zero examples.
WITH_EXAMPLES = {"core", "core.foreign", "core.kit.tensor", "core.kit.carddata",
                 *ENGINES}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module)
    assert failed == 0, f"{failed} of {attempted} examples in {name} failed"
    if name in WITH_EXAMPLES:
        assert attempted > 0, f"no docstring examples found in {name}"
