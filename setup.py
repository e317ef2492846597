"""Builds the Cython extensions; all other metadata lives in pyproject.toml."""
from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = ["core.state", "core.shrine", "core.card_duel", "core.foreign",
           "search.mcts", "search.expectimax"]

setup(
    ext_modules=cythonize(
        [Extension(m, [m.replace(".", "/") + ".pyx"], extra_compile_args=["-O3"])
         for m in MODULES]),
)
