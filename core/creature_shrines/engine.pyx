# cython: language_level=3, cdivision=True
"""Creature Shrines, under the rulings C1-C10 and the engine's own rulings C11-... of
docs/rules/creature-shrines.md.

A card is its design: the card data (``cards.py``) is compiled at import into
``DESIGNS``, one C record per design, shared by every state.  A state holds designs and
what changed (damage, tapped, new).  The libraries and hands are counts by design, a
hand split by the library each card came from, so that ``determinize`` deals each
hidden card from the pile it truly left.  A choice of several decisions (a card, then
its site; a creature, then its distance or its target; a blocker, then the attacker it
blocks) is a frame on the kit's decision stack inside the struct.

Sites are numbered ``row * 3 + pathway``, rows from player 0's Melee row (0) to player
1's (4); positions and action names write a site as its row and pathway letter, ``0a``
to ``4c``.
"""
from libc.math cimport tanh
from libc.string cimport memcpy, memset

from core.kit.effects cimport Frame, stack_pop, stack_push, stack_top
from core.kit.piles cimport pile_outcomes, pile_sample, pile_size, win_loss
from core.state cimport CHANCE, TERMINAL, GameState, Rng, rng_below

from core.creature_shrines.cards import (CARDSET, COLOURS as COLOUR_NAMES, KEYWORDS,
                                         TYPES, slug)
from core.errors import CardDataError, ParameterError, StateFormatError
from core.kit import Cards, TensorLayout, read_bool, read_int, read_name, read_players
from core.state import Game

cdef enum:
    NONE = -1
    DRAW = 2                  # CSData.winner when max_turns ends level (C9)
    FACE = 100                # Unit.target: the opposing player's zone
    SITE_LIMIT = 4            # non-tool, non-token permanents on a site
    OPENING_HAND = 3          # cards drawn from each library before the first turn
    MAX_TRAVEL = 4            # the most sites one travel may cover

# Card types: the order of cards.TYPES
cdef enum:
    T_CREATURE = 0
    T_STRUCTURE = 1
    T_RELIC = 2
    T_AREA = 3
    T_SOURCE = 4
    T_SPELL = 5

# Keyword bits: the order of cards.KEYWORDS
cdef enum:
    K_FLYING = 1 << 5
    K_HASTE = 1 << 4
    K_IMMOVEABLE = 1 << 7
    K_LUNGE = 1 << 8
    K_REACH = 1 << 10
    K_STATIONARY = 1 << 13
    K_UNSTOPPABLE = 1 << 16

# Unit.flags
cdef enum:
    U_TAPPED = 1
    U_NEW = 2                 # came onto the region this turn
    U_TRAVELLED = 4           # has travelled in this Travel Act
    U_ATTACKING = 8
    U_FROZEN = 16

# Modes (C8): the order of MODES
cdef enum:
    M_STANDARD = 0
    M_RUSH = 1
    M_HILL = 2
    M_IMPERIAL = 3
    M_CONQUEST = 4

# Acts of a turn
cdef enum:
    ACT_FIRST = 0
    ACT_TRAVEL = 1
    ACT_COMBAT = 2
    ACT_FINAL = 3

# What the game waits on when no frame is on the stack: CSData.step
cdef enum:
    ST_DRAW = 0               # chance: the top card of a library
    ST_MULLIGAN = 1           # mull_player puts a card at the bottom, or keeps
    ST_DRAW_CHOICE = 2        # draw_player picks the library to draw from
    ST_ACT = 3                # the active player acts, or passes the act
    ST_PRIORITY = 4           # the opponent may act at Burst speed, or passes (C7)
    ST_BLOCK = 5              # the defender picks a blocker, or is done
    ST_OVER = 6

# What follows a run of draws: CSData.after_draws
cdef enum:
    AFTER_MULLIGAN = 0        # back to the mulligan
    AFTER_SETUP = 1           # a player's opening hand is complete
    AFTER_TURN_DRAW = 2       # the First Act begins
    AFTER_END_DRAW = 3        # the first player's delayed draw: the turn ends

# After a priority window: CSData.resume
cdef enum:
    RESUME_ACT = 0
    RESUME_NEXT_ACT = 1

# Frames on the decision stack (kind 0 is the kit's running effects)
cdef enum:
    FR_SITE = 1               # data[0]: the design being played (-1: the Shrine)
    FR_DISTANCE = 2           # data[0]: the traveller
    FR_TARGET = 3             # data[0]: the attacker
    FR_BLOCK = 4              # data[0]: the blocker
    FR_SACRIFICE = 5          # data[0]: the site over its limit

# Action ids.  Chance outcomes are designs.
cdef enum:
    A_PASS = 0                # pass the act or priority, keep a hand, stop blocking
    A_PRIMARY = 1             # draw from the Primary Library
    A_SECONDARY = 2
    A_SHRINE = 3              # play the Shrine from its Shrine Zone
    A_MARK = 4                # pay 2 to take a time mark off the Shrine
    A_PLAY = 5                # + library * MAX_DESIGNS + design: play a card from hand,
                              # the copy that came from that library (C18)
    A_BOTTOM = A_PLAY + 2 * MAX_DESIGNS   # + design: mulligan it
    A_SITE = A_BOTTOM + MAX_DESIGNS       # + site
    A_UNIT = A_SITE + SITES               # + slot: a traveller, attacker, blocker, sacrifice
    A_DISTANCE = A_UNIT + MAX_UNITS       # + sites - 1
    A_TARGET = A_DISTANCE + MAX_TRAVEL    # + slot: what an attacker enters combat with
    A_FACE = A_TARGET + MAX_UNITS         # the opposing player
    A_BLOCK = A_FACE + 1                  # + the attacker's slot
    NUM_ACTIONS = A_BLOCK + MAX_UNITS

MODES = ("standard", "rush", "king_of_the_hill", "imperial", "conquest")
ACTS = ("first", "travel", "combat", "final")
STEPS = ("draw", "mulligan", "draw_choice", "act", "priority", "block", "over")
AFTERS = ("mulligan", "setup", "turn", "end")
FRAMES = {FR_SITE: "site", FR_DISTANCE: "distance", FR_TARGET: "target",
          FR_BLOCK: "block", FR_SACRIFICE: "sacrifice"}
LIBRARIES = ("primary", "secondary")

cdef Design DESIGNS[MAX_DESIGNS]
cdef int NUM_DESIGNS = 0


def _compile(cardset):
    """The card data into DESIGNS: one record per design, once, at import."""
    global NUM_DESIGNS
    cdef Design* d
    cdef int i
    if len(cardset.cards) > MAX_DESIGNS:
        raise CardDataError(f"the card set has {len(cardset.cards)} designs; the engine "
                            f"holds at most {MAX_DESIGNS}")
    for card in cardset.cards:
        d = &DESIGNS[card.id]
        d.type = card.type
        d.token = card.token
        d.colour = (card.colours.bit_length() - 1) if TYPES[card.type] == "source" else 0
        for i in range(6):
            d.cost[i] = card.cost[i]
        d.cmc = sum(card.cost)
        d.strength = card.strength
        d.resilience = card.resilience
        d.sprint = card.sprint
        d.range = card.range
        d.keywords = card.keywords
    NUM_DESIGNS = len(cardset.cards)


_compile(CARDSET)
assert KEYWORDS.index("flying") == 5 and KEYWORDS.index("unstoppable") == 16

CARD_NAMES = [slug(c.name) for c in CARDSET.cards]
CARDS = Cards(CARD_NAMES, "cards are written as in docs/creature-shrines-cards.md, "
                          "lower case with _ for spaces: cinder_brute")
CARD_INDEX = {name: d for d, name in enumerate(CARD_NAMES)}
SITE_NAMES = [f"{r}{'abc'[c]}" for r in range(ROWS) for c in range(PATHWAYS)]


# --- the region ----------------------------------------------------------------------

cdef inline int row_of(int site) noexcept nogil:
    return site // PATHWAYS

cdef inline int path_of(int site) noexcept nogil:
    return site % PATHWAYS

cdef inline int forward(int p) noexcept nogil:
    return 1 if p == 0 else -1

cdef inline int melee_row(int p) noexcept nogil:
    return 0 if p == 0 else ROWS - 1

cdef inline int zone_row(int p) noexcept nogil:
    """The row a player's Player Zone would have: just behind their Melee row."""
    return -1 if p == 0 else ROWS

cdef inline bint has(CSData* s, int u, uint32_t keyword) noexcept nogil:
    return DESIGNS[s.units[u].design].keywords & keyword != 0

cdef inline bint is_type(CSData* s, int u, int t) noexcept nogil:
    return DESIGNS[s.units[u].design].type == t

cdef inline bint blocks_way(CSData* s, int u) noexcept nogil:
    """Creatures and structures hold a site against the other side's movement."""
    cdef int t = DESIGNS[s.units[u].design].type
    return t == T_CREATURE or t == T_STRUCTURE

cdef int count_on_site(CSData* s, int site, int owner) noexcept nogil:
    """The permanents on ``site`` that count toward its limit (tokens do not; no Tool is
    on the region yet), of ``owner``, or of both if ``owner`` is -1."""
    cdef int u, n = 0
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].site == site \
                and not DESIGNS[s.units[u].design].token \
                and (owner < 0 or s.units[u].owner == owner):
            n += 1
    return n

cdef bint enemy_holds(CSData* s, int site, int p, bint flying) noexcept nogil:
    """Whether an opposing creature or structure stands on ``site``; for a flyer, only
    an opposing flyer counts."""
    cdef int u
    for u in range(MAX_UNITS):
        if s.units[u].owner == 1 - p and s.units[u].site == site and blocks_way(s, u):
            if not flying or has(s, u, K_FLYING):
                return True
    return False

cdef bint locked(CSData* s, int site) noexcept nogil:
    """An Immoveable permanent stops every creature moving onto or off its site."""
    cdef int u
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].site == site and has(s, u, K_IMMOVEABLE):
            return True
    return False

cdef int free_slot(CSData* s) noexcept nogil:
    cdef int u
    for u in range(MAX_UNITS):
        if s.units[u].owner < 0:
            return u
    return NONE

cdef int distance_ahead(int p, int from_row, int to_row) noexcept nogil:
    return (to_row - from_row) * forward(p)


# --- mana (C11) ------------------------------------------------------------------------

cdef int untapped(CSData* s, int p, int c) noexcept nogil:
    return s.sources[p][c] - s.tapped[p][c]

cdef bint can_pay(CSData* s, int p, const int8_t* cost) noexcept nogil:
    """Whether ``p``'s pool and untapped Sources cover ``cost``: each colour from its own
    mana, the generic part from whatever is left."""
    cdef int c, have, spare = 0
    for c in range(COLOURS):
        have = s.pool[p][c] + untapped(s, p, c)
        if have < cost[c + 1]:
            return False
        spare += have - cost[c + 1]
    return spare >= cost[0]

cdef void take_mana(CSData* s, int p, int c, int n) noexcept nogil:
    """``n`` mana of colour ``c``: from the pool first, then by tapping Sources."""
    cdef int k = n if n < s.pool[p][c] else s.pool[p][c]
    s.pool[p][c] -= k
    s.tapped[p][c] += n - k

cdef void pay(CSData* s, int p, const int8_t* cost) noexcept nogil:
    """Pay a cost ``can_pay`` allows (C11): the coloured part first; the generic part
    from the pool, then from the colour with the most untapped Sources left, so a
    choice of which Source to tap never becomes a decision."""
    cdef int c, best, n = cost[0], k
    for c in range(COLOURS):
        take_mana(s, p, c, cost[c + 1])
    for c in range(COLOURS):
        k = n if n < s.pool[p][c] else s.pool[p][c]
        s.pool[p][c] -= k
        n -= k
    while n > 0:
        best = 0
        for c in range(1, COLOURS):
            if untapped(s, p, c) > untapped(s, p, best):
                best = c
        s.tapped[p][best] += 1
        n -= 1

cdef int8_t MARK_COST[6]
MARK_COST[:] = [2, 0, 0, 0, 0, 0]


# --- cards moving ------------------------------------------------------------------------

cdef inline int hand_count(CSData* s, int p, int d) noexcept nogil:
    return s.hand[p][PRIMARY][d] + s.hand[p][SECONDARY][d]

cdef int hand_size(CSData* s, int p) noexcept nogil:
    return pile_size(&s.hand[p][PRIMARY][0], 0, MAX_DESIGNS) \
        + pile_size(&s.hand[p][SECONDARY][0], 0, MAX_DESIGNS)

cdef void start_draws(CSData* s, int p, int library, int n, int after) noexcept nogil:
    s.draw_player = p
    s.draw_library = library
    s.draws_left = n
    s.after_draws = after
    continue_draws(s)

cdef void continue_draws(CSData* s) noexcept nogil:
    """The next draw, or what follows the draws once they are done or the library is
    empty (an empty library is simply not drawn from: C12)."""
    cdef int p = s.draw_player
    if s.draws_left and pile_size(&s.library[p][s.draw_library][0], 0, MAX_DESIGNS):
        s.step = ST_DRAW
        return
    s.draws_left = 0
    after_draws(s)

cdef void draw_card(CSData* s, int d) noexcept nogil:
    cdef int p = s.draw_player, lib = s.draw_library
    s.library[p][lib][d] -= 1
    s.hand[p][lib][d] += 1
    s.draws_left -= 1
    continue_draws(s)

cdef void after_draws(CSData* s) noexcept nogil:
    cdef int p = s.draw_player, k
    if s.after_draws == AFTER_MULLIGAN:
        s.step = ST_MULLIGAN
    elif s.after_draws == AFTER_SETUP:
        # (C10) the cards put at the bottom are shuffled in with the rest
        for k in range(s.bottom_len[p]):
            s.library[p][PRIMARY][s.bottom[p][k]] += 1
        s.bottom_len[p] = 0
        if p == 0:
            begin_mulligan(s, 1)
        else:
            begin_turn(s, 0)
    elif s.after_draws == AFTER_TURN_DRAW:
        begin_act(s, ACT_FIRST)
    else:
        finish_turn(s)

cdef void draw_one(CSData* s, int p, int after) noexcept nogil:
    """A draw from a library of ``p``'s choice: a decision while both hold cards."""
    cdef bint primary = pile_size(&s.library[p][PRIMARY][0], 0, MAX_DESIGNS) > 0
    cdef bint secondary = pile_size(&s.library[p][SECONDARY][0], 0, MAX_DESIGNS) > 0
    s.after_draws = after
    s.draw_player = p
    if primary and secondary:
        s.step = ST_DRAW_CHOICE
    else:
        start_draws(s, p, PRIMARY if primary else SECONDARY, 1, after)

cdef void begin_mulligan(CSData* s, int p) noexcept nogil:
    """(C10) The first player may mulligan up to 2 cards, the second up to 4."""
    s.mull_player = p
    s.mulligans_left = 2 if p == 0 else 4
    start_draws(s, p, PRIMARY, OPENING_HAND, AFTER_MULLIGAN)


# --- the turn --------------------------------------------------------------------------

cdef void begin_turn(CSData* s, int p) noexcept nogil:
    cdef int u, c
    s.active = p
    s.source_played = 0
    for u in range(MAX_UNITS):
        if s.units[u].owner == p:
            s.units[u].flags &= ~(U_TAPPED | U_NEW | U_TRAVELLED)
    for c in range(COLOURS):
        s.tapped[p][c] = 0
    if s.shrine_home[p] and s.marks[p]:
        s.marks[p] -= 1        # (C6)
    if s.turn == 0:
        begin_act(s, ACT_FIRST)     # the first player draws at the end of this turn
    else:
        draw_one(s, p, AFTER_TURN_DRAW)

cdef void begin_act(CSData* s, int act) noexcept nogil:
    s.act = act
    s.step = ST_ACT

cdef void next_act(CSData* s) noexcept nogil:
    if s.act == ACT_COMBAT:
        if s.attacked and any_block(s):
            s.step = ST_BLOCK
            return
        resolve_combat(s)
        if s.winner == NONE:
            begin_act(s, ACT_FINAL)
    elif s.act == ACT_FINAL:
        end_turn(s)
    else:
        begin_act(s, s.act + 1)

cdef void end_turn(CSData* s) noexcept nogil:
    if s.turn == 0:
        draw_one(s, 0, AFTER_END_DRAW)
    else:
        finish_turn(s)

cdef void finish_turn(CSData* s) noexcept nogil:
    """Creatures heal, structures keep their damage, pools empty, points are scored
    (C8), and the turn passes or the game ends (C9)."""
    cdef int u, p = s.active, c
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and is_type(s, u, T_CREATURE):
            s.units[u].damage = 0
    for c in range(COLOURS):
        s.pool[0][c] = 0
        s.pool[1][c] = 0
    score_hill(s, p)
    if s.winner != NONE:
        return
    s.turn += 1
    if s.turn >= 2 * s.max_turns:
        end_by_turns(s)
        return
    begin_turn(s, 1 - p)

cdef void after_action(CSData* s, int resume) noexcept nogil:
    """(C7) After an action or a passed act the opponent gets priority, but only when
    they have something to do: no forced pass."""
    if s.winner != NONE:
        return
    s.resume = resume
    if burst_possible(s, 1 - s.active):
        s.step = ST_PRIORITY
    elif resume == RESUME_NEXT_ACT:
        next_act(s)
    else:
        s.step = ST_ACT

cdef bint burst_possible(CSData* s, int p) noexcept nogil:
    return s.shrine_home[p] and s.marks[p] > 0 and can_pay(s, p, MARK_COST)


# --- winning (C5, C8, C9) ---------------------------------------------------------------

cdef inline bint uses_life(CSData* s) noexcept nogil:
    return s.mode != M_HILL

cdef inline bint uses_points(CSData* s) noexcept nogil:
    return s.mode == M_HILL or s.mode == M_IMPERIAL

cdef void finish(CSData* s, int winner) noexcept nogil:
    s.winner = winner
    s.step = ST_OVER
    s.stack.depth = 0

cdef void hurt_player(CSData* s, int p, int n) noexcept nogil:
    s.life[p] -= n
    if s.life[p] <= 0:
        s.life[p] = 0
        finish(s, 1 - p)

cdef void score_hill(CSData* s, int p) noexcept nogil:
    """(C8) At the end of a turn its player scores 1 for each creature or structure on
    the Neutral row, and 1 more for every full 5 of its strength or resilience; in
    Conquest the points join the shared count."""
    cdef int u, n = 0, big
    cdef Design* d
    if s.mode < M_HILL:
        return
    for u in range(MAX_UNITS):
        if s.units[u].owner == p and row_of(s.units[u].site) == 2 and blocks_way(s, u):
            d = &DESIGNS[s.units[u].design]
            big = d.strength if d.strength > d.resilience else d.resilience
            n += 1 + big // 5
    if s.mode == M_CONQUEST:
        s.life[p] += n
        if s.life[p] >= 30:
            finish(s, p)
    else:
        s.points[p] += n
        if s.points[p] >= 20:
            finish(s, p)

cdef void end_by_turns(CSData* s) noexcept nogil:
    """(C9) The higher life wins, or the higher points where there is no life; in
    Imperial life first, then points; level is a draw."""
    cdef int a = s.life[0] - s.life[1] if uses_life(s) else s.points[0] - s.points[1]
    if a == 0 and s.mode == M_IMPERIAL:
        a = s.points[0] - s.points[1]
    finish(s, 0 if a > 0 else 1 if a < 0 else DRAW)


# --- playing cards ----------------------------------------------------------------------

cdef bint site_open(CSData* s, int p, int d, int site) noexcept nogil:
    """Where a design may be played: a creature on its player's Melee row (in Rush, not
    beside an opposing creature unless it flies or is Unstoppable: C8); a structure on
    the Melee or Range row, where no structure stands."""
    cdef int u, t = DESIGNS[d].type, r = row_of(site)
    if t == T_CREATURE:
        if r != melee_row(p):
            return False
        if s.mode == M_RUSH and not DESIGNS[d].keywords & (K_FLYING | K_UNSTOPPABLE):
            for u in range(MAX_UNITS):
                if s.units[u].owner == 1 - p and s.units[u].site == site \
                        and is_type(s, u, T_CREATURE):
                    return False
        return True
    if r != melee_row(p) and r != melee_row(p) + forward(p):
        return False
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].site == site and is_type(s, u, T_STRUCTURE):
            return False
    return True

cdef bint any_site(CSData* s, int p, int d) noexcept nogil:
    cdef int site
    for site in range(SITES):
        if site_open(s, p, d, site):
            return True
    return False

cdef bint playable(CSData* s, int p, int d) noexcept nogil:
    """Cards this engine plays: Sources, one a turn; creatures and structures that can
    be paid for and have a site (spells, relics and area effects are not yet played)."""
    cdef int t = DESIGNS[d].type
    if t == T_SOURCE:
        return not s.source_played
    if t != T_CREATURE and t != T_STRUCTURE:
        return False
    return can_pay(s, p, DESIGNS[d].cost) and any_site(s, p, d) and free_slot(s) >= 0

cdef bint shrine_playable(CSData* s, int p) noexcept nogil:
    cdef int d = s.shrine[p]
    return s.shrine_home[p] and s.marks[p] == 0 and can_pay(s, p, DESIGNS[d].cost) \
        and any_site(s, p, d) and free_slot(s) >= 0

cdef void put_unit(CSData* s, int p, int d, int site) noexcept nogil:
    cdef int u = free_slot(s)
    s.units[u].owner = p
    s.units[u].design = d
    s.units[u].site = site
    s.units[u].damage = 0
    s.units[u].flags = U_NEW
    s.units[u].target = NONE
    s.units[u].blocks = NONE
    check_limit(s, site, p)

cdef void check_limit(CSData* s, int site, int mover) noexcept nogil:
    """The site limit: over 4 counted permanents, the player with more of them there
    sacrifices one (a decision); with 5 on a site they cannot be level."""
    cdef int q, f
    cdef Frame* fr
    if count_on_site(s, site, NONE) <= SITE_LIMIT:
        return
    q = 0 if count_on_site(s, site, 0) > count_on_site(s, site, 1) else 1
    fr = stack_push(&s.stack, FR_SACRIFICE, q, NONE)
    fr.data[0] = site

cdef void remove_unit(CSData* s, int u) noexcept nogil:
    """A permanent leaves the region for its owner's Graveyard; a Shrine goes home to
    its Shrine Zone with time marks equal to its converted mana cost; a token is gone."""
    cdef int p = s.units[u].owner, d = s.units[u].design, v
    s.units[u].owner = NONE
    for v in range(MAX_UNITS):
        if s.units[v].owner >= 0:
            if s.units[v].blocks == u:
                s.units[v].blocks = NONE
            if s.units[v].target == u:
                s.units[v].target = NONE
    if d == s.shrine[p]:
        s.shrine_home[p] = 1
        s.marks[p] = DESIGNS[d].cmc
    elif not DESIGNS[d].token:
        s.grave[p][d] += 1


# --- travel ----------------------------------------------------------------------------

cdef bint can_leave(CSData* s, int u) noexcept nogil:
    cdef int p = s.units[u].owner, site = s.units[u].site
    if locked(s, site):
        return False
    if has(s, u, K_UNSTOPPABLE):
        return True
    return not enemy_holds(s, site, p, has(s, u, K_FLYING))

cdef bint can_enter(CSData* s, int u, int site) noexcept nogil:
    cdef int p = s.units[u].owner
    if locked(s, site):
        return False
    if has(s, u, K_UNSTOPPABLE):
        return True
    return not enemy_holds(s, site, p, has(s, u, K_FLYING))

cdef int travel_reach(CSData* s, int u) noexcept nogil:
    """The most sites ``u`` may travel: its distance of 1 and its Sprint."""
    return 1 + DESIGNS[s.units[u].design].sprint

cdef bint travel_ok(CSData* s, int u, int n) noexcept nogil:
    """Whether ``u`` may travel ``n`` sites forward on its pathway: every site on the
    way may be entered, except that a Lunge leaps over one it may not (unless an
    Immoveable permanent holds it), and the last site must be enterable."""
    cdef int p = s.units[u].owner, site = s.units[u].site, r = row_of(site), k, t
    cdef bint leapt = False
    if n > travel_reach(s, u):
        return False
    t = r + n * forward(p)
    if t < 0 or t >= ROWS:
        return False
    for k in range(1, n + 1):
        site = (r + k * forward(p)) * PATHWAYS + path_of(s.units[u].site)
        if can_enter(s, u, site):
            continue
        if k == n or leapt or not has(s, u, K_LUNGE) or locked(s, site):
            return False
        leapt = True
    return True

cdef bint can_travel(CSData* s, int u) noexcept nogil:
    """(C13) A creature travels once a Travel Act, not in its first turn unless it has
    Haste, never if Stationary or Frozen."""
    cdef Unit* x = &s.units[u]
    cdef int n
    if x.owner != s.active or not is_type(s, u, T_CREATURE):
        return False
    if x.flags & (U_TRAVELLED | U_FROZEN) or has(s, u, K_STATIONARY):
        return False
    if x.flags & U_NEW and not has(s, u, K_HASTE):
        return False
    if not can_leave(s, u):
        return False
    for n in range(1, travel_reach(s, u) + 1):
        if travel_ok(s, u, n):
            return True
    return False

cdef void travel(CSData* s, int u, int n) noexcept nogil:
    cdef int p = s.units[u].owner
    s.units[u].site += n * forward(p) * PATHWAYS
    s.units[u].flags |= U_TRAVELLED
    check_limit(s, s.units[u].site, p)


# --- combat ----------------------------------------------------------------------------

cdef int attack_range(CSData* s, int u) noexcept nogil:
    return 1 + DESIGNS[s.units[u].design].range

cdef bint can_hit(CSData* s, int u, int v) noexcept nogil:
    """Whether attacker ``u`` may enter combat with permanent ``v``: on its pathway,
    from its own site to its attacking range ahead; a flyer only by a creature with
    Flying, Reach or Lunge."""
    cdef int p = s.units[u].owner, d
    if s.units[v].owner != 1 - p or not blocks_way(s, v):
        return False
    if path_of(s.units[v].site) != path_of(s.units[u].site):
        return False
    d = distance_ahead(p, row_of(s.units[u].site), row_of(s.units[v].site))
    if d < 0 or d > attack_range(s, u):
        return False
    return not has(s, v, K_FLYING) or has(s, u, K_FLYING | K_REACH | K_LUNGE)

cdef bint can_hit_face(CSData* s, int u) noexcept nogil:
    """The opposing Player Zone, behind their Melee row, when it is in range; King of
    the Hill has no life to take."""
    cdef int p = s.units[u].owner
    if s.mode == M_HILL:
        return False
    return distance_ahead(p, row_of(s.units[u].site), zone_row(1 - p)) <= attack_range(s, u)

cdef bint can_attack(CSData* s, int u) noexcept nogil:
    """(C14) An untapped creature of the active player, not new unless it has Haste,
    not Frozen, with something in range.  Entering combat taps it."""
    cdef Unit* x = &s.units[u]
    cdef int v
    if x.owner != s.active or not is_type(s, u, T_CREATURE):
        return False
    if x.flags & (U_TAPPED | U_FROZEN | U_ATTACKING):
        return False
    if x.flags & U_NEW and not has(s, u, K_HASTE):
        return False
    if can_hit_face(s, u):
        return True
    for v in range(MAX_UNITS):
        if can_hit(s, u, v):
            return True
    return False

cdef bint targeted(CSData* s, int v) noexcept nogil:
    cdef int u
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].flags & U_ATTACKING and s.units[u].target == v:
            return True
    return False

cdef bint can_block(CSData* s, int b, int a) noexcept nogil:
    """(C14) Blocker ``b`` may stop attacker ``a``: an untapped creature of the
    defender that is not itself targeted, on ``a``'s pathway between ``a`` and its
    target (the attacking range being used)."""
    cdef int p = s.units[a].owner, d, reach
    if not s.units[a].flags & U_ATTACKING or s.units[a].target == NONE:
        return False
    if s.units[b].owner != 1 - p or not is_type(s, b, T_CREATURE):
        return False
    if s.units[b].flags & U_TAPPED or s.units[b].blocks != NONE or targeted(s, b):
        return False
    if path_of(s.units[b].site) != path_of(s.units[a].site):
        return False
    if s.units[a].target == FACE:
        reach = distance_ahead(p, row_of(s.units[a].site), zone_row(1 - p))
    else:
        reach = distance_ahead(p, row_of(s.units[a].site), row_of(s.units[s.units[a].target].site))
    d = distance_ahead(p, row_of(s.units[a].site), row_of(s.units[b].site))
    if d < 0 or d > reach:
        return False
    return not has(s, a, K_FLYING) or has(s, b, K_FLYING | K_REACH | K_LUNGE)

cdef bint blocker_ok(CSData* s, int b) noexcept nogil:
    cdef int a
    for a in range(MAX_UNITS):
        if s.units[a].owner >= 0 and can_block(s, b, a):
            return True
    return False

cdef bint any_block(CSData* s) noexcept nogil:
    cdef int b
    for b in range(MAX_UNITS):
        if s.units[b].owner == 1 - s.active and blocker_ok(s, b):
            return True
    return False

cdef int lethal(CSData* s, int v) noexcept nogil:
    cdef int left = DESIGNS[s.units[v].design].resilience - s.units[v].damage
    return left if left > 0 else 0

cdef void deal(CSData* s, int v, int n) noexcept nogil:
    s.units[v].damage += n

cdef void strike(CSData* s, int a) noexcept nogil:
    """(C14) One attacker's combat: blocked, its strength goes to its blockers, lethal
    to the closest first (equally close: the lowest slot first: C15), the rest to the
    last; each blocker strikes it back.  Unblocked, it strikes its target, and a
    creature it fights strikes back; the player loses life."""
    cdef int p = s.units[a].owner, n = DESIGNS[s.units[a].design].strength, b, best, d, k
    cdef int order[MAX_UNITS]
    cdef int count = 0, i, j
    for b in range(MAX_UNITS):
        if s.units[b].owner == 1 - p and s.units[b].blocks == a:
            order[count] = b
            count += 1
    if count:
        # insertion sort by distance from the attacker, then slot
        for i in range(1, count):
            k = order[i]
            d = distance_ahead(p, row_of(s.units[a].site), row_of(s.units[k].site))
            j = i - 1
            while j >= 0 and distance_ahead(p, row_of(s.units[a].site),
                                           row_of(s.units[order[j]].site)) > d:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = k
        for i in range(count):
            b = order[i]
            best = n if i == count - 1 else (lethal(s, b) if lethal(s, b) < n else n)
            deal(s, b, best)
            n -= best
            deal(s, a, DESIGNS[s.units[b].design].strength)
        return
    if s.units[a].target == FACE:
        hurt_player(s, 1 - p, n)
    elif s.units[a].target != NONE:
        b = s.units[a].target
        deal(s, b, n)
        if is_type(s, b, T_CREATURE):
            deal(s, a, DESIGNS[s.units[b].design].strength)

cdef void resolve_combat(CSData* s) noexcept nogil:
    """Every attacker strikes at once, then the dead leave the region."""
    cdef int u
    for u in range(MAX_UNITS):
        if s.units[u].owner == s.active and s.units[u].flags & U_ATTACKING:
            strike(s, u)
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0:
            s.units[u].flags &= ~U_ATTACKING
            s.units[u].target = NONE
            s.units[u].blocks = NONE
    s.attacked = 0
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and blocks_way(s, u) and lethal(s, u) == 0:
            remove_unit(s, u)


# --- decisions: what is legal, and applying it ------------------------------------------

cdef int frame_actions(CSData* s, Frame* f, int* out) noexcept nogil:
    cdef int n = 0, x, d
    if f.kind == FR_SITE:
        d = s.shrine[f.player] if f.data[0] < 0 else f.data[0]
        for x in range(SITES):
            if site_open(s, f.player, d, x):
                out[n] = A_SITE + x
                n += 1
    elif f.kind == FR_DISTANCE:
        for x in range(1, MAX_TRAVEL + 1):
            if travel_ok(s, f.data[0], x):
                out[n] = A_DISTANCE + x - 1
                n += 1
    elif f.kind == FR_TARGET:
        for x in range(MAX_UNITS):
            if can_hit(s, f.data[0], x):
                out[n] = A_TARGET + x
                n += 1
        if can_hit_face(s, f.data[0]):
            out[n] = A_FACE
            n += 1
    elif f.kind == FR_BLOCK:
        for x in range(MAX_UNITS):
            if s.units[x].owner >= 0 and can_block(s, f.data[0], x):
                out[n] = A_BLOCK + x
                n += 1
    elif f.kind == FR_SACRIFICE:
        for x in range(MAX_UNITS):
            if s.units[x].owner == f.player and s.units[x].site == f.data[0] \
                    and not DESIGNS[s.units[x].design].token:
                out[n] = A_UNIT + x
                n += 1
    return n

cdef int act_actions(CSData* s, int* out) noexcept nogil:
    cdef int p = s.active, n = 1, d, u, lib
    out[0] = A_PASS
    if s.act == ACT_FIRST or s.act == ACT_FINAL:
        if shrine_playable(s, p):
            out[n] = A_SHRINE
            n += 1
    if burst_possible(s, p):
        out[n] = A_MARK
        n += 1
    if s.act == ACT_FIRST or s.act == ACT_FINAL:
        for lib in range(2):
            for d in range(NUM_DESIGNS):
                if s.hand[p][lib][d] and playable(s, p, d):
                    out[n] = A_PLAY + lib * MAX_DESIGNS + d
                    n += 1
    elif s.act == ACT_TRAVEL:
        for u in range(MAX_UNITS):
            if can_travel(s, u):
                out[n] = A_UNIT + u
                n += 1
    else:
        for u in range(MAX_UNITS):
            if can_attack(s, u):
                out[n] = A_UNIT + u
                n += 1
    return n

cdef int decisions(CSData* s, int* out) noexcept nogil:
    cdef Frame* f = stack_top(&s.stack)
    cdef int n = 0, d, p, u
    if f != NULL:
        return frame_actions(s, f, out)
    if s.step == ST_ACT:
        return act_actions(s, out)
    if s.step == ST_MULLIGAN:
        out[0] = A_PASS
        n = 1
        if s.mulligans_left:
            p = s.mull_player
            for d in range(NUM_DESIGNS):
                if s.hand[p][PRIMARY][d]:
                    out[n] = A_BOTTOM + d
                    n += 1
        return n
    if s.step == ST_DRAW_CHOICE:
        out[0] = A_PRIMARY
        out[1] = A_SECONDARY
        return 2
    if s.step == ST_PRIORITY:
        out[0] = A_PASS
        out[1] = A_MARK
        return 2
    if s.step == ST_BLOCK:
        out[0] = A_PASS
        n = 1
        for u in range(MAX_UNITS):
            if s.units[u].owner == 1 - s.active and blocker_ok(s, u):
                out[n] = A_UNIT + u
                n += 1
        return n
    return 0

cdef void settle(CSData* s) noexcept nogil:
    """Apply every choice that has a single option: a frame with one legal answer is
    no decision (C16)."""
    cdef int buf[NUM_ACTIONS]
    cdef Frame* f = stack_top(&s.stack)
    while f != NULL and s.winner == NONE:
        if frame_actions(s, f, buf) != 1:
            return
        answer(s, f, buf[0])
        f = stack_top(&s.stack)

cdef void answer(CSData* s, Frame* f, int a) noexcept nogil:
    """Settle the frame on top with action ``a``."""
    cdef int kind = f.kind, x = f.data[0], p = f.player, d
    stack_pop(&s.stack)
    if kind == FR_SITE:
        if x < 0:
            d = s.shrine[p]
            s.shrine_home[p] = 0
        else:
            d = x
            s.hand[p][f.data[1]][d] -= 1
        pay(s, p, DESIGNS[d].cost)
        put_unit(s, p, d, a - A_SITE)
    elif kind == FR_DISTANCE:
        travel(s, x, a - A_DISTANCE + 1)
    elif kind == FR_TARGET:
        s.units[x].flags |= U_ATTACKING | U_TAPPED
        s.units[x].target = FACE if a == A_FACE else a - A_TARGET
        s.attacked = 1
    elif kind == FR_BLOCK:
        s.units[x].blocks = a - A_BLOCK
    elif kind == FR_SACRIFICE:
        remove_unit(s, a - A_UNIT)
        check_limit(s, x, NONE)
    settle(s)
    if stack_top(&s.stack) == NULL and s.step == ST_ACT:
        after_action(s, RESUME_ACT)

cdef void act(CSData* s, int a) noexcept nogil:
    """An action of the active player in one of their acts."""
    cdef int p = s.active, d
    cdef Frame* f
    if a == A_PASS:
        after_action(s, RESUME_NEXT_ACT)
        return
    if a == A_MARK:
        pay(s, p, MARK_COST)
        s.marks[p] -= 1
        after_action(s, RESUME_ACT)
        return
    if A_PLAY <= a < A_BOTTOM and DESIGNS[(a - A_PLAY) % MAX_DESIGNS].type == T_SOURCE:
        d = (a - A_PLAY) % MAX_DESIGNS
        s.hand[p][(a - A_PLAY) // MAX_DESIGNS][d] -= 1
        s.sources[p][DESIGNS[d].colour] += 1
        s.source_played = 1
        after_action(s, RESUME_ACT)
        return
    if a == A_SHRINE:
        f = stack_push(&s.stack, FR_SITE, p, NONE)
        f.data[0] = NONE
    elif a < A_BOTTOM:
        d = (a - A_PLAY) % MAX_DESIGNS
        f = stack_push(&s.stack, FR_SITE, p, d)
        f.data[0] = d
        f.data[1] = (a - A_PLAY) // MAX_DESIGNS
    elif s.act == ACT_TRAVEL:
        f = stack_push(&s.stack, FR_DISTANCE, p, a - A_UNIT)
        f.data[0] = a - A_UNIT
    else:
        f = stack_push(&s.stack, FR_TARGET, p, a - A_UNIT)
        f.data[0] = a - A_UNIT
    settle(s)
    if stack_top(&s.stack) == NULL:
        after_action(s, RESUME_ACT)

cdef void decide(CSData* s, int a) noexcept nogil:
    cdef Frame* f = stack_top(&s.stack)
    cdef int p, u
    if f != NULL:
        answer(s, f, a)
        if stack_top(&s.stack) == NULL and s.step == ST_BLOCK and not any_block(s):
            end_blocks(s)
        return
    if s.step == ST_ACT:
        act(s, a)
    elif s.step == ST_MULLIGAN:
        p = s.mull_player
        if a == A_PASS:
            start_draws(s, p, SECONDARY, OPENING_HAND, AFTER_SETUP)
        else:
            s.hand[p][PRIMARY][a - A_BOTTOM] -= 1
            s.bottom[p][s.bottom_len[p]] = a - A_BOTTOM
            s.bottom_len[p] += 1
            s.mulligans_left -= 1
            start_draws(s, p, PRIMARY, 1, AFTER_MULLIGAN)
    elif s.step == ST_DRAW_CHOICE:
        start_draws(s, s.draw_player, PRIMARY if a == A_PRIMARY else SECONDARY, 1,
                    s.after_draws)
    elif s.step == ST_PRIORITY:
        p = 1 - s.active
        if a == A_MARK:
            pay(s, p, MARK_COST)
            s.marks[p] -= 1
            if burst_possible(s, p):
                return
        if s.resume == RESUME_NEXT_ACT:
            next_act(s)
        else:
            s.step = ST_ACT
    elif s.step == ST_BLOCK:
        if a == A_PASS:
            end_blocks(s)
            return
        u = a - A_UNIT
        f = stack_push(&s.stack, FR_BLOCK, 1 - s.active, u)
        f.data[0] = u
        settle(s)
        if stack_top(&s.stack) == NULL and not any_block(s):
            end_blocks(s)

cdef void end_blocks(CSData* s) noexcept nogil:
    resolve_combat(s)
    if s.winner == NONE:
        begin_act(s, ACT_FINAL)


# --- hidden cards ------------------------------------------------------------------------

cdef void redeal(uint8_t* pool, uint8_t* hand, int n, Rng* rng) noexcept nogil:
    """Take ``n`` cards from ``pool`` at random into ``hand``."""
    cdef int d
    for _ in range(n):
        d = pile_sample(pool, 0, MAX_DESIGNS, rng)
        pool[d] -= 1
        hand[d] += 1


# --- the state ---------------------------------------------------------------------------

cdef class CreatureShrinesState(GameState):

    cdef int c_current_player(self) noexcept nogil:
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        if s.step == ST_OVER:
            return TERMINAL
        if f != NULL:
            return f.player
        if s.step == ST_DRAW:
            return CHANCE
        if s.step == ST_MULLIGAN:
            return s.mull_player
        if s.step == ST_DRAW_CHOICE:
            return s.draw_player
        if s.step == ST_ACT:
            return s.active
        return 1 - s.active

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef CSData* s = &self.s
        cdef double probs[MAX_DESIGNS]
        cdef int n, i, j, t
        if s.step == ST_OVER:
            return 0
        if s.step == ST_DRAW and stack_top(&s.stack) == NULL:
            return self.c_chance_outcomes(out, probs)
        n = decisions(s, out)
        # sort: the few out-of-order ids (pass, the Shrine, a mark) come first anyway,
        # but the block and act lists interleave, so keep it general
        for i in range(1, n):
            t = out[i]
            j = i - 1
            while j >= 0 and out[j] > t:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = t
        return n

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        cdef CSData* s = &self.s
        if s.step != ST_DRAW or stack_top(&s.stack) != NULL:
            return 0
        return pile_outcomes(&s.library[s.draw_player][s.draw_library][0], 0, MAX_DESIGNS,
                             actions, probs)

    cdef int c_sample_chance(self, Rng* rng) noexcept nogil:
        cdef CSData* s = &self.s
        if s.step != ST_DRAW or stack_top(&s.stack) != NULL:
            return -1
        return pile_sample(&s.library[s.draw_player][s.draw_library][0], 0, MAX_DESIGNS, rng)

    cdef void c_apply_action(self, int action) noexcept nogil:
        cdef CSData* s = &self.s
        if s.step == ST_DRAW and stack_top(&s.stack) == NULL:
            draw_card(s, action)
        else:
            decide(s, action)

    cdef double c_returns(self, int player) noexcept nogil:
        return win_loss(self.s.winner, player, 2)

    cdef bint c_is_terminal(self) noexcept nogil:
        return self.s.step == ST_OVER

    cdef void copy_into(self, GameState dst) noexcept nogil:
        memcpy(&(<CreatureShrinesState>dst).s, &self.s, sizeof(CSData))

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        """Deal the opponent's hidden cards afresh, each from the library it came from:
        its hand's cards of each library, and any card it put at the bottom in its
        mulligan, from that library's cards nobody has seen (C10)."""
        cdef CSData* s = &self.s
        cdef int q = 1 - observer, lib, n, d, k
        cdef uint8_t taken[MAX_DESIGNS]
        for lib in range(2):
            n = pile_size(&s.hand[q][lib][0], 0, MAX_DESIGNS)
            for d in range(MAX_DESIGNS):
                s.library[q][lib][d] += s.hand[q][lib][d]
                s.hand[q][lib][d] = 0
            if lib == PRIMARY:
                for k in range(s.bottom_len[q]):
                    s.library[q][lib][s.bottom[q][k]] += 1
            redeal(&s.library[q][lib][0], &s.hand[q][lib][0], n, rng)
        memset(taken, 0, sizeof(taken))
        redeal(&s.library[q][PRIMARY][0], taken, s.bottom_len[q], rng)
        k = 0
        for d in range(MAX_DESIGNS):
            while taken[d]:
                s.bottom[q][k] = d
                taken[d] -= 1
                k += 1

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        """The opponent sees a card is drawn, or put at the bottom, but not which."""
        cdef CSData* s = &self.s
        if observer == self.c_current_player():
            return action
        if s.step == ST_DRAW and stack_top(&s.stack) == NULL:
            return -1 if observer != s.draw_player else action
        if s.step == ST_MULLIGAN and action != A_PASS and stack_top(&s.stack) == NULL:
            return -2
        return action

    cdef double c_evaluate(self, int player) noexcept nogil:
        """Life (or points), the strength and resilience on the region, and how far the
        creatures have come, weighed into [-1, 1]."""
        cdef CSData* s = &self.s
        cdef double v = 0, w
        cdef int u, p, ahead
        cdef Design* d
        if uses_life(s):
            v += (s.life[player] - s.life[1 - player]) * 0.15
        if uses_points(s):
            v += (s.points[player] - s.points[1 - player]) * 0.15
        for u in range(MAX_UNITS):
            p = s.units[u].owner
            if p < 0:
                continue
            d = &DESIGNS[s.units[u].design]
            ahead = distance_ahead(p, melee_row(p), row_of(s.units[u].site))
            w = 0.05 * (d.strength + lethal(s, u) * 0.5) + 0.03 * ahead * d.strength
            v += w if p == player else -w
        for p in range(2):
            w = 0.04 * pile_size(&s.sources[p][0], 0, COLOURS)
            v += w if p == player else -w
        return tanh(v * 0.5)

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        """Strike the opposing player when possible, else the biggest play, the
        furthest travel, any attack, and pass last; ties at random."""
        cdef CSData* s = &self.s
        cdef int buf[NUM_ACTIONS]
        cdef int n = self.c_legal_actions(buf), i, a, d, best = -1, score, top = -1000, ties = 0
        if n == 0 or self.c_current_player() < 0:
            return -1
        for i in range(n):
            a = buf[i]
            if a == A_FACE:
                score = 100
            elif a == A_PASS:
                score = 0 if s.step != ST_MULLIGAN else 5
            elif A_PLAY <= a < A_BOTTOM:
                d = (a - A_PLAY) % MAX_DESIGNS
                score = 10 + DESIGNS[d].cmc + 20 * (DESIGNS[d].type == T_SOURCE)
            elif a == A_SHRINE:
                score = 30
            elif A_DISTANCE <= a < A_TARGET:
                score = 10 + a - A_DISTANCE
            elif A_TARGET <= a < A_FACE:
                score = 20 + DESIGNS[s.units[a - A_TARGET].design].strength \
                    - lethal(s, a - A_TARGET)
            elif A_BOTTOM <= a < A_SITE:
                score = DESIGNS[a - A_BOTTOM].cmc - 3
            else:
                score = 5
            if score > top:
                top = score
                best = a
                ties = 1
            elif score == top:
                ties += 1
                if rng_below(rng, ties) == 0:
                    best = a
        return best

    # --- the Python edge -----------------------------------------------------------

    def _action_name(self, int a):
        cdef CSData* s = &self.s
        if self.c_current_player() == CHANCE:
            return f"draw {CARD_NAMES[a]}" if 0 <= a < NUM_DESIGNS else f"outcome {a}"
        if a == A_PASS:
            return {ST_MULLIGAN: "keep", ST_BLOCK: "no more blocks"}.get(
                s.step, f"pass the {ACTS[s.act]} act" if s.step == ST_ACT else "pass")
        if a == A_PRIMARY:
            return "draw from the primary library"
        if a == A_SECONDARY:
            return "draw from the secondary library"
        if a == A_SHRINE:
            return f"play the shrine {CARD_NAMES[s.shrine[s.active]]}"
        if a == A_MARK:
            return "pay 2 to remove a time mark"
        if a < A_BOTTOM:
            return self._play_name(a)
        if a < A_SITE:
            return f"mulligan {CARD_NAMES[a - A_BOTTOM]}" if a - A_BOTTOM < NUM_DESIGNS \
                else f"mulligan card {a - A_BOTTOM}"
        if a < A_UNIT:
            return f"at {SITE_NAMES[a - A_SITE]}"
        if a < A_DISTANCE:
            return self._unit_verb() + " " + self._unit_name(a - A_UNIT)
        if a < A_TARGET:
            n = a - A_DISTANCE + 1
            return f"travel {n} site" + "s" * (n > 1)
        if a < A_FACE:
            return f"enter combat with {self._unit_name(a - A_TARGET)}"
        if a == A_FACE:
            return "enter combat with the player"
        return f"block {self._unit_name(a - A_BLOCK)}"

    def _play_name(self, int a):
        """``play X``, and the library its copy came from when the hand holds X from
        both (C18)."""
        cdef CSData* s = &self.s
        cdef int d = (a - A_PLAY) % MAX_DESIGNS, lib = (a - A_PLAY) // MAX_DESIGNS
        cdef int p = self.c_current_player()
        if d >= NUM_DESIGNS:
            return f"play card {a - A_PLAY}"
        if p >= 0 and s.hand[p][PRIMARY][d] and s.hand[p][SECONDARY][d]:
            return f"play {CARD_NAMES[d]} from the {LIBRARIES[lib]} library"
        return f"play {CARD_NAMES[d]}"

    def _unit_verb(self):
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        if f != NULL and f.kind == FR_SACRIFICE:
            return "sacrifice"
        if s.step == ST_BLOCK:
            return "blocker"
        if s.step == ST_ACT and s.act == ACT_TRAVEL:
            return "traveller"
        if s.step == ST_ACT and s.act == ACT_COMBAT:
            return "attacker"
        return "unit"

    def _unit_name(self, int u):
        cdef Unit* x = &self.s.units[u]
        if x.owner < 0:
            return f"#{u}"
        return f"{CARD_NAMES[x.design]}#{u}@{SITE_NAMES[x.site]}"

    def _action_kind(self, int a):
        name = self._action_name(a)
        if self.c_current_player() == CHANCE:
            return "draw"
        first = name.split()[0]
        return {"at": "site", "blocker": "block", "pass": "pass", "keep": "keep",
                "no": "pass"}.get(first, first)

    def _view(self, viewer):
        return _view(self, viewer)

    def _fill_tensor(self, float[:] out, int viewer):
        _fill_tensor(self, out, viewer)


# --- positions as plain data --------------------------------------------------------------

cdef list _names(const uint8_t* counts):
    return [CARD_NAMES[d] for d in range(NUM_DESIGNS) for _ in range(counts[d])]


def _view(CreatureShrinesState st, viewer):
    cdef CSData* s = &st.s
    cdef Frame* f
    cdef int p, u, i
    players = []
    for p in range(2):
        mine = viewer is None or viewer == p
        pl = {"life": s.life[p], "points": s.points[p],
              "shrine": CARD_NAMES[s.shrine[p]],
              "shrine_home": bool(s.shrine_home[p]), "marks": s.marks[p],
              "sources": {CARD_NAMES[SOURCE_OF[c]]: s.sources[p][c] for c in range(COLOURS)
                          if s.sources[p][c]},
              "tapped": {CARD_NAMES[SOURCE_OF[c]]: s.tapped[p][c] for c in range(COLOURS)
                         if s.tapped[p][c]},
              "pool": {COLOUR_NAMES[c]: s.pool[p][c] for c in range(COLOURS) if s.pool[p][c]},
              "graveyard": _names(s.grave[p]),
              "hand_size": hand_size(s, p),
              "hand_secondary_size": pile_size(&s.hand[p][SECONDARY][0], 0, MAX_DESIGNS),
              "primary_size": pile_size(&s.library[p][PRIMARY][0], 0, MAX_DESIGNS)
              + s.bottom_len[p],
              "secondary_size": pile_size(&s.library[p][SECONDARY][0], 0, MAX_DESIGNS)}
        if mine:
            pl["hand"] = _names(s.hand[p][PRIMARY])
            pl["hand_secondary"] = _names(s.hand[p][SECONDARY])
            pl["primary"] = _names(s.library[p][PRIMARY])
            pl["secondary"] = _names(s.library[p][SECONDARY])
            pl["bottom"] = [CARD_NAMES[s.bottom[p][i]] for i in range(s.bottom_len[p])]
        players.append(pl)
    units = []
    for u in range(MAX_UNITS):
        x = &s.units[u]
        if x.owner < 0:
            continue
        unit = {"slot": u, "card": CARD_NAMES[x.design], "owner": x.owner,
                "site": SITE_NAMES[x.site]}
        if x.damage:
            unit["damage"] = x.damage
        for flag, name in ((U_TAPPED, "tapped"), (U_NEW, "new"), (U_TRAVELLED, "travelled"),
                           (U_FROZEN, "frozen")):
            if x.flags & flag:
                unit[name] = True
        if x.flags & U_ATTACKING:
            unit["target"] = "player" if x.target == FACE else x.target
        if x.blocks != NONE:
            unit["blocks"] = x.blocks
        units.append(unit)
    view = {"mode": MODES[s.mode], "turn": s.turn, "active": s.active, "act": ACTS[s.act],
            "step": STEPS[s.step], "players": players, "units": units,
            "source_played": bool(s.source_played)}
    if s.winner != NONE:
        view["winner"] = "draw" if s.winner == DRAW else s.winner
    if s.step == ST_MULLIGAN or s.step == ST_DRAW and s.after_draws <= AFTER_SETUP:
        view["mulligan"] = {"player": s.mull_player, "left": s.mulligans_left}
    if s.step == ST_DRAW or s.step == ST_DRAW_CHOICE:
        view["drawing"] = {"player": s.draw_player, "library": LIBRARIES[s.draw_library],
                           "left": s.draws_left, "then": AFTERS[s.after_draws]}
    if s.step == ST_PRIORITY:
        view["priority_then"] = "next act" if s.resume == RESUME_NEXT_ACT else "act"
    frames = []
    for i in range(s.stack.depth):
        f = &s.stack.frames[i]
        frame = {"choose": FRAMES[f.kind], "player": f.player}
        if f.kind == FR_SITE:
            frame["card"] = "shrine" if f.data[0] < 0 else CARD_NAMES[f.data[0]]
            frame["library"] = LIBRARIES[f.data[1]]
        elif f.kind == FR_SACRIFICE:
            frame["site"] = SITE_NAMES[f.data[0]]
        else:
            frame["unit"] = f.data[0]
        frames.append(frame)
    if frames:
        view["choosing"] = frames
    return view


LAYOUT = TensorLayout(("flow", 4 + len(STEPS) + 2), ("players", 2 * 10),
                      ("hand", MAX_DESIGNS), ("region", SITES * 2 * 4),
                      ("graveyards", 2 * MAX_DESIGNS))


def _fill_tensor(CreatureShrinesState st, float[:] v, int viewer):
    cdef CSData* s = &st.s
    cdef int o, p, q, u, d, k
    o = LAYOUT.offset("flow")
    v[o + s.act] = 1
    v[o + 4 + s.step] = 1
    v[o + 4 + len(STEPS)] = s.active == viewer
    v[o + 5 + len(STEPS)] = s.turn / (2.0 * s.max_turns)
    o = LAYOUT.offset("players")
    for k in range(2):
        p = viewer if k == 0 else 1 - viewer
        q = o + 10 * k
        v[q] = s.life[p] / 20.0
        v[q + 1] = s.points[p] / 20.0
        v[q + 2] = s.shrine_home[p]
        v[q + 3] = s.marks[p] / 10.0
        v[q + 4] = pile_size(&s.sources[p][0], 0, COLOURS) / 10.0
        v[q + 5] = pile_size(&s.tapped[p][0], 0, COLOURS) / 10.0
        v[q + 6] = hand_size(s, p) / 10.0
        v[q + 7] = pile_size(&s.library[p][PRIMARY][0], 0, MAX_DESIGNS) / 40.0
        v[q + 8] = pile_size(&s.library[p][SECONDARY][0], 0, MAX_DESIGNS) / 20.0
        v[q + 9] = pile_size(&s.hand[p][SECONDARY][0], 0, MAX_DESIGNS) / 10.0
    o = LAYOUT.offset("hand")
    for d in range(NUM_DESIGNS):
        v[o + d] = hand_count(s, viewer, d) / 3.0
    o = LAYOUT.offset("region")
    for u in range(MAX_UNITS):
        if s.units[u].owner < 0:
            continue
        q = o + (s.units[u].site * 2 + (s.units[u].owner != viewer)) * 4
        v[q] += 0.25
        v[q + 1] += DESIGNS[s.units[u].design].strength / 10.0
        v[q + 2] += lethal(&st.s, u) / 10.0
        v[q + 3] += (s.units[u].flags & U_TAPPED) != 0
    o = LAYOUT.offset("graveyards")
    for k in range(2):
        p = viewer if k == 0 else 1 - viewer
        for d in range(NUM_DESIGNS):
            v[o + k * MAX_DESIGNS + d] = s.grave[p][d] / 3.0


def render(view):
    """The region as a grid, player 1's Melee row on top, then each player's state."""
    grid = {}
    for unit in view["units"]:
        mark = "*" if unit.get("tapped") else ""
        grid.setdefault(unit["site"], []).append(f"{unit['owner']}:{unit['card'][:10]}{mark}")
    lines = []
    for r in range(ROWS - 1, -1, -1):
        cells = [",".join(grid.get(f"{r}{c}", [])) or "." for c in "abc"]
        lines.append(f"  {r} | " + " | ".join(f"{c:<24}" for c in cells))
    for p, pl in enumerate(view["players"]):
        hand = pl.get("hand")
        shown = "?" if hand is None else " ".join(hand + pl["hand_secondary"]) or "-"
        home = f"shrine home ({pl['marks']} marks)" if pl["shrine_home"] else "shrine out"
        sources = sum(pl["sources"].values())
        lines.append(f"  player {p}: life {pl['life']} points {pl['points']} | {home} | "
                     f"sources {sources} ({sum(pl['tapped'].values())} tapped) | "
                     f"hand {pl['hand_size']}: {shown}")
    lines.append(f"  turn {view['turn'] + 1}, player {view['active']}'s {view['act']} act")
    return "\n".join(lines)


# --- building positions ------------------------------------------------------------------

_KNOWN_KEYS = ("mode", "turn", "active", "act", "step", "players", "units", "winner",
               "source_played", "mulligan", "drawing", "priority_then", "choosing",
               "current_player")
_PLAYER_KEYS = ("life", "points", "shrine", "shrine_home", "marks", "sources", "tapped",
                "pool", "graveyard", "hand", "hand_secondary", "primary", "secondary",
                "bottom", "hand_size", "hand_secondary_size", "primary_size",
                "secondary_size")
_UNIT_KEYS = ("slot", "card", "owner", "site", "damage", "tapped", "new", "travelled",
              "frozen", "target", "blocks")
_FLAGS = {"tapped": U_TAPPED, "new": U_NEW, "travelled": U_TRAVELLED, "frozen": U_FROZEN}
SOURCE_OF = {DESIGNS[c.id].colour: c.id for c in CARDSET.cards if TYPES[c.type] == "source"}
SOURCE_NAMES = [CARD_NAMES[SOURCE_OF[c]] for c in range(COLOURS)]


def deck_counts(name):
    """Every card of a deck by design: its libraries and its Shrine."""
    deck = CARDSET.decks[name]
    counts = [0] * NUM_DESIGNS
    for card, n in deck.primary + deck.secondary:
        counts[card.id] += n
    counts[deck.shrine.id] += 1
    return counts


def _reset(CreatureShrinesState st, game):
    cdef CSData* s = &st.s
    cdef int u, p
    st.game = game
    memset(s, 0, sizeof(CSData))
    params = game.params
    s.mode = MODES.index(params["mode"])
    s.max_turns = params["max_turns"]
    s.winner = NONE
    s.draw_player = NONE
    s.mull_player = NONE
    for p, key in enumerate(("deck0", "deck1")):
        s.shrine[p] = CARDSET.decks[params[key]].shrine.id
        s.shrine_home[p] = 1
        start = 15 if s.mode == M_CONQUEST else 20     # (C5, C8)
        s.life[p] = start if uses_life(s) else 0
    for u in range(MAX_UNITS):
        s.units[u].owner = NONE


def _fill_libraries(CreatureShrinesState st):
    cdef CSData* s = &st.s
    cdef int p
    for p, key in enumerate(("deck0", "deck1")):
        deck = CARDSET.decks[st.game.params[key]]
        for card, n in deck.primary:
            s.library[p][PRIMARY][card.id] += n
        for card, n in deck.secondary:
            s.library[p][SECONDARY][card.id] += n


def _kinds(names, where):
    """Designs from card names; the kit's Cards reads upper-case names, these are not."""
    if not isinstance(names, list):
        raise StateFormatError(f"{where} must be a list of cards, not {names!r}")
    for i, name in enumerate(names):
        if name not in CARD_INDEX:
            raise StateFormatError(f"{where}[{i}]: {name!r} is not a card ({CARDS.hint})")
    return [CARD_INDEX[name] for name in names]


def _counts(names, where):
    counts = [0] * NUM_DESIGNS
    for k in _kinds(names, where):
        counts[k] += 1
    return counts


def _colours(table, where, names):
    if not isinstance(table, dict) or not set(table) <= set(names) \
            or not all(type(n) is int and 0 <= n <= 60 for n in table.values()):
        raise StateFormatError(f"{where} must map {', '.join(names)} to counts")
    return [table.get(c, 0) for c in names]


def _from_dict(game, desc):
    cdef CreatureShrinesState st = CreatureShrinesState.__new__(CreatureShrinesState)
    cdef CSData* s = &st.s
    cdef int p, c, d, u
    cdef Frame* f
    _reset(st, game)
    if desc.get("mode", MODES[s.mode]) != MODES[s.mode]:
        raise StateFormatError(f"mode {desc['mode']!r} is not the game's ({MODES[s.mode]})")
    s.turn = read_int(desc, "turn", 0, 2 * s.max_turns, 0)
    s.active = read_int(desc, "active", 0, 1, s.turn % 2)
    s.act = read_name(desc.get("act", "first"), ACTS, "act")
    s.step = read_name(desc.get("step", "act"), STEPS, "step")
    s.source_played = read_bool(desc, "source_played", False)
    winner = desc.get("winner")
    if (winner is None) != (s.step != ST_OVER) or winner not in (None, 0, 1, "draw"):
        raise StateFormatError("winner: 0, 1 or \"draw\" exactly when step is 'over'")
    s.winner = NONE if winner is None else DRAW if winner == "draw" else winner
    total = [[0] * NUM_DESIGNS for _ in range(2)]
    for p, pl in enumerate(read_players(desc, 2, _PLAYER_KEYS)):
        where = f"players[{p}]."
        s.life[p] = read_int(pl, "life", 0, 999, s.life[p], where)
        s.points[p] = read_int(pl, "points", 0, 999, 0, where)
        if pl.get("shrine", CARD_NAMES[s.shrine[p]]) != CARD_NAMES[s.shrine[p]]:
            raise StateFormatError(f"{where}shrine: the deck's Shrine is "
                                   f"{CARD_NAMES[s.shrine[p]]}")
        s.shrine_home[p] = read_bool(pl, "shrine_home", True, where)
        s.marks[p] = read_int(pl, "marks", 0, 20, 0, where)
        for key, arr in (("sources", 0), ("tapped", 1), ("pool", 2)):
            names = COLOUR_NAMES if key == "pool" else SOURCE_NAMES
            for c, n in enumerate(_colours(pl.get(key, {}), where + key, names)):
                if arr == 0:
                    s.sources[p][c] = n
                    total[p][SOURCE_OF[c]] += n
                elif arr == 1:
                    s.tapped[p][c] = n
                else:
                    s.pool[p][c] = n
        for c in range(COLOURS):
            if s.tapped[p][c] > s.sources[p][c]:
                raise StateFormatError(f"{where}tapped: more tapped Sources than in play")
        if s.shrine_home[p]:
            total[p][s.shrine[p]] += 1
        for key in ("hand", "hand_secondary", "primary", "secondary", "graveyard"):
            if key in pl and pl[key] is None:
                raise StateFormatError(f"{where}{key}: an observation is not a position")
            counts = _counts(pl.get(key, []), where + key)
            for d in range(NUM_DESIGNS):
                total[p][d] += counts[d]
                if key == "hand":
                    s.hand[p][PRIMARY][d] = counts[d]
                elif key == "hand_secondary":
                    s.hand[p][SECONDARY][d] = counts[d]
                elif key == "primary":
                    s.library[p][PRIMARY][d] = counts[d]
                elif key == "secondary":
                    s.library[p][SECONDARY][d] = counts[d]
                else:
                    s.grave[p][d] = counts[d]
        bottom = _kinds(pl.get("bottom", []), where + "bottom")
        if len(bottom) > MAX_BOTTOM:
            raise StateFormatError(f"{where}bottom: at most {MAX_BOTTOM} cards")
        for i, d in enumerate(bottom):
            s.bottom[p][i] = d
            total[p][d] += 1
        s.bottom_len[p] = len(bottom)
    _read_units(st, desc.get("units", []), total)
    for p, key in enumerate(("deck0", "deck1")):
        full = deck_counts(game.params[key])
        CARDS.check_all(total[p], full, f"player {p}'s deck {game.params[key]}")
    _read_flow(st, desc)
    return st


def _read_units(CreatureShrinesState st, units, total):
    cdef CSData* s = &st.s
    cdef int u
    if not isinstance(units, list):
        raise StateFormatError("units must be a list of dicts")
    for i, unit in enumerate(units):
        where = f"units[{i}]."
        if not isinstance(unit, dict) or set(unit) - set(_UNIT_KEYS):
            raise StateFormatError(f"units[{i}] is a dict with keys among {_UNIT_KEYS}")
        u = read_int(unit, "slot", 0, MAX_UNITS - 1, i, where)
        if s.units[u].owner >= 0:
            raise StateFormatError(f"{where}slot {u} is taken twice")
        d = _kinds([unit.get("card")], where + "card")[0]
        t = DESIGNS[d].type
        if t != T_CREATURE and t != T_STRUCTURE:
            raise StateFormatError(f"{where}card: only creatures and structures are on "
                                   f"the region in this engine, not {CARD_NAMES[d]}")
        p = read_int(unit, "owner", 0, 1, 0, where)
        s.units[u].owner = p
        s.units[u].design = d
        s.units[u].site = read_name(unit.get("site"), SITE_NAMES, where + "site")
        s.units[u].damage = read_int(unit, "damage", 0, DESIGNS[d].resilience - 1, 0, where)
        s.units[u].flags = sum(flag for name, flag in _FLAGS.items()
                               if read_bool(unit, name, False, where))
        s.units[u].target = NONE
        s.units[u].blocks = NONE
        target = unit.get("target")
        if target is not None:
            s.units[u].flags |= U_ATTACKING
            s.units[u].target = FACE if target == "player" \
                else read_int(unit, "target", 0, MAX_UNITS - 1, 0, where)
        if unit.get("blocks") is not None:
            s.units[u].blocks = read_int(unit, "blocks", 0, MAX_UNITS - 1, 0, where)
        if d == s.shrine[p]:
            if s.shrine_home[p]:
                raise StateFormatError(f"{where}card: player {p}'s Shrine is on the region, "
                                       "so players[{p}].shrine_home is false")
        if not DESIGNS[d].token:
            total[p][d] += 1
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].target not in (NONE, FACE) \
                and s.units[s.units[u].target].owner < 0:
            raise StateFormatError(f"units: slot {u} targets an empty slot")


def _read_flow(CreatureShrinesState st, desc):
    cdef CSData* s = &st.s
    cdef Frame* f
    cdef int buf[NUM_ACTIONS]
    mull = desc.get("mulligan")
    if mull is not None:
        if not isinstance(mull, dict):
            raise StateFormatError("mulligan: a dict with player and left")
        s.mull_player = read_int(mull, "player", 0, 1, 0, "mulligan.")
        s.mulligans_left = read_int(mull, "left", 0, 4, 0, "mulligan.")
    elif s.step == ST_MULLIGAN:
        raise StateFormatError("step 'mulligan' needs mulligan: the player and how many left")
    drawing = desc.get("drawing")
    if drawing is not None:
        if not isinstance(drawing, dict) or s.step not in (ST_DRAW, ST_DRAW_CHOICE):
            raise StateFormatError("drawing: a dict, only in steps 'draw' and 'draw_choice'")
        s.draw_player = read_int(drawing, "player", 0, 1, 0, "drawing.")
        s.draw_library = read_name(drawing.get("library", "primary"), LIBRARIES,
                                   "drawing.library")
        s.draws_left = read_int(drawing, "left", 0, OPENING_HAND, 1, "drawing.")
        s.after_draws = read_name(drawing.get("then", "turn"), AFTERS, "drawing.then")
        if s.step == ST_DRAW and (not s.draws_left or not pile_size(
                &s.library[s.draw_player][s.draw_library][0], 0, MAX_DESIGNS)):
            raise StateFormatError("drawing: a draw needs cards left to draw and a library "
                                   "holding them")
    elif s.step in (ST_DRAW, ST_DRAW_CHOICE):
        raise StateFormatError(f"step {STEPS[s.step]!r} needs drawing")
    then = desc.get("priority_then")
    if (then is not None) != (s.step == ST_PRIORITY):
        raise StateFormatError("priority_then: 'act' or 'next act', exactly in step 'priority'")
    if then is not None:
        s.resume = read_name(then, ["act", "next act"], "priority_then")
    frames = desc.get("choosing", [])
    if not isinstance(frames, list) or len(frames) > 8:
        raise StateFormatError("choosing: a list of pending choices")
    kinds = {name: k for k, name in sorted(FRAMES.items())}
    for i, fr in enumerate(frames):
        where = f"choosing[{i}]."
        if not isinstance(fr, dict) or set(fr) - {"choose", "player", "card", "library", "site",
                                                  "unit"}:
            raise StateFormatError(f"{where[:-1]}: a dict with choose, player, and the "
                                   "card, site or unit the choice is for")
        kind = read_name(fr.get("choose"), list(kinds), where + "choose") + FR_SITE
        f = stack_push(&s.stack, kind, read_int(fr, "player", 0, 1, 0, where), 0)
        if kind == FR_SITE:
            f.data[0] = NONE if fr.get("card") == "shrine" \
                else _kinds([fr.get("card")], where + "card")[0]
            f.data[1] = read_name(fr.get("library", "primary"), LIBRARIES, where + "library")
        elif kind == FR_SACRIFICE:
            f.data[0] = read_name(fr.get("site"), SITE_NAMES, where + "site")
        else:
            f.data[0] = read_int(fr, "unit", 0, MAX_UNITS - 1, 0, where)
            if s.units[f.data[0]].owner < 0:
                raise StateFormatError(f"{where}unit: slot {f.data[0]} is empty")
        f.source = f.data[0]
    if s.step == ST_OVER:
        return
    if s.step != ST_DRAW and decisions(s, buf) == 0:
        raise StateFormatError("the position offers its player nothing to do")


class CreatureShrinesGame(Game):
    """Creature Shrines for two players, each with a shipped deck.

    >>> game = CreatureShrinesGame(deck0="green", deck1="purple")
    >>> str(game)
    'creature_shrines(deck0=green,deck1=purple)'
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 14)
    """

    name = "creature_shrines"
    long_name = "Creature Shrines"
    parameters = {"mode": "standard", "deck0": "red", "deck1": "blue", "max_turns": 60}
    limits = {"max_turns": (1, 1000, "a cap on the game's length (C9)")}
    tested_variants = ({"mode": "rush"}, {"mode": "king_of_the_hill"},
                       {"mode": "imperial"}, {"mode": "conquest"},
                       {"deck0": "yellow", "deck1": "purple"},
                       {"deck0": "green", "deck1": "red"})
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = MAX_DESIGNS
    cards = CARDS
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    # The region as a grid of sites named row then pathway ("0a"), row 0 being player
    # 0's Melee row: drawn at the foot of the table for player 0, at the top for 1.
    layout = {"status": ("mode", "turn", "active", "act", "step", "winner"),
              "player": ("life", "points", "shrine", "marks", "sources", "tapped", "pool",
                         "hand", "hand_secondary", "hand_size", "graveyard"),
              "table": ("units",),
              "grid": {"key": "units", "at": "site", "rows": ("4", "3", "2", "1", "0"),
                       "columns": ("a", "b", "c"), "flip": True}}
    render = staticmethod(render)

    def _check(self):
        if self.params["mode"] not in MODES:
            raise ParameterError(f"creature_shrines mode must be one of {', '.join(MODES)}, "
                                 f"not {self.params['mode']!r}")
        for key in ("deck0", "deck1"):
            if self.params[key] not in CARDSET.decks:
                raise ParameterError(f"creature_shrines {key} must be a shipped deck: "
                                     f"{', '.join(CARDSET.decks)}; not {self.params[key]!r}")

    @property
    def max_game_length(self):
        # Each turn: a draw choice and draw, and in its acts at most a play and its site
        # per card in hand, a source, and per permanent a travel, an attack, a block and
        # a sacrifice, each with its choice and the opponent's priority windows.
        return 60 + 2 * self.params["max_turns"] * 600

    def new_initial_state(self):
        """Both libraries full, seat 0 about to draw its opening hand: seat 0 plays
        first, and a tournament's seatings give each player both seats (C17)."""
        cdef CreatureShrinesState st = CreatureShrinesState.__new__(CreatureShrinesState)
        _reset(st, self)
        _fill_libraries(st)
        begin_mulligan(&st.s, 0)
        return st

    def _from_dict(self, desc):
        return _from_dict(self, desc)
