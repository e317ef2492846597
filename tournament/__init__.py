"""Everything a person runs, in rooms whose imports point down (a test holds them to
it): a room imports the rooms listed before it and the modules at the bottom, never
one beside or after it.

- bottom: ``tables`` (text, Markdown and files), ``stops`` (SIGTERM and exit
  statuses), ``calibrations`` (where calibration files live), ``data/`` (the files).
- ``harness``: configs, the runner (local processes or Dask) and the SQLite store.
- ``stats``: ratings (Elo with intervals, crosstables, cycles) and SPRT.
- ``sparring``: the match a person plays, the terminal console, narration, review and
  its marks, strength levels as read from their calibrations.
- ``skill``: the skill-ceiling analysis (plan, figures, one-call run, report), the
  yardstick, comparisons across games, match-ups, and the calibrations of levels and
  marks.
- ``web``: the page and its sessions, calling what the terminal calls.
- ``cli``: the ``cardarena`` command, one module a group of commands.
"""
