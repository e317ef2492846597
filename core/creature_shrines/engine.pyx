# cython: language_level=3, cdivision=True
"""Creature Shrines, under the rulings C1-C10 and the engine's own rulings C11-... of
docs/rules/creature-shrines.md: the rules, chance, determinization, the game's knowledge
and the observation tensor, all in C.  Names, views and reading a position are the
game's, in ``game.pyx``.

A card is its design: the card data (``cards.py``) is compiled at import into
``DESIGNS``, one C record per design, and ``EFFECTS``, every design's effects in one
static table, both shared by every state.  A state holds designs and what changed
(damage, tapped, conditions, Tools attached).  The libraries and hands are counts by
design, a hand split by the library each card came from, so that ``determinize`` deals
each hidden card from the pile it truly left.

Effects run on the kit's decision stack inside the struct (``run_effects`` with one
function, ``run_effect``, switching over the opcodes).  A choice of several decisions (a
card, then its site; a creature, then its distance or its target; an effect's target; a
library; the cards a Swap looks at) is a frame on that stack; ``proceed`` runs the
effects, buries the dead (their Deathwish effects run next), answers every choice with a
single option (C16) and, once the stack is empty, does what ``CSData.pending`` says.

Sites are numbered ``row * 3 + pathway``, rows from player 0's Melee row (0) to player
1's (4); positions and action names write a site as its row and pathway letter, ``0a``
to ``4c``.
"""
from libc.math cimport tanh
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from core.kit.effects cimport (Effect, Frame, STACK_DEPTH, push_effects, run_effects,
                               stack_pop, stack_push, stack_top)
from core.kit.piles cimport (kinds_held, lowest_kind, pile_outcomes, pile_sample, pile_size,
                             win_loss)
from core.state cimport CHANCE, TERMINAL, GameState, Rng, rng_below

from core.creature_shrines.cards import (AREAS, CARDSET, COLOURS as COLOUR_NAMES,
                                         DIRECTIONS, EVENTS as EVENT_NAMES, KEYWORDS,
                                         LIBRARIES, SUBTYPES, TARGETS, TRIGGERS, TYPES)
from core.errors import CardDataError
from core.kit import TensorLayout
from core.kit.carddata import VARIABLE, effect_table

STEPS = ("draw", "mulligan", "draw_choice", "act", "priority", "block", "over")
FRAMES = {0: "effects", FR_SITE: "site", FR_DISTANCE: "distance", FR_TARGET: "target",
          FR_BLOCK: "block", FR_SACRIFICE: "sacrifice", FR_AIM: "aim",
          FR_LIBRARY: "library", FR_DRAW: "draw", FR_SWAP: "swap", FR_HOST: "host",
          FR_SADDLE: "saddle", FR_SPAWN: "spawn", FR_ASSIGN: "assign", FR_XCOST: "x"}
HARMFUL = (OP_DAMAGE, OP_BOUNCE, OP_FREEZE, OP_GROUND, OP_POISON, OP_WEAKEN, OP_DESTROY,
           OP_BANISH)

cdef Effect EFFECTS[MAX_EFFECTS]
cdef uint8_t TOKEN_OF[8]          # the design of each token a ``token`` effect names
cdef uint8_t HARM[16]             # 1: an effect word an opponent's permanent is aimed at


def _compile(cardset):
    """The card data into DESIGNS and EFFECTS, once, at import."""
    global NUM_DESIGNS, NUM_BURSTS
    cdef Design* d
    cdef int i, k
    if len(cardset.cards) > MAX_DESIGNS:
        raise CardDataError(f"the card set has {len(cardset.cards)} designs; the engine "
                            f"holds at most {MAX_DESIGNS}")
    table, spans = effect_table(cardset.cards, EVENT_NAMES)
    if len(table) > MAX_EFFECTS:
        raise CardDataError(f"the card set has {len(table)} effects; the engine holds at "
                            f"most {MAX_EFFECTS}")
    for i, (op, amount, arg, arg2) in enumerate(table):
        EFFECTS[i].op = op
        EFFECTS[i].amount = amount
        EFFECTS[i].arg = arg
        EFFECTS[i].arg2 = arg2
    for card in cardset.cards:
        d = &DESIGNS[card.id]
        d.type = card.type
        d.subtype = card.subtype
        d.area = card.area
        d.trigger = card.trigger
        d.token = card.token
        d.colour = (card.colours.bit_length() - 1) if TYPES[card.type] == "source" else 0
        for i in range(6):
            d.cost[i] = card.cost[i]
        d.cmc = sum(card.cost)
        d.x = card.x
        d.strength = card.strength
        d.resilience = card.resilience
        d.sprint = card.sprint
        d.range = card.range
        d.attach_cost = card.attach_cost
        d.keywords = card.keywords
        for k, (start, end) in enumerate(spans[card.id]):
            d.events[k].start = start
            d.events[k].end = end
        TRAPS[card.id] = SUBTYPES[card.subtype] == "trap"
    token_names = cardset.words.words[cardset.words.ops["token"]].args
    for i, name in enumerate(token_names):
        TOKEN_OF[i] = cardset.tokens[name].id
    for op in HARMFUL:
        HARM[op] = 1
    NUM_DESIGNS = len(cardset.cards)
    NUM_BURSTS = 0
    for i in range(NUM_DESIGNS):
        if DESIGNS[i].subtype == SUB_BURST:
            BURSTS[NUM_BURSTS] = i
            NUM_BURSTS += 1


# Each enum that mirrors a tuple of cards.py, and the place each entry it names has
# there: a tuple reordered under its enum would silently give designs other types,
# keywords or targets, so importing the engine refuses it (check_card_orders).
MIRRORS = (
    ("T_*", "TYPES", {"creature": T_CREATURE, "structure": T_STRUCTURE, "relic": T_RELIC,
                      "area": T_AREA, "source": T_SOURCE, "spell": T_SPELL}),
    ("SUB_*", "SUBTYPES", {"tool": SUB_TOOL, "idol": SUB_IDOL, "trap": SUB_TRAP,
                           "inert": SUB_INERT, "burst": SUB_BURST}),
    ("AR_*", "AREAS", {"site": AR_SITE, "row": AR_ROW, "pathway": AR_PATHWAY}),
    ("TR_*", "TRIGGERS", {"enemy_enters": TR_ENTERS, "enemy_attacks": TR_ATTACKS}),
    ("EV_*", "EVENTS", {"play": EV_PLAY, "upkeep": EV_UPKEEP, "tap": EV_TAP,
                        "deathwish": EV_DEATHWISH, "spring": EV_SPRING}),
    ("TG_*", "TARGETS", {"self": TG_SELF, "ally": TG_ALLY, "enemy": TG_ENEMY,
                         "permanent": TG_PERMANENT, "opponent": TG_OPPONENT,
                         "area": TG_AREA}),
    ("OP_*", "CARDSET.words.ops", {"damage": OP_DAMAGE, "draw": OP_DRAW, "move": OP_MOVE,
                                   "bounce": OP_BOUNCE, "freeze": OP_FREEZE,
                                   "ground": OP_GROUND, "poison": OP_POISON,
                                   "weaken": OP_WEAKEN, "swap": OP_SWAP, "mana": OP_MANA,
                                   "token": OP_TOKEN, "armor": OP_ARMOR, "life": OP_LIFE,
                                   "pump": OP_PUMP, "destroy": OP_DESTROY,
                                   "banish": OP_BANISH}),
    # a keyword's bit, by its place
    ("K_*", "KEYWORDS", {name: bit.bit_length() - 1 for name, bit in (
        ("armor", K_ARMOR), ("bloodless", K_BLOODLESS), ("cleave", K_CLEAVE),
        ("haste", K_HASTE), ("flying", K_FLYING), ("guard", K_GUARD),
        ("immoveable", K_IMMOVEABLE), ("lunge", K_LUNGE), ("protection", K_PROTECTION),
        ("reach", K_REACH), ("saddle", K_SADDLE), ("mount", K_MOUNT),
        ("stationary", K_STATIONARY), ("stomp", K_STOMP), ("quick_attack", K_QUICK),
        ("unstoppable", K_UNSTOPPABLE), ("double_attack", K_DOUBLE))}),
    # a draw's library is its place less one, 0 being any; a Swap's is its place
    ("PRIMARY, SECONDARY", "LIBRARIES", {"any": 0, "primary": PRIMARY + 1,
                                         "secondary": SECONDARY + 1}),
    ("DIR_*", "DIRECTIONS", {"forward": DIR_FORWARD, "back": DIR_BACK, "left": DIR_LEFT,
                             "right": DIR_RIGHT}),
)
# The enums that count the entries of a tuple, and size arrays by it.
COUNTS = (("EVENTS", "EVENTS", EVENTS), ("COLOURS", "COLOURS", COLOURS))
CARD_ORDERS = {"TYPES": TYPES, "SUBTYPES": SUBTYPES, "AREAS": AREAS, "TRIGGERS": TRIGGERS,
               "EVENTS": EVENT_NAMES, "TARGETS": TARGETS,
               "CARDSET.words.ops": tuple(CARDSET.words.ops),
               "KEYWORDS": KEYWORDS, "LIBRARIES": LIBRARIES, "DIRECTIONS": DIRECTIONS,
               "COLOURS": COLOUR_NAMES}


def check_card_orders(orders):
    """Raise ImportError, naming the enum and the entry, where an enum of MIRRORS or
    COUNTS disagrees with ``orders``, cards.py's tuples by name (as ``CARD_ORDERS``
    gives them).

    >>> check_card_orders(dict(CARD_ORDERS, AREAS=("none", "row", "site", "pathway")))
    Traceback (most recent call last):
    ...
    ImportError: engine enum AR_*: 'site' is 1, but cards.AREAS[1] is 'row'
    """
    for enum, name, places in MIRRORS:
        order = orders[name]
        for entry, place in places.items():
            if place >= len(order) or order[place] != entry:
                found = (f"cards.{name}[{place}] is {order[place]!r}" if place < len(order)
                         else f"cards.{name} has {len(order)} entries")
                raise ImportError(f"engine enum {enum}: {entry!r} is {place}, but {found}")
    for enum, name, count in COUNTS:
        if len(orders[name]) != count:
            raise ImportError(f"engine enum {enum}: {count} entries, but cards.{name} "
                              f"has {len(orders[name])}")


check_card_orders(CARD_ORDERS)
assert VARIABLE == X_AMOUNT
_compile(CARDSET)


# --- the region ----------------------------------------------------------------------

cdef inline int forward(int p) noexcept nogil:
    return 1 if p == 0 else -1

cdef inline int melee_row(int p) noexcept nogil:
    return 0 if p == 0 else ROWS - 1

cdef inline int zone_row(int p) noexcept nogil:
    """The row a player's Player Zone would have: just behind their Melee row."""
    return -1 if p == 0 else ROWS

cdef inline bint in_half(int p, int site) noexcept nogil:
    """``p``'s Melee and Range rows: the sites ``p`` controls."""
    return site >= 0 and (row_of(site) < 2 if p == 0 else row_of(site) > 2)

cdef inline bint has(CSData* s, int u, uint32_t keyword) noexcept nogil:
    return s.units[u].keywords & keyword != 0

cdef inline bint blocks_way(CSData* s, int u) noexcept nogil:
    """Creatures and structures hold a site against the other side's movement."""
    cdef int t = DESIGNS[s.units[u].design].type
    return t == T_CREATURE or t == T_STRUCTURE

cdef inline bint alive(CSData* s, int u) noexcept nogil:
    """A creature or structure on the region, not destroyed."""
    return s.units[u].owner >= 0 and blocks_way(s, u) and not s.units[u].flags & U_DYING

cdef int count_on_site(CSData* s, int site, int owner) noexcept nogil:
    """The permanents on ``site`` that count toward its limit (neither tokens nor Tools;
    an Area Effect is no permanent), of ``owner``, or of both if ``owner`` is -1."""
    cdef int u, n = 0
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].site == site and blocks_way(s, u) \
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
    """An Immoveable permanent stops every creature moving onto or off its site, its
    own included: the text says all creatures, so its controller's travel and effects
    are held as the opponent's are (C27)."""
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

cdef bint in_area(int design, int anchor, int site) noexcept nogil:
    """Whether an Area Effect of ``design`` anchored at ``anchor`` lies over ``site``."""
    cdef int a = DESIGNS[design].area
    if site < 0:
        return False
    if a == AR_ROW:
        return row_of(site) == row_of(anchor)
    if a == AR_PATHWAY:
        return path_of(site) == path_of(anchor)
    return site == anchor

cdef bint covers(CSData* s, int a, int site) noexcept nogil:
    """Whether Area Effect ``a`` acts on ``site``: it lies over it, and no newer Area
    Effect of its subtype does (the newest wins an overlap)."""
    cdef int v, sub = DESIGNS[s.units[a].design].subtype
    if not in_area(s.units[a].design, s.units[a].site, site):
        return False
    for v in range(MAX_UNITS):
        if s.units[v].owner >= 0 and s.units[v].age > s.units[a].age \
                and is_type(s, v, T_AREA) and DESIGNS[s.units[v].design].subtype == sub \
                and in_area(s.units[v].design, s.units[v].site, site):
            return False
    return True


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

cdef int pay_seen(CSData* s, int p, const int8_t* cost) noexcept nogil:
    """Pay as ``pay`` does, and say what both players saw it take: the mana of each
    colour, from the pool or by tapping, 3 bits a colour (C31)."""
    cdef int c, seen = 0
    cdef int before[COLOURS]
    for c in range(COLOURS):
        before[c] = s.tapped[p][c] - s.pool[p][c]
    pay(s, p, cost)
    for c in range(COLOURS):
        seen |= (s.tapped[p][c] - s.pool[p][c] - before[c]) << (3 * c)
    return seen

cdef bint paid_for(int d, int paid) noexcept nogil:
    """Whether mana ``paid`` (3 bits a colour) could be the cost of design ``d``: its
    colours each covered and nothing left over; 0, nothing recorded, fits any (C31)."""
    cdef int c, n, total = 0
    if paid == 0:
        return True
    for c in range(COLOURS):
        n = paid >> (3 * c) & 7
        if n < DESIGNS[d].cost[c + 1]:
            return False
        total += n
    return total == DESIGNS[d].cmc

cdef int8_t MARK_COST[6]
MARK_COST[:] = [2, 0, 0, 0, 0, 0]
cdef int8_t GENERIC[10][6]        # a generic cost of 0 to 9: attaching, mounting
for _n in range(10):
    GENERIC[_n][:] = [_n, 0, 0, 0, 0, 0]


# --- libraries and hands (C10, C12) -------------------------------------------------------

cdef inline int hand_count(CSData* s, int p, int d) noexcept nogil:
    return s.hand[p][PRIMARY][d] + s.hand[p][SECONDARY][d]

cdef int hand_size(CSData* s, int p) noexcept nogil:
    return pile_size(&s.hand[p][PRIMARY][0], 0, MAX_DESIGNS) \
        + pile_size(&s.hand[p][SECONDARY][0], 0, MAX_DESIGNS)

cdef int known_draw(CSData* s, int p, int lib) noexcept nogil:
    """The card a draw takes without chance, out of the library, as a lib_card: the top
    card a Swap kept there, or once the shuffled part is gone, the highest known card
    under it; NONE when chance decides or the library is empty."""
    cdef int d, k
    if s.top_len[p][lib]:
        s.top_len[p][lib] -= 1
        return s.top[p][lib][s.top_len[p][lib]]
    if shuffled(s, p, lib) or not s.bottom_len[p][lib]:
        return NONE
    d = s.bottom[p][lib][0]
    s.bottom_len[p][lib] -= 1
    for k in range(s.bottom_len[p][lib]):
        s.bottom[p][lib][k] = s.bottom[p][lib][k + 1]
    return d

cdef void play_from_hand(CSData* s, int p, int lib, int d) noexcept nogil:
    s.hand[p][lib][d] -= 1
    if s.hand_known[p][lib][d] > s.hand[p][lib][d]:
        s.hand_known[p][lib][d] = s.hand[p][lib][d]

cdef void start_draws(CSData* s, int p, int library, int n, int after) noexcept nogil:
    s.draw_player = p
    s.draw_library = library
    s.draws_left = n
    s.after_draws = after
    continue_draws(s)

cdef void continue_draws(CSData* s) noexcept nogil:
    """The next draw, or what follows the draws once they are done or the library is
    empty (an empty library is simply not drawn from: C12)."""
    cdef int p = s.draw_player, lib = s.draw_library, c
    while s.draws_left:
        c = known_draw(s, p, lib)
        if c == NONE:
            if shuffled(s, p, lib):
                s.step = ST_DRAW
                return
            break
        s.hand[p][card_origin(c)][card_design(c)] += 1
        s.draws_left -= 1
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
        for k in range(s.bottom_len[p][PRIMARY]):
            s.library[p][PRIMARY][card_design(s.bottom[p][PRIMARY][k])] += 1
        s.bottom_len[p][PRIMARY] = 0
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
    cdef bint primary = library_size(s, p, PRIMARY) > 0
    cdef bint secondary = library_size(s, p, SECONDARY) > 0
    s.after_draws = after
    s.draw_player = p
    if primary and secondary:
        # nothing of an earlier draw stays in the position while the library is chosen
        s.draw_library = PRIMARY
        s.draws_left = 0
        s.step = ST_DRAW_CHOICE
    else:
        start_draws(s, p, PRIMARY if primary else SECONDARY, 1, after)

cdef void begin_mulligan(CSData* s, int p) noexcept nogil:
    """(C10) The first player may mulligan up to 2 cards, the second up to 4."""
    s.mull_player = p
    s.mulligans_left = 2 if p == 0 else 4
    start_draws(s, p, PRIMARY, OPENING_HAND, AFTER_MULLIGAN)

cdef void push_draw(CSData* s, int p, int lib, int n, int to_swap) noexcept nogil:
    cdef Frame* f = stack_push(&s.stack, FR_DRAW, p, NONE)
    if f != NULL:
        f.data[0] = n
        f.data[1] = lib
        f.data[2] = to_swap

cdef void take_card(CSData* s, Frame* f, int c) noexcept nogil:
    """A card an effect's draw takes, the lib_card ``c``: into the hand of the library
    it was dealt from, or before the Swap below it."""
    cdef Frame* swap
    cdef int k
    if f.data[2]:
        swap = &s.stack.frames[s.stack.depth - 2]
        for k in range(1, 4):
            if swap.data[k] == NONE:
                swap.data[k] = c
                break
    else:
        s.hand[f.player][card_origin(c)][card_design(c)] += 1
    f.data[0] -= 1
    if f.data[0] <= 0:
        stack_pop(&s.stack)


# --- the turn --------------------------------------------------------------------------

cdef void begin_turn(CSData* s, int p) noexcept nogil:
    cdef int u, c
    s.active = p
    s.act = ACT_FIRST          # its upkeep and draw come before the First Act
    s.source_played = 0
    for u in range(MAX_UNITS):
        if s.units[u].owner == p:
            s.units[u].flags &= ~(U_TAPPED | U_NEW | U_TRAVELLED)
    for c in range(COLOURS):
        s.tapped[p][c] = 0
    if s.shrine_home[p] and s.marks[p]:
        s.marks[p] -= 1        # (C6)
    s.cursor = 0
    s.pending = P_UPKEEP
    proceed(s)

cdef void next_upkeep(CSData* s) noexcept nogil:
    """The upkeep effects of the active player's cards, one card at a time in slot
    order, then the turn's draw."""
    cdef int u, p = s.active
    cdef Frame* f
    for u in range(s.cursor, MAX_UNITS):
        if s.units[u].owner == p and not s.units[u].flags & (U_FACE_DOWN | U_DYING):
            f = push_effects(&s.stack, DESIGNS[s.units[u].design].events[EV_UPKEEP], p,
                             s.units[u].design)
            if f != NULL:
                f.data[0] = u
                f.data[1] = s.units[u].site
                s.cursor = u + 1
                s.pending = P_UPKEEP
                return
    s.cursor = 0
    if s.turn == 0:
        begin_act(s, ACT_FIRST)     # the first player draws at the end of this turn
    else:
        draw_one(s, p, AFTER_TURN_DRAW)

cdef void begin_act(CSData* s, int act) noexcept nogil:
    s.act = act
    s.step = ST_ACT

cdef void next_act(CSData* s) noexcept nogil:
    if s.act == ACT_COMBAT:
        # the attackers on the region say whether an attack was declared: a position
        # dict holds them, and no flag apart from them can be lost in a round trip
        if any_block(s):
            s.step = ST_BLOCK
            return
        end_blocks(s)
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
    """Creatures heal, structures keep their damage but what a pump absorbed, pumps end,
    pools empty, points are scored (C8), and the turn passes or the game ends (C9)."""
    cdef int u, p = s.active, c
    cdef Unit* x
    for u in range(MAX_UNITS):
        x = &s.units[u]
        if x.owner < 0:
            continue
        if is_type(s, u, T_CREATURE):
            x.damage = 0
        elif x.pump:
            # a structure loses its temporary resilience before its own
            x.damage = x.damage - x.pump if x.damage > x.pump else 0
        if x.pump:
            x.pump = 0
            refresh(s, u)
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
    """(C7) After an action or a passed act of the active player the opponent gets
    priority; ``resume`` says what follows once the exchange ends."""
    if s.winner != NONE:
        return
    s.resume = resume
    give_priority(s, 1 - s.active)

cdef void give_priority(CSData* s, int p) noexcept nogil:
    """``p`` may act at Burst speed, or pass.  C7 (revised): the engine passes for them
    only when what their opponent sees already shows they can do nothing; a skip that
    hung on their hidden hand would tell the opponent what it holds."""
    s.priority = p
    if burst_visible(s, p):
        s.step = ST_PRIORITY
    else:
        pass_priority(s)

cdef void pass_priority(CSData* s) noexcept nogil:
    """(C28) The player with priority passes and the exchange ends, but for the
    travelling player after a trigger during travel: the opponent's turn to respond
    comes next (C29)."""
    if s.resume == RESUME_TRIGGER and s.priority == s.active:
        s.resume = RESUME_NEXT_ACT
        give_priority(s, 1 - s.active)
    elif s.resume == RESUME_BLOCKED and s.priority == s.active:
        s.resume = RESUME_STRIKE
        give_priority(s, 1 - s.active)
    elif s.resume == RESUME_BLOCKED or s.resume == RESUME_STRIKE:
        begin_damage(s)
    elif s.resume == RESUME_NEXT_ACT:
        next_act(s)
    elif s.resume == RESUME_TRAVEL:
        begin_travel(s)
    else:
        s.step = ST_ACT

cdef void respond(CSData* s) noexcept nogil:
    """(C28) The player with priority acted: the other may respond in turn.  When that
    is the active player and the exchange goes back to their act, the act itself is
    their window, where they may do all a window offers and more, and whatever they do
    there gives the opponent priority again: a window before it would only add a pass
    that changes nothing."""
    cdef int p = 1 - s.priority
    if s.resume == RESUME_TRIGGER:
        s.resume = RESUME_NEXT_ACT      # the opponent's turn to respond is this one
    elif s.resume == RESUME_BLOCKED:
        s.resume = RESUME_STRIKE
    if p == s.active and s.resume == RESUME_ACT:
        s.step = ST_ACT
    else:
        give_priority(s, p)

cdef int unseen(CSData* s, int p, int lib, int d) noexcept nogil:
    """The cards of design ``d`` from ``p``'s library ``lib`` that ``p``'s opponent has
    not seen: in the library, on top of or under either library having been dealt from
    this one, in the hand unknown to them, before a Swap of ``p``'s.  For a card that
    is never played face down this is the deck's count less the copies in sight, so the
    opponent knows it."""
    cdef int n = s.library[p][lib][d] + s.hand[p][lib][d] - s.hand_known[p][lib][d], k, i
    cdef int c = lib_card(lib, d), at
    cdef Frame* f
    for at in range(2):
        for k in range(s.top_len[p][at]):
            n += s.top[p][at][k] == c
        for k in range(s.bottom_len[p][at]):
            n += s.bottom[p][at][k] == c
    for i in range(s.stack.depth):
        f = &s.stack.frames[i]
        if f.kind == FR_SWAP and f.player == p:
            for k in range(1, 4):
                n += f.data[k] == c
    return n

cdef inline void unknown(CSData* s, int q, int c) noexcept nogil:
    """The lib_card ``c`` of ``q``'s, unseen by the other, back among the unseen cards
    of the library it was dealt from, for a determinization."""
    s.library[q][card_origin(c)][card_design(c)] += 1

cdef inline int redeal_known(CSData* s, int q, int c, Rng* rng) noexcept nogil:
    """A card for the place of ``q``'s lib_card ``c``, dealt from the unseen cards of
    the library ``c`` was dealt from (C10, C35)."""
    cdef int lib = card_origin(c)
    cdef int d = pile_sample(&s.library[q][lib][0], 0, MAX_DESIGNS, rng)
    s.library[q][lib][d] -= 1
    return lib_card(lib, d)

cdef bint burst_visible(CSData* s, int p) noexcept nogil:
    """(C7 revised) Whether what ``p``'s opponent sees leaves ``p`` something to do at
    Burst speed: a time mark they can pay off, a Burst card they are known to hold and
    can play, or, while their hand holds cards the opponent has not seen, a Burst card
    of their deck that may be among them and that they could play now."""
    cdef int d, i, lib, hidden
    if s.shrine_home[p] and s.marks[p] > 0 and can_pay(s, p, MARK_COST):
        return True
    for lib in range(2):
        hidden = pile_size(&s.hand[p][lib][0], 0, MAX_DESIGNS) \
            - pile_size(&s.hand_known[p][lib][0], 0, MAX_DESIGNS)
        for i in range(NUM_BURSTS):
            d = BURSTS[i]
            if (s.hand_known[p][lib][d] or hidden and unseen(s, p, lib, d)) \
                    and playable(s, p, d):
                return True
    return False


# --- winning (C5, C8, C9) ---------------------------------------------------------------

cdef void finish(CSData* s, int winner) noexcept nogil:
    s.winner = winner
    s.step = ST_OVER
    s.stack.depth = 0
    s.pending = P_NONE

cdef void hurt_player(CSData* s, int p, int n) noexcept nogil:
    if not uses_life(s) or n <= 0:
        return
    s.life[p] -= n
    if s.life[p] <= 0:
        s.life[p] = 0
        finish(s, 1 - p)

cdef void gain_life(CSData* s, int p, int n) noexcept nogil:
    """Life gained; in Conquest it is the shared count, and 30 wins (C8)."""
    if not uses_life(s):
        return
    s.life[p] = s.life[p] + n if s.life[p] + n < 999 else 999
    if s.mode == M_CONQUEST and s.life[p] >= 30:
        finish(s, p)

cdef int hill_points(CSData* s, int u) noexcept nogil:
    """(C8) What ``u`` scores its owner at the end of their turn: 1 for a creature or
    structure on the Neutral row, and 1 more for every full 5 of its strength or
    resilience."""
    cdef Unit* x = &s.units[u]
    cdef int big
    if x.owner < 0 or x.site < 0 or row_of(x.site) != NEUTRAL_ROW or not blocks_way(s, u):
        return 0
    big = x.strength if x.strength > x.resilience else x.resilience
    return 1 + big // 5

cdef void score_hill(CSData* s, int p) noexcept nogil:
    """(C8) At the end of a turn its player scores what their permanents on the Neutral
    row score; in Conquest the points join the shared count."""
    cdef int u, n = 0
    if s.mode < M_HILL:
        return
    for u in range(MAX_UNITS):
        if s.units[u].owner == p:
            n += hill_points(s, u)
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


# --- permanents: what they are now, damage, leaving -------------------------------------

cdef void refresh(CSData* s, int u) noexcept nogil:
    """A unit's strength, resilience, Sprint, Range and abilities from its design, its
    rider (the mounted pair keeps the larger stat line and both abilities), its Tools,
    its pump (a structure gains only resilience) and its conditions (Ground takes
    Flying, Lunge and Sprint; spent Protection is gone)."""
    cdef Unit* x = &s.units[u]
    cdef Design* d = &DESIGNS[x.design]
    cdef Design* r
    cdef int v
    x.strength = d.strength
    x.resilience = d.resilience
    x.sprint = d.sprint
    x.range = d.range
    x.keywords = d.keywords
    if x.rider:
        r = &DESIGNS[x.rider - 1]
        if r.strength + r.resilience > d.strength + d.resilience:
            x.strength = r.strength
            x.resilience = r.resilience
        x.sprint = x.sprint if x.sprint > r.sprint else r.sprint
        x.range = x.range if x.range > r.range else r.range
        x.keywords |= r.keywords
    for v in range(MAX_UNITS):
        if s.units[v].owner >= 0 and s.units[v].host == u:
            r = &DESIGNS[s.units[v].design]
            x.strength += r.strength
            x.resilience += r.resilience
            x.sprint += r.sprint
            x.range += r.range
            x.keywords |= r.keywords
    if d.type == T_STRUCTURE:
        x.strength = 0
    else:
        x.strength += x.pump
    x.resilience += x.pump
    if x.flags & U_GROUNDED:
        x.keywords &= ~(K_FLYING | K_LUNGE)
        x.sprint = 0
    if x.flags & U_UNPROTECTED:
        x.keywords &= ~K_PROTECTION

cdef int put_unit(CSData* s, int p, int d, int site, int flags) noexcept nogil:
    """A card arrives in a free slot (the caller made sure of one); its slot."""
    cdef int u = free_slot(s)
    cdef Unit* x = &s.units[u]
    x.owner = p
    x.design = d
    x.site = site
    x.damage = 0
    x.flags = flags
    x.target = NONE
    x.blocks = NONE
    x.host = NONE
    x.rider = 0
    x.pump = 0
    x.travel = 0
    x.paid = 0
    s.age += 1
    x.age = s.age
    refresh(s, u)
    x.armor = (x.keywords & K_ARMOR) != 0
    return u

cdef inline int lethal(CSData* s, int v) noexcept nogil:
    cdef int left = s.units[v].resilience - s.units[v].damage
    return left if left > 0 else 0

cdef int guard_of(CSData* s, int v) noexcept nogil:
    """(C3 Guard) A Guard of ``v``'s side on its site takes the damage meant for it; we
    always redirect, so that no damage waits on a decision (C19)."""
    cdef int g
    if has(s, v, K_GUARD):
        return v
    for g in range(MAX_UNITS):
        if g != v and alive(s, g) and s.units[g].owner == s.units[v].owner \
                and s.units[g].site == s.units[v].site and has(s, g, K_GUARD):
            return g
    return v

cdef void hurt(CSData* s, int v, int n, bint combat) noexcept nogil:
    """Damage to a permanent: a Guard beside it takes it; Armor absorbs one instance; a
    Weakened permanent dies of any damage, any other once its damage reaches its
    resilience, but combat damage never destroys a Bloodless creature (C3)."""
    cdef Unit* x
    if n <= 0 or not alive(s, v):
        return
    v = guard_of(s, v)
    x = &s.units[v]
    if x.armor:
        x.armor -= 1
        return
    x.damage = x.damage + n if x.damage + n < 100 else 100
    if combat and has(s, v, K_BLOODLESS):
        return
    if x.flags & U_WEAKENED or x.damage >= x.resilience:
        destroy(s, x)

cdef void card_home(CSData* s, int p, int d, int lib, int home) noexcept nogil:
    """Where a card that leaves the region goes: a Shrine to its Shrine Zone (with time
    marks equal to its converted mana cost when it dies or is banished; none when
    bounced: C20, C42), a token nowhere, a bounced card to its owner's hand, known to
    both, a banished one to its owner's Banishment pile, public and out of the game
    (C42), any other to the Graveyard."""
    if d == s.shrine[p]:
        s.shrine_home[p] = 1
        s.marks[p] = 0 if home == HOME_HAND else DESIGNS[d].cmc
    elif DESIGNS[d].token:
        return
    elif home == HOME_HAND:
        s.hand[p][lib][d] += 1
        s.hand_known[p][lib][d] += 1
    elif home == HOME_BANISH:
        s.banished[p][d] += 1
    else:
        s.grave[p][d] += 1

cdef void leave(CSData* s, int u, int home) noexcept nogil:
    """A unit leaves the region.  Its Tools stay on the site, unattached, unless they
    cost nothing to attach or the site is on its opponent's half (then they go to the
    Graveyard); a rider leaves with its mount."""
    cdef Unit* x = &s.units[u]
    cdef int p = x.owner, v, host = x.host
    x.owner = NONE
    x.travel = 0
    for v in range(MAX_UNITS):
        if s.units[v].owner < 0:
            continue
        if s.units[v].blocks == u:
            s.units[v].blocks = NONE
        if s.units[v].target == u:
            s.units[v].target = NONE
        if s.units[v].host == u:
            s.units[v].host = NONE
            if DESIGNS[s.units[v].design].attach_cost == 0 \
                    or in_half(1 - s.units[v].owner, x.site):
                leave(s, v, HOME_GRAVE)
    if x.rider:
        card_home(s, p, x.rider - 1, (x.flags & U_RIDER_SECONDARY) != 0, home)
    card_home(s, p, x.design, (x.flags & U_SECONDARY) != 0, home)
    if host >= 0 and s.units[host].owner >= 0:
        refresh(s, host)

cdef void push_from_site(CSData* s, int d, int event, int p, int site) noexcept nogil:
    """Card ``d``'s ``event`` effects on the stack, run from ``site`` by no unit: the
    card has left the region (a Deathwish, a sprung Trap)."""
    cdef Frame* f = push_effects(&s.stack, DESIGNS[d].events[event], p, d)
    if f != NULL:
        f.data[0] = NONE
        f.data[1] = site

cdef inline void destroy(CSData* s, Unit* x) noexcept nogil:
    """``x`` is destroyed: it leaves the region when the destroyed are next buried."""
    x.flags |= U_DYING
    s.burial = 1

cdef void bury(CSData* s) noexcept nogil:
    """The destroyed leave the region, and their Deathwish effects (a rider's too) go
    on the stack, each from the site it died on (C3 Deathwish)."""
    cdef int u, d, p, site, rider
    if not s.burial:
        return
    s.burial = 0
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].flags & U_DYING:
            d = s.units[u].design
            p = s.units[u].owner
            site = s.units[u].site
            rider = s.units[u].rider
            s.units[u].flags &= ~U_DYING
            leave(s, u, HOME_GRAVE)
            push_from_site(s, d, EV_DEATHWISH, p, site)
            if rider:
                push_from_site(s, rider - 1, EV_DEATHWISH, p, site)

cdef bint any_dying(CSData* s) noexcept nogil:
    cdef int u
    if not s.burial:
        return False
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].flags & U_DYING:
            return True
    return False

cdef void relocate(CSData* s, int u, int site) noexcept nogil:
    """``u`` and the Tools on it to ``site``."""
    cdef int v
    s.units[u].site = site
    for v in range(MAX_UNITS):
        if s.units[v].owner >= 0 and s.units[v].host == u:
            s.units[v].site = site

cdef void spring(CSData* s, int t) noexcept nogil:
    """A Trap's requirement is met: it turns face up, its effects run over its area,
    and it goes to the Graveyard."""
    cdef int d = s.units[t].design, p = s.units[t].owner, site = s.units[t].site
    s.units[t].flags &= ~U_FACE_DOWN
    leave(s, t, HOME_GRAVE)
    push_from_site(s, d, EV_SPRING, p, site)

cdef bint check_traps(CSData* s, int u, int trigger) noexcept nogil:
    """Springs every face-down Trap of ``u``'s opponent whose printed requirement ``u``
    meets on its site; whether any did.  C39: each requirement of cards.TRIGGERS names
    an opposing creature (entering a site of the Trap's area, or entering combat from
    one): a structure springs none."""
    cdef int t
    cdef bint sprung = False
    if not is_type(s, u, T_CREATURE):
        return False
    for t in range(MAX_UNITS):
        if s.units[t].owner == 1 - s.units[u].owner and s.units[t].flags & U_FACE_DOWN \
                and DESIGNS[s.units[t].design].trigger == trigger \
                and in_area(s.units[t].design, s.units[t].site, s.units[u].site):
            spring(s, t)
            sprung = True
    return sprung

cdef bint arrive(CSData* s, int u) noexcept nogil:
    """A creature or structure came onto its site: Traps there spring (whether any
    did), and the site's limit is kept."""
    cdef bint sprung = check_traps(s, u, TR_ENTERS)
    # The sacrifice goes on the stack above the sprung Traps' effects, so it is chosen
    # first and they resolve on what is left (C44).
    check_limit(s, s.units[u].site, s.units[u].owner)
    return sprung

cdef void check_limit(CSData* s, int site, int mover) noexcept nogil:
    """The site limit: over 4 counted permanents, the player with more of them there
    sacrifices one (a decision), and again until 4 are left.  Level, which only
    permanents arriving together can make (C36), ``mover``, the player whose
    permanents arrived, sacrifices (C45)."""
    cdef int q, mine, theirs
    cdef Frame* fr
    if site < 0 or count_on_site(s, site, NONE) <= SITE_LIMIT:
        return
    mine = count_on_site(s, site, 0)
    theirs = count_on_site(s, site, 1)
    q = 0 if mine > theirs else 1 if theirs > mine else mover if mover >= 0 else s.active
    fr = stack_push(&s.stack, FR_SACRIFICE, q, NONE)
    if fr != NULL:
        fr.data[0] = site
        fr.data[1] = mover

cdef int spawn(CSData* s, int p, int d, int n, int site) noexcept nogil:
    """``n`` tokens of design ``d`` for ``p`` on ``site``, as many as there are free
    slots; how many came."""
    cdef int k, u
    for k in range(n):
        if free_slot(s) < 0:
            return k
        u = put_unit(s, p, d, site, U_NEW)
        check_traps(s, u, TR_ENTERS)
    return n


# --- effects -----------------------------------------------------------------------------

cdef bint aimable(CSData* s, int p, int target, int v) noexcept nogil:
    """Whether an effect of ``p``'s aimed at ``target`` (ally: a creature of p's;
    enemy: an opposing permanent; permanent: any) may pick ``v``."""
    if not alive(s, v):
        return False
    if target == TG_ALLY:
        return s.units[v].owner == p and is_type(s, v, T_CREATURE)
    if target == TG_ENEMY:
        return s.units[v].owner == 1 - p
    return target == TG_PERMANENT

cdef bint can_aim(CSData* s, int p, int target) noexcept nogil:
    cdef int v
    for v in range(MAX_UNITS):
        if aimable(s, p, target, v):
            return True
    return False

cdef bint aims_met(CSData* s, int p, int d, int event) noexcept nogil:
    """Every effect of ``d``'s ``event`` that picks a permanent has one to pick: a card
    is not played, nor tapped, for an effect with nothing to act on (C21)."""
    cdef int i
    cdef Effect* e
    for i in range(DESIGNS[d].events[event].start, DESIGNS[d].events[event].end):
        e = &EFFECTS[i]
        if uses_target(e.op) and TG_ALLY <= e.arg <= TG_PERMANENT and not can_aim(s, p, e.arg):
            return False
    return True

cdef inline bint uses_target(int op) noexcept nogil:
    return op == OP_DAMAGE or op == OP_MOVE or op == OP_BOUNCE or op == OP_FREEZE \
        or op == OP_GROUND or op == OP_POISON or op == OP_WEAKEN or op == OP_ARMOR \
        or op == OP_PUMP or op == OP_DESTROY or op == OP_BANISH

cdef void move_unit(CSData* s, int u, int n, int way, int p) noexcept nogil:
    """Moving by an effect: up to ``n`` sites in direction ``way`` seen from ``p``, the
    effect's controller, each site one it may leave and enter; it stops where it can go
    no further (C22).  A Grounded permanent moves only by travelling."""
    cdef int site = s.units[u].site, r, c, k
    if s.units[u].flags & U_GROUNDED or not can_leave(s, u):
        return
    for k in range(n):
        r = row_of(site)
        c = path_of(site)
        if way == DIR_FORWARD:
            r += forward(p)
        elif way == DIR_BACK:
            r -= forward(p)
        elif way == DIR_LEFT:
            c -= forward(p)
        else:
            c += forward(p)
        if r < 0 or r >= ROWS or c < 0 or c >= PATHWAYS or not can_enter(s, u, r * PATHWAYS + c):
            break
        site = r * PATHWAYS + c
    if site != s.units[u].site:
        relocate(s, u, site)
        arrive(s, u)

cdef void affect(CSData* s, int p, const Effect* e, int v, int n) noexcept nogil:
    """Effect ``e`` of ``p``'s on permanent ``v``, ``n`` its amount."""
    cdef Unit* x = &s.units[v]
    cdef int op = e.op
    if not alive(s, v):
        return
    if op == OP_DAMAGE:
        hurt(s, v, n, False)
    elif op == OP_MOVE:
        move_unit(s, v, n, e.arg2, p)
    elif op == OP_BOUNCE:
        leave(s, v, HOME_HAND)
    elif op == OP_FREEZE:
        x.flags |= U_FROZEN
    elif op == OP_GROUND:
        x.flags |= U_GROUNDED
        refresh(s, v)
    elif op == OP_POISON:
        x.flags |= U_POISONED
    elif op == OP_WEAKEN:
        x.flags |= U_WEAKENED
    elif op == OP_ARMOR:
        # Armor does not stack: it absorbs the next ``amount`` instances (C23)
        if x.armor < n:
            x.armor = n
    elif op == OP_PUMP:
        # an X makes pumps of any size: kept within what a position holds
        x.pump = x.pump + n if x.pump + n < 99 else 99
        refresh(s, v)
    elif op == OP_DESTROY:
        destroy(s, x)
    elif op == OP_BANISH:
        leave(s, v, HOME_BANISH)

cdef void aim(CSData* s, Frame* f, int v) noexcept nogil:
    """The aimed effect lands on ``v``; on an opposing permanent with Protection it
    lands on nothing, and the Protection is spent (C3 Protection)."""
    cdef int p = f.player
    if s.units[v].owner != p and has(s, v, K_PROTECTION):
        s.units[v].flags |= U_UNPROTECTED
        refresh(s, v)
        return
    affect(s, p, &EFFECTS[f.pc], v, amount(&EFFECTS[f.pc], f))

cdef inline int amount(const Effect* e, Frame* f) noexcept nogil:
    """An effect's amount: its printed number, or for X the X paid for its card, which
    the card's effects frame and a choice it pushes carry in ``data[2]`` (C40)."""
    return f.data[2] if e.amount == X_AMOUNT else e.amount

cdef void run_effect(void* state, const Effect* table, int index, Frame* f) noexcept nogil:
    """One effect of a running card: the interpreter's one switch over the words."""
    cdef CSData* s = <CSData*>state
    cdef const Effect* e = &table[index]
    cdef int p = f.player, op = e.op, v, lib, data0 = f.data[0], data1 = f.data[1]
    cdef int source = f.source, n = amount(e, f), x = f.data[2]
    cdef Frame* g
    if s.winner != NONE:
        return
    if e.amount == X_AMOUNT and n <= 0:
        return              # (C40) X was 0: an effect of X does nothing
    if op == OP_DRAW:
        if e.arg == 0 and library_size(s, p, PRIMARY) and library_size(s, p, SECONDARY):
            g = stack_push(&s.stack, FR_LIBRARY, p, source)
            if g != NULL:
                g.data[0] = n
        else:
            lib = e.arg - 1 if e.arg else (PRIMARY if library_size(s, p, PRIMARY) else SECONDARY)
            push_draw(s, p, lib, n, 0)
    elif op == OP_SWAP:
        g = stack_push(&s.stack, FR_SWAP, p, source)
        if g != NULL:
            g.data[0] = e.arg
            g.data[1] = g.data[2] = g.data[3] = NONE
            push_draw(s, p, e.arg, e.amount, 1)
    elif op == OP_MANA:
        s.pool[p][e.arg] = s.pool[p][e.arg] + e.amount if s.pool[p][e.arg] < 200 else 200
    elif op == OP_LIFE:
        gain_life(s, p, n)
    elif op == OP_TOKEN:
        if data1 >= 0:
            spawn(s, p, TOKEN_OF[e.arg], e.amount, data1)
        else:
            g = stack_push(&s.stack, FR_SPAWN, p, source)
            if g != NULL:
                g.pc = index
    elif e.arg == TG_OPPONENT:
        if op == OP_DAMAGE:
            hurt_player(s, 1 - p, n)
    elif e.arg == TG_SELF:
        if data0 >= 0 and s.units[data0].design == source:
            affect(s, p, e, data0, n)
    elif e.arg == TG_AREA:
        for v in range(MAX_UNITS):
            if alive(s, v) and (in_area(source, data1, s.units[v].site) if data0 < 0
                                else covers(s, data0, s.units[v].site)):
                affect(s, p, e, v, n)
    elif can_aim(s, p, e.arg):
        g = stack_push(&s.stack, FR_AIM, p, source)
        if g != NULL:
            g.pc = index
            g.data[0] = data0
            g.data[1] = data1
            g.data[2] = x


# --- playing cards ----------------------------------------------------------------------

cdef bint site_open(CSData* s, int p, int d, int site) noexcept nogil:
    """Where a design may be played: a creature on its player's Melee row (in Rush, not
    beside an opposing creature unless it flies or is Unstoppable: C8); a structure on
    the Melee or Range row, where no structure stands; a Tool with an attach cost and a
    Trap anywhere; a Terrain or Weather over a row (offered at its pathway a site) or a
    pathway (offered at its Neutral site) or a site."""
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
    if t == T_AREA:
        if DESIGNS[d].area == AR_ROW:
            return path_of(site) == 0
        if DESIGNS[d].area == AR_PATHWAY:
            return r == 2
        return True
    if t == T_RELIC:
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

cdef bint has_creature(CSData* s, int p) noexcept nogil:
    return can_aim(s, p, TG_ALLY)

cdef inline bint inert_time(CSData* s, int p) noexcept nogil:
    return s.step == ST_ACT and p == s.active and (s.act == ACT_FIRST or s.act == ACT_FINAL)

cdef bint playable(CSData* s, int p, int d) noexcept nogil:
    """Whether ``p`` may play design ``d`` from hand now: a Source once a turn; a Burst
    spell whenever they may act, anything else in their own First or Final Act; paid
    for, with a place to go and something for each of its aimed effects (C21)."""
    cdef Design* x = &DESIGNS[d]
    if x.type == T_SOURCE:
        return inert_time(s, p) and not s.source_played
    if x.subtype != SUB_BURST and not inert_time(s, p):
        return False
    if not can_pay(s, p, x.cost) or not aims_met(s, p, d, EV_PLAY):
        return False
    if x.type == T_SPELL:
        return True
    if free_slot(s) < 0:
        return False
    if x.type == T_RELIC:
        return x.subtype == SUB_IDOL or x.attach_cost or has_creature(s, p)
    return any_site(s, p, d)

cdef bint shrine_playable(CSData* s, int p) noexcept nogil:
    cdef int d = s.shrine[p]
    return s.shrine_home[p] and s.marks[p] == 0 and can_pay(s, p, DESIGNS[d].cost) \
        and any_site(s, p, d) and free_slot(s) >= 0

cdef Frame* run_play(CSData* s, int p, int d, int u) noexcept nogil:
    """A card's play effects, from unit ``u`` (or none: a spell); their frame, NULL if
    it has none."""
    cdef Frame* f = push_effects(&s.stack, DESIGNS[d].events[EV_PLAY], p, d)
    if f != NULL:
        f.data[0] = u
        f.data[1] = s.units[u].site if u >= 0 else NONE
    return f

cdef int x_most(CSData* s, int p, int d) noexcept nogil:
    """(C40) The largest X ``p`` can pay for design ``d`` now, at most the largest
    number a decision offers: what is left of their mana past the rest of its cost."""
    cdef int8_t cost[6]
    cdef int x = 0
    memcpy(cost, DESIGNS[d].cost, sizeof(cost))
    while x + 1 < NUMBERS:
        cost[0] = DESIGNS[d].cost[0] + x + 1
        if not can_pay(s, p, cost):
            break
        x += 1
    return x

cdef void cast(CSData* s, int p, int d, int x) noexcept nogil:
    """A spell is paid for, X being ``x`` (C40), goes to the Graveyard, and its effects
    run."""
    cdef int8_t cost[6]
    cdef Frame* f
    memcpy(cost, DESIGNS[d].cost, sizeof(cost))
    cost[0] += x
    pay(s, p, cost)
    s.grave[p][d] += 1
    f = run_play(s, p, d, NONE)
    if f != NULL:
        f.data[2] = x

cdef void play_card(CSData* s, int p, int lib, int d) noexcept nogil:
    """``p`` plays ``d`` from the hand of library ``lib``: paid now; a spell's effects
    run and it goes to the Graveyard; an Idol lies beside the region; a Tool that costs
    nothing to attach joins a creature; anything else waits for its site."""
    cdef Design* x = &DESIGNS[d]
    cdef Frame* f
    cdef int u
    cdef int paid
    play_from_hand(s, p, lib, d)
    if x.type == T_SOURCE:
        s.sources[p][x.colour] += 1
        s.source_played = 1
        return
    if x.type == T_SPELL and x.x:
        # (C40) X is chosen as the spell is paid for
        f = stack_push(&s.stack, FR_XCOST, p, d)
        if f != NULL:
            f.data[0] = d
            f.data[1] = lib
        return
    if x.type == T_SPELL:
        cast(s, p, d, 0)
        return
    paid = pay_seen(s, p, x.cost)
    if x.subtype == SUB_IDOL:
        u = put_unit(s, p, d, NONE, lib * U_SECONDARY)
        run_play(s, p, d, u)
    elif x.subtype == SUB_TOOL and not x.attach_cost:
        f = stack_push(&s.stack, FR_HOST, p, d)
        if f != NULL:
            f.data[0] = NONE
            f.data[1] = d
            f.data[2] = lib
    else:
        f = stack_push(&s.stack, FR_SITE, p, d)
        if f != NULL:
            f.data[0] = d
            f.data[1] = lib
            f.data[2] = paid if TRAPS[d] else 0

cdef void place(CSData* s, int p, int d, int lib, int site, int paid) noexcept nogil:
    """A paid card takes its site (C6: the Shrine, ``d`` -1).  An Area Effect removes
    those of its subtype it covers whole; a Trap lies face down, with what its cost took
    in sight (C31)."""
    cdef int u, v, flags = U_NEW | lib * U_SECONDARY
    cdef Design* x
    if d < 0:
        d = s.shrine[p]
        s.shrine_home[p] = 0
        flags = U_NEW
    x = &DESIGNS[d]
    if x.type == T_AREA:
        for v in range(MAX_UNITS):
            if s.units[v].owner >= 0 and is_type(s, v, T_AREA) \
                    and DESIGNS[s.units[v].design].subtype == x.subtype \
                    and whole(d, site, s.units[v].design, s.units[v].site):
                leave(s, v, HOME_GRAVE)
        u = put_unit(s, p, d, site, flags | (U_FACE_DOWN if x.subtype == SUB_TRAP else 0))
        s.units[u].paid = paid
        return
    u = put_unit(s, p, d, site, flags)
    run_play(s, p, d, u)
    if x.type != T_RELIC:
        arrive(s, u)

cdef bint whole(int d, int site, int e, int anchor) noexcept nogil:
    """Whether an Area Effect ``d`` at ``site`` lies over every site of ``e`` at
    ``anchor``."""
    cdef int x
    for x in range(SITES):
        if in_area(e, anchor, x) and not in_area(d, site, x):
            return False
    return True

cdef void attach(CSData* s, int tool, int v) noexcept nogil:
    s.units[tool].host = v
    relocate(s, v, s.units[v].site)
    refresh(s, v)


# --- tapping and mounting ---------------------------------------------------------------

cdef bint can_tap(CSData* s, int u) noexcept nogil:
    """A permanent with tap effects, untapped and not Frozen, in its controller's First
    or Final Act (C24); a creature not in its first turn unless it has Haste."""
    cdef Unit* x = &s.units[u]
    cdef Design* d = &DESIGNS[x.design]
    if x.owner != s.active or d.events[EV_TAP].start == d.events[EV_TAP].end:
        return False
    if x.flags & (U_TAPPED | U_FROZEN | U_FACE_DOWN):
        return False
    if d.type == T_CREATURE and x.flags & U_NEW and not has(s, u, K_HASTE):
        return False
    return aims_met(s, x.owner, x.design, EV_TAP)

cdef bint can_attach(CSData* s, int t) noexcept nogil:
    """A Tool of the active player's lying on a site, its attach cost paid, joins a
    creature of theirs there."""
    cdef Unit* x = &s.units[t]
    cdef int v
    if x.owner != s.active or DESIGNS[x.design].subtype != SUB_TOOL or x.host >= 0 \
            or x.site < 0 or not can_pay(s, x.owner, GENERIC[DESIGNS[x.design].attach_cost]):
        return False
    for v in range(MAX_UNITS):
        if alive(s, v) and s.units[v].owner == x.owner and is_type(s, v, T_CREATURE) \
                and s.units[v].site == x.site:
            return True
    return False

cdef inline bint near(int a, int b) noexcept nogil:
    """Within one site: the same site or one beside, ahead or behind."""
    cdef int dr = row_of(a) - row_of(b), dc = path_of(a) - path_of(b)
    return dr * dr + dc * dc <= 1

cdef bint can_saddle(CSData* s, int rider, int v) noexcept nogil:
    """The rider moves onto the saddle's site, which mounting is (C37): as any move
    other than travel, off a site it may leave onto one it may enter (an Immoveable
    permanent, or an opposing creature or structure, forbids it), and never while
    Grounded."""
    if not (v != rider and alive(s, v) and s.units[v].owner == s.units[rider].owner
            and has(s, v, K_SADDLE) and not s.units[v].rider
            and near(s.units[v].site, s.units[rider].site)):
        return False
    return s.units[v].site == s.units[rider].site \
        or not s.units[rider].flags & U_GROUNDED and can_leave(s, rider) \
        and can_enter(s, rider, s.units[v].site)

cdef bint can_mount(CSData* s, int u) noexcept nogil:
    """(C3 Saddle/Mount) A creature that may Mount, of the active player, with 2 to pay
    and a Saddle of theirs within one site (C25)."""
    cdef int v
    if s.units[u].owner != s.active or not alive(s, u) or not has(s, u, K_MOUNT) \
            or s.units[u].rider or not can_pay(s, s.active, GENERIC[MOUNT_COST]):
        return False
    for v in range(MAX_UNITS):
        if can_saddle(s, u, v):
            return True
    return False

cdef bint rides_with(CSData* s, int p, int d, int e) noexcept nogil:
    """(C3 Saddle/Mount, C30) Whether creature ``d``, being played by ``p``, may mount
    with ``e`` as it comes: a creature of ``p``'s of the opposite status (a Saddle for
    one that may Mount, or the other way round), not mounted yet, within one site of a
    site where ``d`` may be played."""
    cdef uint32_t k = DESIGNS[d].keywords
    cdef int site
    if DESIGNS[d].type != T_CREATURE or not alive(s, e) or s.units[e].owner != p \
            or not is_type(s, e, T_CREATURE) or s.units[e].rider:
        return False
    if not (k & K_MOUNT and has(s, e, K_SADDLE) or k & K_SADDLE and has(s, e, K_MOUNT)):
        return False
    for site in range(SITES):
        # C37: played beside its partner, it moves onto the partner's site to mount, off
        # a site it may leave onto one it may enter, as any move
        if near(site, s.units[e].site) and site_open(s, p, d, site) \
                and (site == s.units[e].site
                     or passable(s, p, k, site) and passable(s, p, k, s.units[e].site)):
            return True
    return False

cdef inline bint passable(CSData* s, int p, uint32_t keywords, int site) noexcept nogil:
    """Whether a creature of ``p``'s with ``keywords`` may move off or onto ``site``:
    no Immoveable permanent there, and no opposing creature or structure, unless it is
    Unstoppable, or (of those) a flyer and none of them is."""
    if locked(s, site):
        return False
    return keywords & K_UNSTOPPABLE or not enemy_holds(s, site, p, keywords & K_FLYING)

cdef void ride(CSData* s, int p, int d, int lib, int e) noexcept nogil:
    """(C30) A creature played to mount with ``e``: the two are one creature at once,
    on ``e``'s site, for nothing more than the card's cost; ``e`` carries the new card
    (the pair keeps the larger stat line, C25) and is new this turn, as the card is.
    Its play effects run from the pair, and it enters the site.  The card keeps the
    library it came from, ``lib``, for when it goes back to the hand."""
    if d < 0:
        d = s.shrine[p]
        s.shrine_home[p] = 0
        lib = PRIMARY
    s.units[e].rider = d + 1
    s.units[e].flags |= U_NEW | lib * U_RIDER_SECONDARY
    refresh(s, e)
    run_play(s, p, d, e)
    arrive(s, e)

cdef void mount(CSData* s, int rider, int v) noexcept nogil:
    """The two become one creature on the saddle's site: the rider's card rides along,
    its Tools move to the pair."""
    cdef int t
    s.units[v].rider = s.units[rider].design + 1
    s.units[v].flags |= s.units[rider].flags & (U_TAPPED | U_NEW)
    if s.units[rider].flags & U_SECONDARY:
        s.units[v].flags |= U_RIDER_SECONDARY
    for t in range(MAX_UNITS):
        if s.units[t].owner >= 0 and s.units[t].host == rider:
            s.units[t].host = v
            s.units[t].site = s.units[v].site
    s.units[rider].owner = NONE
    refresh(s, v)


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
    return 1 + s.units[u].sprint

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

cdef int declared_reach(CSData* s, int u, int n) noexcept nogil:
    """How far a declared traveller goes now: its declared distance from where it
    stands, or as far short of it as it can go (C22), none once Frozen (C29)."""
    if s.units[u].flags & U_FROZEN or not can_leave(s, u):
        return 0
    while n > 0 and not travel_ok(s, u, n):
        n -= 1
    return n

cdef void begin_travel(CSData* s) noexcept nogil:
    """(C29, C36) The declarations are done and the opponent has had priority: every
    declared creature travels at once, each its declared distance from where it stands
    (or as far short of it as it can go), its way judged before any of them moves.
    Once all have moved, Traps spring and each site's limit is kept."""
    cdef int u, n, site
    cdef int dest[MAX_UNITS]
    cdef bint sprung = False
    for u in range(MAX_UNITS):
        dest[u] = NONE
        if s.units[u].owner == s.active and s.units[u].travel:
            n = declared_reach(s, u, s.units[u].travel)
            if n:
                dest[u] = s.units[u].site + n * forward(s.active) * PATHWAYS
            s.units[u].travel = 0
    for u in range(MAX_UNITS):
        if dest[u] != NONE:
            relocate(s, u, dest[u])
    for u in range(MAX_UNITS):
        if dest[u] != NONE and s.units[u].owner >= 0 and check_traps(s, u, TR_ENTERS):
            sprung = True
    for site in range(SITES):
        for u in range(MAX_UNITS):
            if dest[u] == site:
                check_limit(s, site, s.active)
                break
    s.pending = P_TRAVEL_SPRUNG if sprung else P_TRAVEL
    proceed(s)

cdef void travel_done(CSData* s, bint sprung) noexcept nogil:
    """The travellers have arrived: a trigger during the travel (a Trap sprang) gives
    the travelling player priority, then the opponent (C29), and the Combat Act
    follows."""
    if sprung:
        s.resume = RESUME_TRIGGER
        give_priority(s, s.active)
    else:
        next_act(s)


# --- combat ----------------------------------------------------------------------------

cdef int attack_range(CSData* s, int u) noexcept nogil:
    return 1 + s.units[u].range

cdef bint can_hit(CSData* s, int u, int v) noexcept nogil:
    """Whether attacker ``u`` may enter combat with permanent ``v``: on its pathway,
    from its own site to its attacking range ahead; a flyer only by a creature with
    Flying, Reach or Lunge."""
    cdef int p = s.units[u].owner, d
    if s.units[v].owner != 1 - p or not alive(s, v):
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

cdef inline bint face_in_reach(CSData* s, int u) noexcept nogil:
    """C38: the opposing Player Zone within ``u``'s attacking range now."""
    cdef int p = s.units[u].owner
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
    """(C14) Blocker ``b`` may stop attacker ``a``: a creature of the defender, tapped
    or not (C34), that is not itself targeted, on ``a``'s pathway between ``a`` and its
    target (the attacking range being used)."""
    cdef int p = s.units[a].owner, d, reach
    if not s.units[a].flags & U_ATTACKING or s.units[a].target == NONE:
        return False
    if s.units[b].owner != 1 - p or not is_type(s, b, T_CREATURE):
        return False
    # C34: tapped is not among those who may not block
    if s.units[b].blocks != NONE or targeted(s, b):
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

cdef inline int power(CSData* s, int u) noexcept nogil:
    """Combat damage ``u`` deals: none when Poisoned."""
    return 0 if s.units[u].flags & U_POISONED else s.units[u].strength

cdef void strike_unit(CSData* s, int a, int v, int n) noexcept nogil:
    """``a`` deals ``n`` combat damage to ``v``; with Cleave, as much to every other
    permanent on ``v``'s site, its own player's included (C32), but itself."""
    cdef int w, site = s.units[v].site
    hurt(s, v, n, True)
    if has(s, a, K_CLEAVE) and n > 0:
        for w in range(MAX_UNITS):
            if w != v and w != a and alive(s, w) and s.units[w].site == site:
                hurt(s, w, n, True)

cdef inline bint in_phase(CSData* s, int u, bint quick, uint64_t fallen) noexcept nogil:
    """Whether ``u`` deals combat damage in this phase, and still stood as the phase
    began (blows in one phase fall at once): a Quick Attacker in the Precombat Act
    only, one with Double Attack in both (C41), any other in regular combat."""
    cdef bint strikes = has(s, u, K_QUICK | K_DOUBLE) if quick else not has(s, u, K_QUICK)
    return strikes and s.units[u].owner >= 0 and not fallen >> u & 1

cdef inline int distance_to(CSData* s, int a, int b) noexcept nogil:
    return distance_ahead(s.units[a].owner, row_of(s.units[a].site), row_of(s.units[b].site))

cdef bint in_reach(CSData* s, int u, int v) noexcept nogil:
    """C38: whether ``u`` may deal combat damage to ``v`` now: on its pathway, from its
    own site to its attacking range ahead, wherever either stood when targets were
    declared."""
    cdef int d
    if s.units[v].owner < 0 or path_of(s.units[v].site) != path_of(s.units[u].site):
        return False
    d = distance_ahead(s.units[u].owner, row_of(s.units[u].site), row_of(s.units[v].site))
    return 0 <= d <= attack_range(s, u)

cdef uint64_t fallen_now(CSData* s) noexcept nogil:
    """The permanents struck down and not yet gone: a phase's blows fall at once, so
    what fell in the Precombat Act stays, without striking, until combat is over."""
    cdef uint64_t fallen = 0
    cdef int u
    if not s.burial:
        return fallen
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0 and s.units[u].flags & U_DYING:
            fallen |= (<uint64_t>1) << u
    return fallen

cdef inline bint shares(CSData* s, int a, int b, uint64_t fallen) noexcept nogil:
    """Whether blocker ``b`` may take a share of attacker ``a``'s combat damage: it
    blocks ``a``, stood as the phase began, and is within ``a``'s reach now (C38)."""
    return s.units[b].owner == 1 - s.units[a].owner and s.units[b].blocks == a \
        and not fallen >> b & 1 and in_reach(s, a, b)

cdef inline int share_place(CSData* s, int a, int b) noexcept nogil:
    """Where blocker ``b`` comes as ``a``'s damage is shared out: the closest site
    first, on one site by slot."""
    return distance_to(s, a, b) * MAX_UNITS + b

cdef int next_share(CSData* s, int a, int b, uint64_t fallen) noexcept nogil:
    """The blocker after ``b`` (NONE: the first) in ``a``'s damage; NONE after the
    last."""
    cdef int v, k, best = NONE, low = ROWS * MAX_UNITS + MAX_UNITS
    cdef int after = share_place(s, a, b) if b != NONE else -1
    for v in range(MAX_UNITS):
        if shares(s, a, v, fallen):
            k = share_place(s, a, v)
            if after < k < low:
                low = k
                best = v
    return best

cdef bint stomps_through(CSData* s, int a, uint64_t fallen) noexcept nogil:
    """(C3 Stomp) Whether ``a`` strikes a player with Stomp for at least its blockers'
    lethal damage all told: each blocker takes its lethal damage and the excess goes
    on to the player, so there is nothing to share out."""
    cdef int b, need = 0
    if not has(s, a, K_STOMP) or s.units[a].target != FACE:
        return False
    for b in range(MAX_UNITS):
        if shares(s, a, b, fallen):
            need += lethal(s, b)
    return power(s, a) >= need

cdef bint assigns(CSData* s, int a, bint quick, uint64_t fallen) noexcept nogil:
    """(C43) Whether the attacking player shares out attacker ``a``'s damage in this
    phase: it strikes in it, with damage to deal among two blockers or more, and Stomp
    does not settle the shares."""
    cdef int first
    if s.units[a].owner != s.active or not s.units[a].flags & U_ATTACKING \
            or not in_phase(s, a, quick, fallen) or power(s, a) <= 0:
        return False
    first = next_share(s, a, NONE, fallen)
    return first != NONE and next_share(s, a, first, fallen) != NONE \
        and not stomps_through(s, a, fallen)

cdef void assign_from(CSData* s, Frame* f, int a, uint64_t fallen) noexcept nogil:
    """The assignment frame ``f`` goes on to the first attacker from slot ``a`` whose
    damage is shared out in this phase, at its first blocker; it is done, and popped,
    when none is left."""
    cdef bint quick = s.pending == P_QUICK
    while a < MAX_UNITS:
        if assigns(s, a, quick, fallen):
            f.data[0] = a
            f.data[1] = next_share(s, a, NONE, fallen)
            f.data[2] = power(s, a)
            f.data[3] = 0
            return
        a += 1
    stack_pop(&s.stack)

cdef void assign_damage(CSData* s, bint quick) noexcept nogil:
    """(C43) The blows of the Precombat Act (``quick``) or of regular combat are about
    to fall: first the attacking player shares out each attacker's damage among its
    blockers, one blocker's share at a time on a single frame (FR_ASSIGN)."""
    cdef Frame* f = stack_push(&s.stack, FR_ASSIGN, s.active, NONE)
    s.pending = P_QUICK if quick else P_STRIKE
    assign_from(s, f, 0, fallen_now(s))

cdef int share_actions(CSData* s, Frame* f, int* out) noexcept nogil:
    """(C43) The shares of the damage left that blocker ``data[1]`` may take: any, while
    another blocker on its site comes after it (the text lets the attacker share freely
    there); when it is the last on its site and blockers further on follow, at least
    its lethal damage, the rest going on, or all that is left, which is the only
    choice once a blocker on its site got less than lethal: further sites get damage
    only once every closer blocker has its lethal damage."""
    cdef int a = f.data[0], b = f.data[1], left = f.data[2], lo = 0, hi, k
    cdef int after = next_share(s, a, b, fallen_now(s))
    if after != NONE and distance_to(s, a, after) != distance_to(s, a, b):
        lo = left if f.data[3] else min(lethal(s, b), left)
    hi = min(left, NUMBERS - 1)
    lo = min(lo, hi)
    for k in range(lo, hi + 1):
        out[k - lo] = A_NUMBER + k
    return hi - lo + 1

cdef void share_out(CSData* s, Frame* f, int k) noexcept nogil:
    """(C43) Blocker ``data[1]`` takes ``k`` of the damage left; the frame goes on to the
    next blocker whose share is a choice.  A blocker takes nothing once the damage is
    spent, and all that is left when it is its attacker's last, or the last on its
    site with a blocker there short of lethal."""
    cdef int a = f.data[0], b = f.data[1], after
    cdef uint64_t fallen = fallen_now(s)
    cdef bint short = f.data[3] or k < lethal(s, b)
    s.units[b].assigned = k
    f.data[2] -= k
    after = next_share(s, a, b, fallen)
    while after != NONE:
        if distance_to(s, a, after) != distance_to(s, a, b):
            short = False
        b = after
        after = next_share(s, a, b, fallen)
        if f.data[2] == 0:
            continue
        if after == NONE or short and distance_to(s, a, after) != distance_to(s, a, b):
            s.units[b].assigned = f.data[2]
            f.data[2] = 0
            continue
        f.data[1] = b
        f.data[3] = short
        return
    assign_from(s, f, a + 1, fallen)

cdef void strike(CSData* s, int a, bint quick, uint64_t fallen, bint shared) noexcept nogil:
    """(C14) One attacker's combat, in the Quick Attack phase or the regular one (C3:
    a Quick Attacker deals its damage first, and only then).  Blocked, its strength
    goes to its blockers as its player shared it out (``shared``, C43), or all to its
    one blocker, or with Stomp lethal to each and the excess to a targeted player (an
    Armored blocker absorbs it); each blocker strikes back.  Unblocked, it strikes its
    target, a creature it fights strikes back, a player loses life."""
    cdef int p = s.units[a].owner, n = power(s, a), b, best
    cdef bint blocked = False, armored = False, mine = in_phase(s, a, quick, fallen)
    cdef bint stomp = mine and not shared and stomps_through(s, a, fallen)
    for b in range(MAX_UNITS):
        if s.units[b].owner != 1 - p or s.units[b].blocks != a:
            continue
        blocked = True
        # C38: blockers out of reach now take nothing, and strike back only at an
        # attacker within their own reach
        if mine and shares(s, a, b, fallen):
            armored = armored or s.units[b].armor > 0
            best = s.units[b].assigned if shared else \
                (lethal(s, b) if stomp and lethal(s, b) < n else n)
            strike_unit(s, a, b, best)
            n -= best
        if in_phase(s, b, quick, fallen) and in_reach(s, b, a):
            hurt(s, a, power(s, b), True)
    if blocked:
        if stomp and n > 0 and not armored and face_in_reach(s, a):
            hurt_player(s, 1 - p, n)
        return
    if s.units[a].target == FACE:
        if mine and face_in_reach(s, a):
            hurt_player(s, 1 - p, n)
    elif s.units[a].target != NONE:
        b = s.units[a].target
        if mine and in_reach(s, a, b):
            strike_unit(s, a, b, n)
        if is_type(s, b, T_CREATURE) and in_phase(s, b, quick, fallen) and in_reach(s, b, a):
            hurt(s, a, power(s, b), True)

cdef void strike_phase(CSData* s, bint quick) noexcept nogil:
    """The blows of the Precombat Act (``quick``) or of regular combat fall at once, as
    their damage was shared out; after the Precombat Act, regular combat's damage is
    shared out in turn.  Once combat is over the dead leave the region (``proceed``)
    and the Final Act follows."""
    cdef int u
    cdef uint64_t fallen = fallen_now(s), shared = 0
    for u in range(MAX_UNITS):
        if assigns(s, u, quick, fallen):
            shared |= (<uint64_t>1) << u
    for u in range(MAX_UNITS):
        if s.units[u].owner == s.active and s.units[u].flags & U_ATTACKING:
            strike(s, u, quick, fallen, shared >> u & 1)
            if s.winner != NONE:
                return
    for u in range(MAX_UNITS):
        s.units[u].assigned = 0
    if quick:
        assign_damage(s, False)
        return
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0:
            s.units[u].flags &= ~U_ATTACKING
            s.units[u].target = NONE
            s.units[u].blocks = NONE
    s.pending = P_COMBAT


# --- decisions: what is legal, and applying it ------------------------------------------

cdef int frame_actions(CSData* s, Frame* f, int* out) noexcept nogil:
    cdef int n = 0, x, d
    if f.kind == FR_SITE:
        d = s.shrine[f.player] if f.data[0] < 0 else f.data[0]
        for x in range(SITES):
            if site_open(s, f.player, d, x):
                out[n] = A_SITE + x
                n += 1
        if DESIGNS[d].keywords & (K_MOUNT | K_SADDLE):
            for x in range(MAX_UNITS):
                if rides_with(s, f.player, d, x):
                    out[n] = A_UNIT + x
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
            if alive(s, x) and s.units[x].owner == f.player and s.units[x].site == f.data[0] \
                    and not DESIGNS[s.units[x].design].token:
                out[n] = A_UNIT + x
                n += 1
    elif f.kind == FR_AIM:
        for x in range(MAX_UNITS):
            if aimable(s, f.player, EFFECTS[f.pc].arg, x):
                out[n] = A_TARGET + x
                n += 1
    else:
        return more_frame_actions(s, f, out)
    return n

cdef int more_frame_actions(CSData* s, Frame* f, int* out) noexcept nogil:
    """The choices ``frame_actions`` leaves: a library, what a Swap keeps, a Tool's
    host, a saddle, a token's site, a share of damage, an X."""
    cdef int n = 0, x, d, k
    if f.kind == FR_LIBRARY:
        out[0] = A_PRIMARY
        out[1] = A_SECONDARY
        n = 2
    elif f.kind == FR_SWAP:
        # a move names a design: copies of one from both libraries are one choice
        for k in range(1, 4):
            if f.data[k] == NONE:
                continue
            d = card_design(f.data[k])
            if (k > 1 and f.data[1] != NONE and d == card_design(f.data[1])) \
                    or (k > 2 and f.data[2] != NONE and d == card_design(f.data[2])):
                continue
            out[n] = A_TOP + d
            n += 1
            # (C26) a library holds at most MAX_BOTTOM known cards under it: a position
            # keeps each in its place, and more would grow every copy of the state
            if s.bottom_len[f.player][SECONDARY] < MAX_BOTTOM:
                out[n] = A_BOTTOM + d
                n += 1
    elif f.kind == FR_HOST:
        for x in range(MAX_UNITS):
            if aimable(s, f.player, TG_ALLY, x) \
                    and (f.data[0] < 0 or s.units[x].site == s.units[f.data[0]].site):
                out[n] = A_UNIT + x
                n += 1
    elif f.kind == FR_SADDLE:
        for x in range(MAX_UNITS):
            if can_saddle(s, f.data[0], x):
                out[n] = A_UNIT + x
                n += 1
    elif f.kind == FR_SPAWN:
        for x in range(PATHWAYS):
            out[n] = A_SITE + melee_row(f.player) * PATHWAYS + x
            n += 1
    elif f.kind == FR_ASSIGN:
        n = share_actions(s, f, out)
    elif f.kind == FR_XCOST:
        # (C40) any X they can pay, 0 included
        for x in range(x_most(s, f.player, f.data[0]) + 1):
            out[n] = A_NUMBER + x
            n += 1
    return n

cdef int burst_actions(CSData* s, int p, int* out, int n) noexcept nogil:
    cdef int lib, d, base
    cdef uint64_t held
    if s.shrine_home[p] and s.marks[p] > 0 and can_pay(s, p, MARK_COST):
        out[n] = A_MARK
        n += 1
    for lib in range(2):
        # The designs in hand, 64 at a time (a set holds up to MAX_DESIGNS).
        for base in range(0, NUM_DESIGNS, 64):
            held = kinds_held(&s.hand[p][lib][base],
                              NUM_DESIGNS - base if NUM_DESIGNS - base < 64 else 64)
            while held:
                d = base + lowest_kind(held)
                held &= held - 1
                if playable(s, p, d) and (DESIGNS[d].subtype == SUB_BURST or inert_time(s, p)):
                    out[n] = A_PLAY + lib * MAX_DESIGNS + d
                    n += 1
    return n

cdef int act_actions(CSData* s, int* out) noexcept nogil:
    cdef int p = s.active, n = 1, u
    out[0] = A_PASS
    if inert_time(s, p) and shrine_playable(s, p):
        out[n] = A_SHRINE
        n += 1
    n = burst_actions(s, p, out, n)
    if inert_time(s, p):
        for u in range(MAX_UNITS):
            if s.units[u].owner == p:
                if can_tap(s, u):
                    out[n] = A_TAP + u
                    n += 1
                if can_attach(s, u):
                    out[n] = A_ATTACH + u
                    n += 1
                if can_mount(s, u):
                    out[n] = A_MOUNT + u
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
        return burst_actions(s, s.priority, out, 1)
    if s.step == ST_BLOCK:
        out[0] = A_PASS
        n = 1
        for u in range(MAX_UNITS):
            if s.units[u].owner == 1 - s.active and blocker_ok(s, u):
                out[n] = A_UNIT + u
                n += 1
        return n
    return 0

cdef void proceed(CSData* s) noexcept nogil:
    """Run the effects on the stack and bury the dead; draw what an effect draws
    without chance; answer every choice with a single option (C16) and drop one with
    none (its effect has nothing left to act on); once the stack is empty, go on with
    what ``pending`` says.  Returns at a decision, a chance draw, or with nothing
    pending."""
    cdef int buf[NUM_ACTIONS]
    cdef Frame* f
    cdef int n, d
    cdef bint burying
    while s.winner == NONE:
        # what fell in the Precombat Act leaves the region once combat is over, while
        # regular combat's damage is shared out and dealt (C43)
        burying = s.pending != P_STRIKE
        if burying:
            bury(s)
        run_effects(&s.stack, EFFECTS, run_effect, s)
        if s.winner != NONE:
            return
        if burying and any_dying(s):
            continue
        f = stack_top(&s.stack)
        if f == NULL:
            if s.pending == P_NONE:
                return
            flow(s)
            continue
        if f.kind == FR_DRAW:
            d = known_draw(s, f.player, f.data[1])
            if d != NONE:
                take_card(s, f, d)
                continue
            if not shuffled(s, f.player, f.data[1]):
                stack_pop(&s.stack)         # (C12)
                continue
            return
        n = frame_actions(s, f, buf)
        if n > 1:
            return
        if n == 1:
            answer(s, f, buf[0])
        else:
            stack_pop(&s.stack)

cdef void flow(CSData* s) noexcept nogil:
    """What follows once the stack is empty."""
    cdef int k = s.pending
    s.pending = P_NONE
    if k == P_ACTION:
        after_action(s, RESUME_ACT)
    elif k == P_PRIORITY:
        respond(s)
    elif k == P_TRAVEL or k == P_TRAVEL_SPRUNG:
        travel_done(s, k == P_TRAVEL_SPRUNG)
    elif k == P_UPKEEP:
        next_upkeep(s)
    elif k == P_COMBAT:
        begin_act(s, ACT_FINAL)
    elif k == P_BLOCK:
        if not any_block(s):
            end_blocks(s)
    elif k == P_QUICK or k == P_STRIKE:
        strike_phase(s, k == P_QUICK)

cdef void answer(CSData* s, Frame* f, int a) noexcept nogil:
    """Settle the frame on top with action ``a``."""
    cdef int kind = f.kind, x = f.data[0], p = f.player, d, k, v
    if kind == FR_ASSIGN:
        share_out(s, f, a - A_NUMBER)
        return
    if kind == FR_SWAP:
        # (C10) a Swap keeps each card it looks at on top, or puts it under the
        # Secondary Library, whichever library it looked at (C35)
        d = a - A_TOP if a >= A_TOP else a - A_BOTTOM
        v = NONE
        for k in range(1, 4):
            if f.data[k] != NONE and card_design(f.data[k]) == d:
                v = f.data[k]
                f.data[k] = NONE
                break
        if a >= A_TOP:
            s.top[p][x][s.top_len[p][x]] = v
            s.top_len[p][x] += 1
        else:
            s.bottom[p][SECONDARY][s.bottom_len[p][SECONDARY]] = v
            s.bottom_len[p][SECONDARY] += 1
        if f.data[1] == NONE and f.data[2] == NONE and f.data[3] == NONE:
            stack_pop(&s.stack)
        return
    stack_pop(&s.stack)
    if kind == FR_SITE and a >= A_UNIT:
        ride(s, p, x, f.data[1], a - A_UNIT)
    elif kind == FR_SITE:
        place(s, p, x, f.data[1], a - A_SITE, f.data[2])
    elif kind == FR_DISTANCE:
        s.units[x].travel = a - A_DISTANCE + 1
        s.units[x].flags |= U_TRAVELLED
    elif kind == FR_TARGET:
        s.units[x].flags |= U_ATTACKING | U_TAPPED
        s.units[x].target = FACE if a == A_FACE else a - A_TARGET
        check_traps(s, x, TR_ATTACKS)
    elif kind == FR_BLOCK:
        s.units[x].blocks = a - A_BLOCK
    elif kind == FR_SACRIFICE:
        leave(s, a - A_UNIT, HOME_GRAVE)
        check_limit(s, x, f.data[1])
    elif kind == FR_AIM:
        aim(s, f, a - A_TARGET)
    elif kind == FR_LIBRARY:
        push_draw(s, p, PRIMARY if a == A_PRIMARY else SECONDARY, x, 0)
    elif kind == FR_HOST:
        v = a - A_UNIT
        if x < 0:
            x = put_unit(s, p, f.data[1], s.units[v].site, U_NEW | f.data[2] * U_SECONDARY)
        attach(s, x, v)
    elif kind == FR_SADDLE:
        mount(s, x, a - A_UNIT)
    elif kind == FR_SPAWN:
        spawn(s, p, TOKEN_OF[EFFECTS[f.pc].arg], EFFECTS[f.pc].amount, a - A_SITE)
    elif kind == FR_XCOST:
        cast(s, p, x, a - A_NUMBER)

cdef void act(CSData* s, int p, int a) noexcept nogil:
    """An action of ``p``'s: the active player's in one of their acts, or that of
    the player holding priority in a window (Burst cards and the time mark)."""
    cdef int d, u
    cdef Frame* f
    if a == A_MARK:
        pay(s, p, MARK_COST)
        s.marks[p] -= 1
    elif a == A_SHRINE:
        pay(s, p, DESIGNS[s.shrine[p]].cost)
        f = stack_push(&s.stack, FR_SITE, p, NONE)
        f.data[0] = NONE
    elif a < A_BOTTOM:
        d = (a - A_PLAY) % MAX_DESIGNS
        play_card(s, p, (a - A_PLAY) // MAX_DESIGNS, d)
    elif a >= A_MOUNT:
        pay(s, p, GENERIC[MOUNT_COST])
        f = stack_push(&s.stack, FR_SADDLE, p, a - A_MOUNT)
        f.data[0] = a - A_MOUNT
    elif a >= A_ATTACH:
        u = a - A_ATTACH
        pay(s, p, GENERIC[DESIGNS[s.units[u].design].attach_cost])
        f = stack_push(&s.stack, FR_HOST, p, s.units[u].design)
        f.data[0] = u
    elif a >= A_TAP:
        u = a - A_TAP
        s.units[u].flags |= U_TAPPED
        f = push_effects(&s.stack, DESIGNS[s.units[u].design].events[EV_TAP], p,
                         s.units[u].design)
        if f != NULL:
            f.data[0] = u
            f.data[1] = s.units[u].site
    elif s.act == ACT_TRAVEL:
        f = stack_push(&s.stack, FR_DISTANCE, p, a - A_UNIT)
        f.data[0] = a - A_UNIT
    else:
        f = stack_push(&s.stack, FR_TARGET, p, a - A_UNIT)
        f.data[0] = a - A_UNIT

cdef void decide(CSData* s, int a) noexcept nogil:
    cdef Frame* f = stack_top(&s.stack)
    cdef int p, u
    cdef bint declared
    if f != NULL:
        answer(s, f, a)
        proceed(s)
        return
    if s.step == ST_ACT:
        if a == A_PASS:
            after_action(s, RESUME_TRAVEL if s.act == ACT_TRAVEL else RESUME_NEXT_ACT)
            return
        act(s, s.active, a)
        # (C29) the declarations of travel are one action, answered once they are done
        declared = s.act == ACT_TRAVEL and A_UNIT <= a < A_DISTANCE
        s.pending = P_NONE if declared else P_ACTION
        proceed(s)
    elif s.step == ST_MULLIGAN:
        p = s.mull_player
        if a == A_PASS:
            start_draws(s, p, SECONDARY, OPENING_HAND, AFTER_SETUP)
        else:
            s.hand[p][PRIMARY][a - A_BOTTOM] -= 1
            s.bottom[p][PRIMARY][s.bottom_len[p][PRIMARY]] = lib_card(PRIMARY, a - A_BOTTOM)
            s.bottom_len[p][PRIMARY] += 1
            s.mulligans_left -= 1
            start_draws(s, p, PRIMARY, 1, AFTER_MULLIGAN)
    elif s.step == ST_DRAW_CHOICE:
        start_draws(s, s.draw_player, PRIMARY if a == A_PRIMARY else SECONDARY, 1,
                    s.after_draws)
    elif s.step == ST_PRIORITY:
        if a == A_PASS:
            pass_priority(s)
            return
        act(s, s.priority, a)
        s.pending = P_PRIORITY
        proceed(s)
    elif s.step == ST_BLOCK:
        if a == A_PASS:
            end_blocks(s)
            return
        u = a - A_UNIT
        f = stack_push(&s.stack, FR_BLOCK, 1 - s.active, u)
        f.data[0] = u
        s.pending = P_BLOCK
        proceed(s)

cdef bint mulligan_pending(CSData* s) noexcept nogil:
    """Whether a mulligan is under way: its choice, or a draw it called for."""
    return s.step == ST_MULLIGAN or s.step == ST_DRAW and s.after_draws == AFTER_MULLIGAN

cdef void end_blocks(CSData* s) noexcept nogil:
    """C33: blockers are declared; the attacking player gets priority, then the
    defender, and only then is combat damage dealt."""
    cdef int u
    for u in range(MAX_UNITS):
        if s.units[u].owner == s.active and s.units[u].flags & U_ATTACKING:
            s.resume = RESUME_BLOCKED
            give_priority(s, s.active)
            return
    begin_damage(s)

cdef void begin_damage(CSData* s) noexcept nogil:
    """Blockers are declared and the exchange after them is over (C33): the Precombat
    Act's damage is shared out and its blows fall, then regular combat's (C41, C43)."""
    assign_damage(s, True)
    proceed(s)


# --- hidden cards ------------------------------------------------------------------------

cdef void redeal(uint8_t* pool, uint8_t* hand, int n, Rng* rng) noexcept nogil:
    """Take ``n`` cards from ``pool`` at random into ``hand``."""
    cdef int d
    for _ in range(n):
        d = pile_sample(pool, 0, MAX_DESIGNS, rng)
        pool[d] -= 1
        hand[d] += 1

cdef void deal_traps(CSData* s, int q, Rng* rng) noexcept nogil:
    """(C31) Each face-down Trap of ``q``'s, and one paid for and waiting for its site,
    dealt afresh from its library's unseen Traps whose cost the mana it took pays.  The
    Trap with the fewest such cards left goes first, so that none takes the only card
    another could be; one left with none (a card set whose costs cross) takes any Trap."""
    cdef int hole[MAX_UNITS + STACK_DEPTH]
    cdef uint8_t only[MAX_DESIGNS]
    cdef int n = 0, i, k, best, fewest, count, d, u, lib, paid
    cdef Frame* f
    for u in range(MAX_UNITS):
        if s.units[u].owner == q and s.units[u].flags & U_FACE_DOWN:
            hole[n] = u
            n += 1
    for i in range(s.stack.depth):
        f = &s.stack.frames[i]
        if f.player == q and f.kind == FR_SITE and f.data[0] >= 0 and TRAPS[f.data[0]]:
            hole[n] = -1 - i
            n += 1
    while n:
        best = 0
        fewest = 1000
        for k in range(n):
            trap_hole(s, hole[k], &lib, &paid)
            count = 0
            for d in range(NUM_DESIGNS):
                if TRAPS[d] and paid_for(d, paid):
                    count += s.library[q][lib][d]
            if count < fewest:
                fewest = count
                best = k
        trap_hole(s, hole[best], &lib, &paid)
        for d in range(MAX_DESIGNS):
            only[d] = TRAPS[d] and (fewest == 0 or paid_for(d, paid))
        d = deal_one(&s.library[q][lib][0], only, rng)
        if hole[best] >= 0:
            s.units[hole[best]].design = d
        else:
            f = &s.stack.frames[-1 - hole[best]]
            f.data[0] = d
            f.source = d
        n -= 1
        hole[best] = hole[n]

cdef void trap_hole(CSData* s, int h, int* lib, int* paid) noexcept nogil:
    """The library and the mana seen of a Trap ``deal_traps`` deals: a unit's slot, or
    -1 - a frame's place on the stack."""
    cdef Frame* f
    if h >= 0:
        lib[0] = (s.units[h].flags & U_SECONDARY) != 0
        paid[0] = s.units[h].paid
    else:
        f = &s.stack.frames[-1 - h]
        lib[0] = f.data[1]
        paid[0] = f.data[2]

cdef int deal_one(uint8_t* pool, const uint8_t* only, Rng* rng) noexcept nogil:
    """A card from ``pool`` at random among the designs ``only`` marks, out of it."""
    cdef uint8_t some[MAX_DESIGNS]
    cdef int d
    for d in range(MAX_DESIGNS):
        some[d] = pool[d] if only[d] else 0
    d = pile_sample(some, 0, MAX_DESIGNS, rng)
    pool[d] -= 1
    return d


# --- the state ---------------------------------------------------------------------------

cdef class CreatureShrinesState(GameState):

    cdef int c_current_player(self) noexcept nogil:
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        if s.step == ST_OVER:
            return TERMINAL
        if f != NULL:
            return CHANCE if f.kind == FR_DRAW else f.player
        if s.step == ST_DRAW:
            return CHANCE
        if s.step == ST_MULLIGAN:
            return s.mull_player
        if s.step == ST_DRAW_CHOICE:
            return s.draw_player
        if s.step == ST_ACT:
            return s.active
        if s.step == ST_PRIORITY:
            return s.priority
        return 1 - s.active

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef CSData* s = &self.s
        cdef double probs[MAX_DESIGNS]
        cdef int n, i, j, t
        if s.step == ST_OVER:
            return 0
        if self.c_current_player() == CHANCE:
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

    cdef uint8_t* chance_pile(self) noexcept nogil:
        """The library a chance draw takes from, NULL when no draw is due."""
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        if s.step == ST_OVER:
            return NULL
        if f != NULL:
            return &s.library[f.player][f.data[1]][0] if f.kind == FR_DRAW else NULL
        if s.step != ST_DRAW:
            return NULL
        return &s.library[s.draw_player][s.draw_library][0]

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        cdef uint8_t* pile = self.chance_pile()
        if pile == NULL:
            return 0
        return pile_outcomes(pile, 0, MAX_DESIGNS, actions, probs)

    cdef int c_sample_chance(self, Rng* rng) noexcept nogil:
        cdef uint8_t* pile = self.chance_pile()
        if pile == NULL:
            return -1
        return pile_sample(pile, 0, MAX_DESIGNS, rng)

    cdef void c_apply_action(self, int action) noexcept nogil:
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        if f != NULL and f.kind == FR_DRAW:
            s.library[f.player][f.data[1]][action] -= 1
            take_card(s, f, lib_card(f.data[1], action))
            proceed(s)
        elif f == NULL and s.step == ST_DRAW:
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
        """Deal the opponent's hidden cards afresh, each from the library it came from
        and from that library's cards nobody has seen (C10): face-down Traps (and one
        being placed) among its Traps whose cost the mana each took pays (C31), then the cards a Swap of theirs is looking at,
        those they know on top or at the bottom, and their hand but the cards both
        know."""
        cdef CSData* s = &self.s
        cdef int q = 1 - observer, lib, n, d, k, u, i
        cdef uint8_t* pool
        cdef Frame* f
        for u in range(MAX_UNITS):
            if s.units[u].owner == q and s.units[u].flags & U_FACE_DOWN:
                s.library[q][(s.units[u].flags & U_SECONDARY) != 0][s.units[u].design] += 1
        for i in range(s.stack.depth):
            f = &s.stack.frames[i]
            if f.player != q:
                continue
            if f.kind == FR_SITE and f.data[0] >= 0 and TRAPS[f.data[0]]:
                s.library[q][f.data[1]][f.data[0]] += 1
            elif f.kind == FR_SWAP:
                for k in range(1, 4):
                    if f.data[k] >= 0:
                        unknown(s, q, f.data[k])
        for lib in range(2):
            for k in range(s.top_len[q][lib]):
                unknown(s, q, s.top[q][lib][k])
            for k in range(s.bottom_len[q][lib]):
                unknown(s, q, s.bottom[q][lib][k])
            for d in range(MAX_DESIGNS):
                s.library[q][lib][d] += s.hand[q][lib][d] - s.hand_known[q][lib][d]
        deal_traps(s, q, rng)
        for i in range(s.stack.depth):
            f = &s.stack.frames[i]
            if f.player == q and f.kind == FR_SWAP:
                for k in range(1, 4):
                    if f.data[k] >= 0:
                        f.data[k] = redeal_known(s, q, f.data[k], rng)
        for lib in range(2):
            # drawn in any order, a card from each library's unseen ones is a fair draw
            for k in range(s.top_len[q][lib]):
                s.top[q][lib][k] = redeal_known(s, q, s.top[q][lib][k], rng)
            for k in range(s.bottom_len[q][lib]):
                s.bottom[q][lib][k] = redeal_known(s, q, s.bottom[q][lib][k], rng)
            pool = &s.library[q][lib][0]
            n = 0
            for d in range(MAX_DESIGNS):
                n += s.hand[q][lib][d] - s.hand_known[q][lib][d]
                s.hand[q][lib][d] = s.hand_known[q][lib][d]
            redeal(pool, &s.hand[q][lib][0], n, rng)

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        """The opponent sees a card is drawn, or put at the bottom, but not which; that
        a Trap is played, from which library, but not which; where a Swap puts each
        card, but not which."""
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        cdef int who = self.c_current_player()
        if observer == who:
            return action
        if who == CHANCE:
            if f != NULL:
                return -1 if observer != f.player else action
            return -1 if observer != s.draw_player else action
        if f != NULL and f.kind == FR_SWAP:
            return -5 if action >= A_TOP else -6
        if f == NULL and s.step == ST_MULLIGAN and action != A_PASS:
            return -2
        if f == NULL and A_PLAY <= action < A_BOTTOM \
                and TRAPS[(action - A_PLAY) % MAX_DESIGNS]:
            return -3 - (action - A_PLAY) // MAX_DESIGNS
        return action

    cdef double c_evaluate(self, int player) noexcept nogil:
        """Life (or points), the strength and resilience on the region, and how far the
        creatures have come, weighed into [-1, 1].  In King of the Hill, where the
        Neutral row is the only way to win, a creature has come furthest there, not
        beyond, and what the row will score at its owner's turn's end counts at half a
        point scored."""
        cdef CSData* s = &self.s
        cdef double v = 0, w
        cdef int u, p, ahead
        cdef Unit* x
        if uses_life(s):
            v += (s.life[player] - s.life[1 - player]) * 0.15
        if uses_points(s):
            v += (s.points[player] - s.points[1 - player]) * 0.15
        for u in range(MAX_UNITS):
            p = s.units[u].owner
            if p < 0:
                continue
            if not blocks_way(s, u):
                w = 0.1 if is_type(s, u, T_RELIC) or is_type(s, u, T_AREA) else 0
                v += w if p == player else -w
                continue
            x = &s.units[u]
            ahead = distance_ahead(p, melee_row(p), row_of(x.site))
            if s.mode == M_HILL:
                ahead = NEUTRAL_ROW - abs(row_of(x.site) - NEUTRAL_ROW)
            w = 0.05 * (power(s, u) + lethal(s, u) * 0.5 + x.armor) + 0.03 * ahead * power(s, u)
            if s.mode == M_HILL:
                w += 0.075 * hill_points(s, u)
            if x.flags & U_FROZEN:
                w *= 0.5
            v += w if p == player else -w
        for p in range(2):
            w = 0.04 * pile_size(&s.sources[p][0], 0, COLOURS)
            v += w if p == player else -w
        return tanh(v * 0.5)

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        """Strike the opposing player when possible, else the biggest play (a Source
        first), tapping, the furthest travel, any attack, and pass last; aim harm at the
        strongest opposing permanent and help at the strongest own creature; a Swap
        keeps what its player can soon pay for on top; pay the most X; give a blocker
        just its lethal damage, the rest going on; ties at random.  In King of the Hill
        a creature travels to the Neutral row, or as near as it can, and one there
        stays."""
        cdef CSData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        cdef int buf[NUM_ACTIONS]
        cdef int n = self.c_legal_actions(buf), i, a, d, u, best = -1, score, top = -1000
        cdef int ties = 0
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
            elif A_DISTANCE <= a < A_TARGET and s.mode == M_HILL:
                u = f.data[0]
                d = row_of(s.units[u].site) + (a - A_DISTANCE + 1) * forward(s.units[u].owner)
                score = 10 + ROWS - abs(d - NEUTRAL_ROW)
            elif A_DISTANCE <= a < A_TARGET:
                score = 10 + a - A_DISTANCE
            elif A_UNIT <= a < A_DISTANCE and s.mode == M_HILL and f == NULL \
                    and s.act == ACT_TRAVEL and row_of(s.units[a - A_UNIT].site) == NEUTRAL_ROW:
                score = -1
            elif A_TARGET <= a < A_FACE and f != NULL and f.kind == FR_AIM:
                u = a - A_TARGET
                score = 20 + s.units[u].strength + s.units[u].resilience
                if (s.units[u].owner == f.player) == (HARM[EFFECTS[f.pc].op] != 0):
                    score = -score
            elif A_TARGET <= a < A_FACE:
                score = 20 + s.units[a - A_TARGET].strength - lethal(s, a - A_TARGET)
            elif A_TOP <= a < A_SITE:
                d = a - A_TOP
                score = 5 if DESIGNS[d].cmc <= pile_size(&s.sources[f.player][0], 0, COLOURS) + 1 \
                    else 0
            elif A_BOTTOM <= a < A_TOP and f != NULL:
                score = 3
            elif A_BOTTOM <= a < A_TOP:
                score = DESIGNS[a - A_BOTTOM].cmc - 3
            elif a >= A_NUMBER and f != NULL and f.kind == FR_XCOST:
                score = 10 + a - A_NUMBER
            elif a >= A_NUMBER:
                score = 6 if a - A_NUMBER == min(lethal(s, f.data[1]), f.data[2]) else 5
            elif a >= A_TAP:
                score = 15
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

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        fill_tensor(self, player, out)


# --- the observation tensor ------------------------------------------------------------

LAYOUT = TensorLayout(("flow", 4 + len(STEPS) + 2), ("players", 2 * 10),
                      ("hand", MAX_DESIGNS), ("region", SITES * 2 * 4),
                      ("graveyards", 2 * MAX_DESIGNS), ("banishment", 2 * MAX_DESIGNS),
                      ("decision", len(FRAMES) + 2 + 2 * SITES))


# Where each block begins, read from LAYOUT once, for the fill without the GIL.
cdef int T_SIZE = LAYOUT.size
cdef int T_FLOW = LAYOUT.offset("flow")
cdef int T_PLAYERS = LAYOUT.offset("players")
cdef int T_HAND = LAYOUT.offset("hand")
cdef int T_REGION = LAYOUT.offset("region")
cdef int T_GRAVEYARDS = LAYOUT.offset("graveyards")
cdef int T_BANISHMENT = LAYOUT.offset("banishment")
cdef int T_DECISION = LAYOUT.offset("decision")
cdef int NUM_FRAMES = len(FRAMES)
cdef int NUM_STEPS = len(STEPS)


cdef void fill_tensor(CreatureShrinesState st, int viewer, float* v) noexcept nogil:
    """What ``viewer`` knows, block by block as ``LAYOUT`` lays it out."""
    cdef CSData* s = &st.s
    cdef int o, p, q, u, d, k
    memset(v, 0, T_SIZE * sizeof(float))
    o = T_FLOW
    v[o + s.act] = 1
    v[o + 4 + s.step] = 1
    v[o + 4 + NUM_STEPS] = s.active == viewer
    v[o + 5 + NUM_STEPS] = s.turn / (2.0 * s.max_turns)
    o = T_PLAYERS
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
    o = T_HAND
    for d in range(NUM_DESIGNS):
        v[o + d] = hand_count(s, viewer, d) / 3.0
    o = T_REGION
    for u in range(MAX_UNITS):
        if s.units[u].owner < 0 or not blocks_way(s, u):
            continue
        q = o + (s.units[u].site * 2 + (s.units[u].owner != viewer)) * 4
        v[q] += 0.25
        v[q + 1] += s.units[u].strength / 10.0
        v[q + 2] += lethal(s, u) / 10.0
        v[q + 3] += (s.units[u].flags & U_TAPPED) != 0
    o = T_GRAVEYARDS
    for k in range(2):
        p = viewer if k == 0 else 1 - viewer
        for d in range(NUM_DESIGNS):
            v[o + k * MAX_DESIGNS + d] = s.grave[p][d] / 3.0
    o = T_BANISHMENT
    for k in range(2):
        p = viewer if k == 0 else 1 - viewer
        for d in range(NUM_DESIGNS):
            v[o + k * MAX_DESIGNS + d] = s.banished[p][d] / 3.0
    fill_decision(st, viewer, v + T_DECISION)


cdef void fill_decision(CreatureShrinesState st, int viewer, float* v) noexcept nogil:
    """The decision the game waits on, past its step: the kind of the choice on top of
    the stack (a traveller's distance, a blocker's share of damage, an X...), whether
    it is ``viewer``'s, the number it is about (the damage left to share out, the most
    X), the site of the creature it is about (the traveller, attacker, blocker, rider
    or Tool) and, for a share of damage, the blocker's.  All of it is in sight of both
    players: no choice of a hidden card says more than its kind."""
    cdef CSData* s = &st.s
    cdef Frame* f = stack_top(&s.stack)
    cdef int k, u = NONE, b = NONE
    if f == NULL:
        return
    k = f.kind
    v[k] = 1
    v[NUM_FRAMES] = st.c_current_player() == viewer
    if k == FR_ASSIGN:
        v[NUM_FRAMES + 1] = f.data[2] / 10.0
        u = f.data[0]
        b = f.data[1]
    elif k == FR_XCOST:
        v[NUM_FRAMES + 1] = x_most(s, f.player, f.data[0]) / 10.0
    elif k == FR_DISTANCE or k == FR_TARGET or k == FR_BLOCK or k == FR_SADDLE \
            or k == FR_HOST:
        u = f.data[0]
    if u >= 0 and s.units[u].site >= 0:
        v[NUM_FRAMES + 2 + s.units[u].site] = 1
    if b >= 0:
        v[NUM_FRAMES + 2 + SITES + s.units[b].site] = 1
