"""Statistics over stored games: ratings (Elo with bootstrap intervals, crosstables,
duplicate results, seats, cycles), a score's interval over games or over deals, and the
sequential test of one bot against another."""
