"""Statistics over stored games: ratings (Elo with bootstrap intervals, crosstables,
duplicate results, seats, cycles) and the sequential test of one bot against another."""
