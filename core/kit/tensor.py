"""Observation tensors built from named blocks, so that no offset is kept by hand: a
ruleset declares its blocks once, fills each by name, and the size follows."""


class TensorLayout:
    """The blocks of a flat observation tensor, in order, each a name and a size.

    >>> layout = TensorLayout(("phase", 3), ("hand", 10))
    >>> layout.size, layout.offset("hand")
    (13, 3)
    >>> layout.blocks()
    [('phase', 0, 3), ('hand', 3, 10)]
    """

    def __init__(self, *blocks):
        self._offsets = {}
        offset = 0
        for name, size in blocks:
            if name in self._offsets:
                raise ValueError(f"tensor block {name!r} is declared twice")
            if size < 0:
                raise ValueError(f"tensor block {name!r} has a negative size {size}")
            self._offsets[name] = (offset, size)
            offset += size
        self.size = offset

    def offset(self, name):
        """Where the block ``name`` begins."""
        return self._offsets[name][0]

    def block(self, name):
        """The ``slice`` of the block ``name``."""
        start, size = self._offsets[name]
        return slice(start, start + size)

    def blocks(self):
        """``[(name, offset, size), ...]`` in order: the layout a doc describes."""
        return [(name, start, size) for name, (start, size) in self._offsets.items()]
