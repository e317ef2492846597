"""A training run's settings by default, apart from the training code, so that the
command line reads its help without importing it."""
PLAN = {"hidden": (128, 128), "games": 100, "iterations": 200, "explore": 8,
        "window": 50_000, "batch": 256, "reuse": 4.0, "gate": 20, "seed": 0,
        "value_weight": 1.0, "searcher": "ismcts", "across": ()}
