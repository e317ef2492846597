# cython: language_level=3
"""A deadline every searcher honours, read by the searchers' C code without the GIL."""

cdef class Deadline:
    # Seconds on CLOCK_MONOTONIC by which a search answers; 0 once halted.
    cdef double at
