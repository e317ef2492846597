"""The skill-ceiling analysis: what it plays (``plans``: the variants, the ladder, the
plan and its cost), what it measures of the games (``analysis``), the figures they
give as types (``figures``, which ``skill.json`` is written from and read back into), a
whole run in one call (``run``), the report (``report``, with each variant's
``sections``, the ``cells`` both print and the ``plots``), the yardstick's trial,
comparisons across games, match-ups of per-seat choices, and the calibrations of
strength levels and review marks.  Its defaults live in ``defaults``, which the command
line reads without importing the rest."""
