import pytest

from creature_positions import carrying_every_design


@pytest.fixture(scope="session")
def every(tmp_path_factory):
    """A deck file whose decks carry every design, those no shipped deck plays too."""
    return carrying_every_design(tmp_path_factory.mktemp("designs"))
