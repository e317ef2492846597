"""The harness: configs naming a game, bots and deals; the runner that plays them on
local processes or a Dask cluster; the game row (``row.GameRow``) each game ends as; the
SQLite store that keeps every game and resumes a run."""
