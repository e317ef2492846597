"""``python -m tournament.cli``, as the ``cardarena`` command."""
from tournament.cli import main

main()
