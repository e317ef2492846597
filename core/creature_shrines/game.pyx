# cython: language_level=3, cdivision=True
"""Creature Shrines' Python half: the names of actions, a position as plain data and as
text, reading and checking a position, and :class:`CreatureShrinesGame`.  The rules,
chance and knowledge are the engine's (``engine.pyx``), whose struct and card designs
this module reads through ``engine.pxd``.  The engine never imports this module: a state
reaches its names and views through ``state.game``, the :class:`CreatureShrinesGame`
that made it.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memset

from core.kit.effects cimport FRAME_EFFECTS, Frame, stack_push, stack_top
from core.kit.piles cimport pile_size
from core.state cimport CHANCE

from core.creature_shrines.engine cimport (ACT_COMBAT, ACT_TRAVEL, AR_PATHWAY, AR_ROW,
                                           A_ATTACH, A_BLOCK, A_BOTTOM, A_DISTANCE, A_FACE,
                                           A_MARK, A_MOUNT, A_NUMBER, A_PASS, A_PLAY,
                                           A_PRIMARY, A_SECONDARY, A_SHRINE, A_SITE, A_TAP,
                                           A_TARGET, A_TOP, A_UNIT, COLOURS, CSData,
                                           CreatureShrinesState, DESIGNS, DRAW, FACE,
                                           FR_AIM, FR_ASSIGN, FR_BLOCK, FR_DISTANCE,
                                           FR_DRAW, FR_HOST, FR_LIBRARY, FR_SACRIFICE,
                                           FR_SADDLE, FR_SITE, FR_SPAWN, FR_SWAP, FR_TARGET,
                                           FR_XCOST, HIDDEN, K_ARMOR, MAX_BOTTOM,
                                           MAX_DESIGNS, MAX_EFFECTS, MAX_TOP, MAX_TRAVEL,
                                           MAX_UNITS, M_CONQUEST, NONE, NUMBERS,
                                           ORIGIN_SHIFT, card_design, card_origin, lib_card,
                                           NUM_ACTIONS, NUM_DESIGNS, OPENING_HAND, PATHWAYS,
                                           PRIMARY, P_NONE, P_UPKEEP, ROWS, SECONDARY,
                                           ST_ACT, ST_BLOCK, ST_DRAW, ST_DRAW_CHOICE,
                                           ST_MULLIGAN, ST_OVER, ST_PRIORITY, SUB_IDOL,
                                           SUB_TOOL, TRAPS, T_CREATURE, T_SOURCE, T_SPELL,
                                           U_ATTACKING, U_DYING, U_FACE_DOWN, U_FROZEN,
                                           U_GROUNDED, U_NEW, U_POISONED, U_RIDER_SECONDARY,
                                           U_SECONDARY, U_TAPPED, U_TRAVELLED,
                                           U_UNPROTECTED, U_WEAKENED, Unit, begin_mulligan,
                                           decisions, hand_size, is_type, library_size,
                                           mulligan_pending, path_of, refresh, row_of,
                                           uses_life, uses_points)
from core.creature_shrines.cards import (CARDSET, FILES, COLOURS as COLOUR_NAMES, TYPES,
                                         card_text, decks_of, slug)
from core.creature_shrines.engine import FRAMES, LAYOUT, STEPS
from core.errors import StateFormatError
from core.kit import Cards, read_bool, read_int, read_name, read_players
from core.state import Game

CARD_NAMES = [slug(c.name) for c in CARDSET.cards]
CARDS = Cards(CARD_NAMES, "cards are written as in docs/creature-shrines-cards.md, "
                          "lower case with _ for spaces: cinder_brute")
CARD_INDEX = {name: d for d, name in enumerate(CARD_NAMES)}
SITE_NAMES = [f"{r}{'abc'[c]}" for r in range(ROWS) for c in range(PATHWAYS)]
SIDE = "side"                     # where an Idol lies, beside the region

MODES = ("standard", "rush", "king_of_the_hill", "imperial", "conquest")
ACTS = ("first", "travel", "combat", "final")
AFTERS = ("mulligan", "setup", "turn", "end")
PENDING = ("none", "action", "priority", "upkeep", "combat", "block", "strike", "travel",
           "travel_sprung", "quick")
RESUMES = ("act", "next act", "travel", "trigger", "blocked", "strike")
LIBRARIES = ("primary", "secondary")

# A choice of a permanent in the words of the rules, by what the choice is for; and
# the kind of move each is, as the skill analysis counts them.
UNIT_WORDS = {"traveller": "travel with", "attacker": "attack with",
              "blocker": "block with", "unit": "choose"}
UNIT_KINDS = {"blocker": "block", "mount with": "mount", "damage first": "damage"}
# Which of several copies of a card on one site, oldest first.
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


# --- names -----------------------------------------------------------------------------

def _action_name(CreatureShrinesState st, int a):
    cdef CSData* s = &st.s
    cdef Frame* f
    cdef int d
    if st.c_current_player() == CHANCE:
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
        return _play_name(st, a)
    f = stack_top(&s.stack)
    if a < A_TOP:
        d = a - A_BOTTOM
        name = CARD_NAMES[d] if d < NUM_DESIGNS else f"card {d}"
        return f"put {name} at the bottom" if f != NULL else f"mulligan {name}"
    if a < A_SITE:
        d = a - A_TOP
        return f"put {CARD_NAMES[d] if d < NUM_DESIGNS else d} on top"
    if a < A_UNIT:
        return _site_name(st, a - A_SITE)
    if a < A_DISTANCE:
        verb = _unit_verb(st)
        return UNIT_WORDS.get(verb, verb) + " " + _unit_name(st, a - A_UNIT)
    if a < A_TARGET:
        n = a - A_DISTANCE + 1
        return f"travel {n} site" + "s" * (n > 1)
    if a < A_FACE:
        if f != NULL and f.kind == FR_AIM:
            return f"target {_unit_name(st, a - A_TARGET)}"
        return f"enter combat with {_unit_name(st, a - A_TARGET)}"
    if a == A_FACE:
        return "enter combat with the player"
    if a < A_TAP:
        return f"block {_unit_name(st, a - A_BLOCK)}"
    if a < A_ATTACH:
        return f"tap {_unit_name(st, a - A_TAP)}"
    if a < A_MOUNT:
        return f"attach {_unit_name(st, a - A_ATTACH)}"
    if a < A_NUMBER:
        return f"mount {_unit_name(st, a - A_MOUNT)}"
    if f != NULL and f.kind == FR_ASSIGN:
        return f"assign {a - A_NUMBER} damage to {_unit_name(st, f.data[1])}"
    return f"X = {a - A_NUMBER}"

def _site_name(CreatureShrinesState st, int site):
    """A site, or the row or pathway an Area Effect being placed covers."""
    cdef Frame* f = stack_top(&st.s.stack)
    if f != NULL and f.kind == FR_SITE and f.data[0] >= 0:
        if DESIGNS[f.data[0]].area == AR_ROW:
            return f"over row {row_of(site)}"
        if DESIGNS[f.data[0]].area == AR_PATHWAY:
            return f"over pathway {'abc'[path_of(site)]}"
    return f"at {SITE_NAMES[site]}"

def _play_name(CreatureShrinesState st, int a):
    """``play X``, and the library its copy came from when the hand holds X from
    both (C18)."""
    cdef CSData* s = &st.s
    cdef int d = (a - A_PLAY) % MAX_DESIGNS, lib = (a - A_PLAY) // MAX_DESIGNS
    cdef int p = st.c_current_player()
    if d >= NUM_DESIGNS:
        return f"play card {a - A_PLAY}"
    if p >= 0 and s.hand[p][PRIMARY][d] and s.hand[p][SECONDARY][d]:
        return f"play {CARD_NAMES[d]} from the {LIBRARIES[lib]} library"
    return f"play {CARD_NAMES[d]}"

def _unit_verb(CreatureShrinesState st):
    cdef CSData* s = &st.s
    cdef Frame* f = stack_top(&s.stack)
    if f != NULL and f.kind == FR_SACRIFICE:
        return "sacrifice"
    if f != NULL and f.kind == FR_HOST:
        return "onto"
    if f != NULL and f.kind == FR_SADDLE:
        return "saddle"
    if f != NULL and f.kind == FR_SITE:
        return "mount with"
    if s.step == ST_BLOCK:
        return "blocker"
    if s.step == ST_ACT and s.act == ACT_TRAVEL:
        return "traveller"
    if s.step == ST_ACT and s.act == ACT_COMBAT:
        return "attacker"
    return "unit"

def _unit_name(CreatureShrinesState st, int u):
    """A permanent as a player names it: its card and its site, and, where another
    of that card stands there, whose it is and which came first."""
    cdef CSData* s = &st.s
    cdef Unit* x = &s.units[u]
    cdef int v
    if x.owner < 0:
        return f"#{u}"
    where = f"at {SITE_NAMES[x.site]}" if x.site >= 0 else "beside the region"
    alike = [v for v in range(MAX_UNITS) if s.units[v].owner >= 0
             and s.units[v].design == x.design and s.units[v].site == x.site]
    owners = {s.units[v].owner for v in alike}
    whose = f"player {x.owner}'s " if len(owners) > 1 else ""
    same = sorted([(s.units[v].age, v) for v in alike if s.units[v].owner == x.owner])
    order = f" ({ORDINALS[same.index((x.age, u))]})" if len(same) > 1 else ""
    return f"{whose}{CARD_NAMES[x.design]} {where}{order}"

def _action_kind(CreatureShrinesState st, int a):
    if st.c_current_player() == CHANCE:
        return "draw"
    if A_UNIT <= a < A_DISTANCE:
        verb = _unit_verb(st)
        return UNIT_KINDS.get(verb, verb)
    first = _action_name(st, a).split()[0]
    return {"at": "site", "over": "site", "pass": "pass", "keep": "keep",
            "no": "pass"}.get(first, first)


# --- positions as plain data --------------------------------------------------------------

cdef list _names(const uint8_t* counts):
    return [CARD_NAMES[d] for d in range(NUM_DESIGNS) for _ in range(counts[d])]


_UNIT_FLAGS = {"tapped": U_TAPPED, "new": U_NEW, "travelled": U_TRAVELLED,
               "attacking": U_ATTACKING, "frozen": U_FROZEN,
               "grounded": U_GROUNDED, "poisoned": U_POISONED, "weakened": U_WEAKENED,
               "unprotected": U_UNPROTECTED, "face_down": U_FACE_DOWN,
               "secondary": U_SECONDARY, "rider_secondary": U_RIDER_SECONDARY,
               # struck down in the Precombat Act, until combat is over (C43)
               "fallen": U_DYING}
# frames whose source is a card design (the others': a slot, or none)
_CARD_FRAMES = (FRAME_EFFECTS, FR_SITE, FR_AIM, FR_LIBRARY, FR_SWAP, FR_HOST, FR_SPAWN,
                FR_XCOST)
# The bounds of each frame's data, as the engine indexes its arrays by them (engine.pxd
# says what each holds): a slot, a site, a library, a card, a count or a flag.
_SLOT, _SITE = (-1, MAX_UNITS - 1), (-1, ROWS * PATHWAYS - 1)
_LIB, _FLAG, _COUNT = (0, 1), (0, 1), (0, (1 << 15) - 1)
_CARD = (-1, NUM_DESIGNS - 1)
_KNOWN = (-1, (SECONDARY << ORIGIN_SHIFT) + NUM_DESIGNS - 1)    # a lib_card
_FRAME_DATA = {
    FRAME_EFFECTS: (_SLOT, _SITE, _COUNT),
    FR_SITE: (_CARD, _LIB, _COUNT),
    FR_DISTANCE: ((0, MAX_UNITS - 1),),
    FR_TARGET: ((0, MAX_UNITS - 1),),
    FR_BLOCK: ((0, MAX_UNITS - 1),),
    FR_SACRIFICE: ((0, ROWS * PATHWAYS - 1), _FLAG),
    FR_AIM: (_SLOT, _SITE, _COUNT),
    FR_LIBRARY: (_COUNT,),
    FR_DRAW: (_COUNT, _LIB, _FLAG),
    FR_SWAP: (_LIB, _KNOWN, _KNOWN, _KNOWN),
    FR_HOST: (_SLOT, _CARD, _LIB),
    FR_SADDLE: ((0, MAX_UNITS - 1),),
    FR_ASSIGN: ((0, MAX_UNITS - 1), (0, MAX_UNITS - 1), _COUNT, _FLAG),
    FR_XCOST: ((0, NUM_DESIGNS - 1), _LIB),
}
_PILES = ("hand", "hand_secondary", "hand_known", "hand_known_secondary", "primary",
          "secondary", "top", "top_secondary", "bottom", "bottom_secondary")


def _player_view(CreatureShrinesState st, int p, viewer):
    """Player ``p``'s piles and counts, as ``viewer`` sees them (everyone: None)."""
    cdef CSData* s = &st.s
    cdef int i, lib
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
          "banishment": _names(s.banished[p]),
          "hand_known": _names(s.hand_known[p][PRIMARY]),
          "hand_known_secondary": _names(s.hand_known[p][SECONDARY]),
          "hand_size": hand_size(s, p),
          "hand_secondary_size": pile_size(&s.hand[p][SECONDARY][0], 0, MAX_DESIGNS),
          "primary_size": library_size(s, p, PRIMARY),
          "secondary_size": library_size(s, p, SECONDARY)}
    if mine:
        pl["hand"] = _names(s.hand[p][PRIMARY])
        pl["hand_secondary"] = _names(s.hand[p][SECONDARY])
        for lib, key in enumerate(LIBRARIES):
            end = "" if lib == PRIMARY else "_secondary"
            pl[key] = _names(s.library[p][lib])
            pl["top" + end] = [_known_name(s.top[p][lib][i], lib)
                               for i in range(s.top_len[p][lib])]
            pl["bottom" + end] = [_known_name(s.bottom[p][lib][i], lib)
                                  for i in range(s.bottom_len[p][lib])]
    return pl


def _known_name(int c, int lib):
    """A known card on top of or under library ``lib``: its name, or where it was dealt
    from another library (C35), its name and that library."""
    name = CARD_NAMES[card_design(c)]
    if card_origin(c) == lib:
        return name
    return {"card": name, "from": LIBRARIES[card_origin(c)]}


def _known_card(entry, int lib, where):
    """The lib_card of an entry _known_name writes."""
    if isinstance(entry, dict):
        if set(entry) != {"card", "from"} or entry["from"] not in LIBRARIES:
            raise StateFormatError(f"{where}: a card name, or a dict of its card and the "
                                   f"library it came from, from: {', '.join(LIBRARIES)}")
        return lib_card(LIBRARIES.index(entry["from"]), _kinds([entry["card"]], where)[0])
    return lib_card(lib, _kinds([entry], where)[0])


def _frames_view(CreatureShrinesState st, viewer):
    """The decision stack, bottom first; a Swap's cards and a Trap being placed are
    hidden from the other player."""
    cdef CSData* s = &st.s
    cdef Frame* f
    cdef int i
    frames = []
    for i in range(s.stack.depth):
        f = &s.stack.frames[i]
        data = [f.data[0], f.data[1], f.data[2], f.data[3]]
        source = f.source
        if viewer is not None and viewer != f.player:
            if f.kind == FR_SWAP:
                n = sum(x >= 0 for x in data[1:])
                data[1:] = [HIDDEN] * n + [NONE] * (3 - n)
            elif f.kind == FR_SITE and f.data[0] >= 0 and TRAPS[f.data[0]]:
                data[0] = source = HIDDEN
        frame = {"choose": FRAMES[f.kind], "player": f.player, "source": source,
                 "pc": f.pc, "end": f.end, "data": data}
        if f.kind in _CARD_FRAMES and source != NONE:
            frame["card"] = "hidden" if source == HIDDEN else CARD_NAMES[source]
        frames.append(frame)
    return frames


def _view(CreatureShrinesState st, viewer):
    cdef CSData* s = &st.s
    cdef int p, u
    players = []
    for p in range(2):
        players.append(_player_view(st, p, viewer))
    units = []
    for u in range(MAX_UNITS):
        x = &s.units[u]
        if x.owner < 0:
            continue
        hidden = x.flags & U_FACE_DOWN and viewer is not None and viewer != x.owner
        unit = {"slot": u, "card": "hidden" if hidden else CARD_NAMES[x.design],
                "owner": x.owner, "site": SITE_NAMES[x.site] if x.site >= 0 else SIDE,
                "age": x.age}
        for key, n in (("damage", x.damage), ("pump", x.pump), ("travel", x.travel)):
            if n:
                unit[key] = n
        if x.paid:
            unit["paid"] = {COLOUR_NAMES[c]: x.paid >> (3 * c) & 7 for c in range(COLOURS)
                            if x.paid >> (3 * c) & 7}
        if x.armor or x.keywords & K_ARMOR:
            unit["armor"] = x.armor
        for name, flag in _UNIT_FLAGS.items():
            if x.flags & flag:
                unit[name] = True
        if x.host >= 0:
            unit["host"] = x.host
        if x.rider:
            unit["rider"] = CARD_NAMES[x.rider - 1]
        if x.flags & U_ATTACKING and x.target != NONE:
            unit["target"] = "player" if x.target == FACE else x.target
        if x.blocks != NONE:
            unit["blocks"] = x.blocks
        if x.assigned:
            unit["assigned"] = x.assigned
        units.append(unit)
    view = {"mode": MODES[s.mode], "turn": s.turn, "active": s.active, "act": ACTS[s.act],
            "step": STEPS[s.step], "players": players, "units": units,
            "source_played": bool(s.source_played), "age": s.age}
    if s.winner != NONE:
        view["winner"] = "draw" if s.winner == DRAW else s.winner
    if mulligan_pending(s):
        view["mulligan"] = {"player": s.mull_player, "left": s.mulligans_left}
    if s.step == ST_DRAW:
        view["drawing"] = {"player": s.draw_player, "library": LIBRARIES[s.draw_library],
                           "left": s.draws_left, "then": AFTERS[s.after_draws]}
    elif s.step == ST_DRAW_CHOICE:
        view["drawing"] = {"player": s.draw_player, "then": AFTERS[s.after_draws]}
    if s.step == ST_PRIORITY:
        view["priority"] = s.priority
        view["priority_then"] = RESUMES[s.resume]
    if s.pending != P_NONE:
        view["pending"] = PENDING[s.pending]
    if s.cursor:
        view["cursor"] = s.cursor
    frames = _frames_view(st, viewer)
    if frames:
        view["choosing"] = frames
    return view


def render(view):
    """The region as a grid, player 1's Melee row on top, its pathways lettered, each
    permanent by its card's full name; then each player's state and where the game
    stands."""
    grid = {}
    for unit in view["units"]:
        mark = "*" if unit.get("tapped") else ""
        grid.setdefault(unit["site"], []).append(f"{unit['owner']}:{unit['card']}{mark}")
    rows = [[", ".join(grid.get(f"{r}{c}", [])) or "." for c in "abc"]
            for r in range(ROWS - 1, -1, -1)]
    widths = [max(12, *(len(row[c]) for row in rows)) for c in range(PATHWAYS)]
    lines = ["      " + "   ".join(f"{c:<{w}}" for c, w in zip("abc", widths)).rstrip()]
    for r, cells in zip(range(ROWS - 1, -1, -1), rows):
        lines.append(f"  {r} | " + " | ".join(f"{c:<{w}}" for c, w in zip(cells, widths))
                     .rstrip())
    lines.append("  (N: player N's permanent, * tapped; row 0 is player 0's Melee row)")
    scored = [key for key in ("life", "points") if key in MODE_SCORES[view["mode"]]]
    for p, pl in enumerate(view["players"]):
        hand = pl.get("hand")
        shown = "?" if hand is None else " ".join(hand + pl["hand_secondary"]) or "-"
        home = f"shrine home ({pl['marks']} marks)" if pl["shrine_home"] else "shrine out"
        sources = sum(pl["sources"].values())
        score = " ".join(f"{key} {pl[key]}" for key in scored)
        lines.append(f"  player {p}: {score} | {home} | "
                     f"sources {sources} ({sum(pl['tapped'].values())} tapped) | "
                     f"hand {pl['hand_size']}: {shown}")
    lines.append(f"  {status(view)}")
    return "\n".join(lines)


cdef dict _mode_scores():
    cdef CSData s
    scores = {}
    for m, name in enumerate(MODES):
        s.mode = m
        scores[name] = tuple([key for key, used in (("life", uses_life(&s)),
                                                    ("points", uses_points(&s))) if used])
    return scores


# What each mode counts, life or points or both (C8): a board shows only these.
MODE_SCORES = _mode_scores()
# What a player's keys on the page mean, told where a player points at the name.
GLOSSARY = {
    "life": "damage lowers it, and a player at 0 loses (C5, C8)",
    "points": "scored at the end of each turn for creatures and structures on the "
              "Neutral row (C8)",
    "shrine": "the Shrine: it waits at home until its time marks are gone, then is "
              "played like a creature; dying, it goes home with marks again",
    "marks": "time marks on the Shrine at home: one comes off at the start of each of "
             "its owner's turns, or pay 2 at Burst speed to take one off",
    "sources": "Sources in play, by kind: each produces mana of its colour",
    "tapped": "Sources tapped to pay: everything untaps at the start of its owner's turn",
    "pool": "mana made and not yet spent: pools empty at the end of a turn",
    "hand": "cards drawn from the Primary Library",
    "hand_secondary": "cards in hand drawn from the Secondary Library, which holds the "
                      "Sources",
    "graveyard": "the player's cards that died or were spent"}
MODE_WORDS = {"standard": "", "rush": "Rush", "king_of_the_hill": "King of the Hill",
              "imperial": "Imperial", "conquest": "Conquest"}


def status(view):
    """The mode, the turn and what happens now, in a player's words (turns from 1).
    A draw is told as the start or the end of a turn, or the opening hands, never as
    the act before it."""
    mode = MODE_WORDS[view["mode"]]
    mode = f"{mode}: " if mode else ""
    if "winner" in view:
        return mode + ("game over: a draw" if view["winner"] == "draw"
                       else f"game over: player {view['winner']} wins")
    turn, active, step = f"turn {view['turn'] + 1}", view["active"], view["step"]
    drawing = view.get("drawing")
    if "mulligan" in view or (drawing and drawing["then"] in ("mulligan", "setup")):
        return f"{mode}opening hands"
    if drawing:
        when = "at the end of" if drawing["then"] == "end" else "to start"
        return f"{mode}{turn}: player {drawing['player']} draws {when} the turn"
    act = f"player {active}'s {view['act']} act"
    if step == "priority":
        return f"{mode}{turn}, {act}: player {view['priority']} may respond"
    if step == "block":
        return f"{mode}{turn}, {act}: player {1 - active} blocks"
    return f"{mode}{turn}, {act}"


# --- building positions ------------------------------------------------------------------

_KNOWN_KEYS = ("mode", "turn", "active", "act", "step", "players", "units", "winner",
               "source_played", "mulligan", "drawing", "priority", "priority_then",
               "choosing",
               "current_player", "age", "pending", "cursor")
_PLAYER_KEYS = ("life", "points", "shrine", "shrine_home", "marks", "sources", "tapped",
                "pool", "graveyard", "banishment", "hand_size", "hand_secondary_size", "primary_size",
                "secondary_size") + _PILES
_UNIT_KEYS = ("slot", "card", "owner", "site", "damage", "target", "blocks", "assigned", "host",
              "rider", "pump", "armor", "age", "travel", "paid") + tuple(_UNIT_FLAGS)
SOURCE_OF = {DESIGNS[c.id].colour: c.id for c in CARDSET.cards if TYPES[c.type] == "source"}
SOURCE_NAMES = [CARD_NAMES[SOURCE_OF[c]] for c in range(COLOURS)]


def deck_counts(game, name):
    """Every card of ``game``'s deck ``name`` by design: its libraries and its Shrine."""
    deck = game.decks[name]
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
        s.shrine[p] = game.decks[params[key]].shrine.id
        s.shrine_home[p] = 1
        start = 15 if s.mode == M_CONQUEST else 20     # (C5, C8)
        s.life[p] = start if uses_life(s) else 0
    for u in range(MAX_UNITS):
        s.units[u].owner = NONE


def _fill_libraries(CreatureShrinesState st):
    cdef CSData* s = &st.s
    cdef int p
    for p, key in enumerate(("deck0", "deck1")):
        deck = st.game.decks[st.game.params[key]]
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
    cdef int p, u
    cdef Frame* f
    _reset(st, game)
    if desc.get("mode", MODES[s.mode]) != MODES[s.mode]:
        raise StateFormatError(f"mode {desc['mode']!r} is not the game's ({MODES[s.mode]})")
    s.turn = read_int(desc, "turn", 0, 2 * s.max_turns, 0)
    s.active = read_int(desc, "active", 0, 1, s.turn % 2)
    s.act = read_name(desc.get("act", "first"), ACTS, "act")
    s.step = read_name(desc.get("step", "act"), STEPS, "step")
    s.source_played = read_bool(desc, "source_played", False)
    s.age = read_int(desc, "age", 0, 60000, 0)
    s.pending = read_name(desc.get("pending", "none"), PENDING, "pending")
    s.cursor = read_int(desc, "cursor", 0, MAX_UNITS, 0)
    if s.pending != P_UPKEEP:
        s.cursor = 0        # older dicts wrote it on with any pending step: it means nothing
    winner = desc.get("winner")
    if (winner is None) != (s.step != ST_OVER) or winner not in (None, 0, 1, "draw"):
        raise StateFormatError("winner: 0, 1 or \"draw\" exactly when step is 'over'")
    s.winner = NONE if winner is None else DRAW if winner == "draw" else winner
    total = [[0] * NUM_DESIGNS for _ in range(2)]
    for p, pl in enumerate(read_players(desc, 2, _PLAYER_KEYS)):
        _read_player(st, p, pl, total)
    _read_units(st, desc.get("units", []), total)
    _read_frames(st, desc, total)
    for p, key in enumerate(("deck0", "deck1")):
        full = deck_counts(game, game.params[key])
        CARDS.check_all(total[p], full, f"player {p}'s deck {game.params[key]}")
    _read_flow(st, desc)
    return st


def _read_player(CreatureShrinesState st, int p, pl, total):
    """Player ``p``'s part of a position: their scores, Shrine, mana and piles, each
    card read counted in ``total[p]``, toward their deck."""
    cdef CSData* s = &st.s
    cdef int c, d
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
    for key in ("hand", "hand_secondary", "primary", "secondary", "graveyard",
                "banishment"):
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
            elif key == "banishment":
                s.banished[p][d] = counts[d]
            else:
                s.grave[p][d] = counts[d]
    for lib, end in enumerate(("", "_secondary")):
        counts = _counts(pl.get("hand_known" + end, []), where + "hand_known" + end)
        for d in range(NUM_DESIGNS):
            if counts[d] > s.hand[p][lib][d]:
                raise StateFormatError(f"{where}hand_known{end}: {CARD_NAMES[d]} is not "
                                       f"in that hand so often")
            s.hand_known[p][lib][d] = counts[d]
        for key, size in (("top", MAX_TOP), ("bottom", MAX_BOTTOM)):
            entries = pl.get(key + end, [])
            if not isinstance(entries, list):
                raise StateFormatError(f"{where}{key}{end} must be a list of cards, not "
                                       f"{entries!r}")
            cards = [_known_card(e, lib, f"{where}{key}{end}[{i}]")
                     for i, e in enumerate(entries)]
            if len(cards) > size:
                raise StateFormatError(f"{where}{key}{end}: at most {size} cards")
            for i, c in enumerate(cards):
                total[p][card_design(c)] += 1
                if key == "top":
                    s.top[p][lib][i] = c
                else:
                    s.bottom[p][lib][i] = c
            if key == "top":
                s.top_len[p][lib] = len(cards)
            else:
                s.bottom_len[p][lib] = len(cards)

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
        if t == T_SOURCE or t == T_SPELL:
            raise StateFormatError(f"{where}card: a {TYPES[t]} is never on the region, "
                                   f"not {CARD_NAMES[d]}")
        p = read_int(unit, "owner", 0, 1, 0, where)
        x = &s.units[u]
        x.owner = p
        x.design = d
        idol = DESIGNS[d].subtype == SUB_IDOL
        x.site = NONE if idol else read_name(unit.get("site"), SITE_NAMES, where + "site")
        if idol and unit.get("site", SIDE) != SIDE:
            raise StateFormatError(f"{where}site: an Idol lies beside the region, {SIDE!r}")
        x.damage = read_int(unit, "damage", 0, 100, 0, where)
        x.flags = sum(flag for name, flag in _UNIT_FLAGS.items()
                      if read_bool(unit, name, False, where))
        if x.flags & U_DYING:
            s.burial = 1
        if x.flags & U_FACE_DOWN and not TRAPS[d]:
            raise StateFormatError(f"{where}face_down: only a Trap lies face down")
        x.pump = read_int(unit, "pump", 0, 99, 0, where)
        x.travel = read_int(unit, "travel", 0, MAX_TRAVEL, 0, where)
        paid = _colours(unit.get("paid", {}), where + "paid", COLOUR_NAMES)
        if any(n > 7 for n in paid) or any(paid) and not TRAPS[d]:
            raise StateFormatError(f"{where}paid: a Trap's mana, at most 7 of a colour")
        x.paid = sum(n << (3 * c) for c, n in enumerate(paid))
        x.armor = read_int(unit, "armor", 0, 9, int(DESIGNS[d].keywords & K_ARMOR != 0),
                           where)
        x.age = read_int(unit, "age", 0, 60000, 0, where)
        x.host = read_int(unit, "host", 0, MAX_UNITS - 1, NONE, where) \
            if unit.get("host") is not None else NONE
        x.rider = 0
        if unit.get("rider") is not None:
            x.rider = _kinds([unit["rider"]], where + "rider")[0] + 1
            total[p][x.rider - 1] += 1
        x.target = NONE
        x.blocks = NONE
        target = unit.get("target")
        if target is not None:
            x.flags |= U_ATTACKING
            x.target = FACE if target == "player" \
                else read_int(unit, "target", 0, MAX_UNITS - 1, 0, where)
        if unit.get("blocks") is not None:
            x.blocks = read_int(unit, "blocks", 0, MAX_UNITS - 1, 0, where)
        x.assigned = read_int(unit, "assigned", 0, NUMBERS - 1, 0, where)
        if x.assigned and x.blocks == NONE:
            raise StateFormatError(f"{where}assigned: only a blocker takes a share of "
                                   f"combat damage")
        if d == s.shrine[p]:
            if s.shrine_home[p]:
                raise StateFormatError(f"{where}card: player {p}'s Shrine is on the region, "
                                       "so players[{p}].shrine_home is false")
        if not DESIGNS[d].token:
            total[p][d] += 1
    _link_units(st)


def _link_units(CreatureShrinesState st):
    """What the units read say of each other: an attacker's target and a Tool's host
    must be there; then each unit is what its design, rider and Tools make it, keeping
    the Armor read."""
    cdef CSData* s = &st.s
    cdef int u
    for u in range(MAX_UNITS):
        x = &s.units[u]
        if x.owner < 0:
            continue
        if x.target not in (NONE, FACE) and s.units[x.target].owner < 0:
            raise StateFormatError(f"units: slot {u} targets an empty slot")
        if x.host >= 0 and (DESIGNS[x.design].subtype != SUB_TOOL
                            or s.units[x.host].owner != x.owner
                            or not is_type(s, x.host, T_CREATURE)
                            or s.units[x.host].site != x.site):
            raise StateFormatError(f"units: slot {u} is no Tool on a creature of its "
                                   f"owner's on its site")
    for u in range(MAX_UNITS):
        if s.units[u].owner >= 0:
            armor = s.units[u].armor
            refresh(s, u)
            s.units[u].armor = armor


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
        if s.bottom_len[s.mull_player][PRIMARY] + s.mulligans_left > MAX_BOTTOM:
            raise StateFormatError(f"mulligan.left: each mulligan puts a card under the "
                                   f"Primary Library, which holds {MAX_BOTTOM} known cards "
                                   f"at most")
    drawing = desc.get("drawing")
    if drawing is not None:
        if not isinstance(drawing, dict) or s.step not in (ST_DRAW, ST_DRAW_CHOICE):
            raise StateFormatError("drawing: a dict, only in steps 'draw' and 'draw_choice'")
        s.draw_player = read_int(drawing, "player", 0, 1, 0, "drawing.")
        s.after_draws = read_name(drawing.get("then", "turn"), AFTERS, "drawing.then")
        s.draw_library = read_name(drawing.get("library", "primary"), LIBRARIES,
                                   "drawing.library")
        s.draws_left = read_int(drawing, "left", 0, OPENING_HAND, 1, "drawing.")
        if s.step == ST_DRAW_CHOICE:
            # an earlier draw's library and count, which older dicts wrote, mean nothing
            s.draw_library = PRIMARY
            s.draws_left = 0

        if s.step == ST_DRAW and (not s.draws_left or not pile_size(
                &s.library[s.draw_player][s.draw_library][0], 0, MAX_DESIGNS)):
            raise StateFormatError("drawing: a draw needs cards left to draw and a library "
                                   "holding them")
    elif s.step in (ST_DRAW, ST_DRAW_CHOICE):
        raise StateFormatError(f"step {STEPS[s.step]!r} needs drawing")
    if mull is None and mulligan_pending(s):
        raise StateFormatError("mulligan: the player and how many left, in step "
                               "'mulligan' and in a draw with then 'mulligan'")
    if not mulligan_pending(s):
        # older dicts wrote a finished mulligan on: it means nothing now
        s.mull_player = NONE
        s.mulligans_left = 0
    then = desc.get("priority_then")
    if (then is not None) != (s.step == ST_PRIORITY):
        raise StateFormatError(f"priority_then: one of {', '.join(RESUMES)}, exactly in "
                               "step 'priority'")
    if then is not None:
        s.resume = read_name(then, RESUMES, "priority_then")
        s.priority = read_int(desc, "priority", 0, 1, 1 - s.active)
    if s.step == ST_OVER:
        return
    if st.c_current_player() != CHANCE and decisions(s, buf) == 0:
        raise StateFormatError("the position offers its player nothing to do")


def _read_frames(CreatureShrinesState st, desc, total):
    """The stack as ``to_dict`` writes it; a card a frame holds (paid and waiting for
    its site, or looked at by a Swap) counts in its owner's deck."""
    cdef CSData* s = &st.s
    cdef Frame* f
    cdef Frame* above
    frames = desc.get("choosing", [])
    if not isinstance(frames, list) or len(frames) > 8:
        raise StateFormatError("choosing: a list of at most 8 frames")
    kinds = {name: k for k, name in FRAMES.items()}
    for i, fr in enumerate(frames):
        where = f"choosing[{i}]."
        if not isinstance(fr, dict) or set(fr) - {"card"} != {"choose", "player", "source",
                                                              "pc", "end", "data"}:
            raise StateFormatError(f"{where[:-1]}: a dict of choose, player, source, pc, "
                                   "end and data, as to_dict writes it")
        data = fr["data"]
        if not isinstance(data, list) or len(data) != 4 \
                or not all(type(x) is int and -1 <= x < 1 << 15 for x in data):
            raise StateFormatError(f"{where}data: four integers")
        kind = kinds.get(fr["choose"])
        if kind is None:
            raise StateFormatError(f"{where}choose: one of {', '.join(kinds)}")
        p = read_int(fr, "player", 0, 1, 0, where)
        sources = NUM_DESIGNS if kind in _CARD_FRAMES else MAX_UNITS
        f = stack_push(&s.stack, kind, p, read_int(fr, "source", -1, sources - 1, 0, where))
        f.end = read_int(fr, "end", 0, MAX_EFFECTS, 0, where)
        # An effects frame reads its card's effects from pc up to end; a frame that
        # waits on one effect reads the effect at pc.
        f.pc = read_int(fr, "pc", 0, f.end if kind == FRAME_EFFECTS else MAX_EFFECTS - 1,
                        0, where)
        for k, (low, high) in enumerate(_FRAME_DATA.get(kind, ())):
            if not low <= data[k] <= high:
                raise StateFormatError(f"{where}data[{k}]: from {low} to {high} in a "
                                       f"{fr['choose']} frame, not {data[k]}")
        if (kind == FR_SITE or kind == FR_HOST and data[0] < 0) \
                and all(s.units[u].owner >= 0 for u in range(MAX_UNITS)):
            raise StateFormatError(f"{where[:-1]}: a card to be placed, with every one of "
                                   f"the region's {MAX_UNITS} places taken")
        for k in range(4):
            f.data[k] = data[k]
        held = []
        if kind == FR_SITE and data[0] >= 0:
            held = [data[0]]
        elif kind == FR_SWAP:
            held = [card_design(c) for c in data[1:] if c >= 0]
        elif kind == FR_HOST and data[0] < 0:
            held = [data[1]]
        elif kind == FR_XCOST:
            held = [data[0]]
        for d in held:
            if d >= NUM_DESIGNS:
                raise StateFormatError(f"{where}data: {d} is no card")
            total[p][d] += 1
    for i in range(s.stack.depth):
        f = &s.stack.frames[i]
        above = &s.stack.frames[i + 1] if i + 1 < s.stack.depth else NULL
        if f.kind == FR_DRAW and f.data[2] and (i == 0 or s.stack.frames[i - 1].kind != FR_SWAP):
            raise StateFormatError(f"choosing[{i}].data[2]: a draw to a Swap stands on "
                                   "its Swap")
        # A Swap draws from the top first, and puts back there what it keeps: the top
        # never holds more than its places.
        if f.kind == FR_SWAP and max(
                s.top_len[f.player][f.data[0]],
                above.data[0] if above != NULL and above.kind == FR_DRAW else 0) \
                + sum(f.data[k] >= 0 for k in range(1, 4)) > MAX_TOP:
            raise StateFormatError(f"choosing[{i}].data: a Swap looks at {MAX_TOP} cards "
                                   "at most, those kept on top of its library included")


# --- the deal, rotated through the seats --------------------------------------------------


def _chance_source(CreatureShrinesState st):
    """Every draw is from a library of the seat drawing."""
    cdef CSData* s = &st.s
    cdef Frame* f = stack_top(&s.stack)
    if f != NULL and f.kind == FR_DRAW:
        return (f.player, LIBRARIES[f.data[1]])
    return (s.draw_player, LIBRARIES[s.draw_library])


class CreatureShrinesGame(Game):
    """Creature Shrines for two players, each with a shipped deck.

    >>> game = CreatureShrinesGame(deck0="green", deck1="purple")
    >>> str(game)
    'creature_shrines(deck0=green,deck1=purple)'
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 16)
    """

    name = "creature_shrines"
    long_name = "Creature Shrines"
    parameters = {"mode": "standard", "deck0": "red", "deck1": "blue", "max_turns": 60,
                  "decks": ""}
    limits = {"max_turns": (1, 1000, "a cap on the game's length (C9)")}
    choices = {"mode": MODES, "deck0": tuple(CARDSET.decks), "deck1": tuple(CARDSET.decks)}
    tested_variants = ({"mode": "rush"}, {"mode": "king_of_the_hill"},
                       {"mode": "imperial"}, {"mode": "conquest"},
                       {"deck0": "yellow", "deck1": "purple"},
                       {"deck0": "green", "deck1": "red"})
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = MAX_DESIGNS
    cards = CARDS
    data_files = FILES
    file_parameters = ("decks",)
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    # The region as a grid of sites named row then pathway ("0a"), row 0 being player
    # 0's Melee row: drawn at the foot of the table for player 0, at the top for 1.
    # A mode's board shows the scores it counts: no life in King of the Hill (C8).
    @property
    def layout(self):
        scored = MODE_SCORES[self.params["mode"]]
        player = scored + ("shrine", "marks", "sources", "tapped", "pool", "hand",
                           "hand_secondary", "hand_size", "graveyard")
        return {"status": ("mode", "turn", "active", "act", "step", "winner"),
                "player": player,
                "table": ("units",),
                "grid": {"key": "units", "at": "site", "rows": ("4", "3", "2", "1", "0"),
                         "columns": ("a", "b", "c"), "flip": True},
                "glossary": {k: v for k, v in GLOSSARY.items() if k in player}}

    render = staticmethod(render)
    status = staticmethod(status)
    card_text = staticmethod(card_text)

    def __init__(self, **params):
        # A designer's deck file (decks=PATH) holds decks of its own, built from the
        # shipped cards: the seats then choose among its decks, and a store keys the
        # games by its contents.
        path = params.get("decks", "")
        if isinstance(path, str) and path.strip():
            path = params["decks"] = path.strip()
            self.decks = decks_of(path)
            names = tuple(self.decks)
            self.choices = dict(type(self).choices, deck0=names, deck1=names)
            # Unnamed seats take the file's first two decks (one deck: a mirror).
            params.setdefault("deck0", names[0])
            params.setdefault("deck1", names[min(1, len(names) - 1)])
            self.data_files = (FILES[0], path)
        else:
            self.decks = CARDSET.decks
        super().__init__(**params)

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

    def _action_name(self, state, action):
        return _action_name(state, action)

    def _action_kind(self, state, action):
        return _action_kind(state, action)

    def _view(self, state, viewer):
        return _view(state, viewer)

    def _from_dict(self, desc):
        return _from_dict(self, desc)

    @property
    def rotation_refusal(self):
        deck0, deck1 = self.params["deck0"], self.params["deck1"]
        if deck0 == deck1:
            return None
        return (f"{self}: the seats play different decks ({deck0} and {deck1}), so "
                "rotating them would change the match-up, not the luck of the draw")

    def _just_dealt(self, state):
        # Nothing is dealt from a pile the seats share: each draws its opening hand
        # from its own libraries, around its mulligans (C10).  So the deal ends before
        # it begins, and only the libraries' draws, which follow their seat through
        # ``chance_source``, carry a rotation.
        return state.to_dict() == self.new_initial_state().to_dict()

    def _rotate_deal(self, state, k):
        # The seats' libraries are alike (see rotation_refusal): nothing to move.
        pass

    def _chance_source(self, state):
        return _chance_source(state)
