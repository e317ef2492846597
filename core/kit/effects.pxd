# cython: language_level=3
"""Effects and pending decisions for games with designed cards: the hot-path half of
:mod:`core.kit.carddata`, as inline C helpers (nothing to link, no GIL, no allocation).

A card's effects are a run of :c:type:`Effect` in one static table the engine fills at
import from the card data (:func:`core.kit.carddata.effect_table`); a card design keeps,
per event (played, upkeep, produce...), the :c:type:`Span` of its effects.

A choice that takes several decisions lives on a :c:type:`Stack` of :c:type:`Frame`
inside the game's struct, so a copy stays one memcpy.  A frame of kind
:c:data:`FRAME_EFFECTS` is a card's effects running; any other kind is a decision the
game defines, which its ``legal_actions`` offers and its ``apply_action`` settles.
:c:func:`run_effects` runs effects until a decision waits on top or nothing is left:
an effect that needs a choice pushes a frame and the run stops there; once the choice
is applied and its frame popped, the game calls :c:func:`run_effects` again and the
card's remaining effects go on.
"""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t

cdef enum:
    STACK_DEPTH = 8
    FRAME_EFFECTS = 0


ctypedef struct Effect:
    uint8_t op          # the word's place in the game's Vocabulary
    int8_t amount
    uint8_t arg         # the argument's place in the word's names
    uint8_t arg2


ctypedef struct Span:
    uint16_t start      # the first effect, an index into the game's table
    uint16_t end        # one past the last


ctypedef struct Frame:
    uint8_t kind        # FRAME_EFFECTS, or a decision kind of the game's
    int8_t player       # whose card runs, or who decides
    int16_t source      # the card the frame is for (a design or a place: the game's)
    uint16_t pc         # the next effect to run, or the effect a decision is for
    uint16_t end        # one past the frame's last effect
    int16_t data[4]     # what a decision needs: targets chosen, an amount left...


ctypedef struct Stack:
    int depth
    Frame frames[STACK_DEPTH]


# Runs the effect ``table[index]`` for ``state`` (the game's struct) within ``frame``:
# an effect that needs a decision pushes its frame on the stack.
ctypedef void (*EffectFn)(void* state, const Effect* table, int index,
                          Frame* frame) noexcept nogil


cdef inline Frame* stack_top(Stack* s) noexcept nogil:
    """The frame on top, NULL if the stack is empty."""
    return &s.frames[s.depth - 1] if s.depth > 0 else NULL


cdef inline Frame* stack_push(Stack* s, int kind, int player, int source) noexcept nogil:
    """A new frame on top with every other field zero; NULL when the stack is full (a
    card set deeper than ``STACK_DEPTH`` is refused when the data is checked)."""
    cdef Frame* f
    if s.depth >= STACK_DEPTH:
        return NULL
    f = &s.frames[s.depth]
    s.depth += 1
    f.kind = kind
    f.player = player
    f.source = source
    f.pc = 0
    f.end = 0
    f.data[0] = 0
    f.data[1] = 0
    f.data[2] = 0
    f.data[3] = 0
    return f


cdef inline void stack_pop(Stack* s) noexcept nogil:
    if s.depth > 0:
        s.depth -= 1


cdef inline Frame* push_effects(Stack* s, Span span, int player, int source) noexcept nogil:
    """The effects ``span`` of a card, to run on top of the stack; NULL if it has none
    (nothing is pushed) or the stack is full."""
    cdef Frame* f
    if span.start >= span.end:
        return NULL
    f = stack_push(s, FRAME_EFFECTS, player, source)
    if f != NULL:
        f.pc = span.start
        f.end = span.end
    return f


cdef inline void run_effects(Stack* s, const Effect* table, EffectFn run,
                             void* state) noexcept nogil:
    """Run the effects on the stack, newest first, until a decision waits on top or the
    stack is empty.  A frame's ``pc`` moves past an effect before the effect runs, so a
    decision the effect pushes resumes the card after it."""
    cdef Frame* f
    cdef int index
    while s.depth > 0:
        f = &s.frames[s.depth - 1]
        if f.kind != FRAME_EFFECTS:
            return
        if f.pc >= f.end:
            s.depth -= 1
            continue
        index = f.pc
        f.pc += 1
        run(state, table, index, f)
