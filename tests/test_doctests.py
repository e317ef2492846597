"""The examples in the docstrings of the packages' modules run and give what they show.
The modules are found by walking the packages, so a new module's examples run too."""
import doctest
import importlib
import pathlib
import pkgutil

import pytest

PACKAGES = ("core", "search", "tournament")


def modules():
    """Every module of the packages, but a package's ``__main__`` (importing it runs
    the program)."""
    found = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        found.append(name)
        found += [m.name for m in pkgutil.walk_packages(package.__path__, name + ".")
                  if not m.name.endswith(".__main__")]
    return sorted(found)


def source_has_examples(module):
    """Whether the module's source (its ``.pyx`` for a compiled one) shows an example,
    so that a test finding none says so instead of passing on zero examples."""
    path = pathlib.Path(module.__file__)
    if path.suffix != ".py":
        path = path.with_name(path.name.split(".")[0] + ".pyx")
    return ">>> " in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module)
    assert failed == 0, f"{failed} of {attempted} examples in {name} failed"
    if source_has_examples(module):
        assert attempted > 0, f"{name} shows examples that doctest does not find"
