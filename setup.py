"""Builds the Cython extensions: every .pyx under core/ and search/, so a new ruleset's
engine needs no line here.  All other metadata lives in pyproject.toml."""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCES = sorted(p for package in ("core", "search") for p in Path(package).rglob("*.pyx"))

setup(
    ext_modules=cythonize(
        [Extension(".".join(p.with_suffix("").parts), [str(p)], extra_compile_args=["-O3"])
         for p in SOURCES],
        language_level=3),
)
