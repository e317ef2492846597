# cython: language_level=3, cdivision=True
"""Card Duel, under the rulings in docs/rules/card-duel.md: the rules, chance,
determinization, the game's knowledge and the observation tensor, all in C.  Names,
views and reading a position are the game's, in ``game.pyx``.

Suits never matter and a Jack, Queen or King is worth a 10, so a card is one of ten
value classes: class ``c`` is worth ``c + 2`` points (2 .. 9, 10, and 11 for the Ace).
Every pile is counts by class.  A deck keeps no order: its top card is a chance event
drawn in proportion to the counts, which is exactly a shuffled deck nobody has seen.

The game runs as a small machine: the deal (chance), hand building (player 0, then
player 1, one class at a time), then exchanges of attack, defence and, when the attack
hits, damage; each play from the top of a deck waits on a draw.
"""
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from core.kit.piles cimport pile_move_all, pile_outcomes, win_loss
from core.state cimport CHANCE, TERMINAL, GameState, Rng, rng_uniform
from core.kit import TensorLayout

# Each thread keeps the last tables of ways it counted (see sample_hand), and what
# they were counted for: a pool, a row count and a column count.  A search samples the
# same information set at every iteration, so it counts them once.
cdef extern from *:
    """
    #define DUEL_KEPT_WAYS (10 * 27 * 32)
    static __thread double duel_kept_ways[DUEL_KEPT_WAYS];
    static __thread int duel_kept_for[12] = {-1};
    static inline double* duel_ways(void) { return duel_kept_ways; }
    static inline int* duel_ways_for(void) { return duel_kept_for; }
    """
    enum: DUEL_KEPT_WAYS
    double* duel_ways() noexcept nogil
    int* duel_ways_for() noexcept nogil

# The key above holds a pool's classes, then the row and column counts.
assert NUM_CLASSES + 2 == 12 and DUEL_KEPT_WAYS == NUM_CLASSES * (POOL + 1) * 32

DECK_COUNTS = [MAX_COPIES if c == TEN else 4 for c in range(NUM_CLASSES)]


# Binomial coefficients for choosing copies of a class: the weight of a card multiset
# when copies are told apart, as a uniform deal tells them.
cdef double BINOM[MAX_COPIES + 1][MAX_COPIES + 1]


def _build_binomials():
    from math import comb
    for n in range(MAX_COPIES + 1):
        for k in range(MAX_COPIES + 1):
            BINOM[n][k] = comb(n, k)


_build_binomials()


# --- piles (the questions the game asks too are in engine.pxd) ----------------------

cdef inline int highest(const uint8_t* pile) noexcept nogil:
    """The highest class in ``pile``, or -1 if it is empty."""
    cdef int c
    for c in range(NUM_CLASSES - 1, -1, -1):
        if pile[c]:
            return c
    return NONE

cdef inline int lowest_at_least(const uint8_t* pile, int c) noexcept nogil:
    """The lowest class in ``pile`` that is ``c`` or above, or -1."""
    while c < NUM_CLASSES:
        if pile[c]:
            return c
        c += 1
    return NONE


# --- the rules, as functions over the struct ----------------------------------------

cdef inline bint can_use_deck(DuelData* s, int p) noexcept nogil:
    return cards(s.deck[p]) + cards(s.discard[p]) > 0

cdef inline const uint8_t* next_deck(DuelData* s, int p) noexcept nogil:
    """The cards the top of ``p``'s deck comes from: the deck, or once it is empty the
    discard pile that would be shuffled into a new one."""
    if cards(s.deck[p]):
        return &s.deck[p][0]
    return &s.discard[p][0]

cdef inline void finish(DuelData* s, int winner) noexcept nogil:
    s.winner = winner
    s.phase = PH_OVER

cdef void await_play(DuelData* s, int phase) noexcept nogil:
    """A player must now play a card; one with none at all loses (D7)."""
    s.phase = phase
    if not can_play(s, actor(s)):
        finish(s, 1 - actor(s))

cdef void end_exchange(DuelData* s, int offense) noexcept nogil:
    """Both exchange cards go to their owners' discard piles; ``offense`` attacks next."""
    s.discard[s.offense][s.attack] += 1
    s.discard[1 - s.offense][s.defense] += 1
    s.attack = NONE
    s.defense = NONE
    s.offense = offense
    s.exchange += 1
    if s.exchange >= s.max_exchanges:
        finish(s, DRAW)
    else:
        await_play(s, PH_ATTACK)

cdef void place(DuelData* s, int role, int c) noexcept nogil:
    """Card class ``c`` lands on the table as the attack, the defence or the damage."""
    cdef int defender = 1 - s.offense
    if role == PH_ATTACK:
        s.attack = c
        await_play(s, PH_DEFEND)
    elif role == PH_DEFEND:
        s.defense = c
        # Classes are ordered by value, so they compare as the values do.
        if c >= s.attack:
            end_exchange(s, defender)
        else:
            await_play(s, PH_DAMAGE)
    else:
        s.damage[defender][c] += 1
        if points(s.damage[defender]) >= s.life:
            finish(s, s.offense)
        else:
            end_exchange(s, s.offense)

cdef void end_building(DuelData* s) noexcept nogil:
    cdef int p
    for p in range(2):
        # A player who put the whole pool in hand has no deck: nothing is left to guess.
        s.hand_known[p] = cards(s.deck[p]) == 0
    s.build_class = NONE
    s.offense = 0
    await_play(s, PH_ATTACK)

cdef int next_class(DuelData* s, int p, int above) noexcept nogil:
    """The highest class below ``above`` that ``p`` chooses a count of while building:
    one that p's pool holds and that is worth at most hand_points, or -1.  Both facts
    are public, so the number of choices tells nothing of the hand (C1, C2)."""
    cdef int c
    for c in range(above - 1, -1, -1):
        if s.deck[p][c] and value_of(c) <= s.hand_points:
            return c
    return NONE

cdef void next_choice(DuelData* s) noexcept nogil:
    """On to the builder's next class, else the next builder, else the first attack."""
    cdef int c = next_class(s, s.builder, s.build_class)
    while c == NONE:
        if s.builder == 1:
            end_building(s)
            return
        s.builder = 1
        c = next_class(s, 1, NUM_CLASSES)
    s.build_class = c

cdef bint last_choice(DuelData* s) noexcept nogil:
    """Whether the choice being made ends hand building."""
    if next_class(s, s.builder, s.build_class) != NONE:
        return False
    return s.builder == 1 or next_class(s, 1, NUM_CLASSES) == NONE

cdef int most_kept(DuelData* s) noexcept nogil:
    """The most cards of the class being built that the pool holds and the hand has
    room for."""
    cdef int p = s.builder, c = s.build_class
    cdef int n = (s.hand_points - points(s.hand[p])) // value_of(c)
    return n if n < s.deck[p][c] else s.deck[p][c]

cdef int build_actions(DuelData* s, int* out) noexcept nogil:
    cdef int n, most = most_kept(s)
    for n in range(most + 1):
        out[n] = A_KEEP + n
    return most + 1

cdef int play_actions(DuelData* s, int* out) noexcept nogil:
    cdef int p = actor(s), n = 0, c
    for c in range(NUM_CLASSES):
        if s.hand[p][c]:
            out[n] = A_HAND + c
            n += 1
    if can_use_deck(s, p):
        out[n] = A_DECK
        n += 1
    return n

cdef void play(DuelData* s, int a) noexcept nogil:
    cdef int p = actor(s), c
    if a == A_DECK:
        if cards(s.deck[p]) == 0:
            pile_move_all(s.discard[p], s.deck[p], NUM_CLASSES)
        s.draw_for = s.phase
        s.phase = PH_DRAW
        return
    s.hand[p][a] -= 1
    s.hand_spent[p] += value_of(a)
    place(s, s.phase, a)

cdef void draw(DuelData* s, int c) noexcept nogil:
    cdef int p = actor(s), role = s.draw_for
    s.deck[p][c] -= 1
    if cards(s.deck[p]) == 0:
        s.hand_known[p] = 1
    s.draw_for = NONE
    place(s, role, c)

cdef void deal(DuelData* s, int c) noexcept nogil:
    cdef int k
    s.stock[c] -= 1
    s.deck[0][c] += 1
    if cards(s.deck[0]) == POOL:
        for k in range(NUM_CLASSES):
            s.deck[1][k] = s.stock[k]
            s.stock[k] = 0
        s.phase = PH_BUILD
        s.builder = 0
        s.build_class = NUM_CLASSES
        next_choice(s)


# --- determinization -----------------------------------------------------------------

cdef void count_ways(const uint8_t* pool, int kmax, int smax, double* ways) noexcept nogil:
    """For each class ``c``, the table at ``ways + c * (kmax + 1) * (smax + 1)``: in its
    row ``j`` and column ``t``, the number of ways to pick ``j`` physical cards of the
    classes below ``c`` in ``pool`` worth ``t`` points or less.  Each table is the one
    before it with one class more, so all of them cost what the last one alone did."""
    cdef int j, t, n, c, m, v, cols = smax + 1, size = (kmax + 1) * (smax + 1)
    cdef double acc
    cdef double* src
    cdef double* dst
    for j in range(kmax + 1):
        for t in range(cols):
            ways[j * cols + t] = 1.0 if j == 0 else 0.0
    for c in range(NUM_CLASSES - 1):
        src = ways + c * size
        dst = src + size
        memcpy(dst, src, size * sizeof(double))
        m = pool[c]
        if m == 0:
            continue
        v = value_of(c)
        for j in range(1, kmax + 1):
            for t in range(cols):
                acc = src[j * cols + t]
                n = 1
                while n <= m and n <= j and n * v <= t:
                    acc += BINOM[m][n] * src[(j - n) * cols + t - n * v]
                    n += 1
                dst[j * cols + t] = acc

cdef inline bint same_pool(const int* kept_for, const uint8_t* pool) noexcept nogil:
    cdef int c
    for c in range(NUM_CLASSES):
        if kept_for[c] != pool[c]:
            return False
    return True

cdef bint sample_hand(const uint8_t* pool, int size, int budget, uint8_t* hand,
                      Rng* rng) noexcept nogil:
    """Fill ``hand`` with cards of ``pool`` worth at most ``budget`` points: ``size``
    cards, or any number if ``size`` is negative.  Every such set of physical cards
    (the copies of a class told apart) is equally likely.  Chosen class by class from
    the Ace down, each count weighed by the ways the classes below can complete it.
    Returns False, leaving ``hand`` unspecified, if no such set exists or memory ran
    out."""
    cdef double* ways = duel_ways()
    cdef int* kept_for = duel_ways_for()
    cdef bint kept = True
    cdef double* below
    cdef double weight[MAX_COPIES + 1]
    cdef int c, n, j, top, v, k = size, s = budget
    cdef int kmax = size if size >= 0 else cards(pool)
    cdef int cols, table
    cdef double total, u
    if s < 0 or kmax > POOL:
        return False
    if s > MAX_POINTS:
        s = MAX_POINTS
    cols = s + 1
    table = (kmax + 1) * cols
    if NUM_CLASSES * table > DUEL_KEPT_WAYS:
        # A budget above 31 points (hand_points is 30 by default): counted afresh.
        kept = False
        ways = <double*>malloc(NUM_CLASSES * table * sizeof(double))
        if ways == NULL:
            return False
        count_ways(pool, kmax, s, ways)
    elif kept_for[NUM_CLASSES] != kmax or kept_for[NUM_CLASSES + 1] != s \
            or not same_pool(kept_for, pool):
        count_ways(pool, kmax, s, ways)
        for c in range(NUM_CLASSES):
            kept_for[c] = pool[c]
        kept_for[NUM_CLASSES], kept_for[NUM_CLASSES + 1] = kmax, s
    for c in range(NUM_CLASSES - 1, -1, -1):
        v = value_of(c)
        below = ways + c * table
        top = pool[c]
        if size >= 0 and top > k:
            top = k
        total = 0.0
        for n in range(top + 1):
            weight[n] = 0.0
            if n * v <= s:
                if size >= 0:
                    weight[n] = below[(k - n) * cols + s - n * v]
                else:
                    for j in range(kmax + 1):
                        weight[n] += below[j * cols + s - n * v]
                weight[n] *= BINOM[pool[c]][n]
            total += weight[n]
        if total <= 0.0:
            if not kept:
                free(ways)
            return False
        u = rng_uniform(rng) * total
        n = 0
        while n < top and (u >= weight[n] or weight[n] == 0.0):
            u -= weight[n]
            n += 1
        # Rounding may carry u past the last weight: step back to a count that can be.
        while weight[n] == 0.0:
            n -= 1
        hand[c] = n
        s -= n * v
        if size >= 0:
            k -= n
    if not kept:
        free(ways)
    return True

cdef void resample_hand(DuelData* s, int q, int size, int budget, int first,
                        Rng* rng) noexcept nogil:
    """Split ``q``'s hand and deck afresh; the hand takes ``size`` cards (any number if
    negative) of the classes from ``first`` up, worth at most ``budget``."""
    cdef uint8_t unseen[NUM_CLASSES]
    cdef uint8_t pool[NUM_CLASSES]
    cdef uint8_t hand[NUM_CLASSES]
    cdef int c
    for c in range(NUM_CLASSES):
        unseen[c] = s.hand[q][c] + s.deck[q][c]
        pool[c] = unseen[c] if c >= first else 0
    if not sample_hand(pool, size, budget, hand, rng):
        return
    for c in range(NUM_CLASSES):
        s.hand[q][c] = hand[c]
        s.deck[q][c] = unseen[c] - hand[c]


# --- game knowledge ------------------------------------------------------------------

cdef inline double mean_value(const uint8_t* pile) noexcept nogil:
    cdef int n = cards(pile)
    return points(pile) / <double>n if n else 0.0

cdef double stop_chance(const uint8_t* pile, int attack) noexcept nogil:
    """The chance that the top card of ``pile`` stops an attack of class ``attack``."""
    cdef int c, n = cards(pile), hits = 0
    for c in range(attack, NUM_CLASSES):
        hits += pile[c]
    return hits / <double>n if n else 0.0

cdef double strength(DuelData* s, int p) noexcept nogil:
    """The mean value of the cards ``p`` still has to play."""
    cdef int c, n = 0, total = 0, k
    for c in range(NUM_CLASSES):
        k = s.hand[p][c] + s.deck[p][c] + s.discard[p][c]
        n += k
        total += k * value_of(c)
    return total / <double>n if n else 0.0

cdef double damage_card(DuelData* s, int att, bint from_hand) noexcept nogil:
    """The damage ``att`` can expect to place: the top of the deck at its mean, or the
    highest hand card where ``from_hand`` and it is higher."""
    cdef double hit = mean_value(next_deck(s, att)) if can_use_deck(s, att) else 0.0
    cdef int c = highest(s.hand[att])
    if from_hand and c != NONE and value_of(c) > hit:
        return value_of(c)
    return hit

cdef double damage_due(DuelData* s) noexcept nogil:
    """The damage the defender can expect from the exchange under way (D5): the damage
    card once the attack has hit, or before the defence is played, the chance that it
    fails times that card.  A hand card that stops the attack stops it for sure."""
    cdef int att = s.offense, d = 1 - att
    cdef double miss = 1.0
    if s.phase == PH_DAMAGE:
        return damage_card(s, att, True)
    if s.phase == PH_DRAW and s.draw_for == PH_DAMAGE:
        return damage_card(s, att, False)
    if not (s.phase == PH_DEFEND or s.phase == PH_DRAW and s.draw_for == PH_DEFEND):
        return 0.0
    if s.phase == PH_DEFEND and lowest_at_least(s.hand[d], s.attack) != NONE:
        return 0.0
    if can_use_deck(s, d):
        miss = 1.0 - stop_chance(next_deck(s, d), s.attack)
    return miss * damage_card(s, att, True)

cdef int heuristic_build(DuelData* s) noexcept nogil:
    """As many as fit: from the Ace down, that keeps the highest cards that fit.  Aces
    and tens hit hard and stop most attacks."""
    return A_KEEP + most_kept(s)

cdef int heuristic_play(DuelData* s) noexcept nogil:
    cdef int p = actor(s), c
    cdef bint deck = can_use_deck(s, p)
    cdef const uint8_t* hand = s.hand[p]
    cdef double mean
    if s.phase == PH_ATTACK:
        # Hand cards are worth more kept for defence and damage; the deck attacks.
        return A_DECK if deck else A_HAND + highest(hand)
    if s.phase == PH_DEFEND:
        c = lowest_at_least(hand, s.attack)
        if c != NONE:
            if deck and stop_chance(next_deck(s, p), s.attack) >= 0.75:
                return A_DECK
            return A_HAND + c
        # Nothing in hand stops it: the deck may, and costs no hand card.
        return A_DECK if deck else A_HAND + lowest(hand)
    c = highest(hand)
    if c == NONE:
        return A_DECK
    mean = mean_value(next_deck(s, p)) if deck else 0.0
    if value_of(c) >= mean or points(s.damage[1 - p]) + value_of(c) >= s.life:
        return A_HAND + c
    return A_DECK


cdef class CardDuelState(GameState):
    """A Card Duel position.  Build one with ``CardDuelGame.new_initial_state`` or
    ``CardDuelGame.state_from_dict``."""

    # --- the contract ------------------------------------------------------------

    cdef int c_current_player(self) noexcept nogil:
        cdef int ph = self.s.phase
        if ph == PH_OVER:
            return TERMINAL
        if ph == PH_DEAL or ph == PH_DRAW:
            return CHANCE
        if ph == PH_BUILD:
            return self.s.builder
        return actor(&self.s)

    cdef bint c_is_terminal(self) noexcept nogil:
        return self.s.phase == PH_OVER

    cdef double c_returns(self, int player) noexcept nogil:
        return win_loss(self.s.winner, player, 2)

    cdef void copy_into(self, GameState dst) noexcept nogil:
        memcpy(&(<CardDuelState>dst).s, &self.s, sizeof(DuelData))

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        if self.s.phase == PH_DEAL:
            return pile_outcomes(self.s.stock, 0, NUM_CLASSES, actions, probs)
        if self.s.phase == PH_DRAW:
            return pile_outcomes(self.s.deck[actor(&self.s)], 0, NUM_CLASSES, actions, probs)
        return 0

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef double probs[NUM_CLASSES]
        cdef int ph = self.s.phase
        if ph == PH_DEAL or ph == PH_DRAW:
            return self.c_chance_outcomes(out, probs)
        if ph == PH_OVER:
            return 0
        if ph == PH_BUILD:
            return build_actions(&self.s, out)
        return play_actions(&self.s, out)

    cdef void c_apply_action(self, int a) noexcept nogil:
        cdef DuelData* s = &self.s
        cdef int p
        if s.phase == PH_DEAL:
            deal(s, a)
        elif s.phase == PH_DRAW:
            draw(s, a)
        elif s.phase == PH_BUILD:
            p = s.builder
            s.deck[p][s.build_class] -= a - A_KEEP
            s.hand[p][s.build_class] += a - A_KEEP
            next_choice(s)
        else:
            play(s, a)

    # --- knowledge ---------------------------------------------------------------

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # Only the split of the opponent's unseen cards between hand and deck is hidden
        # (D9): the deal is known to both (D2) and every card played is face up.  While
        # hands are being built, a hand's size is hidden too (C1), and a hand being
        # built holds only the classes chosen so far (C2); afterwards the hand keeps its
        # size, and with the cards played from it stays within hand_points (C6).  A deck
        # keeps no order, so there is no order to shuffle.
        cdef DuelData* s = &self.s
        cdef int q = 1 - observer
        if s.phase == PH_DEAL:
            return
        if s.phase == PH_BUILD:
            # Player 1 has not begun while player 0 builds: an empty hand, known.
            if q < s.builder:
                resample_hand(s, q, -1, s.hand_points, 0, rng)
            elif q == s.builder:
                resample_hand(s, q, -1, s.hand_points, s.build_class + 1, rng)
            return
        if not s.hand_known[q]:
            resample_hand(s, q, cards(s.hand[q]), s.hand_points - s.hand_spent[q], 0, rng)

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        # How many cards a builder keeps is secret (C1), and every builder makes as
        # many choices whatever the hand holds (C2).  The choice that ends the building
        # shows the other player the size of the builder's hand (D3), and only that.
        # Every card played or drawn is face up.
        cdef DuelData* s = &self.s
        if s.phase == PH_BUILD and observer != s.builder:
            if last_choice(s):
                return -2 - cards(s.hand[s.builder]) - (action - A_KEEP)
            return -1
        return action

    cdef double c_evaluate(self, int player) noexcept nogil:
        # Mostly the margin of life left, with the damage the exchange under way is
        # expected to deal counted in; then the mean value of the cards each player has
        # left to play, and the points each holds in hand.  A hand card is played when
        # its owner chooses, to stop an attack or to deal damage, where the top of the
        # deck is a draw: without that term every hand would look alike while hands are
        # built, and a search would keep none.
        cdef DuelData* s = &self.s
        cdef int me = player, op = 1 - player, d = 1 - s.offense
        cdef double left[2]
        cdef double value
        cdef int p
        if s.phase == PH_DEAL:
            return 0.0
        for p in range(2):
            left[p] = s.life - points(s.damage[p])
        left[d] -= damage_due(s)
        if left[d] < 0.0:
            left[d] = 0.0
        value = 0.8 * (left[me] - left[op]) / s.life \
            + 0.2 * (strength(s, me) - strength(s, op)) / 9.0
        if s.hand_points > 0:
            value += 0.3 * (points(s.hand[me]) - points(s.hand[op])) / s.hand_points
        if value > 1.0:
            return 1.0
        if value < -1.0:
            return -1.0
        return value

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        # Each rule below names one move, so there are no ties for ``rng`` to break.
        cdef int ph = self.s.phase
        if ph == PH_BUILD:
            return heuristic_build(&self.s)
        if ph == PH_ATTACK or ph == PH_DEFEND or ph == PH_DAMAGE:
            return heuristic_play(&self.s)
        return -1

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        fill_tensor(self, player, out)


# --- the observation tensor ----------------------------------------------------------

# Counts are divided by how many cards of the class the deck holds.
LAYOUT = TensorLayout(
    ("phase", NUM_PHASES),
    ("flags", 5),               # to move, on offense, exchanges so far, building, sizes known
    ("drawing_for", 3),         # attack, defense, damage
    ("building", NUM_CLASSES),
    ("viewer", 5 * NUM_CLASSES + 5),
    ("opponent", 5 * NUM_CLASSES + 5),
    ("table", 2 * NUM_CLASSES),
    ("stock", NUM_CLASSES),
)


# Where each block begins, read from LAYOUT once, for the fill without the GIL; and
# DECK_COUNTS as C floats, each count's divisor.
cdef int T_SIZE = LAYOUT.size
cdef int T_PHASE = LAYOUT.offset("phase")
cdef int T_FLAGS = LAYOUT.offset("flags")
cdef int T_DRAWING_FOR = LAYOUT.offset("drawing_for")
cdef int T_BUILDING = LAYOUT.offset("building")
cdef int T_VIEWER = LAYOUT.offset("viewer")
cdef int T_OPPONENT = LAYOUT.offset("opponent")
cdef int T_TABLE = LAYOUT.offset("table")
cdef int T_STOCK = LAYOUT.offset("stock")
cdef float DECK_COUNT[NUM_CLASSES]
DECK_COUNT[:] = DECK_COUNTS


cdef void fill_tensor(CardDuelState st, int viewer, float* v) noexcept nogil:
    """What ``viewer`` knows, block by block as ``LAYOUT`` lays it out."""
    cdef DuelData* s = &st.s
    cdef int me = viewer, op = 1 - viewer, c
    cdef bint secret = size_secret(s, op)
    memset(v, 0, T_SIZE * sizeof(float))
    v[T_PHASE + s.phase] = 1
    v[T_FLAGS] = st.c_current_player() == viewer
    v[T_FLAGS + 1] = s.offense == viewer
    v[T_FLAGS + 2] = s.exchange / <float>s.max_exchanges
    v[T_FLAGS + 3] = s.phase == PH_BUILD and s.builder == viewer
    v[T_FLAGS + 4] = not secret
    if s.phase == PH_DRAW:
        v[T_DRAWING_FOR + s.draw_for - PH_ATTACK] = 1
    if s.phase == PH_BUILD:
        v[T_BUILDING + s.build_class] = 1
    fill_player(s, me, True, secret, v + T_VIEWER)
    fill_player(s, op, False, secret, v + T_OPPONENT)
    if s.attack != NONE:
        v[T_TABLE + s.attack] = 1
    if s.defense != NONE:
        v[T_TABLE + NUM_CLASSES + s.defense] = 1
    for c in range(NUM_CLASSES):
        v[T_STOCK + c] = s.stock[c] / DECK_COUNT[c]


cdef void fill_player(DuelData* s, int who, bint own, bint secret, float* v) noexcept nogil:
    """One player's block: hand, deck, hand and deck together, discard and damage by
    class, then hand and deck sizes, damage taken, hand points spent and whether the
    hand is known.  ``own``: the viewer's block; ``secret``: the viewer may not know
    the other player's hand size (C1)."""
    cdef int c, o = 5 * NUM_CLASSES
    cdef bint known = own or s.hand_known[who] or s.phase == PH_DEAL
    for c in range(NUM_CLASSES):
        if known:
            v[c] = s.hand[who][c] / DECK_COUNT[c]
            v[NUM_CLASSES + c] = s.deck[who][c] / DECK_COUNT[c]
        v[2 * NUM_CLASSES + c] = (s.hand[who][c] + s.deck[who][c]) / DECK_COUNT[c]
        v[3 * NUM_CLASSES + c] = s.discard[who][c] / DECK_COUNT[c]
        v[4 * NUM_CLASSES + c] = s.damage[who][c] / DECK_COUNT[c]
    if own or not secret:
        v[o] = cards(s.hand[who]) / <float>POOL
        v[o + 1] = cards(s.deck[who]) / <float>POOL
    v[o + 2] = points(s.damage[who]) / <float>s.life
    v[o + 3] = s.hand_spent[who] / <float>MAX_POINTS
    v[o + 4] = s.hand_known[who]
