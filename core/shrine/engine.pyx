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
its legal actions to its resolution, sits in one section that names the rulings it
follows.

Names (a family's label among them), views and reading a position are the game's, in
``game.pyx``; the constants, the struct and what both halves ask of it are in
``engine.pxd``.
"""

from libc.math cimport tanh
from libc.string cimport memcpy, memset

from core.kit.piles cimport pile_outcomes, pile_sample, pile_size, win_loss
from core.state cimport CHANCE, TERMINAL, GameState, Rng, rng_below
from core.kit import TensorLayout


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

cdef inline bint has_token(ShrineData* s, int p) noexcept nogil:
    # R30: the Dagger token is a Token too.
    return s.field[p][F_JACK] >= 0 or s.field[p][F_QUEEN] >= 0 \
        or s.field[p][F_KING] >= 0 or s.field[p][F_DAGGER] >= 0

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
# the A_* ids of engine.pxd, which replays, perft files and stored tournaments hold, or the
# module does not load.  Each family's functions sit together below, under the rulings
# they implement: ``*_legal`` appends its legal actions, ascending, to ``out`` from
# ``n`` on, and the decisions call them in id order (``main_actions`` and the like),
# directly rather than through the table, so that the compiler can inline them.

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


# --- Token block (R16, S7: every attack paid with hand cards; R30: the Dagger token --
# blocks too, under an id of its own after the others, as ids never change)

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


# --- the table ------------------------------------------------------------------------

cdef int _num_families = 0
_DECLARED = []            # the families that can be pending, by their tensor place


cdef int add_family(const char* name, int base, int size, int flags,
                    CardsFn cards, ActFn decide, ActFn resolve) except -1:
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
    _num_families += 1
    return 0


# The flags of the actions that are played.
cdef int PLAYED = FL_ANSWERED | FL_DECLARED
cdef int USE = FL_ANSWERED | FL_DECLARED | FL_RES_USE

# In id order: name, the id it has always had, size, flags; cards, what choosing an
# action does, what resolving it does.
add_family(b"pass", A_PASS, 1, 0,
           no_cards, pass_decide, no_resolve)
add_family(b"draw", A_DRAW, 1, 0,
           no_cards, draw_decide, no_resolve)
add_family(b"take", A_TAKE, 1, 0,
           no_cards, take_decide, no_resolve)
add_family(b"no response", A_NO_RESPONSE, 1, 0,
           no_cards, no_response_decide, no_resolve)
add_family(b"fizzle", A_FIZZLE, 1, 0,
           no_cards, fizzle_decide, no_resolve)
add_family(b"no counter", A_NO_COUNTER, 1, 0,
           no_cards, no_counter_decide, no_resolve)
add_family(b"counter-fizzle", A_COUNTER, 1, 0,
           no_cards, counter_decide, no_resolve)
add_family(b"jack steal", A_JACK, 1, PLAYED,
           no_cards, jack_decide, jack_resolve)
add_family(b"token block", A_BLOCK, 3, 0,
           no_cards, block_decide, no_resolve)
add_family(b"discard", A_DISCARD, JOKER, 0,
           no_cards, discard_decide, no_resolve)
add_family(b"dagger block", A_DAGGER_BLOCK, 26, 0,
           no_cards, dagger_block_decide, no_resolve)
add_family(b"token", A_TOKEN, 3 * 26, PLAYED,
           token_cards, declare_plain, token_resolve)
add_family(b"dagger", A_DAGGER, 5 * 26, PLAYED | FL_DAGGER_BLOCKED,
           dagger_cards, declare_plain, dagger_resolve)
add_family(b"dagger token", A_DAGGER_TOKEN, 26, PLAYED,
           dagger_token_cards, declare_plain, dagger_token_resolve)
add_family(b"triplet", A_TRIPLET, 26, PLAYED,
           triplet_cards, declare_plain, triplet_resolve)
add_family(b"quad", A_QUAD, 13, PLAYED,
           quad_cards, declare_plain, quad_resolve)
add_family(b"resurrection", A_RESURRECT, 13 * 8, FL_DECLARED,
           resurrect_cards, resurrect_decide, no_resolve)
add_family(b"resurrection onto the Shrine", A_RES_SHRINE, 1, USE,
           no_cards, declare_use_plain, res_shrine_resolve)
add_family(b"resurrection as a token", A_RES_TOKEN, 1, USE,
           no_cards, declare_use_plain, res_token_resolve)
add_family(b"resurrection as the Dagger token", A_RES_DAGGER_TOKEN, 1, USE,
           no_cards, declare_use_plain, res_dagger_token_resolve)
add_family(b"resurrection as a dagger", A_RES_DAGGER, 5, USE | FL_DAGGER_BLOCKED,
           no_cards, declare_use_plain, res_dagger_resolve)
add_family(b"heal", A_HEAL, 13 * 3, PLAYED,
           heal_cards, heal_decide, heal_resolve)
add_family(b"pair attack", A_PAIR_ATTACK, 13 * 3, PLAYED | FL_TOKEN_BLOCKED,
           pair_attack_cards, declare_plain, attack_resolve)
add_family(b"resurrection pair attack", A_RES_PAIR, JOKER, USE | FL_TOKEN_BLOCKED,
           res_pair_cards, declare_use_plain, res_attack_resolve)
add_family(b"attack", A_ATTACK, NUM_MULTISETS - 1, PLAYED | FL_TOKEN_BLOCKED,
           attack_cards, attack_decide, attack_resolve)
add_family(b"alt heal", A_ALT_HEAL, NUM_MULTISETS - 1, PLAYED,
           alt_heal_cards, alt_heal_decide, heal_resolve)
add_family(b"resurrection attack", A_RES_ATTACK, NUM_MULTISETS, USE | FL_TOKEN_BLOCKED,
           res_attack_cards, res_attack_decide, res_attack_resolve)
add_family(b"dagger token block", A_DAGGER_TOKEN_BLOCK, 1, 0,
           no_cards, block_decide, no_resolve)
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


# One side of the table: Shrine size, whether it has a Triad, its top card when face
# up; its face-up cards by kind, then its face-down count; its Field tokens by colour.
SIDE = 2 + NUM_KINDS + NUM_KINDS + 1 + 8
LAYOUT = TensorLayout(
    ("phase", NUM_PHASES),
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
