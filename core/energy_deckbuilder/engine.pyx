# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The energy deck-builder, under the rulings in docs/rules/energy-deckbuilder.md: the
rules, chance, determinization, the game's knowledge and the observation tensor, all in
C.  Names, views and reading a position are the game's, in ``game.pyx``.

A turn runs the text's five stages (E5).  Everything a card does is data: the card
set (``data/cards.toml``, read by :mod:`core.energy_deckbuilder.cards`) is compiled at
import into ``DESIGNS``, one record per design, and ``EFFECTS``, every effect of every
card; ``run_effect`` is the one switch over the effect words, run by the kit's
``run_effects``.  A choice that needs a decision (an effect's target, the creature an
upgrade goes on, the colour a cost is paid with) is a frame on the struct's stack, and
so are the draws and market refills that wait on chance.  After every step ``settle``
runs the stack until a decision or a chance event waits, or the stage moves on.
"""
from libc.stdint cimport uint8_t, uint64_t
from libc.math cimport tanh
from libc.string cimport memcmp, memcpy, memset

from core.kit.effects cimport (Effect, Frame, Span, push_effects, run_effects, stack_pop,
                               stack_push, stack_top)
from core.kit.piles cimport (kinds_held, kinds_in_any, load_le64, lowest_kind, pile_move_all,
                             pile_outcomes, pile_sample, win_loss)
from core.state cimport CHANCE, TERMINAL, GameState, Rng
from core.energy_deckbuilder import cards as carddata
from core.energy_deckbuilder.cards import EVENTS, WORDS
from core.kit import TensorLayout
from core.kit.carddata import effect_table


# --- the card set, compiled once -------------------------------------------------------
# The tables the game reads too (DESIGNS and its counts) are declared in engine.pxd;
# only the engine runs effects.

cdef Effect EFFECTS[EFFECTS_ROOM]

# What an effect is worth to the heuristic, per unit of its amount, by word and
# argument; and the weights of a card's recurring triggers against one-off effects.
_WORTH = {"damage": (0.7, 1.0, 1.4), "destroy": (0.5,), "life": (0.5,), "draw": (1.2,),
          "gain": (1.0,), "store": (0.9,), "untap": (1.2,), "boost": (0.5,)}
_EVENT_WEIGHT = (1.0, 2.0, 1.0)


def _effect_worth(effects):
    total = 0.0
    for op, amount, arg, _ in effects:
        name = WORDS.words[op].name
        rates = _WORTH[name]
        total += rates[min(arg, len(rates) - 1)] * amount + (1.0 if name == "destroy" else 0.0)
    return total


def _compile(cards):
    """Fill the static tables from the card designs (once, at import)."""
    global N_DESIGNS, N_UPGRADES
    cdef Design* d
    expected = ["damage", "destroy", "life", "draw", "gain", "store", "untap", "boost"]
    if [w.name for w in WORDS.words] != expected:
        raise RuntimeError("the effect words and the engine's opcodes disagree")
    table, spans = effect_table(cards, EVENTS)
    if len(table) > EFFECTS_ROOM:
        raise RuntimeError("the card set has more effects than the engine's table holds")
    for i, (op, amount, arg, arg2) in enumerate(table):
        EFFECTS[i].op, EFFECTS[i].amount, EFFECTS[i].arg, EFFECTS[i].arg2 = op, amount, arg, arg2
    N_DESIGNS = len(cards)
    N_UPGRADES = 0
    for card, span in zip(cards, spans):
        d = &DESIGNS[card.id]
        d.kind, d.deck, d.copies = card.type, card.deck, card.copies
        d.in_game = 2 * card.copies if card.deck == STARTER else card.copies
        d.colours, d.discard, d.buy = card.colour, card.discard, card.buy
        d.power, d.toughness = card.power, card.toughness
        for i in range(4):
            d.cost[i] = card.cost[i]
            d.energy[i] = card.energy[i]
        for e in range(3):
            d.events[e].start, d.events[e].end = span[e]
        d.upgrade = NONE
        if card.type == UPGRADE:
            d.upgrade = N_UPGRADES
            UPGRADE_DESIGN[N_UPGRADES] = card.id
            N_UPGRADES += 1
        d.effect_worth = _effect_worth(card.play)
        recurring = sum(w * _effect_worth(getattr(card, ev))
                        for w, ev in zip(_EVENT_WEIGHT[1:], EVENTS[1:]))
        body = card.power + 0.5 * card.toughness + sum(card.energy)
        d.worth = d.effect_worth + (body + recurring if card.type != ACTION else 0.0)


_compile(carddata.CARDS)

STAGES = ["setup", "upkeep", "main", "store", "draw", "over"]


# --- small rules over the struct (the questions the game asks too are in engine.pxd) ---

cdef inline int energy_total(const uint8_t* e) noexcept nogil:
    return e[RED] + e[GREEN] + e[BLUE] + e[BLACK]

cdef inline bint upgraded(const Creature* c) noexcept nogil:
    """Whether an upgrade is attached: most creatures carry none, and then their figures
    are their design's, with no upgrade kind to look through."""
    return load_le64(c.upgrades) != 0

cdef int power(const Creature* c) noexcept nogil:
    cdef int u, n = DESIGNS[c.design].power + c.boost
    if upgraded(c):
        for u in range(N_UPGRADES):
            n += c.upgrades[u] * DESIGNS[UPGRADE_DESIGN[u]].power
    return n

cdef int toughness(const Creature* c) noexcept nogil:
    cdef int u, n = DESIGNS[c.design].toughness
    if upgraded(c):
        for u in range(N_UPGRADES):
            n += c.upgrades[u] * DESIGNS[UPGRADE_DESIGN[u]].toughness
    return n

cdef int output(const Creature* c, int colour) noexcept nogil:
    """The energy of ``colour`` the creature makes when it produces."""
    cdef int u, n = DESIGNS[c.design].energy[colour]
    if upgraded(c):
        for u in range(N_UPGRADES):
            n += c.upgrades[u] * DESIGNS[UPGRADE_DESIGN[u]].energy[colour]
    return n

cdef int creature_count(Side* side) noexcept nogil:
    cdef int i, n = 0
    for i in range(SLOTS):
        n += alive(&side.creatures[i])
    return n

cdef int distinct(Side* side, int mask) noexcept nogil:
    """The slots of ``mask`` less those whose creature is the same in every respect as
    one in a lower slot of ``mask``: interchangeable creatures are one choice (E21)."""
    cdef int i, j, out = mask
    for i in range(SLOTS):
        if not mask >> i & 1:
            continue
        for j in range(i):
            if mask >> j & 1 and memcmp(&side.creatures[i], &side.creatures[j],
                                        sizeof(Creature)) == 0:
                out &= ~(1 << i)
                break
    return out

cdef inline void finish(EnergyData* s, int winner) noexcept nogil:
    s.winner = winner
    s.stage = STAGE_OVER
    s.stack.depth = 0

cdef void lose_lives(EnergyData* s, int q, int n) noexcept nogil:
    s.sides[q].lives -= n
    if s.sides[q].lives <= 0:
        finish(s, 1 - q)

cdef void gain(EnergyData* s, int p, int colour, int n) noexcept nogil:
    """``n`` energy of ``colour`` from the common supply into ``p``'s; each one missing
    is a black one instead, and nothing once black is gone too (the text)."""
    cdef int i
    for i in range(n):
        if s.common[colour]:
            s.common[colour] -= 1
            s.sides[p].energy[colour] += 1
        elif s.common[BLACK]:
            s.common[BLACK] -= 1
            s.sides[p].energy[BLACK] += 1

cdef void store_on(EnergyData* s, int p, int slot, int colour, int n) noexcept nogil:
    """``n`` energy of ``colour`` from the common supply onto a white creature; black is
    never stored, so a missing colour's black fallback goes to the supply (E17)."""
    cdef int i
    cdef Creature* c = &s.sides[p].creatures[slot]
    for i in range(n):
        if s.common[colour]:
            s.common[colour] -= 1
            c.stored[colour] += 1
        elif s.common[BLACK]:
            s.common[BLACK] -= 1
            s.sides[p].energy[BLACK] += 1

cdef void remove(EnergyData* s, int q, int slot) noexcept nogil:
    """A creature leaves play, destroyed or replaced: it and its upgrades go to its
    owner's discard pile, the energy stored on it to the common supply (E16)."""
    cdef Side* side = &s.sides[q]
    cdef Creature* c = &side.creatures[slot]
    cdef int u, k
    side.discard[c.design] += 1
    for u in range(N_UPGRADES):
        side.discard[UPGRADE_DESIGN[u]] += c.upgrades[u]
    for k in range(STORABLE):
        s.common[k] += c.stored[k]
    memset(c, 0, sizeof(Creature))
    c.design = NONE

cdef void hurt(EnergyData* s, int q, int slot, int n) noexcept nogil:
    """Damage adds up over the turn, attacks and effects alike, until the creature's
    toughness is reached (E6, E15)."""
    cdef Creature* c = &s.sides[q].creatures[slot]
    cdef int total = c.damage + n
    c.damage = total if total < 255 else 255
    if c.damage >= toughness(c):
        remove(s, q, slot)

cdef inline void forget(Side* side, int d) noexcept nogil:
    """A card of design ``d`` leaves the hand: if the other player knew one was there,
    that one has gone (E18)."""
    if side.known[d]:
        side.known[d] -= 1

cdef void reshuffle(EnergyData* s, int p) noexcept nogil:
    """The discard pile becomes the draw pile.  The draw pile was empty, so the hand is
    every card the player had left unseen, and the other player now knows it (E18)."""
    cdef Side* side = &s.sides[p]
    pile_move_all(side.discard, side.draw, N_DESIGNS)
    memcpy(side.known, side.hand, sizeof(side.known))


# --- effects and triggers ---------------------------------------------------------------

cdef void push_card(EnergyData* s, int design, int event, int p, int slot) noexcept nogil:
    cdef Frame* f = push_effects(&s.stack, DESIGNS[design].events[event], p, design)
    if f != NULL:
        f.data[0] = slot
        f.data[1] = event

cdef Frame* push_frame(EnergyData* s, int kind, int p, int source, int d0, int d1, int d2,
                       int d3) noexcept nogil:
    # The stack never holds more than a trigger walk, one card's effects and the one
    # decision or draw an effect waits on (the deal's three frames aside), whatever the
    # card data says: an effect pushes one frame and the run stops there.  So no card
    # set can reach STACK_DEPTH, and the data needs no check for it.
    cdef Frame* f = stack_push(&s.stack, kind, p, source)
    if f != NULL:
        f.data[0] = d0
        f.data[1] = d1
        f.data[2] = d2
        f.data[3] = d3
    return f

cdef void run_effect(void* state, const Effect* table, int index,
                     Frame* frame) noexcept nogil:
    """The one switch over the effect words (cards.WORDS)."""
    cdef EnergyData* s = <EnergyData*>state
    cdef const Effect* e = &table[index]
    cdef int p = frame.player, q = 1 - frame.player, n = e.amount, i
    if e.op == OP_DAMAGE:
        if e.arg == AT_PLAYER:
            # Not an attack: it reaches lives behind three creatures (E15).
            lose_lives(s, q, n)
        elif e.arg == AT_ALL:
            for i in range(SLOTS):
                if alive(&s.sides[q].creatures[i]):
                    hurt(s, q, i, n)
        else:
            push_frame(s, F_FOE, p, frame.source, OP_DAMAGE, n, 0, 0)
    elif e.op == OP_DESTROY:
        push_frame(s, F_FOE, p, frame.source, OP_DESTROY, n, 0, 0)
    elif e.op == OP_LIFE:
        s.sides[p].lives += n
    elif e.op == OP_DRAW:
        push_frame(s, F_DRAW, p, NONE, n, 0, 0, 0)
    elif e.op == OP_GAIN:
        gain(s, p, e.arg, n)
    elif e.op == OP_STORE:
        push_frame(s, F_OWN, p, frame.source, OP_STORE, n, e.arg, NONE)
    elif e.op == OP_UNTAP:
        # Never the creature whose trigger this is (E20).
        push_frame(s, F_OWN, p, frame.source, OP_UNTAP, n, 0, frame.data[0])
    elif e.op == OP_BOOST:
        push_frame(s, F_OWN, p, frame.source, OP_BOOST, n, 0, NONE)

cdef int upgrade_at(const Creature* c, int unit) noexcept nogil:
    """The design of the ``unit``-th upgrade on ``c`` (counting copies, upgrade kinds in
    order), or -1."""
    cdef int u
    for u in range(N_UPGRADES):
        if unit < c.upgrades[u]:
            return UPGRADE_DESIGN[u]
        unit -= c.upgrades[u]
    return NONE

cdef void walk(EnergyData* s, Frame* f) noexcept nogil:
    """The next trigger of the walk ``f``: each creature in slot order, then the
    upgrades on it (E14).  Pushes its effects, or pops the walk when none are left."""
    cdef int event = f.data[0], p = f.player, design, unit, slot
    cdef Creature* c
    cdef Span span
    while f.data[1] <= f.data[2]:
        slot = f.data[1]
        c = &s.sides[p].creatures[slot]
        unit = f.data[3]
        design = NONE
        if alive(c):
            design = c.design if unit == 0 else upgrade_at(c, unit - 1)
        if design == NONE:
            f.data[1] += 1
            f.data[3] = 0
            continue
        f.data[3] += 1
        span = DESIGNS[design].events[event]
        if span.start < span.end:
            push_card(s, design, event, p, slot)
            return
    stack_pop(&s.stack)


# --- paying, buying, playing --------------------------------------------------------------

cdef bint can_pay(Side* side, const uint8_t* cost) noexcept nogil:
    """Coloured costs in their colour; the rest in any, black included (E12)."""
    cdef int k, spare = side.energy[BLACK]
    for k in range(STORABLE):
        if side.energy[k] < cost[k]:
            return False
        spare += side.energy[k] - cost[k]
    return spare >= cost[3]

cdef bint can_play(EnergyData* s, int p, int d) noexcept nogil:
    cdef Side* side = &s.sides[p]
    if not can_pay(side, DESIGNS[d].cost):
        return False
    return DESIGNS[d].kind != UPGRADE or creature_count(side) > 0

cdef inline void pay_unit(EnergyData* s, int p, int colour) noexcept nogil:
    # Spent energy goes back to the common supply at once (E12).
    s.sides[p].energy[colour] -= 1
    s.common[colour] += 1

cdef void pay_split(EnergyData* s, int p, int red, int green, int left) noexcept nogil:
    cdef int i
    for i in range(left):
        pay_unit(s, p, RED if i < red else GREEN if i < red + green else BLUE)

cdef void pay_rest(EnergyData* s, int p, int left, int purpose, int d) noexcept nogil:
    """Pay ``left`` of a cost in any colour, then buy or play ``d``.  Black pays first:
    it is good for nothing else and is never stored.  Then the player chooses, in one
    decision, how many of the rest each colour pays, unless the choice cannot matter:
    one colour left, or exactly as many cubes as the cost (E12)."""
    cdef Side* side = &s.sides[p]
    cdef int k, colours = 0, rgb = 0
    while left > 0 and side.energy[BLACK]:
        pay_unit(s, p, BLACK)
        left -= 1
    if left > 0:
        for k in range(STORABLE):
            if side.energy[k]:
                colours += 1
                rgb += side.energy[k]
        if colours > 1 and rgb > left:
            push_frame(s, F_PAY, p, d, left, purpose, 0, 0)
            return
        for k in range(STORABLE):
            while left > 0 and side.energy[k]:
                pay_unit(s, p, k)
                left -= 1
    if purpose == FOR_BUY:
        bought(s, p, d)
    else:
        side.hand[d] -= 1
        forget(side, d)
        enter(s, p, d)

cdef void bought(EnergyData* s, int p, int d) noexcept nogil:
    """A bought card goes to the discard pile; a market card's place is refilled from
    the market deck while it lasts (E7)."""
    s.market[d] -= 1
    s.sides[p].discard[d] += 1
    s.bought = 1
    if DESIGNS[d].deck == MARKET and cards(s.market_deck):
        push_frame(s, F_REFILL, NONE, NONE, 1, 0, 0, 0)

cdef void place(EnergyData* s, int p, int slot, int d, int tapped) noexcept nogil:
    """A creature comes into play, ready to act this very turn unless it takes a tapped
    one's place (E13)."""
    cdef Creature* c = &s.sides[p].creatures[slot]
    memset(c, 0, sizeof(Creature))
    c.design = d
    c.tapped = tapped
    push_card(s, d, EV_PLAY, p, slot)

cdef void enter(EnergyData* s, int p, int d) noexcept nogil:
    """A card paid for comes into play: a creature into a free place, or in place of
    one of the three (a choice); an upgrade onto a creature (a choice); an action into
    the discard pile, and then its effects (the text)."""
    cdef int slot
    cdef Side* side = &s.sides[p]
    if DESIGNS[d].kind == CREATURE:
        for slot in range(SLOTS):
            if not alive(&side.creatures[slot]):
                place(s, p, slot, d, 0)
                return
        push_frame(s, F_REPLACE, p, d, 0, 0, 0, 0)
    elif DESIGNS[d].kind == UPGRADE:
        push_frame(s, F_ATTACH, p, d, 0, 0, 0, 0)
    else:
        side.discard[d] += 1
        push_card(s, d, EV_PLAY, p, NONE)

cdef void replace(EnergyData* s, int p, int slot, int d) noexcept nogil:
    """The fourth creature takes the place of one in play, tapped if it was (the
    text)."""
    cdef int tapped = s.sides[p].creatures[slot].tapped
    remove(s, p, slot)
    place(s, p, slot, d, tapped)

cdef void attach(EnergyData* s, int p, int slot, int d) noexcept nogil:
    s.sides[p].creatures[slot].upgrades[DESIGNS[d].upgrade] += 1
    push_card(s, d, EV_PLAY, p, slot)

cdef void attack(EnergyData* s, int slot, int target) noexcept nogil:
    cdef int p = s.active, q = 1 - s.active
    cdef Creature* c = &s.sides[p].creatures[slot]
    c.tapped = 1
    if target == LIVES:
        lose_lives(s, q, power(c))
    else:
        hurt(s, q, target, power(c))

cdef void produce(EnergyData* s, int slot) noexcept nogil:
    """Tap to produce: the energy first, then the creature's produce trigger and its
    upgrades' (E14)."""
    cdef int p = s.active, k
    cdef Creature* c = &s.sides[p].creatures[slot]
    c.tapped = 1
    for k in range(COLOURS):
        gain(s, p, k, output(c, k))
    push_frame(s, F_TRIGGERS, p, NONE, EV_PRODUCE, slot, slot, 0)


# --- the turn ---------------------------------------------------------------------------

cdef void begin_turn(EnergyData* s) noexcept nogil:
    """Stage 1: the energy stored on the player's creatures comes back to their supply,
    all of it (E10); on the second player's first turn, their black energy (E4).  Then
    stage 2's upkeep triggers."""
    cdef Side* side = &s.sides[s.active]
    cdef int i, k
    s.stage = STAGE_UPKEEP
    s.steps = 0
    for i in range(SLOTS):
        for k in range(STORABLE):
            side.energy[k] += side.creatures[i].stored[k]
            side.creatures[i].stored[k] = 0
    if s.turn == 2:
        gain(s, s.active, BLACK, s.second_player_energy)
    push_frame(s, F_TRIGGERS, s.active, NONE, EV_UPKEEP, 0, SLOTS - 1, 0)

cdef void end_actions(EnergyData* s) noexcept nogil:
    """The "end" action closes stage 3 (E5).  Stage 4: creatures untap, the turn's
    damage and boosts wear off (E6), and the energy left may be stored (E24)."""
    cdef Side* side = &s.sides[s.active]
    cdef int p, i
    for p in range(2):
        for i in range(SLOTS):
            s.sides[p].creatures[i].damage = 0
            s.sides[p].creatures[i].boost = 0
    for i in range(SLOTS):
        side.creatures[i].tapped = 0
    s.bought = 0
    s.stage = STAGE_STORE
    keep_next(s, push_frame(s, F_OWN, s.active, NONE, OP_KEEP, 0, RED, 0))

cdef void keep_next(EnergyData* s, Frame* f) noexcept nogil:
    """E24: the non-black energy left is stored cube by cube, red, then green, then
    blue, each cube on any white creature of the player's or returned.  Within a colour
    the creatures are chosen in slot order (``data[3]``, the lowest still open), so
    each split of the cubes is one sequence of choices; returning a colour returns all
    of it that is left.  Moves the frame on to a colour the player still holds, or
    pops it."""
    cdef Side* side
    if f == NULL:
        return
    side = &s.sides[f.player]
    while f.data[2] < STORABLE and side.energy[f.data[2]] == 0:
        f.data[2] += 1
        f.data[3] = 0
    if f.data[2] == STORABLE:
        stack_pop(&s.stack)

cdef void keep_cube(EnergyData* s, Frame* f, int a) noexcept nogil:
    """One stage 4 choice (E24): a cube of the colour onto the white creature in slot
    ``a - A_OWN``, or ``A_END``: the rest of the colour returns with the turn's end."""
    cdef Side* side = &s.sides[f.player]
    cdef int colour = f.data[2], slot
    if a == A_END:
        f.data[2] += 1
        f.data[3] = 0
    else:
        slot = a - A_OWN
        side.energy[colour] -= 1
        side.creatures[slot].stored[colour] += 1
        f.data[3] = slot
    keep_next(s, f)

cdef void end_turn(EnergyData* s) noexcept nogil:
    """The rest of stage 4 and stage 5: the energy left returns to the common supply,
    the hand is discarded and a new one drawn.  After the last turn the game is scored
    at once (E8, E22)."""
    cdef Side* side = &s.sides[s.active]
    cdef int k
    for k in range(COLOURS):
        s.common[k] += side.energy[k]
        side.energy[k] = 0
    if s.turn >= s.max_turns:
        if s.sides[0].lives == s.sides[1].lives:
            finish(s, DRAW)
        else:
            finish(s, 0 if s.sides[0].lives > s.sides[1].lives else 1)
        return
    pile_move_all(side.hand, side.discard, N_DESIGNS)
    memset(side.known, 0, sizeof(side.known))
    s.stage = STAGE_DRAW
    push_frame(s, F_DRAW, s.active, NONE, s.hand_size, 0, 0, 0)

cdef bint advance(EnergyData* s) noexcept nogil:
    """Move the turn on once nothing is pending; False while stage 3 waits on the
    player."""
    if s.stage == STAGE_SETUP:
        begin_turn(s)
    elif s.stage == STAGE_UPKEEP:
        s.stage = STAGE_MAIN
        return False
    elif s.stage == STAGE_STORE:
        end_turn(s)
    elif s.stage == STAGE_DRAW:
        s.active = 1 - s.active
        s.turn += 1
        begin_turn(s)
    else:
        return False
    return True

cdef bint draw_ready(EnergyData* s, Frame* f) noexcept nogil:
    """Whether a draw waits on chance: a card is due and there is one to draw, the
    discard pile shuffled in when the draw pile is empty (E18)."""
    cdef Side* side = &s.sides[f.player]
    if f.data[0] <= 0:
        return False
    if not cards(side.draw):
        if not cards(side.discard):
            return False
        reshuffle(s, f.player)
    return True

cdef void settle(EnergyData* s) noexcept nogil:
    """Run what is pending until a decision with a real choice or a chance event
    waits, or the game is over.  A decision with one choice is made at once (E21)."""
    cdef Frame* f
    cdef int buf[MAX_CHOICES]
    cdef int n
    while s.stage != STAGE_OVER:
        run_effects(&s.stack, EFFECTS, run_effect, s)
        if s.stage == STAGE_OVER:
            return
        f = stack_top(&s.stack)
        if f == NULL:
            if not advance(s):
                return
        elif f.kind == F_TRIGGERS:
            walk(s, f)
        elif f.kind == F_DRAW:
            if draw_ready(s, f):
                return
            stack_pop(&s.stack)
        elif f.kind == F_REFILL:
            if f.data[0] > 0 and cards(s.market_deck):
                return
            stack_pop(&s.stack)
        else:
            n = choices(s, f, buf)
            if n > 1:
                return
            if n == 1:
                choose(s, f, buf[0])
            else:
                stack_pop(&s.stack)


# --- decisions ----------------------------------------------------------------------------

cdef int slot_mask(EnergyData* s, Frame* f) noexcept nogil:
    """The slots a decision frame may choose, before merging interchangeable ones."""
    cdef Side* side
    cdef Creature* c
    cdef int i, mask = 0, op = f.data[0]
    if f.kind == F_FOE:
        side = &s.sides[1 - f.player]
        for i in range(SLOTS):
            c = &side.creatures[i]
            if alive(c) and (op == OP_DAMAGE or toughness(c) <= f.data[1]):
                mask |= 1 << i
        return mask
    side = &s.sides[f.player]
    for i in range(SLOTS):
        c = &side.creatures[i]
        if not alive(c):
            continue
        if f.kind == F_OWN:
            if (op == OP_STORE or op == OP_KEEP) and not is_white(c):
                continue
            if op == OP_KEEP and i < f.data[3]:
                continue
            if op == OP_UNTAP and (not c.tapped or i == f.data[3]):
                continue
        mask |= 1 << i
    return mask

cdef int choices(EnergyData* s, Frame* f, int* out) noexcept nogil:
    """The actions of the decision ``f`` waits on, ascending."""
    cdef int k, i, n = 0, mask, base
    cdef const uint8_t* e = s.sides[f.player].energy
    cdef int red, green, blue, left = f.data[0]
    if f.kind == F_PAY:
        for red in range(min(e[RED], left) + 1):
            for green in range(min(e[GREEN], left - red) + 1):
                if left - red - green <= e[BLUE]:
                    out[n] = A_PAY + red * SPLIT + green
                    n += 1
        return n
    mask = slot_mask(s, f)
    if f.kind == F_FOE:
        mask = distinct(&s.sides[1 - f.player], mask)
        base = A_FOE
    else:
        mask = distinct(&s.sides[f.player], mask)
        base = A_OWN
    if f.kind == F_OWN and f.data[0] == OP_KEEP:
        # Stage 4 may always return what is left of the colour (E24).
        out[n] = A_END
        n += 1
    for i in range(SLOTS):
        if mask >> i & 1:
            out[n] = base + i
            n += 1
    return n

cdef void choose(EnergyData* s, Frame* f, int a) noexcept nogil:
    """Apply the choice ``a`` of the decision ``f`` (on top of the stack)."""
    cdef int p = f.player, kind = f.kind, source = f.source, op = f.data[0]
    cdef int amount = f.data[1], colour = f.data[2], slot
    cdef Creature* c
    if kind == F_PAY:
        stack_pop(&s.stack)
        pay_split(s, p, (a - A_PAY) // SPLIT, (a - A_PAY) % SPLIT, op)
        pay_rest(s, p, 0, amount, source)
        return
    if kind == F_FOE:
        stack_pop(&s.stack)
        slot = a - A_FOE
        if op == OP_DAMAGE:
            hurt(s, 1 - p, slot, amount)
        else:
            remove(s, 1 - p, slot)
        return
    if kind == F_OWN and op == OP_KEEP:
        keep_cube(s, f, a)
        return
    slot = a - A_OWN
    c = &s.sides[p].creatures[slot]
    if kind == F_OWN and op == OP_UNTAP:
        c.tapped = 0
        f.data[1] -= 1
        if f.data[1] <= 0:
            stack_pop(&s.stack)
        return
    stack_pop(&s.stack)
    if kind == F_REPLACE:
        replace(s, p, slot, source)
    elif kind == F_ATTACH:
        attach(s, p, slot, source)
    elif op == OP_STORE:
        store_on(s, p, slot, colour, amount)
    else:
        c.boost = c.boost + amount if c.boost + amount < 255 else 255


# --- stage 3 ------------------------------------------------------------------------------

cdef int play_actions(EnergyData* s, uint64_t held, int* out) noexcept nogil:
    """The plays of the main step, by design: of the designs ``held`` in hand (their
    ``kinds_held``), those the player can pay for."""
    cdef int n = 0, d
    cdef uint64_t left = held
    while left:
        d = lowest_kind(left)
        left &= left - 1
        if can_play(s, s.active, d):
            out[n] = A_PLAY + d
            n += 1
    return n

cdef int discard_actions(EnergyData* s, uint64_t held, int* out) noexcept nogil:
    """The discards of the main step, of the designs ``held`` in hand, by design, then
    by the colour gained."""
    cdef int n = 0, d, k
    cdef uint64_t left = held
    while left:
        d = lowest_kind(left)
        left &= left - 1
        for k in range(COLOURS):
            if DESIGNS[d].discard >> k & 1:
                out[n] = A_DISCARD + d * COLOURS + k
                n += 1
    return n

cdef int main_actions(EnergyData* s, int* out) noexcept nogil:
    cdef int p = s.active, n = 0, d, k, i, t, ready = 0, targets
    cdef Side* side = &s.sides[p]
    cdef Side* foe = &s.sides[1 - p]
    cdef uint64_t held, left
    out[n] = A_END
    n += 1
    if s.steps >= TURN_STEPS:
        return n
    if not s.bought:
        k = energy_total(side.energy)
        left = kinds_held(s.market, N_DESIGNS)
        while left:
            d = lowest_kind(left)
            left &= left - 1
            if DESIGNS[d].buy <= k:
                out[n] = A_BUY + d
                n += 1
    held = kinds_held(side.hand, N_DESIGNS)
    n += play_actions(s, held, out + n)
    n += discard_actions(s, held, out + n)
    for i in range(SLOTS):
        if alive(&side.creatures[i]) and not side.creatures[i].tapped:
            ready |= 1 << i
    ready = distinct(side, ready)
    targets = 0
    for t in range(SLOTS):
        if alive(&foe.creatures[t]):
            targets |= 1 << t
    targets = distinct(foe, targets)
    # The opponent's lives are open to attack only behind fewer than three creatures.
    if creature_count(foe) < SLOTS:
        targets |= 1 << LIVES
    for i in range(SLOTS):
        if ready >> i & 1 and power(&side.creatures[i]) > 0:
            for t in range(4):
                if targets >> t & 1:
                    out[n] = A_ATTACK + i * 4 + t
                    n += 1
    for i in range(SLOTS):
        if ready >> i & 1:
            out[n] = A_PRODUCE + i
            n += 1
    return n

cdef void main_action(EnergyData* s, int a) noexcept nogil:
    cdef int p = s.active, d, k
    cdef Side* side = &s.sides[p]
    if a == A_END:
        end_actions(s)
    elif a < A_PLAY:
        d = a - A_BUY
        pay_rest(s, p, DESIGNS[d].buy, FOR_BUY, d)
    elif a < A_DISCARD:
        d = a - A_PLAY
        for k in range(STORABLE):
            side.energy[k] -= DESIGNS[d].cost[k]
            s.common[k] += DESIGNS[d].cost[k]
        pay_rest(s, p, DESIGNS[d].cost[3], FOR_PLAY, d)
    elif a < A_ATTACK:
        d = (a - A_DISCARD) // COLOURS
        side.hand[d] -= 1
        forget(side, d)
        side.discard[d] += 1
        gain(s, p, (a - A_DISCARD) % COLOURS, 1)
    elif a < A_PRODUCE:
        attack(s, (a - A_ATTACK) // 4, (a - A_ATTACK) % 4)
    else:
        produce(s, a - A_PRODUCE)


# --- game knowledge -----------------------------------------------------------------------

cdef double creature_worth(const Creature* c) noexcept nogil:
    cdef int u
    cdef double w = DESIGNS[c.design].worth
    if upgraded(c):
        for u in range(N_UPGRADES):
            w += c.upgrades[u] * DESIGNS[UPGRADE_DESIGN[u]].worth
    return w

cdef double deck_worth(Side* side) noexcept nogil:
    """The mean worth of the cards a player owns: what their deck will do."""
    cdef int d, i, k, n = 0
    cdef double w = 0.0
    cdef uint64_t owned = kinds_in_any(side.hand, side.draw, side.discard, N_DESIGNS)
    while owned:
        d = lowest_kind(owned)
        owned &= owned - 1
        k = side.hand[d] + side.draw[d] + side.discard[d]
        n += k
        w += k * DESIGNS[d].worth
    for i in range(SLOTS):
        if alive(&side.creatures[i]):
            n += 1
            w += creature_worth(&side.creatures[i])
    return w / n if n else 0.0

cdef double board(Side* side) noexcept nogil:
    cdef int i, k
    cdef double w = 0.0
    cdef Creature* c
    for i in range(SLOTS):
        c = &side.creatures[i]
        if alive(c):
            w += power(c) - c.boost + 0.5 * toughness(c)
            for k in range(COLOURS):
                w += output(c, k) + (c.stored[k] if k < STORABLE else 0)
    return w

cdef int best_slot(EnergyData* s, Frame* f, int* acts, int n) noexcept nogil:
    """The heuristic's choice among a decision's creatures."""
    cdef int i, slot, best = acts[0], q
    cdef double score, top = -1e9
    cdef Creature* c
    cdef int p = f.player
    for i in range(n):
        if f.kind == F_FOE:
            slot = acts[i] - A_FOE
            c = &s.sides[1 - p].creatures[slot]
            score = creature_worth(c)
            # A creature this finishes off is worth most.
            if f.data[0] == OP_DESTROY or toughness(c) - c.damage <= f.data[1]:
                score += 100.0
        else:
            slot = acts[i] - A_OWN
            c = &s.sides[p].creatures[slot]
            if f.kind == F_REPLACE:
                score = -creature_worth(c) - 5.0 * c.tapped
            elif f.kind == F_ATTACH or f.data[0] == OP_BOOST:
                score = power(c) + 0.1 * toughness(c) - 10.0 * c.tapped
            elif f.data[0] == OP_UNTAP:
                score = power(c) + energy_total(DESIGNS[c.design].energy)
            else:
                score = toughness(c) - c.damage
        if score > top:
            top = score
            best = acts[i]
    return best

cdef int pay_choice(EnergyData* s, Frame* f) noexcept nogil:
    """Pay each unit with the colour the hand's costs need least."""
    cdef Side* side = &s.sides[f.player]
    cdef int k, d, i, best
    cdef int paid[STORABLE]
    cdef double spare[STORABLE]
    cdef uint64_t hand = kinds_held(side.hand, N_DESIGNS), held
    for k in range(STORABLE):
        paid[k] = 0
        spare[k] = side.energy[k]
        held = hand
        while held:
            d = lowest_kind(held)
            held &= held - 1
            spare[k] -= side.hand[d] * DESIGNS[d].cost[k]
    for i in range(f.data[0]):
        best = NONE
        for k in range(STORABLE):
            if paid[k] < side.energy[k] and (best == NONE or spare[k] > spare[best]):
                best = k
        paid[best] += 1
        spare[best] -= 1
    return A_PAY + paid[RED] * SPLIT + paid[GREEN]

cdef double effects_value(EnergyData* s, int p, Span span) noexcept nogil:
    """What a card's effects are worth now: those that find nothing to act on, nothing."""
    cdef Side* side = &s.sides[p]
    cdef Side* foe = &s.sides[1 - p]
    cdef const Effect* e
    cdef int i, j, n, foes = creature_count(foe), mine = 0, tapped = 0, white = 0, killable
    cdef double w = 0.0
    for j in range(SLOTS):
        if alive(&side.creatures[j]):
            mine += not side.creatures[j].tapped and power(&side.creatures[j]) > 0
            tapped += side.creatures[j].tapped
            white += is_white(&side.creatures[j])
    for i in range(span.start, span.end):
        e = &EFFECTS[i]
        n = e.amount
        if e.op == OP_DAMAGE:
            if e.arg == AT_PLAYER:
                w += n
            elif e.arg == AT_ALL:
                w += 0.7 * n * foes
            elif foes:
                w += 0.7 * n
        elif e.op == OP_DESTROY:
            killable = 0
            for j in range(SLOTS):
                if alive(&foe.creatures[j]) and toughness(&foe.creatures[j]) <= n:
                    killable = 1
            w += (1.0 + 0.5 * n) * killable
        elif e.op == OP_LIFE:
            w += 0.5 * n
        elif e.op == OP_DRAW:
            w += 1.2 * n * (cards(side.draw) + cards(side.discard) > 0)
        elif e.op == OP_GAIN:
            w += n
        elif e.op == OP_STORE:
            w += 0.9 * n * (white > 0)
        elif e.op == OP_UNTAP:
            w += 1.2 * (n if n < tapped else tapped)
        elif e.op == OP_BOOST:
            w += 0.5 * n * (mine > 0)
    return w

cdef double play_value(EnergyData* s, int p, int d) noexcept nogil:
    """What playing ``d`` now is worth to the heuristic, against the one energy its
    discard would give.  A fourth creature is worth what it adds over the weakest."""
    cdef Side* side = &s.sides[p]
    cdef int i, weakest = NONE
    cdef double w = effects_value(s, p, DESIGNS[d].events[EV_PLAY])
    if DESIGNS[d].kind == ACTION:
        return w
    w += DESIGNS[d].worth - DESIGNS[d].effect_worth
    if DESIGNS[d].kind == UPGRADE or creature_count(side) < SLOTS:
        return w
    for i in range(SLOTS):
        if weakest == NONE or creature_worth(&side.creatures[i]) \
                < creature_worth(&side.creatures[weakest]):
            weakest = i
    return w - creature_worth(&side.creatures[weakest])

cdef int heuristic_main(EnergyData* s) noexcept nogil:
    cdef int p = s.active, q = 1 - s.active, i, t, d, k, best, spare
    cdef Side* side = &s.sides[p]
    cdef Side* foe = &s.sides[q]
    cdef Creature* c
    cdef Creature* target
    cdef int acts[NUM_ACTIONS]
    cdef int n
    cdef uint64_t held
    cdef int open_lives = creature_count(foe) < SLOTS
    cdef int reach = 0
    cdef double value, top
    if s.steps >= TURN_STEPS:
        return A_END
    # Each choice below reads only the part of the move list it chooses from: an attack
    # or a production none, since the first creature that can act is in the lowest
    # slot of its kind, the one the list offers (E21).
    #
    # Attackers: every creature whose power is at least what it would produce.
    for i in range(SLOTS):
        c = &side.creatures[i]
        if alive(c) and not c.tapped and power(c) > 0 \
                and power(c) >= energy_total(DESIGNS[c.design].energy):
            reach += power(c)
    for i in range(SLOTS):
        c = &side.creatures[i]
        if not alive(c) or c.tapped or power(c) <= 0 \
                or power(c) < energy_total(DESIGNS[c.design].energy):
            continue
        if open_lives:
            return A_ATTACK + i * 4 + LIVES
        best = NONE
        top = -1e9
        for t in range(SLOTS):
            target = &foe.creatures[t]
            if alive(target) and toughness(target) - target.damage <= reach:
                value = creature_worth(target) - 0.01 * t
                if value > top:
                    top = value
                    best = t
        if best != NONE:
            return A_ATTACK + i * 4 + best
    # Produce with every creature that does not attack.
    for i in range(SLOTS):
        c = &side.creatures[i]
        if alive(c) and not c.tapped:
            return A_PRODUCE + i
    # Play the card worth most, if it beats discarding it.
    best = NONE
    top = 1.0
    held = kinds_held(side.hand, N_DESIGNS)
    n = play_actions(s, held, acts)
    for k in range(n):
        value = play_value(s, p, acts[k] - A_PLAY)
        if value > top:
            top = value
            best = acts[k]
    if best != NONE:
        return best
    # Buy the card worth most that the supply and the hand can pay for.
    if not s.bought:
        spare = energy_total(side.energy) + cards(side.hand)
        best = NONE
        top = 0.0
        for d in range(N_DESIGNS):
            if s.market[d] and DESIGNS[d].buy <= spare:
                value = DESIGNS[d].worth + 0.3 * DESIGNS[d].buy
                if value > top:
                    top = value
                    best = d
        if best != NONE:
            if DESIGNS[best].buy <= energy_total(side.energy):
                return A_BUY + best
            return cheapest_discard(s, acts, discard_actions(s, held, acts))
    # Energy left at the end is stored only on a white creature: discard for it then.
    for i in range(SLOTS):
        if is_white(&side.creatures[i]):
            n = discard_actions(s, held, acts)
            for k in range(n):
                if (acts[k] - A_DISCARD) % COLOURS < BLACK:
                    return acts[k]
            break
    return A_END

cdef int cheapest_discard(EnergyData* s, int* acts, int n) noexcept nogil:
    """Of the discards ``acts``, the one that gives up least: the card worth least to
    play."""
    cdef int k, d, best = A_END
    cdef double value, low = 1e9
    for k in range(n):
        d = (acts[k] - A_DISCARD) // COLOURS
        value = play_value(s, s.active, d) if can_play(s, s.active, d) else 0.0
        if value < low:
            low = value
            best = acts[k]
    return best


cdef class EnergyState(GameState):
    """An energy deck-builder position.  Build one with
    ``EnergyDeckbuilderGame.new_initial_state`` or ``state_from_dict``."""

    # --- the contract ------------------------------------------------------------

    cdef int c_current_player(self) noexcept nogil:
        cdef Frame* f
        if self.s.stage == STAGE_OVER:
            return TERMINAL
        f = stack_top(&self.s.stack)
        if f == NULL:
            return self.s.active
        if f.kind == F_DRAW or f.kind == F_REFILL:
            return CHANCE
        return f.player

    cdef bint c_is_terminal(self) noexcept nogil:
        return self.s.stage == STAGE_OVER

    cdef double c_returns(self, int player) noexcept nogil:
        return win_loss(self.s.winner, player, 2)

    cdef void copy_into(self, GameState dst) noexcept nogil:
        memcpy(&(<EnergyState>dst).s, &self.s, sizeof(EnergyData))

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        cdef Frame* f = stack_top(&self.s.stack)
        if self.s.stage == STAGE_OVER or f == NULL:
            return 0
        if f.kind == F_DRAW:
            return pile_outcomes(self.s.sides[f.player].draw, 0, N_DESIGNS, actions, probs)
        if f.kind == F_REFILL:
            return pile_outcomes(self.s.market_deck, 0, N_DESIGNS, actions, probs)
        return 0

    cdef int c_sample_chance(self, Rng* rng) noexcept nogil:
        cdef Frame* f = stack_top(&self.s.stack)
        if self.s.stage == STAGE_OVER or f == NULL:
            return -1
        if f.kind == F_DRAW:
            return pile_sample(self.s.sides[f.player].draw, 0, N_DESIGNS, rng)
        if f.kind == F_REFILL:
            return pile_sample(self.s.market_deck, 0, N_DESIGNS, rng)
        return -1

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef double probs[MAX_DESIGNS]
        cdef Frame* f
        if self.s.stage == STAGE_OVER:
            return 0
        f = stack_top(&self.s.stack)
        if f == NULL:
            return main_actions(&self.s, out)
        if f.kind == F_DRAW or f.kind == F_REFILL:
            return self.c_chance_outcomes(out, probs)
        return choices(&self.s, f, out)

    cdef void c_apply_action(self, int a) noexcept nogil:
        cdef EnergyData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        s.steps += 1
        if f == NULL:
            main_action(s, a)
        elif f.kind == F_DRAW:
            s.sides[f.player].draw[a] -= 1
            s.sides[f.player].hand[a] += 1
            f.data[0] -= 1
        elif f.kind == F_REFILL:
            s.market_deck[a] -= 1
            s.market[a] += 1
            f.data[0] -= 1
        else:
            choose(s, f, a)
        settle(s)

    # --- knowledge ---------------------------------------------------------------

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # Hidden: hands and the order of draw piles and the market deck (E9).  Piles
        # are counts, so only the split of the opponent's unseen cards between hand and
        # draw pile is left to choose.  Their union is public: the cards the opponent
        # owns less those in view.  The cards the observer knows are in the hand (E18)
        # stay there; the rest of the hand is drawn uniformly from the others.
        cdef Side* side = &self.s.sides[1 - observer]
        cdef int d, i, unknown = cards(side.hand) - cards(side.known)
        for d in range(N_DESIGNS):
            side.draw[d] += side.hand[d] - side.known[d]
            side.hand[d] = side.known[d]
        for i in range(unknown):
            d = pile_sample(side.draw, 0, N_DESIGNS, rng)
            side.draw[d] -= 1
            side.hand[d] += 1

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        # A card drawn is seen by its drawer only; every decision is made in the open:
        # playing and discarding show the card, and a choice is of cards in view.
        cdef Frame* f = stack_top(&self.s.stack)
        if f != NULL and f.kind == F_DRAW and f.player != observer:
            return -1
        return action

    cdef double c_evaluate(self, int player) noexcept nogil:
        # Lives first; then the creatures in play, which attack and produce every turn;
        # then the deck, which decides what every later hand can do.  Energy in the
        # supply counts for nothing: what is left at the end of a turn is lost, so its
        # worth is what it buys or plays, and those count once they happen.
        cdef EnergyData* s = &self.s
        cdef Side* me = &s.sides[player]
        cdef Side* op = &s.sides[1 - player]
        cdef double v
        v = 1.2 * (me.lives - op.lives) / <double>s.start_lives \
            + 0.06 * (board(me) - board(op)) \
            + 0.2 * (deck_worth(me) - deck_worth(op))
        # tanh, not a clamp: a search far ahead still tells a better line from a worse.
        return tanh(v)

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        cdef EnergyData* s = &self.s
        cdef Frame* f = stack_top(&s.stack)
        cdef int acts[MAX_CHOICES]
        cdef int n
        if s.stage == STAGE_OVER:
            return -1
        if f == NULL:
            return heuristic_main(s)
        if f.kind == F_DRAW or f.kind == F_REFILL:
            return -1
        if f.kind == F_PAY:
            return pay_choice(s, f)
        n = choices(s, f, acts)
        if f.kind == F_OWN and f.data[0] == OP_KEEP:
            # Storing is never worse than returning: the cube comes back next turn.
            return best_slot(s, f, acts + 1, n - 1)
        return best_slot(s, f, acts, n)

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        fill_tensor(self, player, out)


# --- the observation tensor ----------------------------------------------------------

# Counts are divided by the copies a game holds; lives by the starting lives.
cdef int CREATURE_SIZE = MAX_DESIGNS + 4 + STORABLE + MAX_UPGRADE_KINDS
_SIDE_SIZE = 3 + COLOURS + 4 * MAX_DESIGNS + SLOTS * CREATURE_SIZE
LAYOUT = TensorLayout(
    ("stage", len(STAGES)),
    ("flags", 5),             # to move, active, bought, turns so far, steps this turn
    ("common", COLOURS),
    ("market", MAX_DESIGNS),
    ("market_deck", MAX_DESIGNS),
    ("pending", NUM_FRAME_KINDS + 4 + MAX_DESIGNS),    # the top frame: kind, data, card
    ("viewer", _SIDE_SIZE),
    ("opponent", _SIDE_SIZE),
)


# Where each block begins, read from LAYOUT once, for the fill without the GIL.
cdef int T_SIZE = LAYOUT.size
cdef int T_STAGE = LAYOUT.offset("stage")
cdef int T_FLAGS = LAYOUT.offset("flags")
cdef int T_COMMON = LAYOUT.offset("common")
cdef int T_MARKET = LAYOUT.offset("market")
cdef int T_MARKET_DECK = LAYOUT.offset("market_deck")
cdef int T_PENDING = LAYOUT.offset("pending")
cdef int T_VIEWER = LAYOUT.offset("viewer")
cdef int T_OPPONENT = LAYOUT.offset("opponent")


cdef void fill_tensor(EnergyState st, int viewer, float* v) noexcept nogil:
    """What ``viewer`` knows, block by block as ``LAYOUT`` lays it out."""
    cdef EnergyData* s = &st.s
    cdef Frame* f
    cdef int d, k
    memset(v, 0, T_SIZE * sizeof(float))
    v[T_STAGE + s.stage] = 1
    v[T_FLAGS] = st.c_current_player() == viewer
    v[T_FLAGS + 1] = s.active == viewer
    v[T_FLAGS + 2] = s.bought
    v[T_FLAGS + 3] = s.turn / <float>s.max_turns
    v[T_FLAGS + 4] = s.steps / <float>TURN_STEPS
    for k in range(COLOURS):
        v[T_COMMON + k] = s.common[k] / 6.0
    for d in range(N_DESIGNS):
        v[T_MARKET + d] = s.market[d] / <float>DESIGNS[d].in_game
        v[T_MARKET_DECK + d] = s.market_deck[d]
    if s.stage != STAGE_OVER and s.stack.depth:
        f = stack_top(&s.stack)
        v[T_PENDING + f.kind] = 1
        for k in range(4):
            v[T_PENDING + NUM_FRAME_KINDS + k] = f.data[k] / 10.0
        if f.source >= 0 and f.kind != F_TRIGGERS:
            v[T_PENDING + NUM_FRAME_KINDS + 4 + f.source] = 1
    fill_side(&s.sides[viewer], True, s.start_lives, v + T_VIEWER)
    fill_side(&s.sides[1 - viewer], False, s.start_lives, v + T_OPPONENT)


cdef void fill_side(Side* side, bint own, int start_lives, float* v) noexcept nogil:
    """A player's block: lives, hand and draw pile sizes, energy, then by design the
    hand (the opponent's: the cards known there), the draw pile (the opponent's: with
    the hand, as the two are known together), the discard pile and the cards known in
    hand, then each creature: design, tapped, damage, boost, power, stored energy,
    upgrades.  ``own``: the viewer's block."""
    cdef Creature* c
    cdef int d, k, i, u, o
    v[0] = side.lives / <float>start_lives
    v[1] = cards(side.hand) / 10.0
    v[2] = cards(side.draw) / 10.0
    o = 3
    for k in range(COLOURS):
        v[o + k] = side.energy[k] / 6.0
    o += COLOURS
    for d in range(N_DESIGNS):
        if own:
            v[o + d] = side.hand[d] / <float>DESIGNS[d].in_game
            v[o + MAX_DESIGNS + d] = side.draw[d] / <float>DESIGNS[d].in_game
        else:
            v[o + d] = side.known[d] / <float>DESIGNS[d].in_game
            v[o + MAX_DESIGNS + d] = (side.hand[d] - side.known[d] + side.draw[d]) \
                / <float>DESIGNS[d].in_game
        v[o + 2 * MAX_DESIGNS + d] = side.discard[d] / <float>DESIGNS[d].in_game
        v[o + 3 * MAX_DESIGNS + d] = side.known[d] / <float>DESIGNS[d].in_game
    o += 4 * MAX_DESIGNS
    for i in range(SLOTS):
        c = &side.creatures[i]
        if alive(c):
            v[o + c.design] = 1
            v[o + MAX_DESIGNS] = c.tapped
            v[o + MAX_DESIGNS + 1] = c.damage / 10.0
            v[o + MAX_DESIGNS + 2] = c.boost / 10.0
            v[o + MAX_DESIGNS + 3] = power(c) / 10.0
            for k in range(STORABLE):
                v[o + MAX_DESIGNS + 4 + k] = c.stored[k] / 6.0
            for u in range(N_UPGRADES):
                v[o + MAX_DESIGNS + 4 + STORABLE + u] = c.upgrades[u] / 4.0
        o += CREATURE_SIZE
