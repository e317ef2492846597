"""Where calibrations live: one JSON file a kind (``levels``, ``marks``) and ruleset in
``tournament/data``, named by the game and the parameters that differ from its
defaults."""
import os
import pathlib

DATA = pathlib.Path(__file__).parent / "data"


def ruleset(game):
    """The game string of ``game`` (a string or a game) that names only the
    parameters differing from the defaults, as calibrations are kept by."""
    import search
    return str(search.engine_game(game))


def data_file(kind, game, data=None):
    """The file in ``data`` (``DATA`` unless given) that holds the ``kind`` of
    calibration (``levels``, ``marks``) of ``game``, made or not."""
    name = ruleset(game).replace("(", "-").replace(")", "").replace(os.sep, "_")
    return pathlib.Path(data or DATA) / f"{kind}-{name}.json"
