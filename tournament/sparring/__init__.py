"""Sparring: the match a person plays against a bot (shared by the terminal and the
web page), the terminal console, narration, reviews and their marks, and strength
levels read from their calibrations."""
