# cython: language_level=3
"""Piles held as counts per card kind, and a finished game's returns: the hot-path half
of the kit, as inline C helpers (nothing to link, no GIL, no allocation).

A pile nobody has seen keeps no order, so it is a count per kind: ``pile[k]`` cards of
kind ``k``.  Drawing its top card is a chance event whose outcome is the kind, each
with the chance of its count; a shuffle is moving counts.  ``lo`` and ``hi`` bound the
kinds a draw may give (a search of the pile for one sort of card draws from a range)."""
from libc.stdint cimport uint8_t, uint64_t

from core.state cimport Rng, rng_below


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    static inline uint64_t kit_load_le64(const uint8_t* p) {
        uint64_t w;
        memcpy(&w, p, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
    #endif
        return w;
    }
    """
    # Eight bytes in one load, the first in the lowest byte, where loading and
    # shifting them one by one takes some twenty instructions.
    uint64_t load_le64 "kit_load_le64" (const uint8_t* p) noexcept nogil
    int lowest_kind "__builtin_ctzll" (unsigned long long kinds) noexcept nogil


cdef inline uint64_t top_bits(uint64_t w) noexcept nogil:
    """The top bits of ``w``'s eight bytes, each byte 0x80 or 0, as eight bits in byte
    order, the first byte's lowest: the multiplication gathers them into the top byte,
    in order, and no two of its partial products meet there."""
    return (w >> 7) * <uint64_t>0x0102040810204080 >> 56


cdef inline uint64_t nonzero_bytes(uint64_t w) noexcept nogil:
    """The bytes of ``w`` that are not zero, as ``top_bits`` gives them.  A byte's top
    bit is set once its low seven bits have 0x7f added and the byte is or-ed back in
    exactly when the byte is not zero; no carry leaves a byte."""
    return top_bits((((w & <uint64_t>0x7f7f7f7f7f7f7f7f) + <uint64_t>0x7f7f7f7f7f7f7f7f)
                     | w) & <uint64_t>0x8080808080808080)


cdef inline uint64_t kinds_held(const uint8_t* pile, int kinds) noexcept nogil:
    """The kinds ``0 .. kinds - 1`` (at most 64) of which ``pile`` holds a card, as
    bits, bit ``k`` for kind ``k``; walked with ``lowest_kind``, they come in kind
    order.  The counts are read eight at a time, so ``pile``'s array must run on to a
    multiple of eight.  A scan of a few cards' worth of kinds among many otherwise
    branches on every count."""
    cdef uint64_t held = 0
    cdef int k
    for k in range(0, kinds, 8):
        held |= nonzero_bytes(load_le64(pile + k)) << k
    if kinds < 64:
        held &= ((<uint64_t>1) << kinds) - 1
    return held


cdef inline uint64_t kinds_in_any(const uint8_t* a, const uint8_t* b, const uint8_t* c,
                                  int kinds) noexcept nogil:
    """The kinds of which any of the piles ``a``, ``b`` and ``c`` holds a card, as
    ``kinds_held`` gives one pile's: a player's cards wherever they lie, in one scan
    where three would each read their pile."""
    cdef uint64_t held = 0
    cdef int k
    for k in range(0, kinds, 8):
        held |= nonzero_bytes(load_le64(a + k) | load_le64(b + k) | load_le64(c + k)) << k
    if kinds < 64:
        held &= ((<uint64_t>1) << kinds) - 1
    return held


cdef inline int pile_size(const uint8_t* pile, int lo, int hi) noexcept nogil:
    """The number of cards of the kinds ``lo .. hi - 1`` in ``pile``."""
    cdef int k, n = 0
    for k in range(lo, hi):
        n += pile[k]
    return n


cdef inline int pile_outcomes(const uint8_t* pile, int lo, int hi, int* actions,
                              double* probs) noexcept nogil:
    """The chance outcomes of drawing a card of the kinds ``lo .. hi - 1``: the kinds
    present, ascending, each with its share of the cards; returns their count."""
    cdef int k, n = 0, total = pile_size(pile, lo, hi)
    for k in range(lo, hi):
        if pile[k]:
            actions[n] = k
            probs[n] = pile[k] / <double>total
            n += 1
    return n


cdef inline int pile_sample(const uint8_t* pile, int lo, int hi, Rng* rng) noexcept nogil:
    """A card drawn uniformly from the kinds ``lo .. hi - 1`` of ``pile``: picked by its
    place among the cards, so no list of outcomes is built.  -1 if there is none."""
    cdef int k, total = pile_size(pile, lo, hi), r
    if total == 0:
        return -1
    r = rng_below(rng, total)
    for k in range(lo, hi):
        r -= pile[k]
        if r < 0:
            return k
    return -1


cdef inline void pile_move_all(uint8_t* src, uint8_t* dst, int kinds) noexcept nogil:
    """Every card of ``src`` onto ``dst`` (a reshuffle: the new pile keeps no order)."""
    cdef int k
    for k in range(kinds):
        dst[k] += src[k]
        src[k] = 0


cdef inline double win_loss(int winner, int player, int num_players) noexcept nogil:
    """A win-or-lose game's return for ``player``: +1 to the winner, the loss shared by
    the others so returns sum to zero (-1 each of two), 0 to all with no winner
    (``winner`` outside ``0 .. num_players - 1``: still playing, or a draw)."""
    if winner < 0 or winner >= num_players:
        return 0.0
    if winner == player:
        return 1.0
    return -1.0 / (num_players - 1)
