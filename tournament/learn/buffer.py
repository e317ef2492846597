"""The replay buffer: self-play's positions on disk, one file a worker's task, so that a
stopped run keeps every task it finished and a resumed one plays only the rest."""
import os
import re
from pathlib import Path

import numpy as np

from tournament.learn.selfplay import Positions

NAME = re.compile(r"gen-(\d{4})-(\d{5})\.npz")


class Buffer:
    """The positions under ``folder``: ``gen-GGGG-TTTTT.npz``, task ``T`` of generation
    ``G``'s self-play."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def add(self, generation, task, positions):
        """Store the positions of task ``task`` of ``generation``."""
        path = self.folder / f"gen-{generation:04d}-{task:05d}.npz"
        part = path.with_suffix(".part")
        with open(part, "wb") as f:
            np.savez_compressed(f, games=positions.games,
                                **{k: getattr(positions, k) for k in Positions.FIELDS})
        # A kill mid-write leaves a .part file, never a short .npz.
        os.replace(part, path)

    def tasks(self, generation):
        """The tasks of ``generation`` already stored."""
        return {t for g, t, _ in self._files() if g == generation}

    def count(self, generation):
        """The games and positions ``generation``'s stored tasks hold."""
        games = positions = 0
        for g, _, path in self._files():
            if g == generation:
                with np.load(path) as data:
                    games += int(data["games"])
                    positions += len(data["counts"])
        return games, positions

    def window(self, size):
        """The newest ``size`` positions (fewer if there are not so many), newest
        tasks first."""
        parts, held = [], 0
        for _, _, path in sorted(self._files(), reverse=True):
            if held >= size:
                break
            with np.load(path) as data:
                part = Positions(**{k: data[k] for k in Positions.FIELDS},
                                 games=int(data["games"]))
            parts.append(part)
            held += len(part)
        if not parts:
            return None
        joined = Positions.join(parts)
        if held <= size:
            return joined
        rows = np.arange(size)
        return joined.take(rows)

    def _files(self):
        found = []
        for path in self.folder.iterdir():
            match = NAME.fullmatch(path.name)
            if match:
                found.append((int(match[1]), int(match[2]), path))
        return found
