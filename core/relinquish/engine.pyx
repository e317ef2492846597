# cython: language_level=3, cdivision=True
"""Relinquish, under the rulings L1-L17 and the engine rulings R1-... of
docs/rules/relinquish.md: the rules, chance, determinization, the game's knowledge and
the observation tensor, all in C.  Names, kinds, views and reading a position are the
game's, in ``game.pyx``.

Every card is distinct (L1), so a card is its own kind, 0 .. 77: suit ``s`` holds the
ids ``14 s`` to ``14 s + 13`` (the Commons 1-10, then Page, Knight, King, Queen), and
the Tarots 0-21 follow at 56.  The struct says where each card lies.  A hidden pile
keeps no order, so drawing from it is a chance event over its cards.

The deal places the cards one by one, in card order: each goes to a hand, to a flip for
first player, to the Scry pile or (in a short game) to exile, with the chance of the
room left there (R1).  That is a uniform deal, and each step has few outcomes.  The
short game's set-aside cards lie face down in exile, seen by no one (L16).
"""
from libc.math cimport tanh
from libc.stdint cimport int8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from core.kit.piles cimport load_le64, top_bits
from core.state cimport CHANCE, TERMINAL, GameState, Rng, rng_below
from core.kit import TensorLayout

cdef enum:
    USED_POPULATE = 1
    USED_SUMMON = 2
    USED_MAGICK = 4
    USED_BATTLE = 8

# The words of a subset-sum bitset wide enough for every sum of 40 Commons' worths: a
# worth is at most 137 either way (a value of 10 and an int8 Bounty) (L15).
cdef enum:
    SUM_WORDS = 40 * 137 // 64 + 2

# Here for the tensor's phase block, one entry each; game.pyx names phases by them.
PHASES = ["deal", "flip", "main", "pay", "draw", "keep", "over", "pick", "counter",
          "declare", "order", "meet", "block", "rally", "capture",
          "reveal", "spend", "target", "bounty"]


# --- cards (the questions the game asks too are in engine.pxd) -------------------------

cdef inline int suit(int c) noexcept nogil:
    return c // 14

# Each card's value, read from a table: a search asks for it in every worth, score and
# capture, and a division by 14 costs several times a load.
cdef int8_t VALUES[NUM_CARDS]

cdef void fill_values() noexcept nogil:
    """A Common's value, a Court's strength (L1), a Tarot's number."""
    cdef int c
    for c in range(NUM_CARDS):
        if c >= TAROT0:
            VALUES[c] = c - TAROT0
        elif c % 14 >= COURT0:
            VALUES[c] = c % 14 - COURT0
        else:
            VALUES[c] = c % 14 + 1

fill_values()

cdef inline int value(int c) noexcept nogil:
    return VALUES[c]

cdef inline int flip_rank(int c) noexcept nogil:
    """Tarot over Court over Common, then by value, a Court by rank (L3)."""
    if c >= TAROT0:
        return 200 + value(c)
    if is_court(c):
        return 100 + value(c)
    return value(c)

cdef inline int loc(RelData* s, int c) noexcept nogil:
    return s.where[c] & LOC_MASK

cdef inline bint standing_in(RelData* s, int c, int p) noexcept nogil:
    return s.where[c] == LOC_TABLEAU + p

cdef inline int partner(RelData* s, int p) noexcept nogil:
    return (p + 2) % 4 if s.teams else p


# --- the deal and the first player (L3) ------------------------------------------------

cdef int scry_target(RelData* s) noexcept nogil:
    if s.short_game:
        return SHORT_SCRY
    return NUM_CARDS - (HAND_CARDS + 1) * s.num_players

cdef int dest_room(RelData* s, int d) noexcept nogil:
    """How many of the cards still to deal ``d`` takes."""
    cdef int e, room
    if d < DEST_FLIP:
        return HAND_CARDS - s.hand_size[d] if d < s.num_players else 0
    if d < DEST_SCRY:
        return d - DEST_FLIP < s.num_players and s.flip[d - DEST_FLIP] == NONE
    if d == DEST_SCRY:
        return scry_target(s) - s.scry_size
    if not s.short_game:
        return 0
    # A short game exiles the rest of the deck: what no other place takes.
    room = NUM_CARDS - s.deal_next
    for e in range(DEST_EXILE):
        room -= dest_room(s, e)
    return room

cdef int deal_outcomes(RelData* s, int* actions, double* probs) noexcept nogil:
    cdef int d, n = 0, room, left = NUM_CARDS - s.deal_next
    for d in range(NUM_DESTS):
        room = dest_room(s, d)
        if room > 0:
            actions[n] = d
            probs[n] = room / <double>left
            n += 1
    return n

cdef void place_dealt(RelData* s, int c, int d) noexcept nogil:
    if d < DEST_FLIP:
        s.where[c] = LOC_HAND + d
        s.hand_size[d] += 1
    elif d < DEST_SCRY:
        s.where[c] = LOC_EXILE
        s.flip[d - DEST_FLIP] = c
    elif d == DEST_SCRY:
        s.where[c] = LOC_SCRY
        s.scry_size += 1
    else:
        # L16: face down, unlike the flips and the Tarots played, which are face up.
        s.where[c] = LOC_ASIDE

cdef void deal(RelData* s, int d) noexcept nogil:
    """Card ``deal_next`` goes to ``d``.  A card with one place left is still a step
    of its own: placing it at once would show how full the hidden places are (R1)."""
    place_dealt(s, s.deal_next, d)
    s.deal_next += 1
    if s.deal_next == NUM_CARDS:
        compare_flips(s)

cdef void compare_flips(RelData* s) noexcept nogil:
    """The highest flip among the seats in ``tied`` goes first; seats that tie for it
    flip again from the Scry pile (L3), and with that pile empty the first of them in
    seat order goes first (R2)."""
    cdef int p, best = -1, r, count = 0, winner = NONE
    for p in range(s.num_players):
        if s.tied >> p & 1:
            r = flip_rank(s.flip[p])
            if r > best:
                best = r
    for p in range(s.num_players):
        if s.tied >> p & 1:
            if flip_rank(s.flip[p]) == best:
                count += 1
                if winner == NONE:
                    winner = p
            else:
                s.tied &= ~(1 << p)
    if count == 1 or s.scry_size == 0:
        s.tied = 0
        start_game(s, winner)
        return
    for p in range(s.num_players):
        if s.tied >> p & 1:
            s.flip[p] = NONE
    s.phase = PH_FLIP

cdef int flipping(RelData* s) noexcept nogil:
    cdef int p
    for p in range(s.num_players):
        if s.tied >> p & 1 and s.flip[p] == NONE:
            return p
    return NONE

cdef void reflip(RelData* s, int c) noexcept nogil:
    s.where[c] = LOC_EXILE
    s.scry_size -= 1
    s.flip[flipping(s)] = c
    if flipping(s) == NONE:
        compare_flips(s)

cdef void start_game(RelData* s, int first) noexcept nogil:
    s.first = first
    s.turn = 0
    begin_turn(s, first)


# --- turns (L4, L10, L11) ----------------------------------------------------------------

cdef void begin_turn(RelData* s, int p) noexcept nogil:
    """Arise: everything in the tableau stands (L4)."""
    cdef uint64_t w
    cdef int k
    s.active = p
    s.used = 0
    s.acted = 0
    # Only suited cards stand in a tableau: eight at a time, the resting bit is cleared
    # in the bytes that hold this tableau's resting place.
    for k in range(0, TAROT0, 8):
        memcpy(&w, &s.where[k], 8)
        w &= ~bytes_matching(w, (LOC_TABLEAU + p) | RESTING)
        memcpy(&s.where[k], &w, 8)
    s.phase = PH_MAIN

cdef void end_turn(RelData* s) noexcept nogil:
    """A player who ends the turn with no card in hand ends the game, with no
    Acceptance (L10, R3); else the Acceptance comes, while the Scry pile has not run
    out once (L8).  Bounties end with the turn (R11)."""
    memset(s.bounty, 0, sizeof(s.bounty))
    if s.hand_size[s.active] == 0:
        game_over(s)
    elif s.acceptance and s.generation == 0 and s.scry_size > 0:
        start_scry(s, s.active, 1, True)
    else:
        next_turn(s)

cdef void next_turn(RelData* s) noexcept nogil:
    """Every player passing in a row ends the game (L10), and so does ``max_turns``
    (L11)."""
    s.passes = 0 if s.acted else s.passes + 1
    s.turn += 1
    if s.passes >= s.num_players or s.turn >= s.max_turns:
        game_over(s)
    else:
        begin_turn(s, (s.active + 1) % s.num_players)

cdef void game_over(RelData* s) noexcept nogil:
    """Each seat scores its side's Commons, partners' tableaux combined (L2, L10)."""
    cdef int c, p, owner
    for p in range(MAX_PLAYERS):
        s.score[p] = 0
    for c in range(NUM_CARDS):
        owner = loc(s, c) - LOC_TABLEAU
        if is_common(c) and 0 <= owner < s.num_players:
            s.score[owner] += value(c)
    if s.teams:
        for p in range(2):
            s.score[p] += s.score[p + 2]
            s.score[p + 2] = s.score[p]
    s.phase = PH_OVER

cdef int courts_of_side(RelData* s, int p) noexcept nogil:
    cdef int c, n = 0, owner
    for c in range(NUM_CARDS):
        owner = loc(s, c) - LOC_TABLEAU
        if is_court(c) and 0 <= owner < s.num_players \
                and (owner == p or owner == partner(s, p)):
            n += 1
    return n

cdef double returns_of(RelData* s, int p) noexcept nogil:
    """L13: in a free-for-all, (players beaten - players beating you) / (players - 1),
    by score then Courts (L10); in a team game +1, -1 or 0 to both partners."""
    cdef int q, beaten = 0, beating = 0
    cdef long key_p = s.score[p] * 100 + courts_of_side(s, p), key_q
    for q in range(s.num_players):
        if q == p or q == partner(s, p):
            continue
        key_q = s.score[q] * 100 + courts_of_side(s, q)
        beaten += key_p > key_q
        beating += key_p < key_q
    if s.teams:
        return (beaten > 0) - (beating > 0)
    return (beaten - beating) / <double>(s.num_players - 1)


# --- Scry and Acceptance (L8) --------------------------------------------------------

cdef void start_scry(RelData* s, int p, int times, bint ends_turn) noexcept nogil:
    s.scry_for = p
    s.scries_left = times
    s.scry_ends_turn = ends_turn
    begin_draws(s)

cdef void begin_draws(RelData* s) noexcept nogil:
    s.draws_left = 2
    s.drawn[0] = NONE
    s.drawn[1] = NONE
    next_draw(s)

cdef void reshuffle(RelData* s) noexcept nogil:
    """The discard pile becomes the Scry pile, a set everyone knows (L8)."""
    cdef int c
    if s.generation < 255:
        s.generation += 1
    for c in range(NUM_CARDS):
        if s.where[c] == LOC_DISCARD:
            s.where[c] = LOC_SCRY
            s.gen[c] = s.generation
            s.scry_size += 1

cdef void next_draw(RelData* s) noexcept nogil:
    if s.draws_left and s.scry_size == 0:
        reshuffle(s)
    if s.draws_left and s.scry_size:
        s.phase = PH_DRAW
        return
    if s.drawn[1] != NONE:
        s.phase = PH_KEEP
        return
    if s.drawn[0] != NONE:
        keep(s, s.drawn[0])
    after_scry(s)

cdef void draw(RelData* s, int c) noexcept nogil:
    s.where[c] = LOC_DRAWN
    s.scry_size -= 1
    s.draws_left -= 1
    # The drawn pair is kept in card order, so that it does not tell which came first.
    if s.drawn[0] == NONE:
        s.drawn[0] = c
    elif c < s.drawn[0]:
        s.drawn[1] = s.drawn[0]
        s.drawn[0] = c
    else:
        s.drawn[1] = c
    next_draw(s)

cdef inline void keep(RelData* s, int c) noexcept nogil:
    s.where[c] = LOC_HAND + s.scry_for
    s.hand_size[s.scry_for] += 1

cdef void discard_drawn(RelData* s, int c) noexcept nogil:
    keep(s, s.drawn[1] if c == s.drawn[0] else s.drawn[0])
    s.where[c] = LOC_DISCARD
    s.gen[c] = 0
    after_scry(s)

cdef void after_scry(RelData* s) noexcept nogil:
    s.drawn[0] = NONE
    s.drawn[1] = NONE
    s.scries_left -= 1
    if s.scries_left:
        begin_draws(s)
    elif s.scry_ends_turn:
        s.scry_for = NONE
        next_turn(s)
    else:
        s.scry_for = NONE
        s.phase = PH_MAIN


# --- Populate, Summon, Fortify (L4, L5) ----------------------------------------------

cdef inline uint64_t places_word(RelData* s, int first) noexcept nogil:
    """The ``where`` of cards ``first`` to ``first + 7``, a byte each, the first card in
    the lowest byte."""
    return load_le64(&s.where[first])

cdef inline uint64_t bytes_matching(uint64_t word, int place) noexcept nogil:
    """``word`` with each byte 0x80 where it is ``place`` and 0 elsewhere, in whatever
    order its bytes lie.  Each byte of ``x`` is zero where it matches; the masks make
    its top bit 1 in exactly those bytes (no carry crosses a byte)."""
    cdef uint64_t x = word ^ (<uint64_t>place * <uint64_t>0x0101010101010101)
    return ~(((x & <uint64_t>0x7f7f7f7f7f7f7f7f) + <uint64_t>0x7f7f7f7f7f7f7f7f) | x
             | <uint64_t>0x7f7f7f7f7f7f7f7f)

cdef inline uint64_t bytes_equal(uint64_t word, int place) noexcept nogil:
    """Eight bits, one for each byte of ``word``, set where the byte is ``place``."""
    return top_bits(bytes_matching(word, place))

cdef inline uint64_t bytes_between(uint64_t word, int lo, int hi) noexcept nogil:
    """Eight bits, one for each byte of ``word``, set where the byte's place (its low
    seven bits) is at least ``lo`` and below ``hi`` (1 <= lo <= hi <= 128).  Adding
    128 - ``lo`` to every place sets a byte's top bit exactly when the place reaches
    ``lo``, and no sum passes 255, so no carry crosses a byte."""
    cdef uint64_t x = word & <uint64_t>0x7f7f7f7f7f7f7f7f
    cdef uint64_t ones = <uint64_t>0x0101010101010101
    x = (x + <uint64_t>(128 - lo) * ones) & ~(x + <uint64_t>(128 - hi) * ones) \
        & <uint64_t>0x8080808080808080
    return top_bits(x)

cdef uint64_t cards_at(RelData* s, int place) noexcept nogil:
    """The suited cards whose ``where`` is ``place`` (a tableau's standing cards, a
    hand's), as a set: found once for all the moves of a turn that ask, eight cards at
    a time."""
    cdef uint64_t cards = 0
    cdef int k
    for k in range(TAROT0 // 8):
        cards |= bytes_equal(places_word(s, 8 * k), place) << (8 * k)
    return cards

cdef inline uint32_t tarots_in_hand(RelData* s, int p) noexcept nogil:
    """The Tarots in ``p``'s hand as a set of their numbers, bit ``v`` for Tarot ``v``:
    their 22 places are two words and the last six bytes of a third."""
    return <uint32_t>(bytes_equal(places_word(s, TAROT0), LOC_HAND + p)
                      | bytes_equal(places_word(s, TAROT0 + 8), LOC_HAND + p) << 8
                      | bytes_equal(places_word(s, NUM_CARDS - 8), LOC_HAND + p) >> 2 << 16)

cdef inline uint64_t standing_cards(RelData* s, int p) noexcept nogil:
    return cards_at(s, LOC_TABLEAU + p)

cdef int highest_standing(RelData* s, uint64_t standing, bint courts) noexcept nogil:
    """The highest value of a standing Common, Bounties counted (or the highest rank
    of a standing Court) among ``standing``, or NO_VALUE: what a Populate (or Summon)
    must match (L4, R11)."""
    cdef uint64_t left = standing & (COURTS if courts else COMMONS)
    cdef int c, best = NO_VALUE, w
    while left:
        c = lowest_card(left)
        left &= left - 1
        w = value(c) if courts else worth(s, c)
        if w > best:
            best = w
    return best

cdef inline int summon_cost(int court) noexcept nogil:
    """Commons of the Court's suit that pay for it; one more of any suit also pays (L5)."""
    return 1 if value(court) < 2 else 2

cdef inline bint paid_in_full(int cost, int paid, bint off_suit) noexcept nogil:
    return paid == cost + 1 or not off_suit and paid == cost

cdef int standing_commons(uint64_t standing, int* by_suit) noexcept nogil:
    """The Commons among ``standing``, counted in all and by suit (``by_suit``, four
    counts): what a payment can still draw on, counted once for every Court or Common
    a list of moves asks about."""
    cdef uint64_t left = standing & COMMONS
    cdef int total = 0
    by_suit[0] = by_suit[1] = by_suit[2] = by_suit[3] = 0
    while left:
        by_suit[suit(lowest_card(left))] += 1
        left &= left - 1
        total += 1
    return total

cdef inline bint can_finish_paying(int court, int paid, bint off_suit, int total,
                                   int matching) noexcept nogil:
    """Whether ``total`` standing Commons, ``matching`` of them of the Court's suit,
    can complete its payment (L5)."""
    cdef int cost = summon_cost(court)
    return paid_in_full(cost, paid, off_suit) or total >= cost + 1 - paid \
        or not off_suit and matching >= cost - paid

cdef int pay_actions(RelData* s, int* out) noexcept nogil:
    """The payments open: each standing Common of the active seat that leaves the
    Court's payment still completable (L5)."""
    cdef int by_suit[4]
    cdef uint64_t left = standing_cards(s, s.active)
    cdef int c, n = 0, court = s.summon, total = standing_commons(left, by_suit)
    left &= COMMONS
    while left:
        c = lowest_card(left)
        left &= left - 1
        if can_finish_paying(court, s.paid + 1, s.paid_off_suit or suit(c) != suit(court),
                             total - 1, by_suit[suit(court)] - (suit(c) == suit(court))):
            out[n] = A_PAY + c
            n += 1
    return n

cdef int main_actions(RelData* s, int* out) noexcept nogil:
    cdef int by_suit[4]
    cdef uint64_t standing = standing_cards(s, s.active), left
    cdef uint64_t hand = cards_at(s, LOC_HAND + s.active)
    cdef int c, total, n = 1
    cdef int top_common = highest_standing(s, standing, False)
    cdef int top_court = highest_standing(s, standing, True)
    out[0] = A_END
    if not s.used & USED_POPULATE:
        left = hand & COMMONS
        while left:
            c = lowest_card(left)
            left &= left - 1
            if value(c) >= top_common:
                out[n] = A_POPULATE + c
                n += 1
    if not s.used & USED_SUMMON:
        total = standing_commons(standing, by_suit)
        left = hand & COURTS
        while left:
            c = lowest_card(left)
            left &= left - 1
            if value(c) >= top_court and can_finish_paying(c, 0, False, total,
                                                           by_suit[suit(c)]):
                out[n] = A_SUMMON + c
                n += 1
    left = standing & COMMONS
    while left:
        out[n] = A_FORTIFY + lowest_card(left)
        left &= left - 1
        n += 1
    if not s.used & USED_MAGICK:
        n += magick_actions(s, out + n)
    if not s.used & USED_BATTLE:
        n += attack_actions(s, standing, out + n)
    return n + ability_actions(s, standing, hand, out + n)

cdef void play_main(RelData* s, int a) noexcept nogil:
    cdef int p = s.active
    if a == A_END:
        end_turn(s)
        return
    s.acted = 1
    if a < A_SUMMON:
        s.where[a - A_POPULATE] = LOC_TABLEAU + p
        s.gen[a - A_POPULATE] = 0
        s.hand_size[p] -= 1
        s.used |= USED_POPULATE
    elif a < A_PAY:
        # The Court stands in the tableau at once; its payment rests only Commons.
        s.summon = a - A_SUMMON
        s.where[s.summon] = LOC_TABLEAU + p
        s.gen[s.summon] = 0
        s.hand_size[p] -= 1
        s.used |= USED_SUMMON
        s.paid = 0
        s.paid_off_suit = 0
        s.phase = PH_PAY
    elif a < A_DISCARD:
        s.where[a - A_FORTIFY] |= RESTING
        end_turn(s)
    elif a < A_ATTACK:
        cast(s, a)
    elif a < A_ARCANA:
        declare(s, a)
    else:
        begin_ability(s, a)

cdef void pay(RelData* s, int c) noexcept nogil:
    s.where[c] |= RESTING
    s.paid += 1
    s.paid_off_suit = s.paid_off_suit or suit(c) != suit(s.summon)
    if paid_in_full(summon_cost(s.summon), s.paid, s.paid_off_suit):
        s.summon = NONE
        s.paid = 0
        s.paid_off_suit = 0
        s.phase = PH_MAIN


# --- Magick: Enchant, Negate, Augur, Murder, Foil (L6) ---------------------------------

cdef void shift_or(uint64_t* dst, const uint64_t* src, int by, int words) noexcept nogil:
    """``dst |= src << by`` (``src >> -by`` for a negative ``by``) over ``words`` words."""
    cdef int i, j, whole = (by if by >= 0 else -by) // 64, part = (by if by >= 0 else -by) % 64
    cdef uint64_t w
    for i in range(words):
        j = i - whole if by >= 0 else i + whole
        if j < 0 or j >= words:
            continue
        if by >= 0:
            w = src[j] << part
            if part and j > 0:
                w |= src[j - 1] >> (64 - part)
        else:
            w = src[j] >> part
            if part and j + 1 < words:
                w |= src[j + 1] << (64 - part)
        dst[i] |= w

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef inline int lowest_card(uint64_t cards) noexcept nogil:
    """The first card of a non-empty set of ``cards``: walking a set card by card, in
    card order, skips the cards it lacks."""
    return __builtin_ctzll(cards)

cdef struct Sums:
    # What sets of some Commons add up to, each at its worth this turn (L15): bit
    # ``t - low`` of ``every`` says some set of them makes t (the empty set making 0),
    # of ``some`` that a set naming at least one does.  A Bounty can make a worth 0 or
    # below, so the sums run from the negative worths' total to the positive ones'.
    int low, high
    uint64_t some[SUM_WORDS]
    uint64_t every[SUM_WORDS]

cdef void find_sums(RelData* s, uint64_t cards, Sums* out) noexcept nogil:
    """The sums of ``cards`` (Commons), found once for all the totals asked of them."""
    cdef uint64_t step[SUM_WORDS]
    cdef uint64_t t, left = cards
    cdef int c, w, words, i
    out.low = out.high = 0
    while left:
        w = worth(s, lowest_card(left))
        left &= left - 1
        if w < 0:
            out.low += w
        else:
            out.high += w
    if out.low == 0 and out.high < 64:
        out.every[0] = 1
        out.some[0] = 0
        left = cards
        while left:
            t = out.every[0] << worth(s, lowest_card(left))
            left &= left - 1
            out.some[0] |= t
            out.every[0] |= t
        return
    words = (out.high - out.low) // 64 + 1
    memset(out.every, 0, words * sizeof(uint64_t))
    memset(out.some, 0, words * sizeof(uint64_t))
    out.every[(-out.low) // 64] = (<uint64_t>1) << ((-out.low) % 64)
    left = cards
    while left:
        c = lowest_card(left)
        left &= left - 1
        memset(step, 0, words * sizeof(uint64_t))
        shift_or(step, out.every, worth(s, c), words)
        for i in range(words):
            out.some[i] |= step[i]
            out.every[i] |= step[i]

cdef inline bint makes(const Sums* sums, int total, bint named) noexcept nogil:
    """Whether some of the cards add up to ``total``: any of them, or with ``named``
    at least one."""
    cdef int i = total - sums.low
    if total < sums.low or total > sums.high:
        return False
    if named:
        return (sums.some[i // 64] >> (i % 64)) & 1
    return (sums.every[i // 64] >> (i % 64)) & 1

cdef bint sums_to(RelData* s, uint64_t cards, int total, bint named) noexcept nogil:
    cdef Sums sums
    find_sums(s, cards, &sums)
    return makes(&sums, total, named)

cdef inline bint opponents(RelData* s, int p, int q) noexcept nogil:
    return p != q and q != partner(s, p)

cdef uint64_t resting_commons(RelData* s, int q) noexcept nogil:
    """``q``'s resting Commons; with ``q`` the active seat (under enchant_any), every
    opponent's, and never the Enchanter's side's own (L12)."""
    cdef uint64_t cards = 0
    cdef int owner
    if q != s.active:
        return cards_at(s, (LOC_TABLEAU + q) | RESTING) & COMMONS
    for owner in range(s.num_players):
        if opponents(s, q, owner):
            cards |= cards_at(s, (LOC_TABLEAU + owner) | RESTING)
    return cards & COMMONS

cdef uint8_t side_of(RelData* s, int p) noexcept nogil:
    return (1 << p) | (1 << partner(s, p))

cdef inline bint court_on_table(RelData* s, int c) noexcept nogil:
    cdef int q = loc(s, c) - LOC_TABLEAU
    return is_court(c) and 0 <= q < s.num_players

cdef int magick_actions(RelData* s, int* out) noexcept nogil:
    """Enchant a single opponent's Resting Commons (or, under enchant_any, any
    opponents', L12), Augur with a Tarot under 13, Murder any Court with one of 13 or
    more (L6, L14).  An Enchant must name at least one card (R5); with a Bounty, the
    Fool can (L15)."""
    cdef Sums offered[MAX_PLAYERS]
    cdef bint can[MAX_PLAYERS]
    cdef uint32_t held = tarots_in_hand(s, s.active), left
    cdef int v, q, n = 0, p = s.active
    cdef int commons, court_to_kill = -1      # unknown until a Tarot that murders asks
    if not held:
        return 0
    # What the Commons each seat offers an Enchant add up to, found once for all the
    # Tarots in hand.
    for q in range(s.num_players):
        can[q] = opponents(s, p, q) and not s.enchant_any or q == p and s.enchant_any
        if can[q]:
            find_sums(s, resting_commons(s, q), &offered[q])
    left = held
    while left:
        v = lowest_card(left)
        left &= left - 1
        for q in range(s.num_players):
            if can[q] and makes(&offered[q], v, True):
                out[n] = A_ENCHANT + MAX_PLAYERS * v + q
                n += 1
    left = held & ((1 << MURDER_LEAST) - 1)
    while left:
        out[n] = A_AUGUR + lowest_card(left)
        left &= left - 1
        n += 1
    left = held >> MURDER_LEAST << MURDER_LEAST
    if left:
        count_targets(s, &commons, &court_to_kill)
        while court_to_kill and left:
            out[n] = A_MURDER + lowest_card(left)
            left &= left - 1
            n += 1
    return n

cdef inline void exile_tarot(RelData* s, int p, int v) noexcept nogil:
    s.where[TAROT0 + v] = LOC_EXILE
    s.gen[TAROT0 + v] = 0
    s.hand_size[p] -= 1

cdef void clear_magick(RelData* s) noexcept nogil:
    """L17: what one Magick leaves behind is gone before the next."""
    s.spell = NONE
    s.victim = NONE
    s.picker = NONE
    s.pool = 0
    s.picked = 0
    s.pick_left = 0
    s.defenders = 0
    s.defending = 0
    s.to_ask = 0
    s.counters = 0
    s.depth = 0
    s.last_tarot = NONE
    memset(s.level_value, 0, sizeof(s.level_value))
    memset(s.level_set, 0, sizeof(s.level_set))

cdef void cast(RelData* s, int a) noexcept nogil:
    cdef int p = s.active, v, q
    s.used |= USED_MAGICK
    if a < A_AUGUR:
        v = (a - A_ENCHANT) // MAX_PLAYERS
        q = (a - A_ENCHANT) % MAX_PLAYERS
        exile_tarot(s, p, v)
        clear_magick(s)
        s.spell = SPELL_ENCHANT
        s.picker = p
        s.pool = resting_commons(s, q)
        s.pick_left = v
        s.level_value[0] = v
        s.last_tarot = v
        s.phase = PH_PICK
    elif a < A_MURDER:
        exile_tarot(s, p, a - A_AUGUR)
        start_scry(s, p, 2, False)
    else:
        v = a - A_MURDER
        exile_tarot(s, p, v)
        clear_magick(s)
        s.spell = SPELL_MURDER
        s.picker = p
        s.last_tarot = v
        s.phase = PH_PICK

cdef inline uint64_t after(uint64_t cards, int c) noexcept nogil:
    """The cards of ``cards`` after ``c`` in card order."""
    return cards & ~(bit(c + 1) - 1)

cdef uint64_t still_open(RelData* s) noexcept nogil:
    """The cards the picker may still name: those after the last named."""
    cdef int c, last = NONE
    for c in range(TAROT0):
        if s.picked & bit(c):
            last = c
    return s.pool if last == NONE else after(s.pool, last)

cdef int pick_actions(RelData* s, int* out) noexcept nogil:
    """Targets in card order, each leaving the rest of the value within reach, their
    worth counting this turn's Bounties (L15).  Once the named cards make the value,
    the picker may stop, or name more worth 0 together; an Enchant names at least one
    card (R5)."""
    cdef int c, n = 0
    cdef uint64_t open_ = still_open(s)
    if s.spell == SPELL_MURDER:
        for c in range(TAROT0):
            if court_on_table(s, c):
                out[n] = A_PICK + c
                n += 1
        return n
    for c in range(TAROT0):
        if open_ & bit(c) and sums_to(s, after(s.pool, c), s.pick_left - worth(s, c), False):
            out[n] = A_PICK + c
            n += 1
    if s.pick_left == 0 and (s.picked or s.counters):
        out[n] = A_PASS
        n += 1
    return n

cdef void pick(RelData* s, int a) noexcept nogil:
    """A Murder's Court, or one more target of an Enchant or a Negate.  L14: only the
    side of the Court's owner may Foil, so a Murder of a Court of the Murderer's own
    side takes effect at once."""
    cdef int q, c = a - A_PICK
    if s.spell == SPELL_MURDER:
        s.victim = c
        s.picker = NONE
        q = loc(s, c) - LOC_TABLEAU
        if opponents(s, s.active, q):
            s.defenders = side_of(s, q)
            ask(s, True)
        else:
            resolve_magick(s)
        return
    if a == A_PASS:
        targets_picked(s)
        return
    s.picked |= bit(c)
    s.pick_left -= worth(s, c)
    if s.pick_left == 0 and not sums_to(s, still_open(s), 0, True):
        targets_picked(s)

cdef void targets_picked(RelData* s) noexcept nogil:
    cdef int c, q
    if s.counters == 0:
        s.level_set[0] = s.picked
        s.defenders = 0
        for c in range(TAROT0):
            if s.picked & bit(c):
                q = loc(s, c) - LOC_TABLEAU
                s.defenders |= side_of(s, q)
    else:
        s.depth += 1
        s.level_set[s.depth] = s.picked
        s.level_value[s.depth] = s.last_tarot
    # L17: the picking is over; the counters ask no one to pick.
    s.picker = NONE
    s.pool = 0
    s.picked = 0
    s.pick_left = 0
    ask(s, s.counters % 2 == 0)

cdef void ask(RelData* s, bint defenders) noexcept nogil:
    """Counters alternate between the sides; each seat of a side may answer in turn
    order, and the chain ends once a whole side passes (L6, R4)."""
    s.defending = defenders
    s.to_ask = s.defenders if defenders else side_of(s, s.active)
    s.phase = PH_COUNTER

cdef int answering(RelData* s) noexcept nogil:
    cdef int i, p
    for i in range(s.num_players):
        p = (s.active + i) % s.num_players
        if s.to_ask >> p & 1:
            return p
    return NONE

cdef int counter_actions(RelData* s, int* out) noexcept nogil:
    """A Foil beats the chain's latest Tarot.  A Negate is lower than the Tarot whose
    capture it replaces and names Commons of it worth its value, Bounties counted (L15);
    the Enchanter's side cancels a Negate with a Tarot above it (R4), and a chain stands
    MAX_NEGATES deep at most (R6)."""
    cdef Sums named
    cdef uint32_t left = tarots_in_hand(s, answering(s))
    cdef int v, n = 0
    cdef bint negating = s.spell != SPELL_MURDER and s.defending
    if negating:
        if s.depth >= MAX_NEGATES:
            left = 0
        else:
            left &= (1 << s.level_value[s.depth]) - 1
            if left:
                find_sums(s, s.level_set[s.depth], &named)
    else:
        left = left >> (s.last_tarot + 1) << (s.last_tarot + 1)
    while left:
        v = lowest_card(left)
        left &= left - 1
        if not negating or makes(&named, v, False):
            out[n] = A_COUNTER + v
            n += 1
    out[n] = A_PASS
    return n + 1

cdef void answer(RelData* s, int a) noexcept nogil:
    cdef int p = answering(s), v
    if a == A_PASS:
        s.to_ask &= ~(1 << p)
        if s.to_ask == 0:
            resolve_magick(s)
        return
    v = a - A_COUNTER
    exile_tarot(s, p, v)
    s.counters += 1
    s.last_tarot = v
    if s.spell == SPELL_ENCHANT and s.defending:
        # The Negate names its Commons; no seat is asked until it has (L17).
        s.to_ask = 0
        s.picker = p
        s.pool = s.level_set[s.depth]
        s.picked = 0
        s.pick_left = v
        if v == 0 and not sums_to(s, s.pool, 0, True):
            targets_picked(s)
        else:
            s.phase = PH_PICK
        return
    if s.spell == SPELL_ENCHANT:
        s.level_set[s.depth] = 0
        s.level_value[s.depth] = 0
        s.depth -= 1
    ask(s, not s.defending)

cdef void resolve_magick(RelData* s) noexcept nogil:
    """An Enchant captures the Commons its standing level names, resting as they were;
    a Murder with as many Foils against it as for it discards the Court (L6)."""
    cdef int c
    if s.spell == SPELL_ENCHANT:
        for c in range(TAROT0):
            if s.level_set[s.depth] & bit(c):
                s.where[c] = (LOC_TABLEAU + s.active) | RESTING
    elif s.counters % 2 == 0:
        s.where[s.victim] = LOC_DISCARD
    clear_magick(s)
    s.phase = PH_MAIN


# --- Battle: attackers, clashes, Rallies and captures (L7, L12) ------------------------

cdef inline int popcount(uint64_t bits) noexcept nogil:
    return __builtin_popcountll(bits)

cdef inline bint standing_court(RelData* s, int c, int p) noexcept nogil:
    return is_court(c) and standing_in(s, c, p)

cdef int attack_actions(RelData* s, uint64_t standing, int* out) noexcept nogil:
    """Attackers are standing Courts of the active player (of ``standing``, the active
    tableau's standing cards), each aimed at an opponent, declared in card order so
    that a set of attackers is one sequence (L7, R8)."""
    cdef uint64_t left = standing & COURTS & ~(bit(s.last_declared + 1) - 1)
    cdef int c, q, n = 0, p = s.active
    while left:
        c = lowest_card(left)
        left &= left - 1
        for q in range(s.num_players):
            if opponents(s, p, q):
                out[n] = A_ATTACK + MAX_PLAYERS * c + q
                n += 1
    return n

cdef void declare(RelData* s, int a) noexcept nogil:
    """An attacker rests as it is declared (L7)."""
    cdef int c = (a - A_ATTACK) // MAX_PLAYERS
    s.where[c] |= RESTING
    s.aimed[(a - A_ATTACK) % MAX_PLAYERS] |= bit(c)
    s.last_declared = c
    s.used |= USED_BATTLE
    s.acted = 1
    s.phase = PH_DECLARE

cdef void next_opponent(RelData* s) noexcept nogil:
    """With attackers aimed at several opponents, the active player says whose clashes
    resolve next (L7)."""
    cdef int q, count = 0, last = NONE
    for q in range(s.num_players):
        if s.aimed[q]:
            count += 1
            last = q
    # L17: the opponent just done with is no longer faced.
    s.facing = NONE
    if count == 0:
        s.phase = PH_MAIN
    elif count == 1:
        face(s, last)
    else:
        s.phase = PH_ORDER

cdef void face(RelData* s, int q) noexcept nogil:
    s.facing = q
    next_clash(s)

cdef void next_clash(RelData* s) noexcept nogil:
    """The defender picks which attacker its next clash answers (L7)."""
    cdef uint64_t left = s.aimed[s.facing]
    s.clash_attacker = NONE
    s.clash_defender = NONE
    if left == 0:
        next_opponent(s)
    elif popcount(left) == 1:
        meet(s, lowest_card(left))
    else:
        s.phase = PH_MEET

cdef bint can_defend(RelData* s, int q) noexcept nogil:
    cdef int c
    for c in range(TAROT0):
        if standing_court(s, c, q):
            return True
    return False

cdef void meet(RelData* s, int c) noexcept nogil:
    """Only a standing Court defends (R8); with none, the attacker is unopposed."""
    s.aimed[s.facing] &= ~bit(c)
    s.clash_attacker = c
    if can_defend(s, s.facing):
        s.phase = PH_BLOCK
    else:
        capture_for(s, c)

cdef void defend(RelData* s, int c) noexcept nogil:
    """A clash begins: each clashing seat, then under partner_rally each one's partner,
    chooses a Rally in turn, none seeing another's until all are revealed (L7, L12)."""
    cdef int n = 0
    s.clash_defender = c
    s.rally_seat[n] = s.active
    s.rally_seat[n + 1] = s.facing
    n = 2
    if s.partner_rally and s.teams:
        s.rally_seat[2] = partner(s, s.active)
        s.rally_seat[3] = partner(s, s.facing)
        n = 4
    s.rallies = n
    s.rallied = 0
    s.phase = PH_RALLY

cdef inline int rallying(RelData* s) noexcept nogil:
    return s.rally_seat[s.rallied]

cdef int rally_actions(RelData* s, int* out) noexcept nogil:
    """Any Common in hand, or no Rally; asked even of a seat with no Common, since
    skipping it would show the others what its hand holds (L7)."""
    cdef int c, n = 0, p = rallying(s)
    for c in range(TAROT0):
        if is_common(c) and s.where[c] == LOC_HAND + p:
            out[n] = A_RALLY + c
            n += 1
    out[n] = A_NO_RALLY
    return n + 1

cdef void choose_rally(RelData* s, int a) noexcept nogil:
    """The last choice is hidden like the others: the reveal is a step of its own, a
    chance event with one outcome (R9)."""
    s.rally[s.rallied] = NONE if a == A_NO_RALLY else a - A_RALLY
    s.rallied += 1
    if s.rallied == s.rallies:
        s.phase = PH_REVEAL

cdef int rallied_strength(RelData* s, int court, int side) noexcept nogil:
    """A Court's strength plus the Rallies of ``side`` (a seat) and its partner; the
    Rallies go to the discard pile (L7)."""
    cdef int i, c, total = value(court), p
    for i in range(s.rallies):
        c = s.rally[i]
        p = s.rally_seat[i]
        if c != NONE and (p == side or p == partner(s, side)):
            total += value(c)
            s.where[c] = LOC_DISCARD
            s.gen[c] = 0
            s.hand_size[p] -= 1
    return total

cdef void reveal(RelData* s) noexcept nogil:
    """The stronger Court wins; the loser goes to the discard pile, both on a tie.  An
    attacker that wins or ties captures by its rank; a defender that wins stays
    standing and may answer another attacker (L7)."""
    cdef int att = rallied_strength(s, s.clash_attacker, s.active)
    cdef int dfn = rallied_strength(s, s.clash_defender, s.facing)
    s.rallies = 0
    s.rallied = 0
    if att >= dfn:
        s.where[s.clash_defender] = LOC_DISCARD
    if att <= dfn:
        s.where[s.clash_attacker] = LOC_DISCARD
    if att >= dfn:
        capture_for(s, s.clash_attacker)
    else:
        next_clash(s)

cdef int capture_targets(RelData* s, int court, int* out) noexcept nogil:
    """The defender's standing Commons a Court of this rank captures: the lowest for a
    Page or Knight, the highest for a King or Queen, all those of that value, Bounties
    counted (L7, R11)."""
    cdef int c, n = 0, best = NO_VALUE, w
    cdef bint highest = value(court) >= 2
    for c in range(TAROT0):
        if is_common(c) and standing_in(s, c, s.facing):
            w = worth(s, c)
            if best == NO_VALUE or (w > best if highest else w < best):
                best = w
    for c in range(TAROT0):
        if is_common(c) and standing_in(s, c, s.facing) and worth(s, c) == best:
            out[n] = A_CAPTURE + c
            n += 1
    return n

cdef void capture_for(RelData* s, int court) noexcept nogil:
    """The attacker chooses among Commons of equal value (L7)."""
    # Bounties (L15) can bring more than ten Commons to one worth.
    cdef int out[TAROT0]
    cdef int n = capture_targets(s, court, out)
    if n == 0:
        next_clash(s)
    elif n == 1:
        capture(s, out[0] - A_CAPTURE)
    else:
        s.taker = court
        s.phase = PH_CAPTURE

cdef void capture(RelData* s, int c) noexcept nogil:
    """The captured Common keeps its position in the attacker's tableau."""
    s.where[c] = LOC_TABLEAU + s.active
    s.taker = NONE
    next_clash(s)

cdef int battle_actions(RelData* s, int* out) noexcept nogil:
    cdef int c, q, n = 0, ph = s.phase
    if ph == PH_DECLARE:
        n = attack_actions(s, standing_cards(s, s.active), out)
        out[n] = A_CLASH
        return n + 1
    if ph == PH_ORDER:
        for q in range(s.num_players):
            if s.aimed[q]:
                out[n] = A_FACE + q
                n += 1
    elif ph == PH_MEET:
        for c in range(TAROT0):
            if s.aimed[s.facing] >> c & 1:
                out[n] = A_MEET + c
                n += 1
    elif ph == PH_BLOCK:
        for c in range(TAROT0):
            if standing_court(s, c, s.facing):
                out[n] = A_DEFEND + c
                n += 1
        out[n] = A_DECLINE
        n += 1
    elif ph == PH_RALLY:
        n = rally_actions(s, out)
    elif ph == PH_CAPTURE:
        n = capture_targets(s, s.taker, out)
    return n

cdef void play_battle(RelData* s, int a) noexcept nogil:
    if a < A_CLASH:
        declare(s, a)
    elif a == A_CLASH:
        # L17: the declaring is over; the next Battle's attackers start afresh.
        s.last_declared = NONE
        next_opponent(s)
    elif a < A_MEET:
        face(s, a - A_FACE)
    elif a < A_DEFEND:
        meet(s, a - A_MEET)
    elif a < A_DECLINE:
        defend(s, a - A_DEFEND)
    elif a == A_DECLINE:
        capture_for(s, s.clash_attacker)
    elif a < A_CAPTURE:
        choose_rally(s, a)
    else:
        capture(s, a - A_CAPTURE)


# --- Special abilities: Arcana and Finesse (L9, R11, R12) -------------------------------

cdef inline int worth(RelData* s, int c) noexcept nogil:
    """A tableau Common's value with this turn's Bounties (R11)."""
    return value(c) + s.bounty[c]

cdef inline bint on_table(RelData* s, int c) noexcept nogil:
    cdef int l = loc(s, c)
    return LOC_TABLEAU <= l < LOC_TABLEAU + s.num_players

cdef inline bint target_kind(int ability, int c) noexcept nogil:
    """Glamour and Bounty act on a Common, Coerce on a Court, in any tableau (L9)."""
    return is_court(c) if ability == COERCE else is_common(c)

cdef uint64_t tabled_cards(RelData* s, int first, int last) noexcept nogil:
    """The cards standing or resting in the tableaux of seats ``first`` to ``last - 1``,
    found eight cards at a time."""
    cdef uint64_t cards = 0
    cdef int k
    for k in range(TAROT0 // 8):
        cards |= bytes_between(places_word(s, 8 * k), LOC_TABLEAU + first,
                               LOC_TABLEAU + last) << (8 * k)
    return cards

cdef void count_targets(RelData* s, int* commons, int* courts) noexcept nogil:
    """The Commons and the Courts in any tableau, what a Common's ability and Coerce may
    act on (L9): both in one pass."""
    cdef uint64_t tabled = tabled_cards(s, 0, s.num_players)
    commons[0] = popcount(tabled & COMMONS)
    courts[0] = popcount(tabled & COURTS)

cdef inline bint pair_fits(RelData* s, int ability, int c1, int c2, int targets) noexcept nogil:
    """Whether ``c1`` and ``c2`` pay together: an Arcana leaves a card to act on besides
    them (L9); Congregate's pair sums to the placed Common's value (R11)."""
    if ability == LAVISH or ability == CONSCRIPT:
        return True
    if ability == CONGREGATE:
        return worth(s, c1) + worth(s, c2) == value(s.placing)
    return targets - target_kind(ability, c1) - target_kind(ability, c2) > 0

cdef inline uint64_t paying_cards(RelData* s, uint64_t standing, int ability) noexcept nogil:
    """The cards among ``standing`` (the active tableau's) that may pay for
    ``ability``: an Arcana rests two standing cards of its suit, Congregate two Commons,
    Conscript two Courts, never the card a Finesse places (L9)."""
    cdef uint64_t cards = standing
    if ability < CONGREGATE:
        cards &= (<uint64_t>0x3fff) << (14 * ability)
    else:
        cards &= COMMONS if ability == CONGREGATE else COURTS
    if s.placing != NONE:
        cards &= ~bit(s.placing)
    return cards

cdef bint arcana_possible(RelData* s, uint64_t standing, int k, int targets) noexcept nogil:
    cdef uint64_t first = paying_cards(s, standing, k), second
    cdef int c1, c2
    while first:
        c1 = lowest_card(first)
        first &= first - 1
        second = first
        while second:
            c2 = lowest_card(second)
            second &= second - 1
            if pair_fits(s, k, c1, c2, targets):
                return True
    return False

cdef uint64_t pair_sums(RelData* s, uint64_t standing) noexcept nogil:
    """The values 1-10 that two standing Commons of the active tableau add up to."""
    cdef uint64_t first = paying_cards(s, standing, CONGREGATE), second, seen = 0
    cdef int c1, w
    cdef uint64_t sums = 0
    # With no worth below 0 (no Bounty has taken one under), the worths of the cards
    # before each card, as bits, shifted by its own, are the pairs it ends: one pass,
    # not one per pair.  A worth past 10 is in no such pair.
    second = first
    while second:
        w = worth(s, lowest_card(second))
        second &= second - 1
        if w < 0:
            break
        if w <= 10:
            sums |= seen << w
            seen |= bit(w)
    else:
        return sums & (bit(11) - bit(1))
    sums = 0
    while first:
        c1 = lowest_card(first)
        first &= first - 1
        second = first
        while second:
            w = worth(s, c1) + worth(s, lowest_card(second))
            second &= second - 1
            if 1 <= w <= 10:
                sums |= bit(w)
    return sums

cdef int ability_actions(RelData* s, uint64_t standing, uint64_t hand,
                         int* out) noexcept nogil:
    """Abilities, any number a turn: the four Arcana, and with ``finesse`` Congregate
    and Conscript (L9).  ``standing`` and ``hand`` are the active seat's standing
    cards and suited cards in hand."""
    cdef int k, c, n = 0, commons_out, courts_out
    cdef uint64_t sums, left
    # What an Arcana may act on, a Common or (Coerce's) a Court, counted once for the four.
    count_targets(s, &commons_out, &courts_out)
    for k in range(4):
        if arcana_possible(s, standing, k, courts_out if k == COERCE else commons_out):
            out[n] = A_ARCANA + k
            n += 1
    if not s.finesse:
        return n
    sums = pair_sums(s, standing)
    left = hand & COMMONS
    while left:
        c = lowest_card(left)
        left &= left - 1
        if sums >> value(c) & 1:
            out[n] = A_CONGREGATE + c
            n += 1
    left = hand & COURTS if popcount(standing & COURTS) >= 2 else 0
    while left:
        out[n] = A_CONSCRIPT + lowest_card(left)
        left &= left - 1
        n += 1
    return n

cdef void begin_ability(RelData* s, int a) noexcept nogil:
    s.acted = 1
    s.payers = 0
    if a < A_CONGREGATE:
        s.ability = a - A_ARCANA
    elif a < A_CONSCRIPT:
        s.ability = CONGREGATE
        s.placing = a - A_CONGREGATE
    else:
        s.ability = CONSCRIPT
        s.placing = a - A_CONSCRIPT
    if s.placing != NONE:
        # A Finesse's card is shown and stands at once, as a summoned Court does; it
        # does not pay for itself.
        s.where[s.placing] = LOC_TABLEAU + s.active
        s.gen[s.placing] = 0
        s.hand_size[s.active] -= 1
    s.phase = PH_SPEND

cdef int spend_actions(RelData* s, int* out) noexcept nogil:
    """The two paying cards, in card order, the first only if a second fits it."""
    cdef int c, n = 0, commons, courts, targets
    cdef int first = lowest_card(s.payers) if s.payers else NONE
    cdef uint64_t left = paying_cards(s, standing_cards(s, s.active), s.ability) \
        & ~(bit(first + 1) - 1), second
    count_targets(s, &commons, &courts)
    targets = courts if s.ability == COERCE else commons
    while left:
        c = lowest_card(left)
        left &= left - 1
        if first != NONE:
            if pair_fits(s, s.ability, first, c, targets):
                out[n] = A_PAY + c
                n += 1
            continue
        second = left
        while second:
            if pair_fits(s, s.ability, c, lowest_card(second), targets):
                out[n] = A_PAY + c
                n += 1
                break
            second &= second - 1
    return n

cdef void spend(RelData* s, int c) noexcept nogil:
    """Lavish scries once, Acceptances over or not; the others then name their target
    (L9)."""
    s.where[c] |= RESTING
    s.payers |= bit(c)
    if popcount(s.payers) < 2:
        return
    if s.ability == LAVISH:
        ability_done(s)
        start_scry(s, s.active, 1, False)
    elif s.ability >= CONGREGATE:
        ability_done(s)
    else:
        s.phase = PH_TARGET

cdef int target_actions(RelData* s, int* out) noexcept nogil:
    """Never a card that paid (L9).  Glamour and Coerce turn a card over, which always
    changes its position."""
    cdef int c, n = 0
    for c in range(TAROT0):
        if on_table(s, c) and target_kind(s.ability, c) and not s.payers & bit(c):
            out[n] = A_PICK + c
            n += 1
    return n

cdef void aim(RelData* s, int c) noexcept nogil:
    if s.ability == BOUNTY:
        s.ability_target = c
        s.phase = PH_BOUNTY
    else:
        s.where[c] ^= RESTING
        ability_done(s)

cdef int bounty_actions(RelData* s, int* out) noexcept nogil:
    """Add or subtract either paying card's printed value, a Court's being its
    strength (L9, R11)."""
    cdef int c, d, n = 0
    cdef uint64_t amounts = 0
    for c in range(TAROT0):
        if s.payers & bit(c):
            amounts |= bit(10 + value(c)) | bit(10 - value(c))
    for d in range(21):
        if amounts & bit(d):
            out[n] = A_BOUNTY + d
            n += 1
    return n

cdef void add_bounty(RelData* s, int d) noexcept nogil:
    s.bounty[s.ability_target] += d - 10
    ability_done(s)

cdef void ability_done(RelData* s) noexcept nogil:
    s.ability = NONE
    s.placing = NONE
    s.ability_target = NONE
    s.payers = 0
    s.phase = PH_MAIN


# --- knowledge for search: a value and a greedy move ------------------------------------

# What a card is worth to evaluation where it stands: on a tableau (a Common its value,
# a Court 2 more) and in its holder's hand (a Common its value in part, a Court and a
# Tarot a fixed share).  Tables, filled once, since evaluation reads every card at
# every leaf of a search.
cdef double TABLEAU_WORTH[TAROT0]
cdef double HAND_WORTH[NUM_CARDS]

cdef void fill_worths() noexcept nogil:
    cdef int c
    for c in range(NUM_CARDS):
        HAND_WORTH[c] = 1.0 + 0.2 * value(c) if is_common(c) else 2.0
        if c < TAROT0:
            TABLEAU_WORTH[c] = value(c) if is_common(c) else 2.0 + value(c)

fill_worths()

cdef double evaluation(RelData* s, int p) noexcept nogil:
    """``p``'s prospects from what ``p`` sees: tableau Commons and Courts against the
    best opposing side, ``p``'s own hand against the others' hand sizes, in a range
    that narrows as the turns run out."""
    cdef double side[MAX_PLAYERS]
    cdef double best = -1e9, theirs, x, left, hand = 0
    cdef uint64_t tableau[MAX_PLAYERS]
    cdef uint64_t held = 0, word
    cdef int c, q, k
    for q in range(MAX_PLAYERS):
        side[q] = 0
        tableau[q] = 0
    # Each side's cards as sets, eight at a time; summed in card order as a pass over
    # the cards would, so the sums are the same to the last bit.
    for k in range(TAROT0 // 8):
        word = places_word(s, 8 * k)
        held |= bytes_equal(word, LOC_HAND + p) << (8 * k)
        word &= <uint64_t>0x7f7f7f7f7f7f7f7f    # standing and resting alike
        for q in range(s.num_players):
            tableau[q] |= bytes_equal(word, LOC_TABLEAU + q) << (8 * k)
    while held:
        c = lowest_card(held)
        held &= held - 1
        hand += HAND_WORTH[c]
    held = tarots_in_hand(s, p)
    while held:
        c = TAROT0 + lowest_card(held)
        held &= held - 1
        hand += HAND_WORTH[c]
    for q in range(s.num_players):
        while tableau[q]:
            c = lowest_card(tableau[q])
            tableau[q] &= tableau[q] - 1
            side[q] += TABLEAU_WORTH[c]
    for q in range(s.num_players):
        if opponents(s, p, q):
            theirs = side[q] + 1.6 * s.hand_size[q]
            if s.teams:
                theirs += side[partner(s, q)] + 1.6 * s.hand_size[partner(s, q)]
            if theirs > best:
                best = theirs
    x = side[p] + hand
    if s.teams:
        x += side[partner(s, p)] + 1.6 * s.hand_size[partner(s, p)]
    left = 1.0 - s.turn / <double>s.max_turns
    return tanh((x - best) / (8.0 + 16.0 * left))

cdef bint worth_attacking(RelData* s, int c, int q) noexcept nogil:
    """Whether ``q`` has a standing Common to lose and Court ``c`` outranks each of
    ``q``'s standing Courts."""
    cdef uint64_t standing = standing_cards(s, q)
    return (standing & COMMONS) != 0 and value(c) > highest_standing(s, standing, True)

cdef int opponents_court(RelData* s) noexcept nogil:
    """The last Court of an opponent of the active player in card order, or NONE."""
    cdef uint64_t courts = 0
    cdef int q
    for q in range(s.num_players):
        if opponents(s, s.active, q):
            courts |= tabled_cards(s, q, q + 1)
    courts &= COURTS
    return 63 - __builtin_clzll(courts) if courts else NONE

cdef int main_score(RelData* s, int a) noexcept nogil:
    """Greedy priorities: place Commons (the highest first), Courts, capture with
    Tarots, attack where the attacker outranks every defender; else end the turn."""
    if a == A_END:
        return 0
    if a < A_SUMMON:
        return 100 + value(a - A_POPULATE)
    if a < A_PAY:
        return 80 + value(a - A_SUMMON)
    if A_ENCHANT <= a < A_AUGUR:
        return 60 + (a - A_ENCHANT) // MAX_PLAYERS
    if A_MURDER <= a < A_PICK:
        # L14 lets a Murder kill one's own Court too; the greedy player never wants to.
        return 50 if opponents_court(s) != NONE else -1
    if A_ATTACK <= a < A_CLASH:
        if worth_attacking(s, (a - A_ATTACK) // MAX_PLAYERS, (a - A_ATTACK) % MAX_PLAYERS):
            return 40 + (a - A_ATTACK) // MAX_PLAYERS % 14
        return -1
    if A_CONGREGATE <= a < A_CONSCRIPT:
        return 90 + value(a - A_CONGREGATE)
    if A_CONSCRIPT <= a < A_BOUNTY:
        return 70
    return -1

cdef int rally_choice(RelData* s, int* acts, int n) noexcept nogil:
    """The first Common in card order that lifts this side above the other Court's
    bare strength, none if the Court is already stronger or no Common is enough."""
    cdef int p = rallying(s), i, mine, theirs
    cdef bint attacking = p == s.active or p == partner(s, s.active)
    mine = value(s.clash_attacker if attacking else s.clash_defender)
    theirs = value(s.clash_defender if attacking else s.clash_attacker)
    if mine > theirs:
        return A_NO_RALLY
    for i in range(n - 1):
        if mine + value(acts[i] - A_RALLY) > theirs:
            return acts[i]
    return A_NO_RALLY

cdef int block_choice(RelData* s, int* acts, int n) noexcept nogil:
    """The first Court in card order that outranks the attacker, else decline: a lost
    or tied clash costs the Court and the Common alike."""
    cdef int i, c
    for i in range(n - 1):
        c = acts[i] - A_DEFEND
        if value(c) > value(s.clash_attacker):
            return acts[i]
    return A_DECLINE

cdef int best_by_score(RelData* s, int* acts, int n, Rng* rng) noexcept nogil:
    cdef int i, sc, best = -2, pick = acts[0], ties = 0
    for i in range(n):
        sc = main_score(s, acts[i])
        if sc > best:
            best = sc
            pick = acts[i]
            ties = 1
        elif sc == best:
            ties += 1
            if rng_below(rng, ties) == 0:
                pick = acts[i]
    return pick

cdef int heuristic_move(RelData* s, int* acts, int n, Rng* rng) noexcept nogil:
    cdef int ph = s.phase, i
    if ph == PH_MAIN:
        return best_by_score(s, acts, n, rng)
    if ph == PH_DECLARE:
        i = best_by_score(s, acts, n, rng)
        return i if i != A_CLASH and main_score(s, i) > 0 else A_CLASH
    if ph == PH_RALLY:
        return rally_choice(s, acts, n)
    if ph == PH_BLOCK:
        return block_choice(s, acts, n)
    if ph == PH_PAY:
        # The first Commons offered pay: resting ones are what an Enchant takes.
        return acts[0]
    if ph == PH_KEEP:
        return acts[0] if flip_rank(s.drawn[0]) < flip_rank(s.drawn[1]) else acts[1]
    if ph == PH_PICK and s.spell == SPELL_MURDER:
        i = opponents_court(s)
        return acts[n - 1] if i == NONE else A_PICK + i
    if ph == PH_COUNTER:
        # Counter with the lowest Tarot that can, as long as one can.
        return acts[0]
    return acts[rng_below(rng, n)] if ph == PH_ORDER else acts[0]


# --- determinization ---------------------------------------------------------------------

cdef inline bint hidden_from(RelData* s, int c, int observer) noexcept nogil:
    cdef int l = loc(s, c)
    if l < LOC_TABLEAU:
        return l != observer
    return l == LOC_SCRY or l == LOC_ASIDE or l == LOC_DRAWN and s.scry_for != observer

cdef void shuffle(int* cards, int n, Rng* rng) noexcept nogil:
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t

cdef void redeal_hidden(RelData* s, int observer, Rng* rng) noexcept nogil:
    """The hidden cards dealt afresh to the places that hold them, within each
    generation of the Scry pile: how many each place holds is public, so the places are
    listed in seat order, never in the order of the cards that truly lie there.  The
    generations are shuffled one after another, each its cards in card order, found in
    one pass over the cards."""
    cdef int hidden[NUM_CARDS]
    cdef int cards[NUM_CARDS]         # the hidden cards by generation, in card order
    cdef uint8_t places[NUM_CARDS]
    cdef int first[256 + 1]           # where each generation's cards begin in ``cards``
    cdef int count[NUM_LOCS]
    cdef int c, g, l, i, k, n = 0, gens = s.generation + 1
    for g in range(gens + 1):
        first[g] = 0
    for c in range(NUM_CARDS):
        if s.gen[c] < gens and hidden_from(s, c, observer):
            hidden[n] = c
            first[s.gen[c] + 1] += 1
            n += 1
    for g in range(gens):
        first[g + 1] += first[g]
    for i in range(n):
        c = hidden[i]
        cards[first[s.gen[c]]] = c
        first[s.gen[c]] += 1
    # Each generation's start, moved to its end by the filling, is the one before's end.
    for g in range(gens - 1, 0, -1):
        first[g] = first[g - 1]
    first[0] = 0
    for g in range(gens):
        for l in range(NUM_LOCS):
            count[l] = 0
        for i in range(first[g], first[g + 1]):
            count[loc(s, cards[i])] += 1
        k = first[g]
        for l in range(NUM_LOCS):
            for i in range(count[l]):
                places[k] = l
                k += 1
        shuffle(cards + first[g], first[g + 1] - first[g], rng)
        for i in range(first[g], first[g + 1]):
            s.where[cards[i]] = places[i]

cdef void redeal_unfinished(RelData* s, int observer, Rng* rng) noexcept nogil:
    """During the deal the others' hands, the Scry pile and a short game's set-aside
    cards hide even their sizes: each card placed out of the observer's sight goes
    afresh to one of them, with the chance of the room that place has among all the
    cards it will yet receive (R1, L16)."""
    cdef int room[MAX_PLAYERS + 2]
    cdef int c, p, u, pool = 0
    for p in range(MAX_PLAYERS):
        room[p] = 0 if p == observer or p >= s.num_players else HAND_CARDS
    room[MAX_PLAYERS] = scry_target(s)
    room[MAX_PLAYERS + 1] = NUM_CARDS - (HAND_CARDS + 1) * s.num_players - scry_target(s)
    for p in range(s.num_players):
        if p != observer:
            s.hand_size[p] = 0
    for p in range(MAX_PLAYERS + 2):
        pool += room[p]
    s.scry_size = 0
    for c in range(s.deal_next):
        if hidden_from(s, c, observer):
            u = rng_below(rng, pool)
            for p in range(MAX_PLAYERS + 2):
                u -= room[p]
                if u < 0:
                    break
            room[p] -= 1
            pool -= 1
            if p == MAX_PLAYERS + 1:
                s.where[c] = LOC_ASIDE
            elif p == MAX_PLAYERS:
                s.where[c] = LOC_SCRY
                s.scry_size += 1
            else:
                s.where[c] = LOC_HAND + p
                s.hand_size[p] += 1


cdef void rechoose_rallies(RelData* s, int observer, Rng* rng) noexcept nogil:
    """Another seat's hidden Rally is chosen afresh from its redealt hand: no Rally or
    one of its Commons, alike, so that the chosen card is always in that hand (L7)."""
    cdef int i, c, p, n, r
    for i in range(s.rallied):
        p = s.rally_seat[i]
        if p == observer:
            continue
        n = 0
        for c in range(TAROT0):
            n += is_common(c) and s.where[c] == LOC_HAND + p
        r = rng_below(rng, n + 1)
        s.rally[i] = NONE
        for c in range(TAROT0):
            if is_common(c) and s.where[c] == LOC_HAND + p:
                if r == 0:
                    s.rally[i] = c
                    break
                r -= 1


# --- the state ---------------------------------------------------------------------------

cdef class RelinquishState(GameState):
    """A Relinquish position.  Build one with ``RelinquishGame.new_initial_state`` or
    ``RelinquishGame.state_from_dict``."""

    cdef int c_current_player(self) noexcept nogil:
        cdef int ph = self.s.phase
        if ph == PH_OVER:
            return TERMINAL
        if ph == PH_DEAL or ph == PH_FLIP or ph == PH_DRAW or ph == PH_REVEAL:
            return CHANCE
        if ph == PH_KEEP:
            return self.s.scry_for
        if ph == PH_PICK:
            return self.s.picker
        if ph == PH_COUNTER:
            return answering(&self.s)
        if ph == PH_MEET or ph == PH_BLOCK:
            return self.s.facing
        if ph == PH_RALLY:
            return rallying(&self.s)
        return self.s.active

    cdef bint c_is_terminal(self) noexcept nogil:
        return self.s.phase == PH_OVER

    cdef double c_returns(self, int player) noexcept nogil:
        if self.s.phase != PH_OVER:
            return 0.0
        return returns_of(&self.s, player)

    cdef void copy_into(self, GameState dst) noexcept nogil:
        memcpy(&(<RelinquishState>dst).s, &self.s, sizeof(RelData))

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        cdef RelData* s = &self.s
        cdef int c, n = 0
        if s.phase == PH_DEAL:
            return deal_outcomes(s, actions, probs)
        if s.phase == PH_REVEAL:
            actions[0] = 0
            probs[0] = 1.0
            return 1
        if s.phase == PH_FLIP or s.phase == PH_DRAW:
            for c in range(NUM_CARDS):
                if s.where[c] == LOC_SCRY:
                    actions[n] = c
                    probs[n] = 1.0 / s.scry_size
                    n += 1
        return n

    cdef int c_sample_chance(self, Rng* rng) noexcept nogil:
        cdef RelData* s = &self.s
        cdef int c, r
        if s.phase == PH_REVEAL:
            return 0
        if s.phase != PH_FLIP and s.phase != PH_DRAW:
            return -1
        r = rng_below(rng, s.scry_size)
        for c in range(NUM_CARDS):
            if s.where[c] == LOC_SCRY:
                if r == 0:
                    return c
                r -= 1
        return -1

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef double probs[NUM_CARDS]
        cdef RelData* s = &self.s
        cdef int ph = s.phase
        if ph == PH_DEAL or ph == PH_FLIP or ph == PH_DRAW or ph == PH_REVEAL:
            return self.c_chance_outcomes(out, probs)
        if ph == PH_MAIN:
            return main_actions(s, out)
        if ph == PH_PAY:
            return pay_actions(s, out)
        if ph == PH_PICK:
            return pick_actions(s, out)
        if ph == PH_COUNTER:
            return counter_actions(s, out)
        if ph == PH_KEEP:
            out[0] = A_DISCARD + s.drawn[0]
            out[1] = A_DISCARD + s.drawn[1]
            return 2
        if ph == PH_SPEND:
            return spend_actions(s, out)
        if ph == PH_TARGET:
            return target_actions(s, out)
        if ph == PH_BOUNTY:
            return bounty_actions(s, out)
        return battle_actions(s, out)

    cdef void c_apply_action(self, int a) noexcept nogil:
        cdef RelData* s = &self.s
        cdef int ph = s.phase
        if ph == PH_DEAL:
            deal(s, a)
        elif ph == PH_FLIP:
            reflip(s, a)
        elif ph == PH_DRAW:
            draw(s, a)
        elif ph == PH_KEEP:
            discard_drawn(s, a - A_DISCARD)
        elif ph == PH_PAY:
            pay(s, a - A_PAY)
        elif ph == PH_PICK:
            pick(s, a)
        elif ph == PH_COUNTER:
            answer(s, a)
        elif ph == PH_MAIN:
            play_main(s, a)
        elif ph == PH_REVEAL:
            reveal(s)
        elif ph == PH_SPEND:
            spend(s, a - A_PAY)
        elif ph == PH_TARGET:
            aim(s, a - A_PICK)
        elif ph == PH_BOUNTY:
            add_bounty(s, a - A_BOUNTY)
        else:
            play_battle(s, a)

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # Hidden are the others' hands, the Scry pile and cards drawn by another's
        # Scry (L8).  Cards are gathered by kind and redealt to the places that hold
        # hidden cards, within each generation of the Scry pile, so a card everyone
        # knows went into a reshuffled pile stays among that pile's cards.
        cdef RelData* s = &self.s
        cdef int c, k = 0
        if s.phase == PH_DEAL:
            redeal_unfinished(s, observer, rng)
            return
        redeal_hidden(s, observer, rng)
        if s.drawn[0] != NONE and s.scry_for != observer:
            for c in range(NUM_CARDS):
                if s.where[c] == LOC_DRAWN:
                    s.drawn[k] = c
                    k += 1
        rechoose_rallies(s, observer, rng)

    cdef double c_evaluate(self, int player) noexcept nogil:
        return evaluation(&self.s, player)

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        cdef int acts[NUM_ACTIONS]
        cdef int n
        if self.c_current_player() < 0:
            return -1
        n = self.c_legal_actions(acts)
        return heuristic_move(&self.s, acts, n, rng)

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        # A card dealt to another hand, to the Scry pile or set aside (L16), and a card
        # another player draws, are unseen; a flip is face up (L3).
        cdef RelData* s = &self.s
        if s.phase == PH_DEAL:
            if action == DEST_HAND + observer or DEST_FLIP <= action < DEST_SCRY:
                return action
            return -1
        if s.phase == PH_DRAW and observer != s.scry_for:
            return -1
        # Every Rally of one seat looks alike to the others until the reveal (L7).
        if s.phase == PH_RALLY and observer != rallying(s):
            return -1
        return action

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        fill_tensor(self, player, out)


# --- the observation tensor ----------------------------------------------------------------

# The places of a card in the "cards" block: the viewer's hand; standing and resting in
# the tableau of the seat k places after the viewer; the discard and exile piles; drawn
# by the viewer; hidden.
cdef int CARD_PLACES = 13
LAYOUT = TensorLayout(
    ("phase", len(PHASES)),
    ("flags", 7),               # to move, active, used populate, summon, acted,
                                # reshuffled, used battle
    ("seats", 4 * MAX_PLAYERS), # by seat from the viewer: hand size, first, tied, turn
    ("cards", NUM_CARDS * CARD_PLACES),  # where each card is, seen from the viewer
    ("battle", 2 * TAROT0 + 1), # each suited card attacking still, or clashing now;
                                # the share of the clash's Rallies chosen
    ("bounty", TAROT0),         # what Bounties added to each Common this turn, / 10
)


# Where each block begins, read from LAYOUT once, for the fill without the GIL.
cdef int T_SIZE = LAYOUT.size
cdef int T_PHASE = LAYOUT.offset("phase")
cdef int T_FLAGS = LAYOUT.offset("flags")
cdef int T_SEATS = LAYOUT.offset("seats")
cdef int T_CARDS = LAYOUT.offset("cards")
cdef int T_BATTLE = LAYOUT.offset("battle")
cdef int T_BOUNTY = LAYOUT.offset("bounty")


cdef void fill_tensor(RelinquishState st, int viewer, float* v) noexcept nogil:
    """What ``viewer`` knows, block by block as ``LAYOUT`` lays it out."""
    cdef RelData* s = &st.s
    cdef int o, c, l, k, p, n = s.num_players
    memset(v, 0, T_SIZE * sizeof(float))
    v[T_PHASE + s.phase] = 1
    o = T_FLAGS
    v[o] = st.c_current_player() == viewer
    v[o + 1] = s.active == viewer and s.phase != PH_DEAL
    v[o + 2] = s.used & USED_POPULATE
    v[o + 3] = (s.used & USED_SUMMON) != 0
    v[o + 4] = s.acted
    v[o + 5] = s.generation > 0
    v[o + 6] = (s.used & USED_BATTLE) != 0
    o = T_SEATS
    for k in range(n):
        p = (viewer + k) % n
        if s.phase != PH_DEAL or p == viewer:
            v[o + 4 * k] = s.hand_size[p] / <float>HAND_CARDS
        v[o + 4 * k + 1] = s.first == p and s.phase > PH_FLIP
        v[o + 4 * k + 2] = s.tied >> p & 1
        v[o + 4 * k + 3] = s.turn / <float>s.max_turns
    o = T_CARDS
    for c in range(NUM_CARDS):
        l = loc(s, c)
        if l == LOC_HAND + viewer:
            k = 0
        elif LOC_TABLEAU <= l < LOC_SCRY:
            k = 1 + (l - LOC_TABLEAU - viewer + n) % n + (4 if s.where[c] & RESTING else 0)
        elif l == LOC_DISCARD:
            k = 9
        elif l == LOC_EXILE:
            k = 10
        elif l == LOC_DRAWN and s.scry_for == viewer:
            k = 11
        else:
            k = 12
        v[o + CARD_PLACES * c + k] = 1
    o = T_BATTLE
    for c in range(TAROT0):
        for p in range(n):
            if s.aimed[p] >> c & 1:
                v[o + 2 * c] = 1
        v[o + 2 * c + 1] = c == s.clash_attacker or c == s.clash_defender
    if s.rallies:
        v[o + 2 * TAROT0] = s.rallied / <float>s.rallies
    o = T_BOUNTY
    for c in range(TAROT0):
        v[o + c] = s.bounty[c] / 10.0
