# cython: language_level=3, cdivision=True
"""Shrine, by Julian "Legend" Jimenez, under the rulings in docs/rules/shrine.md.

Cards are kinds: ``kind = (rank - 1) * 2 + colour`` with rank 1 (Ace) .. 13 (King)
and colour 0 black, 1 red; the Joker is kind 26.  The two copies of a kind are
interchangeable, so hands and the Library are counts by kind.

The turn is a small machine.  ``advance`` runs every automatic step (settling Shrine
tops, triad breaks, Balance resolution, draws that need no choice) until the game waits
on a decision or a chance event; ``phase`` names which, and ``step`` where the turn
resumes afterwards.

The actions come in families (a Heal, an Attack, a Dagger, ...), each a run of action
ids.  The table ``FAMILIES`` says what sets each apart, and the code of a family, from
its legal actions to its label, sits in one section that names the rulings it follows.
"""

from libc.math cimport tanh
from libc.string cimport memcpy, memset

from core.kit.piles cimport pile_outcomes, pile_sample, pile_size, win_loss
from core.state cimport CHANCE, TERMINAL, GameState, Rng, rng_below
from core.errors import StateFormatError
from core.kit import Cards, TensorLayout, read_bool, read_int, read_name, read_players, read_winner
from core.state import Game

cdef enum:
    NONE = -1
    DRAW = 2                  # ShrineData.winner when max_turns ends the game
    HAND_LIMIT = 7
    BASE_CAPACITY = 5
    TRIAD_CAPACITY = 7
    DEAL_CARDS = 20           # 5 to each Shrine, then 5 to each hand
    NUM_MULTISETS = 245       # same-colour card multisets whose values sum to at most 14

# Field slots
cdef enum:
    F_JACK = 0
    F_QUEEN = 1
    F_KING = 2
    F_DAGGER = 3
    T_SHRINE = 4              # a Dagger's fifth target: the top of the Shrine

# Powers used this turn
cdef enum:
    USED_JACK = 1
    USED_QUEEN = 2
    USED_KING = 4

# Decisions and chance: ShrineData.phase
cdef enum:
    PH_CHANCE = 0
    PH_START = 1              # draw from the Library, or take the Graveyard's top card
    PH_ACTION = 2
    PH_RES_USE = 3            # how a Resurrection uses the Graveyard card
    PH_JACK_DISCARD = 4
    PH_RESPONSE = 5
    PH_FIZZLE_PICK = 6        # alt_fizzle: the responder picks the three cards
    PH_COUNTER = 7
    PH_COUNTER_PICK = 8
    PH_DISCARD = 9            # end of turn, down to the hand limit
    PH_BAL_DISCARD = 10       # matching the Balance card's player's hand size
    PH_OVER = 11

# Where the turn resumes: ShrineData.step
cdef enum:
    ST_DEAL = 0
    ST_TURN_START = 1
    ST_DRAWING = 2
    ST_CHOOSE = 3
    ST_ACTION = 4
    ST_RESPOND = 5
    ST_RESOLVE = 6
    ST_FIZZLED = 7
    ST_AFTER = 8
    ST_END = 9
    ST_BAL_FIELD = 10
    ST_BAL_SHRINE = 11
    ST_BAL_HAND = 12
    ST_BAL_FINISH = 13
    ST_WAIT = 14              # a decision is pending; its action sets the next step

# What a chance event draws: ShrineData.chance
cdef enum:
    CH_NONE = 0
    CH_DEAL = 1
    CH_HAND = 2               # a Library card into a hand
    CH_FLIP = 3               # a Library card face up onto a Shrine (Heal)
    CH_HIDDEN = 4             # a Library card face down onto a Shrine (Balance)
    CH_TOKEN = 5              # a Token of one rank out of the Library (Balance)
    CH_STEAL = 6              # the card a Jack takes from the opponent's hand
    NOTHING_FOUND = 27        # the chance outcome of a Balance's search finding no card

# Action ids: each family of actions (see FAMILIES) starts at its id here.  Replays,
# perft files and stored tournaments hold these ids, so they never change.
cdef enum:
    A_PASS = 0
    A_DRAW = 1
    A_TAKE = 2
    A_NO_RESPONSE = 3
    A_FIZZLE = 4
    A_NO_COUNTER = 5
    A_COUNTER = 6
    A_JACK = 7
    A_BLOCK = 8               # + field slot (Jack, Queen, King)
    A_DISCARD = 11            # + kind
    A_DAGGER_BLOCK = 37       # + colour * 13 + payment rank - 1
    A_TOKEN = 63              # + (token rank - 11) * 26 + colour * 13 + payment rank - 1
    A_DAGGER = 141            # + target * 26 + colour * 13 + payment rank - 1
    A_DAGGER_TOKEN = 271      # + colour * 13 + payment rank - 1
    A_TRIPLET = 297           # + (rank - 1) * 2 + the colour with two cards
    A_QUAD = 323              # + rank - 1
    A_RESURRECT = 336         # + (first rank - 1) * 8 + colour bits of the three cards
    A_RES_SHRINE = 440
    A_RES_TOKEN = 441
    A_RES_DAGGER_TOKEN = 442
    A_RES_DAGGER = 443        # + target
    A_HEAL = 448              # + (rank - 1) * 3 + pair colours (0 BB, 1 BR, 2 RR)
    A_PAIR_ATTACK = 487       # + (rank - 1) * 3 + pair colours
    A_RES_PAIR = 526          # + kind of the hand card matching the resurrected card
    A_ATTACK = 552            # + multiset index - 1
    A_ALT_HEAL = 796          # + multiset index - 1
    A_RES_ATTACK = 1040       # + multiset index (0, no hand card, allowed)
    A_DAGGER_TOKEN_BLOCK = 1285   # R30: a Token block with the Dagger token
    NUM_ACTIONS = 1286

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
COLOURS = "BR"


cdef inline int kind_of(int rank, int colour) noexcept nogil:
    return (rank - 1) * 2 + colour

cdef inline int rank_of(int kind) noexcept nogil:
    return kind // 2 + 1

cdef inline int colour_of(int kind) noexcept nogil:
    return kind & 1

cdef inline int wrap_rank(int rank) noexcept nogil:
    return (rank - 1) % 13 + 1

cdef inline bint rank_held(const uint8_t* hand, int rank) noexcept nogil:
    return hand[kind_of(rank, 0)] or hand[kind_of(rank, 1)]


# --- same-colour multisets (attacks, alternate heals) ----------------------------
# Each multiset of ranks (at most two of a rank, values summing to at most 14) has a
# base-3 code, rank r weighing 3**(r-1); the table is sorted by code, so the index
# of a code is found by bisection and enumeration by descending rank is ascending.
cdef int MS_CODE[NUM_MULTISETS]
cdef uint8_t MS_COUNT[NUM_MULTISETS][13]
cdef int POW3[13]


def _build_multisets():
    found = []

    def rec(rank, total, counts):
        if rank > 13:
            found.append(tuple(counts))
            return
        for c in range(3):
            if total + c * rank > 14:
                break
            counts.append(c)
            rec(rank + 1, total + c * rank, counts)
            counts.pop()

    rec(1, 0, [])
    coded = sorted((sum(c * 3 ** i for i, c in enumerate(m)), m) for m in found)
    assert len(coded) == NUM_MULTISETS
    for i in range(13):
        POW3[i] = 3 ** i
    for i, (code, counts) in enumerate(coded):
        MS_CODE[i] = code
        for r in range(13):
            MS_COUNT[i][r] = counts[r]


_build_multisets()


cdef inline int ms_index(int code) noexcept nogil:
    cdef int lo = 0, hi = NUM_MULTISETS - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if MS_CODE[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef int ms_enumerate(const uint8_t* avail, int rank, int code, int total, int lo, int hi,
                      bint allow_empty, const int* reach, int base, int* out, int n) noexcept nogil:
    """Append ``base + index`` for every multiset within ``avail`` (counts by rank, of
    one colour) whose values sum within ``[lo, hi]``; ranks from ``rank`` down to 1 are
    still open, and ``reach[r]`` is the most ranks 1..r can add."""
    cdef int c, top
    if rank == 0:
        if total >= lo and (total > 0 or allow_empty):
            out[n] = base + ms_index(code)
            n += 1
        return n
    if total + reach[rank] < lo:
        return n
    top = avail[rank - 1]
    if top > 2:
        top = 2
    for c in range(top + 1):
        if total + c * rank > hi:
            break
        n = ms_enumerate(avail, rank - 1, code + c * POW3[rank - 1], total + c * rank,
                         lo, hi, allow_empty, reach, base, out, n)
    return n


# --- piles and zones ---------------------------------------------------------------

cdef inline int capacity(ShrineData* s, int p) noexcept nogil:
    # R21: a Triad raises the capacity to seven.
    if s.field[p][F_JACK] >= 0 and s.field[p][F_QUEEN] >= 0 \
            and s.field[p][F_KING] >= 0:
        return TRIAD_CAPACITY
    return BASE_CAPACITY

cdef inline bint triad(ShrineData* s, int p) noexcept nogil:
    return capacity(s, p) == TRIAD_CAPACITY

cdef inline bint has_token(ShrineData* s, int p) noexcept nogil:
    # R30: the Dagger token is a Token too.
    return s.field[p][F_JACK] >= 0 or s.field[p][F_QUEEN] >= 0 \
        or s.field[p][F_KING] >= 0 or s.field[p][F_DAGGER] >= 0

cdef inline int shrine_top(ShrineData* s, int p) noexcept nogil:
    return s.shrine[p][s.shrine_len[p] - 1] & ~SEEN

cdef inline void to_grave(ShrineData* s, int kind) noexcept nogil:
    s.grave[s.grave_len] = kind
    s.grave_len += 1

cdef inline void hand_add(ShrineData* s, int p, int kind, bint public) noexcept nogil:
    """A card into ``p``'s hand: in the open, or face down from the Library."""
    s.hand[p][kind] += 1
    s.hand_len[p] += 1
    if public:
        s.seen[p][kind] += 1
    else:
        s.hand_pile[p][s.library_pile][kind] += 1

cdef inline void hand_remove(ShrineData* s, int p, int kind) noexcept nogil:
    # S2: every removal from a hand is public, so the opponent now knows one fewer card
    # of this kind to be in it.
    s.hand[p][kind] -= 1
    s.hand_len[p] -= 1
    if s.seen[p][kind] > 0:
        s.seen[p][kind] -= 1
    else:
        hidden_leaves(s, p, kind)

cdef inline void pend_from_hand(ShrineData* s, int p, int kind) noexcept nogil:
    hand_remove(s, p, kind)
    s.pend[s.pend_len] = kind
    s.pend_len += 1

cdef void pend_to_grave(ShrineData* s) noexcept nogil:
    cdef int i
    for i in range(s.pend_len):
        to_grave(s, s.pend[i])

cdef void pend_with_card_to_grave(ShrineData* s, int start, int g) noexcept nogil:
    """The pending cards from ``start`` and the card ``g``, ascending by kind (S11)."""
    cdef int i
    cdef bint placed = False
    for i in range(start, s.pend_len):
        if not placed and g < s.pend[i]:
            to_grave(s, g)
            placed = True
        to_grave(s, s.pend[i])
    if not placed:
        to_grave(s, g)

cdef void clear_pending(ShrineData* s) noexcept nogil:
    """The declared action is over: its cards have all gone where they go."""
    s.pending = NONE
    s.pend_len = 0
    s.res_card = NONE
    s.res_index = 0

cdef void clear_chance(ShrineData* s) noexcept nogil:
    """No chance event is waited on: the draw context goes back to its resting values,
    so equal positions have equal structs."""
    s.chance = CH_NONE
    s.draw_to = NONE
    s.draws_left = 0
    s.after_draws = 0

cdef void hand_to_grave(ShrineData* s, int p) noexcept nogil:
    cdef int k
    for k in range(JOKER):
        while s.hand[p][k]:
            hand_remove(s, p, k)
            to_grave(s, k)

cdef inline void reveal(ShrineData* s, int p, int i) noexcept nogil:
    """Shrine card ``i`` of ``p`` is seen: R5, it stays known; R32, it leaves its pile."""
    if not s.shrine[p][i] & SEEN:
        s.pile[s.shrine_pile[p][i]][s.shrine[p][i]] -= 1
        s.shrine_pile[p][i] = 0
        s.shrine[p][i] |= SEEN

cdef inline void pop_shrine(ShrineData* s, int p) noexcept nogil:
    reveal(s, p, s.shrine_len[p] - 1)
    s.shrine_len[p] -= 1
    to_grave(s, s.shrine[p][s.shrine_len[p]] & ~SEEN)

cdef inline void push_shrine(ShrineData* s, int p, int kind) noexcept nogil:
    """A card in the open onto ``p``'s Shrine."""
    s.shrine[p][s.shrine_len[p]] = kind | SEEN
    s.shrine_len[p] += 1

cdef inline void push_from_library(ShrineData* s, int p, int kind, bint face_up) noexcept nogil:
    """A Library card onto ``p``'s Shrine, face up or down."""
    s.shrine[p][s.shrine_len[p]] = kind
    s.shrine_pile[p][s.shrine_len[p]] = s.library_pile
    s.shrine_len[p] += 1
    if face_up:
        reveal(s, p, s.shrine_len[p] - 1)

cdef inline void field_to_grave(ShrineData* s, int p, int slot) noexcept nogil:
    to_grave(s, s.field[p][slot])
    s.field[p][slot] = NONE

cdef void remove_target(ShrineData* s, int q, int target) noexcept nogil:
    if target == T_SHRINE:
        pop_shrine(s, q)
    else:
        field_to_grave(s, q, target)

cdef void grave_remove_at(ShrineData* s, int i) noexcept nogil:
    cdef int j
    for j in range(i, s.grave_len - 1):
        s.grave[j] = s.grave[j + 1]
    s.grave_len -= 1

cdef void reshuffle(ShrineData* s) noexcept nogil:
    """R12: the Graveyard shuffled into the Library.  R32: both players know its cards,
    so into an empty Library they make a new pile.  S24: shuffled in with cards still
    there (a Balance), or with no pile free, they join the Library's pile."""
    cdef int i, q
    if s.library_len == 0:
        for q in range(MAX_PILES):
            if pile_empty(s, q):
                s.library_pile = q
                break
    for i in range(s.grave_len):
        s.library[s.grave[i]] += 1
        s.pile[s.library_pile][s.grave[i]] += 1
    s.library_len += s.grave_len
    s.grave_len = 0


# --- R32: the piles hidden cards come from -------------------------------------------

cdef inline bint pile_empty(ShrineData* s, int q) noexcept nogil:
    cdef int k
    for k in range(NUM_KINDS):
        if s.pile[q][k]:
            return False
    return True

cdef inline int hand_pile_len(ShrineData* s, int p, int q) noexcept nogil:
    cdef int k, n = 0
    for k in range(JOKER):
        n += s.hand_pile[p][q][k]
    return n

cdef void merge_piles(ShrineData* s, int into, int other) noexcept nogil:
    """From now on no one can tell the cards of pile ``other`` from those of ``into``."""
    cdef int p, k, i
    for k in range(NUM_KINDS):
        s.pile[into][k] += s.pile[other][k]
        s.pile[other][k] = 0
        for p in range(2):
            s.hand_pile[p][into][k] += s.hand_pile[p][other][k]
            s.hand_pile[p][other][k] = 0
    for p in range(2):
        for i in range(s.shrine_len[p]):
            if s.shrine_pile[p][i] == other:
                s.shrine_pile[p][i] = into
    if s.library_pile == other:
        s.library_pile = into

cdef void hidden_leaves(ShrineData* s, int p, int kind) noexcept nogil:
    """A card of ``kind`` the opponent could not see leaves ``p``'s hand in the open.
    It came from a pile holding ``p``'s hidden cards and that kind; S24: when several
    piles could have given it, no one but ``p`` can tell which, so they become one."""
    cdef int q, first = NONE
    for q in range(MAX_PILES):
        if s.pile[q][kind] and hand_pile_len(s, p, q):
            if first == NONE:
                first = q
            else:
                merge_piles(s, first, q)
    s.hand_pile[p][first][kind] -= 1
    s.pile[first][kind] -= 1

cdef int decider(ShrineData* s) noexcept nogil:
    cdef int ph = s.phase
    if ph == PH_RESPONSE or ph == PH_FIZZLE_PICK:
        return 1 - s.active
    if ph == PH_BAL_DISCARD:
        return 1 - s.bal_player
    return s.active

cdef void request_draws(ShrineData* s, int what, int to, int count, int then) noexcept nogil:
    s.chance = what
    s.draw_to = to
    s.draws_left = count
    s.after_draws = then
    s.step = ST_DRAWING

cdef inline bint await_decision(ShrineData* s, int phase) noexcept nogil:
    s.phase = phase
    s.step = ST_WAIT
    return True

cdef inline bint await_chance(ShrineData* s, int what, int to) noexcept nogil:
    s.chance = what
    s.draw_to = to
    s.phase = PH_CHANCE
    return True


# --- the turn: the steps that run by themselves ---------------------------------------
# ``advance`` runs the step ``ShrineData.step`` names, one after another, until a step
# says the game waits on a decision or a chance event.  Each step returns whether it
# does.

cdef void advance(ShrineData* s) noexcept nogil:
    """Run automatic steps until a decision, a chance event or the end."""
    while True:
        if s.winner != NONE:
            s.phase = PH_OVER
            return
        if s.step == ST_WAIT:
            return
        # No rule fires during the deal: a Joker turned up on a Shrine is played once
        # the hands are dealt (S14).
        if s.step != ST_DEAL and settle(s):
            continue
        if run_step(s):
            return

cdef inline bint run_step(ShrineData* s) noexcept nogil:
    # Called directly, not through a table, so that the compiler can inline the steps.
    cdef int step = s.step
    if step == ST_DEAL:
        return step_deal(s)
    if step == ST_TURN_START:
        return step_turn_start(s)
    if step == ST_DRAWING:
        return step_drawing(s)
    if step == ST_CHOOSE:
        return step_choose(s)
    if step == ST_ACTION:
        return step_action(s)
    if step == ST_RESPOND:
        return step_respond(s)
    if step == ST_RESOLVE:
        return step_resolve(s)
    if step == ST_FIZZLED:
        return step_fizzled(s)
    if step == ST_AFTER:
        return step_after(s)
    if step == ST_END:
        return step_end(s)
    if step == ST_BAL_FIELD:
        return step_bal_field(s)
    if step == ST_BAL_SHRINE:
        return step_bal_shrine(s)
    if step == ST_BAL_HAND:
        return step_bal_hand(s)
    return step_bal_finish(s)

cdef bint settle(ShrineData* s) noexcept nogil:
    """Apply one rule that fires by itself; return whether one fired."""
    cdef int p, t
    for p in range(2):
        if s.shrine_len[p] == 0:
            continue
        t = shrine_top(s, p)
        # S16: a Joker turned up leaves the Shrine and is played by its owner.
        if t == JOKER and s.bal_player == NONE:
            reveal(s, p, s.shrine_len[p] - 1)
            s.shrine_len[p] -= 1
            begin_balance(s, p)
            return True
        # S15: cards a Balance adds face down; the top is turned up once all are added.
        if not (s.step == ST_BAL_SHRINE and p != s.bal_player):
            reveal(s, p, s.shrine_len[p] - 1)
    for p in range(2):
        # R27
        if s.shrine_len[p] == 0:
            s.winner = 1 - p
            return True
    for p in range(2):
        # R21, S17: a broken Triad drops the Dagger token, then trims from the top.
        if s.field[p][F_DAGGER] >= 0 and not triad(s, p):
            field_to_grave(s, p, F_DAGGER)
            return True
        if s.shrine_len[p] > capacity(s, p):
            pop_shrine(s, p)
            return True
    return False

cdef bint step_deal(ShrineData* s) noexcept nogil:
    """R4: five cards to each Shrine, then five to each hand, each a chance event."""
    if s.deal_n < DEAL_CARDS:
        s.chance = CH_DEAL
        s.phase = PH_CHANCE
        return True
    clear_chance(s)
    s.step = ST_TURN_START
    return False

cdef bint step_turn_start(ShrineData* s) noexcept nogil:
    """R11, S1: the Dagger token's extra Library card comes before the choice, and its
    second action after the first; S3: the Token powers are fresh."""
    s.powers_used = 0
    if s.field[s.active][F_DAGGER] >= 0:
        s.actions_left = 2
        request_draws(s, CH_HAND, s.active, 1, ST_CHOOSE)
    else:
        s.actions_left = 1
        s.step = ST_CHOOSE
    return False

cdef bint step_drawing(ShrineData* s) noexcept nogil:
    """R12: an empty Library is the Graveyard shuffled; with both empty nothing is
    drawn (S19)."""
    if s.draws_left == 0:
        s.step = s.after_draws
        clear_chance(s)
        return False
    if s.library_len == 0:
        reshuffle(s)
    if s.library_len == 0:
        s.draws_left = 0
        return False
    s.phase = PH_CHANCE
    return True

cdef bint step_choose(ShrineData* s) noexcept nogil:
    """R8: draw, or take the Graveyard's top card; S19: with an empty Graveyard the
    Library card is drawn at once."""
    if s.actions_left == 0:
        s.step = ST_END
        return False
    if s.grave_len > 0:
        return await_decision(s, PH_START)
    request_draws(s, CH_HAND, s.active, 1, ST_ACTION)
    return False

cdef bint step_action(ShrineData* s) noexcept nogil:
    if s.actions_left == 0:
        s.step = ST_END
        return False
    return await_decision(s, PH_ACTION)

cdef bint step_respond(ShrineData* s) noexcept nogil:
    """R24, S6: the response step opens only when an answer may be possible."""
    if response_possible(s):
        return await_decision(s, PH_RESPONSE)
    s.step = ST_RESOLVE
    return False

cdef bint response_possible(ShrineData* s) noexcept nogil:
    """S6: whether, as far as the acting player can tell, the opponent may answer."""
    cdef int q = 1 - s.active
    cdef int flags = family_of(s.pending).flags
    if s.hand_len[q] >= 3:
        return True
    if flags & FL_TOKEN_BLOCKED and has_token(s, q):
        return True
    return (flags & FL_DAGGER_BLOCKED) != 0 and s.hand_len[q] >= 2

cdef bint step_resolve(ShrineData* s) noexcept nogil:
    resolve(s)
    return False

cdef bint step_fizzled(ShrineData* s) noexcept nogil:
    """R25: a fizzled action does nothing; its cards go to the Graveyard."""
    pend_to_grave(s)
    clear_pending(s)
    s.step = ST_AFTER
    return False

cdef bint step_after(ShrineData* s) noexcept nogil:
    """R11, S1: a second action only with the Dagger token still on the Field."""
    if s.actions_left > 0:
        s.actions_left -= 1
    if s.field[s.active][F_DAGGER] < 0:
        s.actions_left = 0
    s.step = ST_ACTION
    return False

cdef bint step_end(ShrineData* s) noexcept nogil:
    """R10, S12: the hand limit once the turn is over; R28: a draw at max_turns."""
    cdef int p = s.active
    if s.hand_len[p] > HAND_LIMIT:
        s.picks_left = s.hand_len[p] - HAND_LIMIT
        return await_decision(s, PH_DISCARD)
    s.turn += 1
    if s.turn >= s.max_turns:
        s.winner = DRAW
        return False
    s.active = 1 - p
    s.step = ST_TURN_START
    return False


# --- the Balance card (balance, balance_returns; S14-S16, S18, S21) -------------------

cdef void begin_balance(ShrineData* s, int player) noexcept nogil:
    s.joker_out = 1
    s.bal_player = player
    s.bal_index = 0
    # Every draw that can bring the Joker out is a single card, so a Balance never
    # interrupts a run of draws; resuming after them leaves the draw context free for
    # the Balance's own draws.
    s.bal_return = s.after_draws if s.step == ST_DRAWING else s.step
    clear_chance(s)
    s.step = ST_BAL_HAND

cdef inline int token_rank(int slot) noexcept nogil:
    return 1 if slot == F_DAGGER else 11 + slot

cdef bint step_bal_field(ShrineData* s) noexcept nogil:
    """R31: last, the Field.  S15, R30: match one token kind of the Balance card's
    player, the Dagger token included, from the Graveyard's topmost, else by a search
    of the Library (a chance event), or move on.  S22: a Dagger token is gained only
    beside a Triad."""
    cdef int p = s.bal_player, q = 1 - s.bal_player
    cdef int t = s.bal_index, i, rank
    if t == 4:
        s.step = ST_BAL_FINISH
        return False
    rank = token_rank(t)
    if s.field[p][t] >= 0 and s.field[q][t] < 0 and (t != F_DAGGER or triad(s, q)):
        i = s.grave_len - 1
        while i >= 0 and rank_of(s.grave[i]) != rank:
            i -= 1
        if i >= 0:
            s.field[q][t] = s.grave[i]
            grave_remove_at(s, i)
        else:
            # S15: the search is done in the open, so finding nothing is seen too.
            return await_chance(s, CH_TOKEN, q)
    elif s.field[p][t] < 0 and s.field[q][t] >= 0:
        field_to_grave(s, q, t)
    s.bal_index += 1
    return False

cdef bint step_bal_shrine(ShrineData* s) noexcept nogil:
    """R31: second, the Shrine, with the capacity it has before the Field is matched.
    S15: the opponent's Shrine loses top cards or gains face-down ones until the sizes
    match, never past its capacity.  R29: an Ace on top takes no additions; S23: the
    cards added face down are not looked at until the adding is done."""
    cdef int p = s.bal_player, q = 1 - s.bal_player
    cdef int target = s.shrine_len[p], top = s.shrine[q][s.shrine_len[q] - 1]
    # Both Shrines hold cards: an empty one ends the game before any step runs (R27).
    if capacity(s, q) < target:
        target = capacity(s, q)
    if s.shrine_len[q] > s.shrine_len[p]:
        pop_shrine(s, q)
        return False
    if s.shrine_len[q] < target and not (top & SEEN and rank_of(top & ~SEEN) == 1):
        if s.library_len == 0:
            reshuffle(s)
        if s.library_len > 0:
            return await_chance(s, CH_HIDDEN, q)
    s.step = ST_BAL_FIELD
    return False

cdef bint step_bal_hand(ShrineData* s) noexcept nogil:
    """R31: first, the hand.  S15: the opponent draws, or discards cards of their
    choice, to match the hand."""
    cdef int p = s.bal_player, q = 1 - s.bal_player
    if s.hand_len[q] > s.hand_len[p]:
        s.picks_left = s.hand_len[q] - s.hand_len[p]
        return await_decision(s, PH_BAL_DISCARD)
    request_draws(s, CH_HAND, q, s.hand_len[p] - s.hand_len[q], ST_BAL_SHRINE)
    return False

cdef bint step_bal_finish(ShrineData* s) noexcept nogil:
    """S15: the shuffle; S18: with balance_returns, the Joker goes back in."""
    reshuffle(s)
    if s.balance == 2:
        s.library[JOKER] += 1
        s.pile[s.library_pile][JOKER] += 1
        s.library_len += 1
        s.joker_out = 0
    s.bal_player = NONE
    s.step = s.bal_return
    s.bal_index = 0
    s.bal_return = 0
    return False


# --- action families -----------------------------------------------------------------
# An action id is a family's base plus an index within the family.  The table FAMILIES,
# filled at the end of this section in id order, holds for each family what differs:
# what answers it, and its functions.  The ids follow from the sizes; they must equal
# the A_* ids above, which replays, perft files and stored tournaments hold, or the
# module does not load.  Each family's functions sit together below, under the rulings
# they implement: ``*_legal`` appends its legal actions, ascending, to ``out`` from
# ``n`` on, and the decisions call them in id order (``main_actions`` and the like),
# directly rather than through the table, so that the compiler can inline them.

ctypedef int (*CardsFn)(ShrineData* s, int a, uint8_t* out) noexcept nogil
ctypedef void (*ActFn)(ShrineData* s, int a) noexcept nogil

cdef enum:
    NUM_FAMILIES = 28
    FL_TOKEN_BLOCKED = 1      # an attack paid with hand cards (R16, S7)
    FL_DAGGER_BLOCKED = 2     # a Dagger (R20, S8)
    FL_RES_USE = 4            # a use of a Resurrection's card (R23)
    FL_ANSWERED = 8           # declared, it waits on the response and then resolves (R24)
    FL_DECLARED = 16          # it can be the pending action

ctypedef struct Family:
    const char* name
    int base                  # its first action id
    int size                  # how many ids it holds
    int flags                 # FL_*
    int declared              # its place in the tensor's "declared" block, or -1
    CardsFn cards             # the hand cards declaring an action pays with
    ActFn decide              # what choosing an action does
    ActFn resolve             # what a declared action does once nothing stopped it

cdef Family FAMILIES[NUM_FAMILIES]
cdef uint8_t FAMILY_OF[NUM_ACTIONS]

cdef inline Family* family_of(int a) noexcept nogil:
    return &FAMILIES[FAMILY_OF[a]]

cdef int decisions(ShrineData* s, int* out) noexcept nogil:
    """The legal actions of the player to decide, ascending; none at a chance node or
    the end."""
    cdef int ph = s.phase
    if ph == PH_ACTION:
        return main_actions(s, out)
    if ph == PH_RESPONSE:
        return responses(s, out)
    if ph == PH_RES_USE:
        return res_uses(s, out)
    if ph == PH_START:
        return take_legal(s, out, draw_legal(s, out, 0))
    if ph == PH_COUNTER:
        return counter_legal(s, out, no_counter_legal(s, out, 0))
    if ph == PH_CHANCE or ph == PH_OVER:
        return 0
    return discard_legal(s, out, 0)

cdef int main_actions(ShrineData* s, int* out) noexcept nogil:
    """R9: the actions a turn offers."""
    cdef int n = pass_legal(s, out, 0)
    n = jack_legal(s, out, n)
    n = token_legal(s, out, n)
    n = dagger_legal(s, out, n)
    n = dagger_token_legal(s, out, n)
    n = triplet_legal(s, out, n)
    n = quad_legal(s, out, n)
    n = resurrect_legal(s, out, n)
    n = heal_legal(s, out, n)
    n = pair_attack_legal(s, out, n)
    n = attack_legal(s, out, n)
    return alt_heal_legal(s, out, n)

cdef int responses(ShrineData* s, int* out) noexcept nogil:
    """R24: the answers to the declared action."""
    cdef int n = no_response_legal(s, out, 0)
    n = fizzle_legal(s, out, n)
    n = block_legal(s, out, n)
    n = dagger_block_legal(s, out, n)
    return dagger_token_block_legal(s, out, n)

cdef int res_uses(ShrineData* s, int* out) noexcept nogil:
    """R23: the uses of the card ``res_card`` of a Resurrection whose three cards are
    paid."""
    cdef int n = res_shrine_legal(s, out, 0)
    n = res_token_legal(s, out, n)
    n = res_dagger_token_legal(s, out, n)
    n = res_dagger_legal(s, out, n)
    n = res_pair_legal(s, out, n)
    return res_attack_legal(s, out, n)

cdef void decide(ShrineData* s, int a) noexcept nogil:
    """Apply the legal decision ``a`` and run the game on to what it waits on next."""
    family_of(a).decide(s, a)
    # Every decision leaves a step; one still waiting on a decision is ST_WAIT, on
    # which advance returns at once.
    advance(s)

cdef void resolve(ShrineData* s) noexcept nogil:
    """Carry out the declared action: no answer stopped it (R24)."""
    cdef int a = s.pending
    s.step = ST_AFTER
    family_of(a).resolve(s, a)
    clear_pending(s)

cdef int action_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    """Fill ``out`` with the cards that declaring ``a`` takes from the active player's
    hand, in the order they are paid; return their count.  For a use of a Resurrection,
    only the hand cards the use adds to the three already paid."""
    return family_of(a).cards(s, a, out)

cdef int pay(ShrineData* s, int a) noexcept nogil:
    """Move the cards declaring ``a`` pays with to the pending cards; return the sum
    of their values."""
    cdef uint8_t cards[PEND_SLOTS]
    cdef int i, total = 0, n = action_cards(s, a, cards)
    for i in range(n):
        pend_from_hand(s, s.active, cards[i])
        total += rank_of(cards[i])
    return total

cdef int declare(ShrineData* s, int a) noexcept nogil:
    """R24: a declared action's cards leave the hand at once and wait, pending, for the
    response; return the sum of their values."""
    s.pending = a
    s.pend_len = 0
    s.step = ST_RESPOND
    return pay(s, a)

cdef void declare_plain(ShrineData* s, int a) noexcept nogil:
    declare(s, a)

cdef int no_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return 0

cdef void no_resolve(ShrineData* s, int a) noexcept nogil:
    # Families that never wait on a response: nothing is left to carry out.
    pass


# --- payments shared by several families ----------------------------------------------

cdef inline int power_reach(ShrineData* s, int p, int slot, int used) noexcept nogil:
    """S3, S4: how far from the exact value the King's or Queen's power lets a total
    go: 1 while the token is on the Field and its power unused this turn, else 0."""
    return 1 if s.field[p][slot] >= 0 and not (s.powers_used & used) else 0

cdef int ace_payments(ShrineData* s, int* out, int n, int p, int base) noexcept nogil:
    """S5: an Ace and one other card of its colour, a second Ace allowed, by
    ``base + colour * 13 + payment rank - 1``."""
    cdef int c, pay
    cdef const uint8_t* h = s.hand[p]
    for c in range(2):
        if not h[kind_of(1, c)]:
            continue
        for pay in range(1, 14):
            if h[kind_of(pay, c)] >= (2 if pay == 1 else 1):
                out[n] = base + c * 13 + pay - 1
                n += 1
    return n

cdef int ace_payment_cards(int x, uint8_t* out) noexcept nogil:
    """The payment and the Ace of index ``x`` from ``ace_payments``, in paying order."""
    cdef int c = x // 13
    out[0] = kind_of(x % 13 + 1, c)
    out[1] = kind_of(1, c)
    return 2

cdef int pairs(ShrineData* s, int* out, int n, int p, int rank, int base, int colour) noexcept nogil:
    """Pairs of ``rank`` from the hand by ``base + (rank - 1) * 3 + colours`` (0 BB,
    1 BR, 2 RR); with ``colour`` >= 0, at least one card of it."""
    cdef int b = s.hand[p][kind_of(rank, 0)], r = s.hand[p][kind_of(rank, 1)]
    if b >= 2 and colour != 1:
        out[n] = base + (rank - 1) * 3
        n += 1
    if b >= 1 and r >= 1:
        out[n] = base + (rank - 1) * 3 + 1
        n += 1
    if r >= 2 and colour != 0:
        out[n] = base + (rank - 1) * 3 + 2
        n += 1
    return n

cdef int pair_cards(int x, uint8_t* out) noexcept nogil:
    """The two cards of index ``x`` from ``pairs``, ascending."""
    cdef int r = x // 3 + 1, c = x % 3
    out[0] = kind_of(r, 1 if c == 2 else 0)
    out[1] = kind_of(r, 0 if c == 0 else 1)
    return 2

cdef int multisets(ShrineData* s, int* out, int n, int p, int colour, int lo, int hi,
                   bint allow_empty, int base) noexcept nogil:
    """Cards of ``colour`` from the hand whose values sum within ``[lo, hi]``, by
    ``base`` + multiset index."""
    cdef uint8_t avail[13]
    cdef int reach[14]
    cdef int r, c
    reach[0] = 0
    for r in range(1, 14):
        c = s.hand[p][kind_of(r, colour)]
        avail[r - 1] = c
        reach[r] = reach[r - 1] + (2 if c > 2 else c) * r
    if hi > 14:
        hi = 14
    if lo < 0:
        lo = 0
    if lo > hi:
        return n
    return ms_enumerate(avail, 13, 0, 0, lo, hi, allow_empty, reach, base, out, n)

cdef int multiset_cards(int index, int colour, uint8_t* out) noexcept nogil:
    cdef int r, i, n = 0
    for r in range(1, 14):
        for i in range(MS_COUNT[index][r - 1]):
            out[n] = kind_of(r, colour)
            n += 1
    return n


# --- the start of the turn: draw or take (R8, S19) ------------------------------------

cdef int draw_legal(ShrineData* s, int* out, int n) noexcept nogil:
    out[n] = A_DRAW
    return n + 1

cdef void draw_decide(ShrineData* s, int a) noexcept nogil:
    request_draws(s, CH_HAND, s.active, 1, ST_ACTION)

cdef int take_legal(ShrineData* s, int* out, int n) noexcept nogil:
    out[n] = A_TAKE
    return n + 1

cdef void take_decide(ShrineData* s, int a) noexcept nogil:
    # Taking is the turn's action (R8), and the card is known to the opponent (S2).
    s.grave_len -= 1
    hand_add(s, s.active, s.grave[s.grave_len], True)
    s.step = ST_AFTER

def _label_take(ShrineState st, int a):
    top = CARD_NAMES[st.s.grave[st.s.grave_len - 1]] if st.s.grave_len else "?"
    return f"take {top} from the Graveyard"


# --- pass (R9; S1: it gives up a second action too) ------------------------------------

cdef int pass_legal(ShrineData* s, int* out, int n) noexcept nogil:
    out[n] = A_PASS
    return n + 1

cdef void pass_decide(ShrineData* s, int a) noexcept nogil:
    s.actions_left = 0
    s.step = ST_END


# --- the response, Fizzle and Counter-Fizzle (R24-R26, S6; alt_fizzle) ---------------

cdef int no_response_legal(ShrineData* s, int* out, int n) noexcept nogil:
    # S6: always offered, so that the open response step reveals nothing.
    out[n] = A_NO_RESPONSE
    return n + 1

cdef void no_response_decide(ShrineData* s, int a) noexcept nogil:
    s.step = ST_RESOLVE

cdef int fizzle_legal(ShrineData* s, int* out, int n) noexcept nogil:
    if s.hand_len[1 - s.active] >= 3:
        out[n] = A_FIZZLE
        n += 1
    return n

cdef void fizzle_decide(ShrineData* s, int a) noexcept nogil:
    # R25: the whole hand; alt_fizzle: three cards the responder picks.
    if s.alt_fizzle:
        s.picks_left = 3
        s.phase = PH_FIZZLE_PICK
        return
    hand_to_grave(s, 1 - s.active)
    after_fizzle(s)

cdef void after_fizzle(ShrineData* s) noexcept nogil:
    """R26: the actor may counter with three cards beside those played."""
    if s.hand_len[s.active] >= 3:
        await_decision(s, PH_COUNTER)
        return
    s.step = ST_FIZZLED

cdef int no_counter_legal(ShrineData* s, int* out, int n) noexcept nogil:
    out[n] = A_NO_COUNTER
    return n + 1

cdef void no_counter_decide(ShrineData* s, int a) noexcept nogil:
    s.step = ST_FIZZLED

cdef int counter_legal(ShrineData* s, int* out, int n) noexcept nogil:
    out[n] = A_COUNTER
    return n + 1

cdef void counter_decide(ShrineData* s, int a) noexcept nogil:
    # R26: the rest of the hand, and the action resolves; alt_fizzle: three cards.
    if s.alt_fizzle:
        s.picks_left = 3
        s.phase = PH_COUNTER_PICK
        return
    hand_to_grave(s, s.active)
    s.step = ST_RESOLVE


# --- discards, one card a decision (R10, R18, S12, S15; alt_fizzle) -------------------

cdef int discard_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int k, p = decider(s)
    for k in range(JOKER):
        if s.hand[p][k]:
            out[n] = A_DISCARD + k
            n += 1
    return n

cdef void discard_decide(ShrineData* s, int a) noexcept nogil:
    cdef int ph = s.phase
    hand_remove(s, decider(s), a - A_DISCARD)
    to_grave(s, a - A_DISCARD)
    if ph == PH_JACK_DISCARD:
        s.step = ST_AFTER
        return
    s.picks_left -= 1
    if s.picks_left > 0:
        return
    if ph == PH_DISCARD:
        s.step = ST_END
    elif ph == PH_BAL_DISCARD:
        s.step = ST_BAL_SHRINE
    elif ph == PH_FIZZLE_PICK:
        after_fizzle(s)
    else:
        s.step = ST_RESOLVE

def _label_discard(ShrineState st, int a):
    return f"discard {CARD_NAMES[a - A_DISCARD]}"


# --- Token block (R16, S7: every attack paid with hand cards; R30: the Dagger token --
# blocks too, under an id of its own after the others, as ids never change)

cdef inline int block_slot(int a) noexcept nogil:
    return F_DAGGER if a == A_DAGGER_TOKEN_BLOCK else a - A_BLOCK

cdef int block_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int t, q = 1 - s.active
    if family_of(s.pending).flags & FL_TOKEN_BLOCKED:
        for t in range(3):
            if s.field[q][t] >= 0:
                out[n] = A_BLOCK + t
                n += 1
    return n

cdef int dagger_token_block_legal(ShrineData* s, int* out, int n) noexcept nogil:
    if family_of(s.pending).flags & FL_TOKEN_BLOCKED and s.field[1 - s.active][F_DAGGER] >= 0:
        out[n] = A_DAGGER_TOKEN_BLOCK
        n += 1
    return n

cdef void block_decide(ShrineData* s, int a) noexcept nogil:
    field_to_grave(s, 1 - s.active, block_slot(a))
    pend_to_grave(s)
    clear_pending(s)
    s.step = ST_AFTER

def _label_block(ShrineState st, int a):
    slot = st.s.field[1 - st.s.active][block_slot(a)]
    return f"token block {CARD_NAMES[slot] if slot >= 0 else TARGET_NAMES[block_slot(a)]}"


# --- Dagger block (R20, S8: any Dagger play, a resurrected one included) ---------------

cdef int dagger_block_legal(ShrineData* s, int* out, int n) noexcept nogil:
    if family_of(s.pending).flags & FL_DAGGER_BLOCKED:
        n = ace_payments(s, out, n, 1 - s.active, A_DAGGER_BLOCK)
    return n

cdef void dagger_block_decide(ShrineData* s, int a) noexcept nogil:
    # S11: the Dagger's cards, then the blocking payment and Ace.
    cdef int q = 1 - s.active, i
    cdef uint8_t cards[2]
    ace_payment_cards(a - A_DAGGER_BLOCK, cards)
    pend_to_grave(s)
    for i in range(2):
        hand_remove(s, q, cards[i])
        to_grave(s, cards[i])
    clear_pending(s)
    s.step = ST_AFTER

def _label_dagger_block(ShrineState st, int a):
    cdef uint8_t cards[2]
    ace_payment_cards(a - A_DAGGER_BLOCK, cards)
    return f"dagger block {CARD_NAMES[cards[1]]} (pay {CARD_NAMES[cards[0]]})"


# --- Jack steal (R7, R18; S3: once a turn; S13: after a Fizzle, from what is left) -----

cdef int jack_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int p = s.active
    if s.field[p][F_JACK] >= 0 and not (s.powers_used & USED_JACK) \
            and s.hand_len[1 - p] >= 2:
        out[n] = A_JACK
        n += 1
    return n

cdef void jack_decide(ShrineData* s, int a) noexcept nogil:
    declare(s, a)
    s.powers_used |= USED_JACK

cdef void jack_resolve(ShrineData* s, int a) noexcept nogil:
    # Which card is taken is a chance event; ``steal`` carries it out.
    if s.hand_len[1 - s.active] > 0:
        s.chance = CH_STEAL
        s.phase = PH_CHANCE
        s.step = ST_WAIT

cdef void steal(ShrineData* s, int k) noexcept nogil:
    """R7: the thief takes ``k``, known to both (S2), then discards a card (R18)."""
    hand_remove(s, 1 - s.active, k)
    hand_add(s, s.active, k, True)
    clear_chance(s)
    s.phase = PH_JACK_DISCARD


# --- Token play (R17; S5: any other card of its colour pays) --------------------------

cdef int token_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int t, c, pay, need
    cdef const uint8_t* h = s.hand[s.active]
    for t in range(3):
        if s.field[s.active][t] >= 0:
            continue
        for c in range(2):
            if not h[kind_of(11 + t, c)]:
                continue
            for pay in range(1, 14):
                need = 2 if pay == 11 + t else 1
                if h[kind_of(pay, c)] >= need:
                    out[n] = A_TOKEN + t * 26 + c * 13 + pay - 1
                    n += 1
    return n

cdef int token_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    cdef int x = a - A_TOKEN, c = (a - A_TOKEN) % 26 // 13
    out[0] = kind_of(x % 13 + 1, c)
    out[1] = kind_of(11 + x // 26, c)
    return 2

cdef void token_resolve(ShrineData* s, int a) noexcept nogil:
    # S11: the payment goes to the Graveyard.
    to_grave(s, s.pend[0])
    s.field[s.active][rank_of(s.pend[1]) - 11] = s.pend[1]

def _label_token(ShrineState st, int a):
    paid = _paid(st, a)
    if not paid:
        return f"action {a}"
    return f"play token {CARD_NAMES[paid[1]]} (pay {CARD_NAMES[paid[0]]})"


# --- Dagger (R19; S5; S11: payment, target, then the Ace) -----------------------------

cdef int dagger_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int t, q = 1 - s.active
    for t in range(5):
        if t < 4 and s.field[q][t] < 0:
            continue
        n = ace_payments(s, out, n, s.active, A_DAGGER + t * 26)
    return n

cdef int dagger_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return ace_payment_cards((a - A_DAGGER) % 26, out)

cdef void dagger_resolve(ShrineData* s, int a) noexcept nogil:
    to_grave(s, s.pend[0])
    remove_target(s, 1 - s.active, (a - A_DAGGER) // 26)
    to_grave(s, s.pend[1])

def _label_dagger(ShrineState st, int a):
    paid = _paid(st, a)
    if not paid:
        return f"action {a}"
    return (f"dagger {CARD_NAMES[paid[1]]} (pay {CARD_NAMES[paid[0]]}) -> "
            f"{_target(st, 1 - st.s.active, (a - A_DAGGER) // 26)}")


# --- Dagger token (R21: with a Triad; R11, S1: its turns; S8: a Token play) -----------

cdef int dagger_token_legal(ShrineData* s, int* out, int n) noexcept nogil:
    if triad(s, s.active) and s.field[s.active][F_DAGGER] < 0:
        n = ace_payments(s, out, n, s.active, A_DAGGER_TOKEN)
    return n

cdef int dagger_token_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return ace_payment_cards(a - A_DAGGER_TOKEN, out)

cdef void dagger_token_resolve(ShrineData* s, int a) noexcept nogil:
    to_grave(s, s.pend[0])
    s.field[s.active][F_DAGGER] = s.pend[1]

def _label_dagger_token(ShrineState st, int a):
    paid = _paid(st, a)
    if not paid:
        return f"action {a}"
    return f"play Dagger token {CARD_NAMES[paid[1]]} (pay {CARD_NAMES[paid[0]]})"


# --- Triplet and Quad (R22; S9; S20: a Quad takes an Ace on top; S11) ------------------

cdef int triplet_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int t, r, c, q = 1 - s.active
    cdef const uint8_t* h = s.hand[s.active]
    cdef bint any_field = False
    for t in range(4):
        any_field = any_field or s.field[q][t] >= 0
    if not any_field:
        return n
    for r in range(1, 14):
        for c in range(2):
            if h[kind_of(r, c)] >= 2 and h[kind_of(r, 1 - c)] >= 1:
                out[n] = A_TRIPLET + (r - 1) * 2 + c
                n += 1
    return n

cdef int triplet_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    cdef int x = a - A_TRIPLET, r = (a - A_TRIPLET) // 2 + 1
    out[0] = kind_of(r, 0)
    out[1] = kind_of(r, x % 2)
    out[2] = kind_of(r, 1)
    return 3

cdef int quad_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int r
    cdef const uint8_t* h = s.hand[s.active]
    for r in range(1, 14):
        if h[kind_of(r, 0)] == 2 and h[kind_of(r, 1)] == 2:
            out[n] = A_QUAD + r - 1
            n += 1
    return n

cdef int quad_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    cdef int i
    for i in range(4):
        out[i] = kind_of(a - A_QUAD + 1, i // 2)
    return 4

cdef void clear_field(ShrineData* s, int q) noexcept nogil:
    cdef int slot
    for slot in range(4):
        if s.field[q][slot] >= 0:
            field_to_grave(s, q, slot)

cdef void triplet_resolve(ShrineData* s, int a) noexcept nogil:
    clear_field(s, 1 - s.active)
    pend_to_grave(s)

cdef void quad_resolve(ShrineData* s, int a) noexcept nogil:
    clear_field(s, 1 - s.active)
    pop_shrine(s, 1 - s.active)
    pend_to_grave(s)

def _label_triplet(ShrineState st, int a):
    return f"triplet {_cards(_paid(st, a))}"

def _label_quad(ShrineState st, int a):
    return f"quad {RANKS[a - A_QUAD]}"


# --- Resurrection (R23; S10: offered only with a use; S11: the card comes out first) --

cdef int resurrect_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int r, bits
    cdef const uint8_t* h = s.hand[s.active]
    if s.grave_len == 0:
        return n
    for r in range(1, 14):
        if not (rank_held(h, r) and rank_held(h, wrap_rank(r + 1))
                and rank_held(h, wrap_rank(r + 2))):
            continue
        for bits in range(8):
            if resurrection_ok(s, s.active, r, bits):
                out[n] = A_RESURRECT + (r - 1) * 8 + bits
                n += 1
    return n

cdef bint resurrection_ok(ShrineData* s, int p, int first, int bits) noexcept nogil:
    """Whether the three cards are in hand and leave some use of the Graveyard's top
    card."""
    cdef int i, k, held = s.res_card
    cdef int scratch[NUM_ACTIONS]
    for i in range(3):
        k = kind_of(wrap_rank(first + i), (bits >> i) & 1)
        if not s.hand[p][k]:
            return False
    # The uses are asked of the position as the declaration leaves it: the three cards
    # paid (their ranks differ, so taking them out one by one is exact) and the card
    # chosen.
    for i in range(3):
        s.hand[p][kind_of(wrap_rank(first + i), (bits >> i) & 1)] -= 1
    s.res_card = s.grave[s.grave_len - 1]
    k = res_uses(s, scratch)
    s.res_card = held
    for i in range(3):
        s.hand[p][kind_of(wrap_rank(first + i), (bits >> i) & 1)] += 1
    return k > 0

cdef int resurrect_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    # Ascending, like every payment of several cards: the Ace first if it wraps.
    cdef int x = a - A_RESURRECT, r, i, n = 0
    for r in range(1, 14):
        for i in range(3):
            if wrap_rank(x // 8 + 1 + i) == r:
                out[n] = kind_of(r, (x % 8 >> i) & 1)
                n += 1
    return 3

cdef void resurrect_decide(ShrineData* s, int a) noexcept nogil:
    # The card is the Graveyard's top before the three land on it; the response waits
    # until its use is chosen.
    declare(s, a)
    s.res_card = s.grave[s.grave_len - 1]
    s.res_index = s.grave_len - 1
    await_decision(s, PH_RES_USE)

def _label_resurrect(ShrineState st, int a):
    # Named in the run's order, which may wrap past the King.
    first = (a - A_RESURRECT) // 8 + 1
    run = sorted(_paid(st, a), key=lambda k: (rank_of(k) - first + 13) % 13)
    used = CARD_NAMES[st.s.grave[st.s.grave_len - 1]] if st.s.grave_len else "?"
    return f"resurrect {'+'.join(CARD_NAMES[k] for k in run)} ({used})"

cdef int declare_use(ShrineData* s, int a) noexcept nogil:
    """Choose the use of the declared Resurrection's card: the hand cards it adds join
    the three already paid; return the sum of their values."""
    cdef int total = pay(s, a)
    s.pending = a
    s.step = ST_RESPOND
    return total

cdef void declare_use_plain(ShrineData* s, int a) noexcept nogil:
    declare_use(s, a)

cdef int raise_card(ShrineData* s) noexcept nogil:
    """The Resurrection goes ahead: its card leaves the Graveyard, then the three are
    paid; return the card."""
    cdef int slot, g = s.res_card
    grave_remove_at(s, s.res_index)
    for slot in range(3):
        to_grave(s, s.pend[slot])
    return g

# Onto the own Shrine: capacity and the Ace on top still apply.
cdef int res_shrine_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int p = s.active
    if s.shrine_len[p] < capacity(s, p) and rank_of(shrine_top(s, p)) != 1:
        out[n] = A_RES_SHRINE
        n += 1
    return n

cdef void res_shrine_resolve(ShrineData* s, int a) noexcept nogil:
    push_shrine(s, s.active, raise_card(s))

# A Jack, Queen or King onto the Field, free.
cdef int res_token_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int rank = rank_of(s.res_card)
    if rank >= 11 and s.field[s.active][rank - 11] < 0:
        out[n] = A_RES_TOKEN
        n += 1
    return n

cdef void res_token_resolve(ShrineData* s, int a) noexcept nogil:
    cdef int g = raise_card(s)
    s.field[s.active][rank_of(g) - 11] = g

# An Ace as a free Dagger token, with a Triad (R21, S8).
cdef int res_dagger_token_legal(ShrineData* s, int* out, int n) noexcept nogil:
    if rank_of(s.res_card) == 1 and triad(s, s.active) and s.field[s.active][F_DAGGER] < 0:
        out[n] = A_RES_DAGGER_TOKEN
        n += 1
    return n

cdef void res_dagger_token_resolve(ShrineData* s, int a) noexcept nogil:
    s.field[s.active][F_DAGGER] = raise_card(s)

# An Ace as a free Dagger (R19): answered by a Dagger block (S8).
cdef int res_dagger_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int t, q = 1 - s.active
    if rank_of(s.res_card) != 1:
        return n
    for t in range(5):
        if t == T_SHRINE or s.field[q][t] >= 0:
            out[n] = A_RES_DAGGER + t
            n += 1
    return n

cdef void res_dagger_resolve(ShrineData* s, int a) noexcept nogil:
    cdef int g = raise_card(s)
    remove_target(s, 1 - s.active, a - A_RES_DAGGER)
    to_grave(s, g)

def _label_res_dagger(ShrineState st, int a):
    return f"resurrect as dagger -> {_target(st, 1 - st.s.active, a - A_RES_DAGGER)}"

# As a Pawn in a pair attack on an Ace (R15), with a hand card of its value.
cdef int res_pair_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int k, p = s.active, rank = rank_of(s.res_card)
    if rank_of(shrine_top(s, 1 - p)) != 1:
        return n
    for k in range(kind_of(rank, 0), kind_of(rank, 1) + 1):
        if s.hand[p][k]:
            out[n] = A_RES_PAIR + k
            n += 1
    return n

cdef int res_pair_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    out[0] = a - A_RES_PAIR
    return 1

# As a Pawn in an attack (R14), joined by any hand cards of its colour, none allowed;
# S3, S4: the King's range on the total.
cdef int res_attack_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int p = s.active, g = s.res_card, opp_top = shrine_top(s, 1 - s.active), king
    if rank_of(opp_top) == 1 or colour_of(g) == colour_of(opp_top):
        return n
    king = power_reach(s, p, F_KING, USED_KING)
    return multisets(s, out, n, p, colour_of(g), rank_of(opp_top) - king - rank_of(g),
                     rank_of(opp_top) + king - rank_of(g), True, A_RES_ATTACK)

cdef int res_attack_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return multiset_cards(a - A_RES_ATTACK, colour_of(s.res_card), out)

cdef void res_attack_decide(ShrineData* s, int a) noexcept nogil:
    cdef int total = declare_use(s, a)
    if total + rank_of(s.res_card) != rank_of(shrine_top(s, 1 - s.active)):
        s.powers_used |= USED_KING

cdef void res_attack_resolve(ShrineData* s, int a) noexcept nogil:
    # S11: the use's hand cards and the card go ascending, after the three.
    cdef int g = raise_card(s)
    pop_shrine(s, 1 - s.active)
    pend_with_card_to_grave(s, 3, g)

def _label_res_attack(ShrineState st, int a):
    g = st.s.res_card
    return (f"resurrect to attack {_cards(_paid(st, a) + ([g] if g >= 0 else []))} -> "
            f"{_top_name(st, 1 - st.s.active)}")


# --- Heal (R13, R12; S3, S4: the Queen's range; alt_heal: a sum of the top colour) ----

cdef inline bint can_heal(ShrineData* s, int p) noexcept nogil:
    return s.shrine_len[p] < capacity(s, p) and rank_of(shrine_top(s, p)) != 1 \
        and s.library_len + s.grave_len > 0

cdef int heal_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int p = s.active, r, top, queen
    if s.alt_heal or not can_heal(s, p):
        return n
    top = shrine_top(s, p)
    queen = power_reach(s, p, F_QUEEN, USED_QUEEN)
    for r in range(max(rank_of(top) - queen, 1), min(rank_of(top) + queen, 13) + 1):
        n = pairs(s, out, n, p, r, A_HEAL, colour_of(top))
    return n

cdef int heal_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return pair_cards(a - A_HEAL, out)

cdef void heal_decide(ShrineData* s, int a) noexcept nogil:
    if declare(s, a) != 2 * rank_of(shrine_top(s, s.active)):
        s.powers_used |= USED_QUEEN

cdef int alt_heal_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int p = s.active, top, queen
    if not s.alt_heal or not can_heal(s, p):
        return n
    top = shrine_top(s, p)
    queen = power_reach(s, p, F_QUEEN, USED_QUEEN)
    return multisets(s, out, n, p, colour_of(top), rank_of(top) - queen,
                     rank_of(top) + queen, False, A_ALT_HEAL - 1)

cdef int alt_heal_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return multiset_cards(a - A_ALT_HEAL + 1, colour_of(shrine_top(s, s.active)), out)

cdef void alt_heal_decide(ShrineData* s, int a) noexcept nogil:
    if declare(s, a) != rank_of(shrine_top(s, s.active)):
        s.powers_used |= USED_QUEEN

cdef void heal_resolve(ShrineData* s, int a) noexcept nogil:
    # The pair is paid before the card is turned up, so it may be shuffled into a new
    # Library and turned up itself.
    pend_to_grave(s)
    request_draws(s, CH_FLIP, s.active, 1, ST_AFTER)

def _label_heal(ShrineState st, int a):
    return f"heal {_cards(_paid(st, a))} -> {_top_name(st, st.s.active)}"


# --- Attack (R14, R15: a pair against an Ace; S3, S4: the King's range) ---------------

cdef int pair_attack_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int r
    if rank_of(shrine_top(s, 1 - s.active)) != 1:
        return n
    for r in range(1, 14):
        n = pairs(s, out, n, s.active, r, A_PAIR_ATTACK, -1)
    return n

cdef int pair_attack_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return pair_cards(a - A_PAIR_ATTACK, out)

cdef int attack_legal(ShrineData* s, int* out, int n) noexcept nogil:
    cdef int p = s.active, top = shrine_top(s, 1 - s.active), king
    if rank_of(top) == 1:
        return n
    king = power_reach(s, p, F_KING, USED_KING)
    return multisets(s, out, n, p, 1 - colour_of(top), rank_of(top) - king,
                     rank_of(top) + king, False, A_ATTACK - 1)

cdef int attack_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil:
    return multiset_cards(a - A_ATTACK + 1, 1 - colour_of(shrine_top(s, 1 - s.active)), out)

cdef void attack_decide(ShrineData* s, int a) noexcept nogil:
    if declare(s, a) != rank_of(shrine_top(s, 1 - s.active)):
        s.powers_used |= USED_KING

cdef void attack_resolve(ShrineData* s, int a) noexcept nogil:
    # S11: the Shrine card first, then the cards that paid.
    pop_shrine(s, 1 - s.active)
    pend_to_grave(s)

def _label_pair_attack(ShrineState st, int a):
    return f"attack pair {_cards(_paid(st, a))} -> {_top_name(st, 1 - st.s.active)}"

def _label_attack(ShrineState st, int a):
    return f"attack {_cards(_paid(st, a))} -> {_top_name(st, 1 - st.s.active)}"


# --- the table ------------------------------------------------------------------------

cdef int _num_families = 0
_LABELS = []
_DECLARED = []            # the families that can be pending, by their tensor place


def _named(text):
    return lambda st, a: text


cdef int add_family(const char* name, int base, int size, int flags,
                    CardsFn cards, ActFn decide, ActFn resolve, label) except -1:
    """Append a family, its ids following the previous family's; ``base`` is the id it
    has always had."""
    global _num_families
    cdef int i = _num_families, start = 0, a
    cdef Family* f = &FAMILIES[i]
    if i == NUM_FAMILIES:
        raise ImportError("more action families than NUM_FAMILIES")
    if i > 0:
        start = FAMILIES[i - 1].base + FAMILIES[i - 1].size
    if start != base:
        raise ImportError(f"the action family {name.decode()} would start at id {start}, "
                          f"not {base}: stored action ids would change")
    f.name = name
    f.base = start
    f.size = size
    f.flags = flags
    f.cards = cards
    f.decide = decide
    f.resolve = resolve
    f.declared = -1
    if flags & FL_DECLARED:
        f.declared = len(_DECLARED)
        _DECLARED.append(i)
    for a in range(start, start + size):
        FAMILY_OF[a] = i
    _LABELS.append(label)
    _num_families += 1
    return 0


# The flags of the actions that are played.
cdef int PLAYED = FL_ANSWERED | FL_DECLARED
cdef int USE = FL_ANSWERED | FL_DECLARED | FL_RES_USE

# In id order: name, the id it has always had, size, flags; cards, what choosing an
# action does, what resolving it does, label.
add_family(b"pass", A_PASS, 1, 0,
           no_cards, pass_decide, no_resolve, _named("pass"))
add_family(b"draw", A_DRAW, 1, 0,
           no_cards, draw_decide, no_resolve, _named("draw"))
add_family(b"take", A_TAKE, 1, 0,
           no_cards, take_decide, no_resolve, _label_take)
add_family(b"no response", A_NO_RESPONSE, 1, 0,
           no_cards, no_response_decide, no_resolve, _named("no response"))
add_family(b"fizzle", A_FIZZLE, 1, 0,
           no_cards, fizzle_decide, no_resolve, _named("fizzle"))
add_family(b"no counter", A_NO_COUNTER, 1, 0,
           no_cards, no_counter_decide, no_resolve, _named("no counter"))
add_family(b"counter-fizzle", A_COUNTER, 1, 0,
           no_cards, counter_decide, no_resolve, _named("counter-fizzle"))
add_family(b"jack steal", A_JACK, 1, PLAYED,
           no_cards, jack_decide, jack_resolve, _named("jack steal"))
add_family(b"token block", A_BLOCK, 3, 0,
           no_cards, block_decide, no_resolve, _label_block)
add_family(b"discard", A_DISCARD, JOKER, 0,
           no_cards, discard_decide, no_resolve, _label_discard)
add_family(b"dagger block", A_DAGGER_BLOCK, 26, 0,
           no_cards, dagger_block_decide, no_resolve, _label_dagger_block)
add_family(b"token", A_TOKEN, 3 * 26, PLAYED,
           token_cards, declare_plain, token_resolve, _label_token)
add_family(b"dagger", A_DAGGER, 5 * 26, PLAYED | FL_DAGGER_BLOCKED,
           dagger_cards, declare_plain, dagger_resolve, _label_dagger)
add_family(b"dagger token", A_DAGGER_TOKEN, 26, PLAYED,
           dagger_token_cards, declare_plain, dagger_token_resolve, _label_dagger_token)
add_family(b"triplet", A_TRIPLET, 26, PLAYED,
           triplet_cards, declare_plain, triplet_resolve, _label_triplet)
add_family(b"quad", A_QUAD, 13, PLAYED,
           quad_cards, declare_plain, quad_resolve, _label_quad)
add_family(b"resurrection", A_RESURRECT, 13 * 8, FL_DECLARED,
           resurrect_cards, resurrect_decide, no_resolve, _label_resurrect)
add_family(b"resurrection onto the Shrine", A_RES_SHRINE, 1, USE,
           no_cards, declare_use_plain, res_shrine_resolve,
           _named("resurrect onto own Shrine"))
add_family(b"resurrection as a token", A_RES_TOKEN, 1, USE,
           no_cards, declare_use_plain, res_token_resolve, _named("resurrect as token"))
add_family(b"resurrection as the Dagger token", A_RES_DAGGER_TOKEN, 1, USE,
           no_cards, declare_use_plain, res_dagger_token_resolve,
           _named("resurrect as Dagger token"))
add_family(b"resurrection as a dagger", A_RES_DAGGER, 5, USE | FL_DAGGER_BLOCKED,
           no_cards, declare_use_plain, res_dagger_resolve, _label_res_dagger)
add_family(b"heal", A_HEAL, 13 * 3, PLAYED,
           heal_cards, heal_decide, heal_resolve, _label_heal)
add_family(b"pair attack", A_PAIR_ATTACK, 13 * 3, PLAYED | FL_TOKEN_BLOCKED,
           pair_attack_cards, declare_plain, attack_resolve, _label_pair_attack)
add_family(b"resurrection pair attack", A_RES_PAIR, JOKER, USE | FL_TOKEN_BLOCKED,
           res_pair_cards, declare_use_plain, res_attack_resolve, _label_res_attack)
add_family(b"attack", A_ATTACK, NUM_MULTISETS - 1, PLAYED | FL_TOKEN_BLOCKED,
           attack_cards, attack_decide, attack_resolve, _label_attack)
add_family(b"alt heal", A_ALT_HEAL, NUM_MULTISETS - 1, PLAYED,
           alt_heal_cards, alt_heal_decide, heal_resolve, _label_heal)
add_family(b"resurrection attack", A_RES_ATTACK, NUM_MULTISETS, USE | FL_TOKEN_BLOCKED,
           res_attack_cards, res_attack_decide, res_attack_resolve, _label_res_attack)
add_family(b"dagger token block", A_DAGGER_TOKEN_BLOCK, 1, 0,
           no_cards, block_decide, no_resolve, _label_block)
if _num_families != NUM_FAMILIES or \
        FAMILIES[NUM_FAMILIES - 1].base + FAMILIES[NUM_FAMILIES - 1].size != NUM_ACTIONS:
    raise ImportError("the action families do not cover the action ids exactly")


# --- chance ---------------------------------------------------------------------------

cdef const uint8_t* chance_pile(ShrineData* s, int* lo, int* hi) noexcept nogil:
    """The counts by kind of the pile a chance event draws one card from, with the
    kinds it may give in ``[lo, hi)``; NULL when chance is not to act."""
    if s.phase != PH_CHANCE:
        return NULL
    lo[0] = 0
    hi[0] = NUM_KINDS
    if s.chance == CH_STEAL:
        return s.hand[1 - s.active]
    if s.chance == CH_TOKEN:
        lo[0] = kind_of(token_rank(s.bal_index), 0)
        hi[0] = lo[0] + 2
    elif s.chance == CH_DEAL and s.deal_n >= 10:
        hi[0] = JOKER   # S14: a Joker dealt to a hand is replaced and shuffled back
    return s.library


cdef void apply_chance(ShrineData* s, int k) noexcept nogil:
    cdef int to = s.draw_to, what = s.chance, n
    if what == CH_STEAL:
        steal(s, k)
        return
    if k != NOTHING_FOUND:
        s.library[k] -= 1
        s.library_len -= 1
    if what == CH_DEAL:
        # R4: each Shrine's fifth card is its top, dealt face up.
        n = s.deal_n
        if n < 10:
            push_from_library(s, n // 5, k, n % 5 == 4)
        else:
            hand_add(s, (n - 10) // 5, k, False)
        s.deal_n += 1
    elif what == CH_TOKEN:
        if k != NOTHING_FOUND:
            s.pile[s.library_pile][k] -= 1
            s.field[to][s.bal_index] = k
        s.bal_index += 1
        clear_chance(s)
    elif what == CH_HIDDEN:
        push_from_library(s, to, k, False)
        clear_chance(s)
    else:
        s.draws_left -= 1
        if what == CH_FLIP:
            push_from_library(s, to, k, True)
        elif k == JOKER:
            # S15: drawn, the Balance card is played at once and uses an action.
            s.pile[s.library_pile][k] -= 1
            if s.actions_left > 0:
                s.actions_left -= 1
            begin_balance(s, to)
        else:
            hand_add(s, to, k, False)


cdef void deal_unseen(ShrineData* s, int observer, Rng* rng) noexcept nogil:
    """Deal every card ``observer`` cannot see anew, uniformly, each from its own pile
    (R32): the opponent's unknown hand cards, the face-down Shrine cards and the
    Library.  A pile's cards are gathered by kind, never by where they lie, so every
    state of one information set deals the same worlds from the same ``rng``: a search
    cannot tell the true one by its samples."""
    cdef int q = 1 - observer, pl, p, i, j, k, tmp, n, in_hand, slots, joker_at
    cdef uint8_t cards[54]
    for k in range(JOKER):
        s.hand[q][k] = s.seen[q][k]
    for pl in range(MAX_PILES):
        n = 0
        for k in range(NUM_KINDS):
            for i in range(s.pile[pl][k] - s.hand_pile[observer][pl][k]):
                cards[n] = k
                n += 1
        if n == 0:
            continue
        for i in range(n - 1, 0, -1):
            j = rng_below(rng, i + 1)
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
        # The Joker ends last in ``cards``, then takes a uniform place among the slots
        # outside the hand, where alone it may lie.
        for i in range(n - 1):
            if cards[i] == JOKER:
                cards[i] = cards[n - 1]
                cards[n - 1] = JOKER
                break
        in_hand = hand_pile_len(s, q, pl)
        joker_at = in_hand + rng_below(rng, n - in_hand) if cards[n - 1] == JOKER else n - 1
        tmp = cards[n - 1]
        cards[n - 1] = cards[joker_at]
        cards[joker_at] = tmp
        for k in range(JOKER):
            s.hand_pile[q][pl][k] = 0
        for i in range(in_hand):
            s.hand_pile[q][pl][cards[i]] += 1
            s.hand[q][cards[i]] += 1
        j = in_hand
        for p in range(2):
            for i in range(s.shrine_len[p]):
                if not s.shrine[p][i] & SEEN and s.shrine_pile[p][i] == pl:
                    s.shrine[p][i] = cards[j]
                    j += 1
        if pl == s.library_pile:
            for k in range(NUM_KINDS):
                s.library[k] = 0
            for i in range(j, n):
                s.library[cards[i]] += 1


# --- knowledge for search: a value for a position, and a greedy move ----------------
# The value is a logistic model of who wins, over features of each side as the viewing
# player knows them: every public fact, the viewer's own hand, and of the other hand
# its size and the cards known to be in it.  So it never reads a card the viewer
# cannot see, and when each player knows the other's whole hand it is antisymmetric.

cdef enum:
    F_SHRINE = 0              # Shrine cards, a card turning up onto it included
    F_SIZE = 1                # + 0, 1, 2: one, two or three cards left
    F_ROOM = 4                # room below capacity
    F_TRIAD = 5
    F_FIELD = 6               # + field slot: Jack, Queen, King, Dagger token
    F_TOP = 10                # + top card's rank - 1
    F_HAND = 23               # cards in hand up to the limit, a card being drawn included
    F_FIZZLE = 24             # three or more cards: a Fizzle or Counter-Fizzle is open
    F_ATTACK = 25             # known cards hold an attack on the other's top card
    F_DAGGERS = 26            # known Aces with a payment of their colour
    F_HEAL = 27               # known cards hold a heal
    F_TOKENS = 28             # known Tokens playable now
    F_FACES = 29              # known Jacks, Queens and Kings
    F_TEMPO = 30              # this side's turn, with an action left
    F_KILL = 31               # known cards can take the other's last Shrine card
    F_READY = 32              # this side's turn, and known cards hold an attack
    F_STEAL = 33              # a Jack on the Field and two cards to steal from
    NUM_FEATURES = 34

# Fitted by logistic regression (L2 penalty 1) to who won, over 177,000 positions, each
# judged from both sides, of 3,000 games under the default rules between greedy
# players of an earlier fit, some of them playing 5%, 30% or all of their moves at
# random.  Refits on this greedy's own games made a weaker player: they price a hand
# card near a Shrine card, and a greedy player led by them stops attacking.
cdef double WEIGHTS[NUM_FEATURES]
WEIGHTS[:] = [
    0.379,                                  # F_SHRINE
    -1.244, -0.234, 0.017,                  # F_SIZE: one, two, three cards left
    -0.018, 0.181,                          # F_ROOM, F_TRIAD
    1.606, 0.452, 0.740, 2.399,             # F_FIELD: Jack, Queen, King, Dagger token
    0.206, -0.004, -0.008, -0.192, -0.084,  # F_TOP: Ace, 2, 3, 4, 5,
    0.058, -0.126, -0.052, 0.004, -0.119,   #   6, 7, 8, 9, 10,
    0.057, 0.013, 0.248,                    #   Jack, Queen, King
    0.164, 0.108,                           # F_HAND, F_FIZZLE
    0.052, 0.053, 0.113, -0.077, 0.112,     # F_ATTACK, F_DAGGERS, F_HEAL, F_TOKENS, F_FACES
    0.116, 0.051, 0.036, -0.068,            # F_TEMPO, F_KILL, F_READY, F_STEAL
]


cdef inline int sums_of(const uint8_t* cards, int colour) noexcept nogil:
    """Bit v is set when some of ``cards`` (counts by kind) of ``colour`` sum to v; only
    sums up to 14 matter, as no Shrine card is worth more than 13 and a King widens by
    one."""
    cdef int reach = 1, r, c
    for r in range(1, 14):
        for c in range(cards[kind_of(r, colour)]):
            reach |= reach << r
    return reach & 0x7FFF

cdef inline bint sums_within(int reach, int lo, int hi) noexcept nogil:
    """Whether ``reach`` (from ``sums_of``) holds a sum from ``lo`` to ``hi``."""
    if lo < 1:
        lo = 1
    if hi > 14:
        hi = 14
    return lo <= hi and (reach >> lo) & ((1 << (hi - lo + 1)) - 1) != 0

cdef inline int known_top(ShrineData* s, int x, uint8_t hidden_tops) noexcept nogil:
    """Side ``x``'s top card if the players know it, else NONE: a Balance adds cards
    face down and turns the top up only once all are added, and a look ahead turns up
    cards the player choosing could not see (``hidden_tops``, as in ``side_features``)."""
    cdef int n = s.shrine_len[x]
    if n == 0 or (hidden_tops >> x) & 1 or not s.shrine[x][n - 1] & SEEN:
        return NONE
    return s.shrine[x][n - 1] & ~SEEN

cdef void known_cards(ShrineData* s, int x, const uint8_t* cards, const int* colour_cards,
                      int own_top, int other_top, double* f) noexcept nogil:
    """The features of side ``x`` that come from ``cards``, the cards of its hand the
    viewer knows, ``colour_cards`` of them of each colour; ``own_top`` and
    ``other_top`` are the known top cards of the two Shrines, or NONE."""
    cdef int y = 1 - x, r, c, t
    for r in range(11, 14):
        f[F_FACES] += cards[kind_of(r, 0)] + cards[kind_of(r, 1)]
    for c in range(2):
        if cards[kind_of(1, c)] and colour_cards[c] >= 2:
            f[F_DAGGERS] += 1
        for t in range(3):
            if s.field[x][t] < 0 and cards[kind_of(11 + t, c)] and colour_cards[c] >= 2:
                f[F_TOKENS] += 1
    if own_top != NONE and can_heal(s, x):
        r = rank_of(own_top)
        t = power_reach(s, x, F_QUEEN, USED_QUEEN)
        if s.alt_heal:
            f[F_HEAL] = sums_within(sums_of(cards, colour_of(own_top)), r - t, r + t)
        else:
            for c in range(max(r - t, 1), min(r + t, 13) + 1):
                if cards[kind_of(c, 0)] + cards[kind_of(c, 1)] >= 2 \
                        and cards[kind_of(c, colour_of(own_top))]:
                    f[F_HEAL] = 1
    if other_top != NONE:
        r = rank_of(other_top)
        if r == 1:
            for c in range(1, 14):
                if cards[kind_of(c, 0)] + cards[kind_of(c, 1)] >= 2:
                    f[F_ATTACK] = 1
        else:
            t = power_reach(s, x, F_KING, USED_KING)
            f[F_ATTACK] = sums_within(sums_of(cards, 1 - colour_of(other_top)), r - t, r + t)
    if s.shrine_len[y] == 1 and (f[F_ATTACK] or f[F_DAGGERS]):
        f[F_KILL] = 1

cdef void side_features(ShrineData* s, int x, int viewer, uint8_t hidden_tops,
                        double* f) noexcept nogil:
    """The features of side ``x`` as ``viewer`` knows them.  Side ``p``'s top card is
    read only if it is face up and bit ``1 << p`` of ``hidden_tops`` is clear."""
    cdef int y = 1 - x, n = s.shrine_len[x], h = s.hand_len[x], r, c, t, own_top
    cdef int colour_cards[2]
    cdef const uint8_t* cards = &s.seen[x][0]
    if viewer == x:
        cards = &s.hand[x][0]
    for t in range(NUM_FEATURES):
        f[t] = 0.0
    if s.phase == PH_CHANCE:
        if s.chance == CH_FLIP and s.draw_to == x:
            n += s.draws_left
        elif s.chance == CH_HAND and s.draw_to == x:
            h += s.draws_left
        elif s.chance == CH_STEAL:
            h += 1 if x == s.active else -1
    f[F_SHRINE] = n
    if 1 <= n <= 3:
        f[F_SIZE + n - 1] = 1
    if capacity(s, x) > n:
        f[F_ROOM] = capacity(s, x) - n
    f[F_TRIAD] = triad(s, x)
    for t in range(4):
        f[F_FIELD + t] = s.field[x][t] >= 0
    # Cards past the hand limit are discarded as the turn ends.
    f[F_HAND] = h if h < HAND_LIMIT else HAND_LIMIT
    f[F_FIZZLE] = h >= 3
    f[F_TEMPO] = x == s.active and s.actions_left > 0
    own_top = known_top(s, x, hidden_tops)
    if own_top != NONE:
        f[F_TOP + rank_of(own_top) - 1] = 1
    colour_cards[0] = colour_cards[1] = 0
    for r in range(1, 14):
        for c in range(2):
            colour_cards[c] += cards[kind_of(r, c)]
    if colour_cards[0] + colour_cards[1]:
        known_cards(s, x, cards, colour_cards, own_top, known_top(s, y, hidden_tops), f)
    f[F_READY] = f[F_TEMPO] * f[F_ATTACK]
    f[F_STEAL] = s.field[x][F_JACK] >= 0 and s.hand_len[y] >= 2

cdef double side_value(ShrineData* s, int x, int viewer, uint8_t hidden_tops) noexcept nogil:
    cdef double f[NUM_FEATURES]
    cdef double z = 0.0
    cdef int i
    side_features(s, x, viewer, hidden_tops, f)
    for i in range(NUM_FEATURES):
        z += WEIGHTS[i] * f[i]
    return z

cdef double logit(ShrineData* s, int player, uint8_t hidden_tops) noexcept nogil:
    """The log-odds of ``player`` winning, from what they know; once the game is over,
    a won or lost game lies beyond every position still in play."""
    if s.winner != NONE:
        return 0.0 if s.winner == DRAW else 1e9 if s.winner == player else -1e9
    return side_value(s, player, player, hidden_tops) \
        - side_value(s, 1 - player, player, hidden_tops)

cdef double evaluate(ShrineData* s, int player) noexcept nogil:
    """``player``'s chance to win as a value in [-1, 1]: tanh(z / 2) is
    2 * sigmoid(z) - 1, the model's win probability on the scale of the returns."""
    if s.winner != NONE:
        return 0.0 if s.winner == DRAW else 1.0 if s.winner == player else -1.0
    return tanh(0.5 * logit(s, player, 0))

cdef uint8_t turned_up(ShrineData* before, ShrineData* after) noexcept nogil:
    """The sides whose top card in ``after`` lay face down in ``before``: a look ahead
    must not learn from it, as the player choosing could not see it."""
    cdef int p, n
    cdef uint8_t sides = 0
    for p in range(2):
        n = after.shrine_len[p]
        if 0 < n <= before.shrine_len[p] and not before.shrine[p][n - 1] & SEEN:
            sides |= 1 << p
    return sides


cdef inline bint answering(int phase) noexcept nogil:
    """Whether ``phase`` is part of settling a declared action: its Resurrection use,
    the answer to it, a counter, and the picks they ask for."""
    return phase == PH_RES_USE or PH_RESPONSE <= phase <= PH_COUNTER_PICK

cdef void follow_through(ShrineData* s, int depth) noexcept nogil:
    """Play on to the end of the declared action, so that a choice is scored by what it
    leads to, not by a half-resolved state.  With ``depth`` spent, answers and counters
    are assumed not to come."""
    cdef int a, ph
    while s.winner == NONE and answering(s.phase):
        ph = s.phase
        if ph == PH_FIZZLE_PICK or ph == PH_COUNTER_PICK:
            # Each pick scored as it stands: looking ahead through the later picks
            # would multiply the work by the hand size at every pick.
            a = greedy(s, NULL, -1)
        elif ph == PH_RES_USE:
            # Still the actor's own action: chosen with the same look ahead.
            a = greedy(s, NULL, depth)
        elif depth > 0:
            a = greedy(s, NULL, depth - 1)
        elif ph == PH_RESPONSE:
            a = A_NO_RESPONSE
        else:
            a = A_NO_COUNTER
        decide(s, a)

cdef int greedy(ShrineData* s, Rng* rng, int depth) noexcept nogil:
    """The decision with the best value for the player deciding, each scored after
    ``follow_through``; ties go to ``rng``, or to the lowest id without one."""
    cdef ShrineData t
    cdef int acts[NUM_ACTIONS]
    cdef int n = decisions(s, acts), me = decider(s), i, best = -1, ties = 0
    cdef double v, top = -2e9
    if n <= 1:
        return acts[0] if n == 1 else -1
    for i in range(n):
        memcpy(&t, s, sizeof(ShrineData))
        decide(&t, acts[i])
        if depth >= 0:
            follow_through(&t, depth)
        v = logit(&t, me, turned_up(s, &t))
        if v > top:
            top = v
            best = acts[i]
            ties = 1
        elif v == top and rng != NULL:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = acts[i]
    return best


cdef class ShrineState(GameState):
    """A Shrine position.  Build one with ``ShrineGame.new_initial_state`` or
    ``ShrineGame.state_from_dict``."""

    # --- the contract ------------------------------------------------------------

    cdef int c_current_player(self) noexcept nogil:
        if self.s.winner != NONE:
            return TERMINAL
        if self.s.phase == PH_CHANCE:
            return CHANCE
        return decider(&self.s)

    cdef bint c_is_terminal(self) noexcept nogil:
        return self.s.winner != NONE

    cdef double c_returns(self, int player) noexcept nogil:
        return win_loss(self.s.winner, player, 2)

    cdef void copy_into(self, GameState dst) noexcept nogil:
        memcpy(&(<ShrineState>dst).s, &self.s, sizeof(ShrineData))

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        cdef int lo, hi
        cdef const uint8_t* counts = chance_pile(&self.s, &lo, &hi)
        if counts == NULL:
            return 0
        if pile_size(counts, lo, hi) == 0:
            actions[0] = NOTHING_FOUND
            probs[0] = 1.0
            return 1
        return pile_outcomes(counts, lo, hi, actions, probs)

    cdef int c_sample_chance(self, Rng* rng) noexcept nogil:
        # Every draw takes one card of a pile uniformly: no list of outcomes to build.
        cdef int lo, hi
        cdef const uint8_t* counts = chance_pile(&self.s, &lo, &hi)
        if counts == NULL:
            return -1
        if pile_size(counts, lo, hi) == 0:
            return NOTHING_FOUND
        return pile_sample(counts, lo, hi, rng)

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef double scratch[NUM_KINDS + 1]
        if self.s.phase == PH_CHANCE:
            return self.c_chance_outcomes(out, scratch)
        return decisions(&self.s, out)

    cdef void c_apply_action(self, int a) noexcept nogil:
        if self.s.phase == PH_CHANCE:
            apply_chance(&self.s, a)
            advance(&self.s)
        else:
            decide(&self.s, a)

    # --- knowledge ---------------------------------------------------------------

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        cdef ShrineData before
        cdef int offered[NUM_ACTIONS]
        cdef int tries
        # One moment tells the observer something about unseen cards: a player declares
        # a Resurrection only when its card has a use with their hand.  That fact is
        # "something can happen now", so worlds where nothing can are rejected, leaving
        # the others uniform.  This world passes, and each try of a few cards'
        # placement passes with a chance far above 1e-3: 100000 failures, after which
        # the state is left as it is, do not happen.
        if not (self.s.phase == PH_RES_USE and observer != self.s.active):
            deal_unseen(&self.s, observer, rng)
            return
        memcpy(&before, &self.s, sizeof(ShrineData))
        for tries in range(100000):
            deal_unseen(&self.s, observer, rng)
            if self.c_legal_actions(offered) > 0:
                return
            memcpy(&self.s, &before, sizeof(ShrineData))

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        # Every Shrine decision is made in the open; only chance hides cards: those
        # dealt face down, a draw into the other player's hand, and the cards a Balance
        # adds face down to a Shrine.  Of those, only the last is seen, as the top card
        # turned up once the adding is done: played out, it shows whether it is.
        cdef int what = self.s.chance, n = self.s.deal_n, to = self.s.draw_to
        cdef int at = self.s.shrine_len[to] if to >= 0 else 0
        cdef ShrineData after
        if self.s.phase != PH_CHANCE:
            return action
        if what == CH_HIDDEN:
            memcpy(&after, &self.s, sizeof(ShrineData))
            apply_chance(&after, action)
            advance(&after)
            if after.shrine_len[to] > at and after.shrine[to][at] & SEEN:
                return action
            return -1
        if what == CH_DEAL:
            if n < 10 and n % 5 == 4 or n >= 10 and (n - 10) // 5 == observer:
                return action
            return -1
        if what == CH_HAND and self.s.draw_to != observer and action != JOKER:
            return -1
        return action

    cdef double c_evaluate(self, int player) noexcept nogil:
        return evaluate(&self.s, player)

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        # The acting player assumes its action goes unanswered; one that answers or
        # counters looks one decision further, at the reply its answer may draw; a
        # pick of the cards a Fizzle discards is scored as it stands.
        cdef int ph = self.s.phase
        if ph == PH_ACTION or ph == PH_RES_USE:
            return greedy(&self.s, rng, 0)
        if ph == PH_FIZZLE_PICK or ph == PH_COUNTER_PICK:
            return greedy(&self.s, rng, -1)
        return greedy(&self.s, rng, 1)

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        fill_tensor(self, player, out)

    # --- Python edge ---------------------------------------------------------------

    def _action_name(self, int action):
        return _label(self, action)

    def _action_kind(self, int action):
        # A decision's family (an attack with the King's range is still an attack);
        # a chance event's kind of draw.
        if self.s.phase == PH_CHANCE:
            return CHANCE_WORDS.get(self.s.chance, "chance")
        return FAMILIES[FAMILY_OF[action]].name.decode()

    def _view(self, viewer):
        # Under the rulings a shuffled pile's order and make-up are forgotten, so what a
        # player sees is all it knows: unknown cards show as ``??``.
        return _view(self, viewer)


def render(view):
    """A few lines of text for a position dict (``to_dict`` or ``observation_dict``).
    In a ``to_dict``, face-down Shrine cards show in brackets; an observation shows
    the cards its player does not know as ``??``."""
    lines = []
    for p, pl in enumerate(view["players"]):
        field = " ".join(pl["field"]) or "-"
        seen = pl.get("shrine_seen", [True] * len(pl["shrine"]))
        shrine = " ".join(c if up else f"[{c}]" for c, up in zip(pl["shrine"], seen))
        lines.append(f"  player {p}: Shrine {shrine or '-'} (top last)"
                     f" | Field {field} | hand {len(pl['hand'])}: {' '.join(pl['hand']) or '-'}")
    grave = view["graveyard"]
    lines.append(f"  Graveyard {len(grave)}, top {grave[-1] if grave else '-'}"
                 f" | Library {len(view['library'])}")
    return "\n".join(lines)



# What a phase asks, in the words of the rules; the game state's own step is the
# engine's bookkeeping and is not told.
PHASE_WORDS = {"start": "the start of the turn", "resurrection": "a resurrection",
               "jack discard": "a Jack's discard", "response": "a response",
               "fizzle discard": "a fizzle's discard", "counter": "a counter",
               "counter discard": "a counter's discard", "discard": "a discard",
               "balance discard": "Balance's discard"}


def status(view):
    """Turn, whose turn and what happens now, in a player's words (turns from 1)."""
    if view.get("winner") is not None:
        return "game over: a draw" if view["winner"] == "draw" \
            else f"game over: player {view['winner']} wins"
    turn = f"turn {view['turn'] + 1}, player {view['active']}'s turn"
    phase = view["phase"]
    if phase == "chance":
        return turn + (": dealing" if view["step"] == "deal" else ": drawing")
    if phase == "action":
        n = view["actions_left"]
        return f"{turn}: {n} action{'' if n == 1 else 's'} left"
    return f"{turn}: {PHASE_WORDS.get(phase, phase)}"


# --- names ---------------------------------------------------------------------------

PHASES = ["chance", "start", "action", "resurrection", "jack discard", "response",
          "fizzle discard", "counter", "counter discard", "discard", "balance discard",
          "over"]
STEPS = ["deal", "turn start", "drawing", "choose", "action", "respond", "resolve",
         "fizzled", "after", "end", "balance field", "balance shrine", "balance hand",
         "balance finish", "wait"]
CHANCES = ["none", "deal", "hand", "flip", "hidden", "token", "steal"]
# How an action's name says what a chance event does.
CHANCE_WORDS = {CH_DEAL: "deal", CH_HAND: "draw", CH_FLIP: "turn up", CH_HIDDEN: "add face down",
                CH_TOKEN: "find", CH_STEAL: "steal"}
CARDS = Cards([RANKS[k // 2] + COLOURS[k % 2] for k in range(JOKER)] + ["JOKER"],
              "cards are like 9R, QB, 10B, AR, JOKER")
CARD_NAMES = CARDS.names
CARD_KINDS = CARDS.kinds
FOUND_NONE = NOTHING_FOUND
TARGET_NAMES = ("Jack token", "Queen token", "King token", "Dagger token", "Shrine")
POWER_BITS = {"jack": USED_JACK, "queen": USED_QUEEN, "king": USED_KING}


def _cards(kinds):
    """Cards joined highest first, as a player would fan them."""
    return "+".join(CARD_NAMES[k] for k in sorted(kinds, reverse=True))


def _paid(ShrineState st, int a):
    """The hand cards declaring ``a`` pays with, as ``action_cards`` gives them; none
    once a Shrine is empty, where no action is named for play."""
    cdef uint8_t cards[PEND_SLOTS]
    if not (st.s.shrine_len[0] and st.s.shrine_len[1]):
        return []
    return [cards[i] for i in range(action_cards(&st.s, a, cards))]



def _label(ShrineState st, int a):
    """The readable name of action (or chance outcome) ``a`` in ``st``."""
    if st.s.phase == PH_CHANCE:
        what = CHANCE_WORDS.get(st.s.chance, "chance")
        if a == NOTHING_FOUND and st.s.chance == CH_TOKEN:
            return "find nothing"
        return f"{what} {CARD_NAMES[a]}" if 0 <= a < NUM_KINDS else f"chance {a}"
    if not 0 <= a < NUM_ACTIONS:
        return f"action {a}"
    return _LABELS[FAMILY_OF[a]](st, a)


def _top_name(ShrineState st, int p):
    return CARD_NAMES[shrine_top(&st.s, p)] if st.s.shrine_len[p] else "?"

def _target(ShrineState st, int q, int t):
    if t == T_SHRINE:
        return f"Shrine {CARD_NAMES[shrine_top(&st.s, q)]}" if st.s.shrine_len[q] else "Shrine"
    card = st.s.field[q][t]
    return CARD_NAMES[card] if card >= 0 else TARGET_NAMES[t]


# --- plain data ------------------------------------------------------------------------

cdef list _counted(const uint8_t* counts):
    return CARDS.named([counts[k] for k in range(NUM_KINDS)])


def _view(ShrineState st, viewer):
    """The position as plain data; with a ``viewer``, what that player sees."""
    cdef int p, i, k, q
    # R32: the piles hidden cards come from, up to the last in use.
    piles = st.s.library_pile + 1
    for q in range(MAX_PILES):
        if not pile_empty(&st.s, q):
            piles = max(piles, q + 1)
    players = []
    for p in range(2):
        hand = _counted(st.s.hand[p])
        seen = _counted(st.s.seen[p])
        if viewer is not None and viewer != p:
            hand = seen + ["??"] * (st.s.hand_len[p] - len(seen))
        shrine, shrine_seen = [], []
        for i in range(st.s.shrine_len[p]):
            face_up = bool(st.s.shrine[p][i] & SEEN)
            k = st.s.shrine[p][i] & ~SEEN
            shrine.append(CARD_NAMES[k] if face_up or viewer is None else "??")
            shrine_seen.append(face_up)
        player = {"hand": hand, "hand_seen": seen, "shrine": shrine,
                  "field": [CARD_NAMES[st.s.field[p][t]] for t in range(4)
                            if st.s.field[p][t] >= 0]}
        if viewer is None:
            player["shrine_seen"] = shrine_seen
        player["hand_piles"] = [
            _counted(st.s.hand_pile[p][q]) if viewer is None or viewer == p
            else ["??"] * hand_pile_len(&st.s, p, q) for q in range(piles)]
        player["shrine_piles"] = [None if st.s.shrine[p][i] & SEEN else st.s.shrine_pile[p][i]
                                  for i in range(st.s.shrine_len[p])]
        players.append(player)
    library = _counted(st.s.library)
    if viewer is not None:
        library = ["??"] * st.s.library_len
    d = {
        "turn": st.s.turn,
        "active": st.s.active,
        "current_player": st.c_current_player(),
        "phase": PHASES[st.s.phase],
        "step": STEPS[st.s.step],
        "actions_left": st.s.actions_left,
        "powers_used": [name for name, bit in POWER_BITS.items() if st.s.powers_used & bit],
        "winner": None if st.s.winner == NONE else ("draw" if st.s.winner == DRAW else st.s.winner),
        "players": players,
        "graveyard": [CARD_NAMES[st.s.grave[i]] for i in range(st.s.grave_len)],
        "library": library,
        "picks_left": st.s.picks_left,
    }
    # What may lie in each pile's places the viewer cannot see.
    d["piles"] = [CARDS.named([st.s.pile[q][k] - (0 if viewer is None
                                                    else st.s.hand_pile[viewer][q][k])
                               for k in range(NUM_KINDS)]) for q in range(piles)]
    d["library_pile"] = st.s.library_pile
    if st.s.balance:
        d["joker_out"] = bool(st.s.joker_out)
    if st.s.step == ST_DEAL:
        d["dealt"] = st.s.deal_n
    if st.s.pending != NONE:
        d["pending"] = {
            "action": st.s.pending,
            "cards": [CARD_NAMES[st.s.pend[i]] for i in range(st.s.pend_len)],
        }
        if st.s.res_card != NONE:
            d["pending"]["resurrected"] = CARD_NAMES[st.s.res_card]
            d["pending"]["resurrected_at"] = st.s.res_index
    if st.s.chance != CH_NONE:
        d["chance"] = {"draw": CHANCES[st.s.chance]}
        if st.s.chance in (CH_HAND, CH_FLIP, CH_HIDDEN, CH_TOKEN):
            d["chance"]["to"] = st.s.draw_to
        if st.s.chance in (CH_HAND, CH_FLIP):
            d["chance"]["left"] = st.s.draws_left
            d["chance"]["then"] = STEPS[st.s.after_draws]
    if st.s.bal_player != NONE:
        d["balance"] = {"player": st.s.bal_player, "token": st.s.bal_index,
                        "then": STEPS[st.s.bal_return]}
    return d





# One side of the table: Shrine size, whether it has a Triad, its top card when face
# up; its face-up cards by kind, then its face-down count; its Field tokens by colour.
SIDE = 2 + NUM_KINDS + NUM_KINDS + 1 + 8
LAYOUT = TensorLayout(
    ("phase", len(PHASES)),
    ("flags", 11),      # to move, active, turns, actions left, powers used (3), Library,
                        # Graveyard, picks left, Joker out
    ("hands", 3 * JOKER + 1),       # own hand, own cards the opponent has seen, the
                                    # opponent's cards seen, the opponent's hand size
    ("viewer", SIDE),
    ("opponent", SIDE),
    ("graveyard", 2 * NUM_KINDS),   # its cards, its top card
    ("pending", 2 * NUM_KINDS),     # the cards paying for the declared action, the
                                    # Graveyard card a Resurrection uses
    ("declared", len(_DECLARED)),  # the family of the pending action
    ("deduced", 2 * NUM_KINDS),     # R32: the cards that may lie in the Library, and in
                                    # the opponent's unknown hand cards
)


# Where each block begins, read from LAYOUT once, for the fill without the GIL.
cdef int T_SIZE = LAYOUT.size
cdef int T_PHASE = LAYOUT.offset("phase")
cdef int T_FLAGS = LAYOUT.offset("flags")
cdef int T_HANDS = LAYOUT.offset("hands")
cdef int T_VIEWER = LAYOUT.offset("viewer")
cdef int T_OPPONENT = LAYOUT.offset("opponent")
cdef int T_GRAVEYARD = LAYOUT.offset("graveyard")
cdef int T_PENDING = LAYOUT.offset("pending")
cdef int T_DECLARED = LAYOUT.offset("declared")
cdef int T_DEDUCED = LAYOUT.offset("deduced")


cdef void fill_tensor(ShrineState st, int viewer, float* v) noexcept nogil:
    """What ``viewer`` knows, block by block as ``LAYOUT`` lays it out
    (docs/rules/shrine-position.md describes the blocks)."""
    cdef ShrineData* s = &st.s
    cdef int me = viewer, opp = 1 - viewer, i, k, o, q, n
    cdef bint in_library, in_hand
    memset(v, 0, T_SIZE * sizeof(float))
    v[T_PHASE + s.phase] = 1
    o = T_FLAGS
    v[o] = st.c_current_player() == viewer
    v[o + 1] = s.active == viewer
    v[o + 2] = s.turn / <float>s.max_turns
    v[o + 3] = s.actions_left / 2.0
    v[o + 4] = (s.powers_used & USED_JACK) != 0
    v[o + 5] = (s.powers_used & USED_QUEEN) != 0
    v[o + 6] = (s.powers_used & USED_KING) != 0
    v[o + 7] = s.library_len / 54.0
    v[o + 8] = s.grave_len / 54.0
    v[o + 9] = s.picks_left / 10.0
    v[o + 10] = s.joker_out
    o = T_HANDS
    for k in range(JOKER):
        v[o + k] = s.hand[me][k] / 2.0
        v[o + JOKER + k] = s.seen[me][k] / 2.0
        v[o + 2 * JOKER + k] = s.seen[opp][k] / 2.0
    v[o + 3 * JOKER] = s.hand_len[opp] / 10.0
    fill_side(s, me, v + T_VIEWER)
    fill_side(s, opp, v + T_OPPONENT)
    o = T_GRAVEYARD
    for i in range(s.grave_len):
        v[o + s.grave[i]] += 0.5
    if s.grave_len:
        v[o + NUM_KINDS + s.grave[s.grave_len - 1]] = 1
    o = T_PENDING
    for i in range(s.pend_len):
        v[o + s.pend[i]] += 0.5
    if s.res_card != NONE:
        v[o + NUM_KINDS + s.res_card] = 1
    if s.pending != NONE:
        v[T_DECLARED + family_of(s.pending).declared] = 1
    o = T_DEDUCED
    for q in range(MAX_PILES):
        in_library = q == s.library_pile and s.library_len > 0
        in_hand = hand_pile_len(s, opp, q) > 0
        for k in range(NUM_KINDS):
            n = s.pile[q][k] - s.hand_pile[me][q][k]
            if in_library:
                v[o + k] += n / 2.0
            if in_hand:
                v[o + NUM_KINDS + k] += n / 2.0


cdef void fill_side(ShrineData* s, int who, float* v) noexcept nogil:
    """One side of the table, ``SIDE`` floats: what both players see of it."""
    cdef int i, o
    v[0] = s.shrine_len[who] / 7.0
    v[1] = capacity(s, who) == TRIAD_CAPACITY
    if s.shrine_len[who] and s.shrine[who][s.shrine_len[who] - 1] & SEEN:
        v[2 + shrine_top(s, who)] = 1
    o = 2 + NUM_KINDS
    for i in range(s.shrine_len[who]):
        if s.shrine[who][i] & SEEN:
            v[o + (s.shrine[who][i] & ~SEEN)] += 0.5
        else:
            v[o + NUM_KINDS] += 1 / 7.0
    o += NUM_KINDS + 1
    for i in range(4):
        if s.field[who][i] >= 0:
            v[o + 2 * i + colour_of(s.field[who][i])] = 1


# --- building positions ------------------------------------------------------------------

_KNOWN_KEYS = ("turn", "active", "current_player", "phase", "step", "actions_left",
               "powers_used", "winner", "players", "graveyard", "library", "picks_left",
               "joker_out", "dealt", "pending", "chance", "balance", "piles",
               "library_pile")
_PLAYER_KEYS = ("hand", "hand_seen", "hand_piles", "shrine", "shrine_seen", "shrine_piles",
                "field")
_FIELD_SLOTS = {11: F_JACK, 12: F_QUEEN, 13: F_KING, 1: F_DAGGER}


class _Tally:
    """The cards a position holds so far, by kind: no kind more often than the deck
    has it."""

    def __init__(self):
        self.counts = [0] * NUM_KINDS

    def add(self, kinds, where):
        for kind in kinds:
            self.counts[kind] += 1
            limit = 1 if kind == JOKER else 2
            if self.counts[kind] > limit:
                raise StateFormatError(f"{where}: more than {limit} {CARD_NAMES[kind]} in play")


def _from_dict(game, desc):
    """Build a position from ``desc`` (the format of ``to_dict``; most keys optional)."""
    cdef ShrineState st = ShrineState.__new__(ShrineState)
    cdef int p
    _reset(st, game)
    st.s.turn = read_int(desc, "turn", 0, st.s.max_turns, 0)
    st.s.active = read_int(desc, "active", 0, 1, 0)
    phase = desc.get("phase", "action")
    st.s.phase = read_name(phase, PHASES, "phase")
    # A decision waits with its step at "wait"; a chance event's step follows from what
    # it draws (see _check_flow).
    st.s.step = read_name(desc.get("step", "deal" if phase == "chance" else "wait"),
                          STEPS, "step")
    winner = read_winner(desc, 2)
    st.s.winner = NONE if winner is None else DRAW if winner == "draw" else winner
    tally = _Tally()
    for p, pl in enumerate(read_players(desc, 2, _PLAYER_KEYS)):
        _read_side(st, p, pl, tally)
    grave = CARDS.kinds_of(desc.get("graveyard", []), "graveyard")
    if JOKER in grave:
        raise StateFormatError("graveyard: the Joker never goes to the Graveyard")
    tally.add(grave, "graveyard")
    for k in grave:
        to_grave(&st.s, k)
    if desc.get("pending") is not None:
        _read_pending(st, desc["pending"], grave, tally)
    _read_library(st, desc, tally)
    _read_piles(st, desc)
    _read_turn(st, desc)
    _check_flow(st, "step" in desc)
    if st.s.winner == NONE and not st.legal_actions():
        raise StateFormatError(f"nothing can happen in phase {phase!r} of this position")
    return st


def _read_side(ShrineState st, int p, pl, tally):
    """Player ``p``'s hand, Shrine and Field, from ``pl``."""
    where = f"players[{p}]"
    hand = CARDS.kinds_of(pl.get("hand", []), f"{where}.hand")
    if JOKER in hand:
        raise StateFormatError(f"{where}.hand: the Joker is never held in a hand")
    tally.add(hand, f"{where}.hand")
    for k in hand:
        st.s.hand[p][k] += 1
    st.s.hand_len[p] = len(hand)
    for k in CARDS.kinds_of(pl.get("hand_seen", []), f"{where}.hand_seen"):
        st.s.seen[p][k] += 1
        if st.s.seen[p][k] > st.s.hand[p][k]:
            raise StateFormatError(f"{where}.hand_seen: {CARD_NAMES[k]} is not in the hand")
    shrine = CARDS.kinds_of(pl.get("shrine", []), f"{where}.shrine")
    tally.add(shrine, f"{where}.shrine")
    if len(shrine) > 7:
        raise StateFormatError(f"{where}.shrine holds at most 7 cards, not {len(shrine)}")
    seen = pl.get("shrine_seen", [i == len(shrine) - 1 for i in range(len(shrine))])
    if not isinstance(seen, list) or len(seen) != len(shrine) \
            or not all(isinstance(up, bool) for up in seen):
        raise StateFormatError(f"{where}.shrine_seen must be one bool per Shrine card")
    for i, k in enumerate(shrine):
        st.s.shrine[p][i] = k | (SEEN if seen[i] else 0)
    st.s.shrine_len[p] = len(shrine)
    for k in CARDS.kinds_of(pl.get("field", []), f"{where}.field"):
        slot = _FIELD_SLOTS.get(rank_of(k) if k != JOKER else 0)
        if slot is None:
            raise StateFormatError(f"{where}.field: {CARD_NAMES[k]} cannot be on a Field")
        if st.s.field[p][slot] != NONE:
            raise StateFormatError(f"{where}.field: two {TARGET_NAMES[slot]} cards")
        st.s.field[p][slot] = k
        tally.add([k], f"{where}.field")
    if st.s.field[p][F_DAGGER] != NONE and not triad(&st.s, p):
        raise StateFormatError(f"{where}.field: a Dagger token needs a Triad")
    if st.s.shrine_len[p] > capacity(&st.s, p):
        raise StateFormatError(f"{where}.shrine holds more than its capacity "
                               f"{capacity(&st.s, p)}")


def _read_pending(ShrineState st, pending, grave, tally):
    """The declared action waiting on its resolution, with the cards it pays with."""
    if not isinstance(pending, dict) or "action" not in pending:
        raise StateFormatError("pending must be a dict with an action")
    st.s.pending = read_int(pending, "action", 0, NUM_ACTIONS - 1, 0, "pending.")
    pend_cards = CARDS.kinds_of(pending.get("cards", []), "pending.cards")
    if len(pend_cards) > PEND_SLOTS:
        raise StateFormatError("pending.cards: too many cards")
    tally.add(pend_cards, "pending.cards")
    for i, k in enumerate(pend_cards):
        st.s.pend[i] = k
    st.s.pend_len = len(pend_cards)
    if "resurrected" in pending:
        st.s.res_card = CARDS.kind(pending["resurrected"], "pending.resurrected")
        st.s.res_index = read_int(pending, "resurrected_at", 0, max(len(grave) - 1, 0), 0,
                                  "pending.")
        if not grave or grave[st.s.res_index] != st.s.res_card:
            raise StateFormatError("pending.resurrected is not at pending.resurrected_at "
                                   "in the Graveyard")


def _read_library(ShrineState st, desc, tally):
    """The Joker's whereabouts and the Library: given, it must hold every card the
    position lacks; absent, it holds them."""
    cdef int k
    counts = tally.counts
    if read_bool(desc, "joker_out", False):
        if not st.s.balance:
            raise StateFormatError("joker_out: this game has no Balance card")
        counts[JOKER] += 1
        if counts[JOKER] > 1:
            raise StateFormatError("joker_out: the Joker is also in play")
        st.s.joker_out = 1
    full = [deck_count(&st.s, k) for k in range(NUM_KINDS)]
    library = CARDS.kinds_of(desc.get("library", []), "library")
    tally.add(library, "library")
    if counts[JOKER] and not st.s.balance:
        raise StateFormatError("this game has no Balance card (Joker); set balance=true")
    if "library" in desc:
        for k in library:
            st.s.library[k] += 1
        CARDS.check_all(counts, full, "two of each card, and the Joker with a Balance")
    else:
        for k in range(NUM_KINDS):
            st.s.library[k] = full[k] - counts[k]
    st.s.library_len = sum(st.s.library[k] for k in range(NUM_KINDS))


def _read_piles(ShrineState st, desc):
    """R32: the pile each card nobody can see came from, and what each pile holds.
    Without ``piles``, every such card is in one pile, the cards never seen."""
    cdef ShrineData* s = &st.s
    cdef int p, q, i, k
    sides = read_players(desc, 2, _PLAYER_KEYS)
    piles = desc.get("piles")
    if piles is None:
        for p, side in enumerate(sides):
            for key in ("hand_piles", "shrine_piles"):
                if key in side:
                    raise StateFormatError(f"players[{p}].{key} goes with piles")
        if "library_pile" in desc:
            raise StateFormatError("library_pile goes with piles")
        for k in range(NUM_KINDS):
            s.pile[0][k] = s.library[k]
        for p in range(2):
            for k in range(JOKER):
                s.hand_pile[p][0][k] = s.hand[p][k] - s.seen[p][k]
                s.pile[0][k] += s.hand_pile[p][0][k]
            for i in range(s.shrine_len[p]):
                if not s.shrine[p][i] & SEEN:
                    s.pile[0][s.shrine[p][i]] += 1
        return
    if not isinstance(piles, list) or not 1 <= len(piles) <= MAX_PILES:
        raise StateFormatError(f"piles must be a list of 1 to {MAX_PILES} lists of cards")
    s.library_pile = read_int(desc, "library_pile", 0, len(piles) - 1, 0)
    placed = [[0] * NUM_KINDS for _ in piles]
    for k in range(NUM_KINDS):
        placed[s.library_pile][k] += s.library[k]
    for p, side in enumerate(sides):
        _read_side_piles(st, p, side, placed)
    for q, cards in enumerate(piles):
        for k in CARDS.kinds_of(cards, f"piles[{q}]"):
            s.pile[q][k] += 1
        held = [s.pile[q][k] for k in range(NUM_KINDS)]
        if held != placed[q]:
            raise StateFormatError(
                f"piles[{q}] must hold exactly the hidden cards placed in it "
                f"({' '.join(CARDS.named(placed[q])) or 'none'}), not "
                f"{' '.join(CARDS.named(held)) or 'none'}")


def _read_side_piles(ShrineState st, int p, side, placed):
    """Which pile each of player ``p``'s hidden hand cards and face-down Shrine cards
    came from, added to ``placed``, the cards of each pile by kind."""
    cdef ShrineData* s = &st.s
    cdef int q, i, k
    where = f"players[{p}]"
    hidden = [s.hand[p][k] - s.seen[p][k] for k in range(NUM_KINDS)]
    hand_piles = side.get("hand_piles", [[] for _ in placed])
    if not isinstance(hand_piles, list) or len(hand_piles) != len(placed):
        raise StateFormatError(f"{where}.hand_piles must be one list of cards per pile")
    split = [0] * NUM_KINDS
    for q, cards in enumerate(hand_piles):
        for k in CARDS.kinds_of(cards, f"{where}.hand_piles[{q}]"):
            s.hand_pile[p][q][k] += 1
            placed[q][k] += 1
            split[k] += 1
    if split != hidden:
        raise StateFormatError(f"{where}.hand_piles must split the cards of the hand not in "
                               "hand_seen, each once, by the pile it came from")
    shrine_piles = side.get("shrine_piles",
                            [None if s.shrine[p][i] & SEEN else 0 for i in range(s.shrine_len[p])])
    if not isinstance(shrine_piles, list) or len(shrine_piles) != s.shrine_len[p]:
        raise StateFormatError(f"{where}.shrine_piles must be one entry per Shrine card")
    for i, where_from in enumerate(shrine_piles):
        if s.shrine[p][i] & SEEN:
            if where_from is not None:
                raise StateFormatError(f"{where}.shrine_piles[{i}]: a card seen is in no "
                                       "pile, so null")
            continue
        if not isinstance(where_from, int) or isinstance(where_from, bool) \
                or not 0 <= where_from < len(placed):
            raise StateFormatError(f"{where}.shrine_piles[{i}] must be the index of a pile")
        s.shrine_pile[p][i] = where_from
        placed[where_from][s.shrine[p][i]] += 1


def _read_turn(ShrineState st, desc):
    """Where the turn stands: picks, the deal, actions and powers left, the chance
    event and the Balance being resolved."""
    st.s.picks_left = read_int(desc, "picks_left", 0, 20, 0)
    st.s.deal_n = read_int(desc, "dealt", 0, DEAL_CARDS, DEAL_CARDS)
    default_actions = 2 if st.s.field[st.s.active][F_DAGGER] != NONE else 1
    st.s.actions_left = read_int(desc, "actions_left", 0, 2, default_actions)
    used = desc.get("powers_used", [])
    if not isinstance(used, list) \
            or not all(isinstance(name, str) and name in POWER_BITS for name in used):
        raise StateFormatError(f"powers_used lists some of jack, queen, king; not {used!r}")
    for name in used:
        st.s.powers_used |= POWER_BITS[name]
    chance = desc.get("chance")
    if chance is not None:
        if not isinstance(chance, dict):
            raise StateFormatError("chance must be a dict")
        st.s.chance = read_name(chance.get("draw", "none"), CHANCES, "chance.draw")
        st.s.draw_to = read_int(chance, "to", -1, 1, -1, "chance.")
        st.s.draws_left = read_int(chance, "left", 0, 20, 0, "chance.")
        st.s.after_draws = read_name(chance.get("then", "deal"), STEPS, "chance.then")
    balance = desc.get("balance")
    if balance is not None:
        if not isinstance(balance, dict):
            raise StateFormatError("balance must be a dict")
        st.s.bal_player = read_int(balance, "player", 0, 1, 0, "balance.")
        st.s.bal_index = read_int(balance, "token", 0, 3, 0, "balance.")
        st.s.bal_return = read_name(balance.get("then", "action"), STEPS, "balance.then")


# The steps a Balance may resume once it is resolved, and the steps that follow the
# draws of each kind of chance event.
_BALANCE_RETURNS = {ST_TURN_START, ST_CHOOSE, ST_ACTION, ST_AFTER, ST_END}
_AFTER_HAND_DRAWS = {ST_CHOOSE, ST_ACTION, ST_BAL_SHRINE}
_CHANCE_STEPS = {CH_DEAL: ST_DEAL, CH_HAND: ST_DRAWING, CH_FLIP: ST_DRAWING,
                 CH_HIDDEN: ST_BAL_SHRINE, CH_TOKEN: ST_BAL_FIELD, CH_STEAL: ST_WAIT}
_PENDING_PHASES = {PH_RES_USE, PH_RESPONSE, PH_FIZZLE_PICK, PH_COUNTER, PH_COUNTER_PICK}
_PICK_PHASES = {PH_FIZZLE_PICK, PH_COUNTER_PICK, PH_DISCARD, PH_BAL_DISCARD}


def _check_flow(ShrineState st, bint step_given):
    """Check that the phase, step, declared action, chance event and Balance of a
    position built from a dict fit together as play leaves them, so that playing on
    from it never reads a slot that is not there."""
    if _check_result(st):
        return
    _check_step(st, step_given)
    _check_deal(st)
    _check_draws(st)
    _check_balance(st)
    _check_decision(st)
    _check_shrine_tops(st)
    _check_start(st)
    _check_pending(st)


def _check_result(ShrineState st):
    """R27, R28: a winner only once a Shrine is empty, a draw only at max_turns;
    return whether the game is over."""
    cdef ShrineData* s = &st.s
    cdef int i
    if s.winner != NONE:
        if s.winner == DRAW:
            if s.turn != s.max_turns:
                raise StateFormatError(f"winner: a draw comes only at max_turns "
                                       f"({s.max_turns}), not at turn {s.turn}")
        elif s.shrine_len[1 - s.winner] or not s.shrine_len[s.winner]:
            raise StateFormatError(f"winner: player {s.winner} wins only once the other "
                                   "Shrine is empty")
        s.phase = PH_OVER
        return True
    if s.turn >= s.max_turns:
        raise StateFormatError(f"turn {s.turn} is at max_turns, but the game has no winner")
    if s.phase == PH_OVER:
        raise StateFormatError("phase 'over' needs a winner")
    for i in range(2):
        if s.shrine_len[i] == 0 and s.step != ST_DEAL:
            raise StateFormatError(f"players[{i}].shrine is empty but the game is not over")
    return False


def _check_step(ShrineState st, bint step_given):
    """A chance event's step follows from what it draws; a decision waits."""
    cdef ShrineData* s = &st.s
    if s.phase == PH_CHANCE:
        if s.chance == CH_NONE:
            raise StateFormatError("phase 'chance' needs chance.draw: what is drawn")
        expected = _CHANCE_STEPS[s.chance]
        if step_given and s.step != expected:
            raise StateFormatError(f"a {CHANCES[s.chance]} draw comes in step "
                                   f"{STEPS[expected]!r}, not {STEPS[s.step]!r}")
        s.step = expected
    elif s.chance != CH_NONE:
        raise StateFormatError(f"chance is only for phase 'chance', not {PHASES[s.phase]!r}")
    elif s.step != ST_WAIT:
        raise StateFormatError(f"a decision waits in step 'wait', not {STEPS[s.step]!r}")


def _check_deal(ShrineState st):
    """R4: the deal in progress has dealt Shrines first, then hands, and nothing else."""
    cdef ShrineData* s = &st.s
    cdef int n
    if s.chance == CH_DEAL:
        if s.deal_n >= DEAL_CARDS:
            raise StateFormatError(f"dealt must be below {DEAL_CARDS} during the deal")
        n = s.deal_n
        sizes = [min(n, 5), min(max(n - 5, 0), 5), min(max(n - 10, 0), 5), max(n - 15, 0)]
        if [s.shrine_len[0], s.shrine_len[1], s.hand_len[0], s.hand_len[1]] != sizes \
                or s.grave_len or any(s.field[i // 4][i % 4] != NONE for i in range(8)):
            raise StateFormatError(f"after {n} cards dealt, the Shrines hold {sizes[0]} and "
                                   f"{sizes[1]}, the hands {sizes[2]} and {sizes[3]}, and "
                                   "nothing else is out")
    elif s.deal_n != DEAL_CARDS:
        raise StateFormatError("dealt is only for a deal in progress")


def _check_draws(ShrineState st):
    """Who receives a draw, how many are left and what follows them."""
    cdef ShrineData* s = &st.s
    if s.chance in (CH_HAND, CH_FLIP, CH_HIDDEN, CH_TOKEN) and s.draw_to == NONE:
        raise StateFormatError(f"a {CHANCES[s.chance]} draw needs chance.to: who receives it")
    if s.chance in (CH_HAND, CH_FLIP):
        if s.draws_left < 1:
            raise StateFormatError("chance.left: at least one card is still to draw")
        if s.draws_left > 1 and s.after_draws != ST_BAL_SHRINE:
            raise StateFormatError("chance.left: only a Balance draws several cards in a row")
        allowed = _AFTER_HAND_DRAWS if s.chance == CH_HAND else {ST_AFTER}
        if s.after_draws not in allowed:
            raise StateFormatError(f"chance.then: after these draws comes one of "
                                   f"{', '.join(STEPS[x] for x in sorted(allowed))}")
        if s.chance == CH_HAND and (s.after_draws == ST_BAL_SHRINE) != (s.bal_player != NONE):
            raise StateFormatError("chance.then: 'balance shrine' goes with a Balance")
    if s.chance == CH_FLIP and s.draw_to != s.active:
        raise StateFormatError("chance.to: a heal turns up a card on the active Shrine")


def _check_balance(ShrineState st):
    """S15: a Balance being resolved waits on one of its own events."""
    cdef ShrineData* s = &st.s
    cdef int k
    if s.bal_player != NONE:
        if not s.joker_out:
            raise StateFormatError("balance: a Balance is played with joker_out true")
        if s.bal_return not in _BALANCE_RETURNS:
            raise StateFormatError(f"balance.then: a Balance resumes one of "
                                   f"{', '.join(STEPS[x] for x in sorted(_BALANCE_RETURNS))}")
        if not (s.phase == PH_BAL_DISCARD or s.chance in (CH_HIDDEN, CH_TOKEN)
                or s.after_draws == ST_BAL_SHRINE):
            raise StateFormatError("balance: a Balance waits on a token search, a face-down "
                                   "Shrine card, a hand draw or a discard")
        if s.draw_to != NONE and s.draw_to != 1 - s.bal_player:
            raise StateFormatError("chance.to: the Balance's opponent receives its cards")
    elif s.phase == PH_BAL_DISCARD or s.chance in (CH_HIDDEN, CH_TOKEN):
        raise StateFormatError(f"phase {PHASES[s.phase]!r} needs balance: who played the "
                               "Balance card")
    if s.chance == CH_TOKEN:
        k = s.bal_index
        if k > 3 or s.field[s.bal_player][k] == NONE or s.field[1 - s.bal_player][k] != NONE \
                or k == F_DAGGER and not triad(s, 1 - s.bal_player):
            raise StateFormatError("balance.token: the token kind searched for is one the "
                                   "Balance's player has and the opponent lacks")
        if any(rank_of(s.grave[i]) == token_rank(k) for i in range(s.grave_len)):
            raise StateFormatError("balance.token: the Library is searched only when the "
                                   "Graveyard holds no card of that token kind")


def _check_decision(ShrineState st):
    """Picks only while discarding, as many as the discard asks."""
    cdef ShrineData* s = &st.s
    cdef int n
    phase = PHASES[s.phase]
    if s.phase in _PICK_PHASES:
        n = s.hand_len[decider(s)]
        # A turn's end discards down to the limit, a Balance down to its player's hand,
        # a Fizzle or Counter-Fizzle under alt_fizzle three cards.
        if s.phase == PH_DISCARD:
            most = least = n - HAND_LIMIT
        elif s.phase == PH_BAL_DISCARD:
            most = least = n - s.hand_len[s.bal_player]
        else:
            most, least = min(3, n), 1
        if not least <= s.picks_left <= most or s.picks_left < 1:
            raise StateFormatError(f"picks_left {s.picks_left} does not fit phase {phase!r} "
                                   f"with {n} cards in hand")
    elif s.picks_left:
        raise StateFormatError(f"picks_left is only for discards, not phase {phase!r}")


def _check_shrine_tops(ShrineState st):
    """R5: the top card is face up, save while dealt or added by a Balance (S15); S16: a
    Joker never stays turned up."""
    cdef ShrineData* s = &st.s
    cdef int i, k
    for i in range(2):
        for k in range(s.shrine_len[i]):
            if s.step != ST_DEAL and (s.shrine[i][k] == JOKER | SEEN
                                      or s.shrine[i][k] == JOKER and k == s.shrine_len[i] - 1):
                raise StateFormatError(f"players[{i}].shrine: a Joker turned up is played at "
                                       "once, so none is ever face up or on top")
        if s.shrine_len[i] and not s.shrine[i][s.shrine_len[i] - 1] & SEEN \
                and not (s.step == ST_DEAL or s.step == ST_BAL_SHRINE and i != s.bal_player):
            raise StateFormatError(f"players[{i}].shrine_seen: the top card is always face up")


def _check_start(ShrineState st):
    """R8: an action to take, and at the start a Graveyard card to take."""
    cdef ShrineData* s = &st.s
    if s.phase in (PH_START, PH_ACTION) and s.actions_left == 0:
        raise StateFormatError(f"phase {PHASES[s.phase]!r} needs an action left")
    if s.phase == PH_START and s.grave_len == 0:
        raise StateFormatError("phase 'start' offers the Graveyard's top card: the Graveyard "
                               "is empty")


def _check_pending(ShrineState st):
    """R24: an action is pending exactly while it is answered or its Resurrection's use
    chosen, with the cards it pays with, and it could have been declared."""
    cdef ShrineData* s = &st.s
    cdef int a = s.pending
    phase = PHASES[s.phase]
    if s.phase not in _PENDING_PHASES:
        if a != NONE:
            raise StateFormatError(f"pending: no action is declared in phase {phase!r}")
        return
    if a == NONE:
        raise StateFormatError(f"phase {phase!r} needs pending: the declared action")
    use = family_of(a).flags & FL_RES_USE != 0
    if s.phase == PH_RES_USE:
        if FAMILY_OF[a] != FAMILY_OF[A_RESURRECT]:
            raise StateFormatError("pending.action: phase 'resurrection' follows a Resurrection")
        if s.res_card == NONE or s.res_index != s.grave_len - 1:
            raise StateFormatError("pending.resurrected: the Graveyard's top card, at "
                                   f"resurrected_at {s.grave_len - 1}")
    elif not family_of(a).flags & FL_ANSWERED:
        raise StateFormatError(f"pending.action {a} is not an action that can be answered")
    elif use != (s.res_card != NONE):
        raise StateFormatError("pending.resurrected goes with the use of a Resurrection, "
                               "and only with it")
    _check_pending_cards(st, use)
    if not declared_legally(s):
        raise StateFormatError(f"pending.action {_label(st, a)!r} could not have been "
                               "declared in this position")
    if s.phase == PH_RESPONSE and not response_possible(s):
        raise StateFormatError("phase 'response': the opponent could not answer, so no "
                               "response is asked")
    if s.phase == PH_COUNTER and s.hand_len[s.active] < 3:
        raise StateFormatError("phase 'counter': a Counter-Fizzle needs 3 cards in hand")


def _check_pending_cards(ShrineState st, bint use):
    """The pending cards are those the action pays with; a Resurrection's use follows
    its three cards (R23)."""
    cdef ShrineData* s = &st.s
    cdef uint8_t cards[PEND_SLOTS]
    cdef int i, n = action_cards(s, s.pending, cards)
    expected = [CARD_NAMES[cards[i]] for i in range(n)]
    got = [CARD_NAMES[s.pend[i]] for i in range(s.pend_len)]
    if use:
        run = sorted(rank_of(s.pend[i]) for i in range(min(3, s.pend_len)))
        if len(run) < 3 or not any(sorted(wrap_rank(r + i) for i in range(3)) == run
                                   for r in range(1, 14)):
            raise StateFormatError("pending.cards: a Resurrection's use follows its three "
                                   f"cards of consecutive values, not {got[:3]}")
        got = got[3:]
    if got != expected:
        raise StateFormatError(f"pending.cards for {_label(st, s.pending)!r} are {expected}, "
                               f"not {got}")


cdef bint declared_legally(ShrineData* s) noexcept nogil:
    """Whether the pending action was legal when it was declared: with the cards it
    pays with back in hand (a Resurrection's use keeps its three cards paid), it is
    among the actions then offered.  Token powers count as unused, since which were
    used before it no position records; and a Jack steal needs only the Jack, since a
    Fizzle may have emptied the hand it steals from since (S13)."""
    cdef ShrineData before
    cdef int offered[NUM_ACTIONS]
    cdef int a = s.pending, p = s.active, i, n
    cdef bint use = family_of(a).flags & FL_RES_USE != 0
    cdef int first = 3 if use else 0
    if a == A_JACK:
        return s.field[p][F_JACK] >= 0
    memcpy(&before, s, sizeof(ShrineData))
    before.powers_used = 0
    for i in range(first, s.pend_len):
        before.hand[p][s.pend[i]] += 1
        before.hand_len[p] += 1
    before.pend_len = first
    n = res_uses(&before, offered) if use else main_actions(&before, offered)
    for i in range(n):
        if offered[i] == a:
            return True
    return False


cdef inline int deck_count(ShrineData* s, int kind) noexcept nogil:
    """How many cards of ``kind`` the game's deck holds."""
    if kind == JOKER:
        return 1 if s.balance else 0
    return 2


def _reset(ShrineState st, game):
    """An empty table under ``game``'s rules: no card anywhere, nothing pending."""
    cdef int p, t
    st.game = game
    memset(&st.s, 0, sizeof(ShrineData))
    params = game.params
    st.s.balance = 2 if params["balance_returns"] else 1 if params["balance"] else 0
    st.s.alt_heal = params["alt_heal"]
    st.s.alt_fizzle = params["alt_fizzle"]
    st.s.max_turns = params["max_turns"]
    for p in range(2):
        for t in range(4):
            st.s.field[p][t] = NONE
    st.s.winner = NONE
    st.s.pending = NONE
    st.s.res_card = NONE
    st.s.bal_player = NONE
    st.s.draw_to = NONE


class ShrineGame(Game):
    """Shrine with its optional rules.

    >>> game = ShrineGame(alt_heal=True)
    >>> str(game)
    'shrine(alt_heal=true)'
    """

    name = "shrine"
    long_name = "Shrine"
    parameters = {"balance": False, "balance_returns": False, "alt_heal": False,
                  "alt_fizzle": False, "max_turns": 400}
    limits = {"max_turns": (1, 30000, "a cap on the game's length")}
    num_players = 2
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = NUM_KINDS + 1
    cards = CARDS
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    layout = {"status": ("turn", "active", "phase", "step", "actions_left", "winner"),
              "player": ("hand", "field", "shrine"),
              "table": ("library", "graveyard", "powers_used"),
              "red": "^(10|[2-9AJQK])R$"}
    render = staticmethod(render)
    status = staticmethod(status)

    def _check(self):
        # balance_returns is the Balance card with a return: it turns the card on, so
        # that both ways of asking for it are one game.
        if self.params["balance_returns"]:
            self.params["balance"] = True

    @property
    def max_game_length(self):
        # A turn takes at most about 40 steps (draws, two actions with their responses,
        # picks, discards, a Balance); the deal takes 20.
        return DEAL_CARDS + 40 * self.params["max_turns"]

    def new_initial_state(self):
        """A game about to be dealt: the first events are chance deals."""
        cdef ShrineState st = ShrineState.__new__(ShrineState)
        cdef int k
        _reset(st, self)
        for k in range(NUM_KINDS):
            st.s.library[k] = deck_count(&st.s, k)
            st.s.pile[0][k] = st.s.library[k]
            st.s.library_len += st.s.library[k]
        st.s.step = ST_DEAL
        advance(&st.s)
        return st

    def _from_dict(self, desc):
        return _from_dict(self, desc)
