"""The analysis's defaults, in a module of their own so that the command line shows
them in its help without importing the analysis."""

# The rollouts cut after 8 moves and scored by the game's evaluate: in long games they
# give a far stronger player per second than rollouts played to the end.
PLAYER = "ismcts(rollout_depth=8)"

# The challengers of the ladder's default searcher (``PLAYER``): rollouts played to the
# end at random and by the game's heuristic move (in Card Duel the latter beats the
# greedy player that the default loses to), cut rollouts by the heuristic move, a
# narrower and a wider search, one tree per player, and determinized worlds voting.
CHALLENGERS = (
    "ismcts",
    "ismcts(rollout=heuristic)",
    "ismcts(rollout_depth=8,rollout=heuristic)",
    "ismcts(rollout_depth=8,uct_c=0.35)",
    "ismcts(rollout_depth=8,uct_c=1.4)",
    "mo_ismcts(rollout_depth=8)",
    "determinized(rollout_depth=8)",
)
# Deals a challenger plays against the incumbent, each in every seating.
TRIAL_DEALS = 20

# A calibration of strength levels: a few minutes on two cores for the games here;
# more deals narrow the intervals.
LEVEL_DEALS = 50
LEVEL_MAX_BUDGET = 512

# Decisions a calibration of the review's marks measures.
MARK_POSITIONS = 200
