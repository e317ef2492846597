# cython: language_level=3
"""A deadline for a move: whatever a bot's budget, the search stops once the deadline
passes and plays the best it has found, and another thread may halt it at once (a
server shutting down).  The searchers read it between iterations, or every few
hundred nodes, without the GIL."""
from search.common cimport now


cdef class Deadline:
    """A moment ``seconds`` from now by which a search answers.  ``halt()`` moves it to
    the past, from any thread: a search running on it stops at its next check."""

    def __init__(self, double seconds):
        if not seconds >= 0:
            raise ValueError(f"a deadline is seconds >= 0 from now, not {seconds}")
        self.at = now() + seconds

    def halt(self):
        """Stop every search on this deadline at its next check, and any to come."""
        self.at = 0.0

    @property
    def left(self):
        """Seconds left, 0 once passed."""
        return max(0.0, self.at - now())

    @property
    def passed(self):
        return now() >= self.at

    def __repr__(self):
        return f"<Deadline {self.left:.3f} s left>"
