# cython: language_level=3
"""The energy deck-builder: the position as one flat struct.  See
docs/rules/energy-deckbuilder.md for the rules and the dictionary form of a position.

Every pile is counts per card design: a draw is a chance event over the counts, a
reshuffle moves them.  The card designs themselves live in static tables compiled
from data/cards.toml at import; the struct holds only design ids and what changed."""
from libc.stdint cimport int8_t, int16_t, uint8_t

from core.kit.effects cimport Stack
from core.state cimport GameState

cdef enum:
    MAX_DESIGNS = 48        # card designs the tables hold (cards.MAX_DESIGNS)
    MAX_UPGRADE_KINDS = 8   # upgrade designs (cards.MAX_UPGRADE_KINDS)
    SLOTS = 3               # creatures in play per player
    COLOURS = 4             # energy: red, green, blue, black
    STORABLE = 3            # red, green, blue: black is never stored


ctypedef struct Creature:
    int8_t design               # -1: the slot is empty
    uint8_t tapped
    uint8_t damage              # taken this turn (E6)
    uint8_t boost               # power added this turn
    uint8_t stored[STORABLE]    # energy stored on a white creature
    uint8_t upgrades[MAX_UPGRADE_KINDS]   # attached, by upgrade kind: they stack


ctypedef struct Side:
    int16_t lives
    uint8_t energy[COLOURS]     # the player's supply
    uint8_t hand[MAX_DESIGNS]
    uint8_t draw[MAX_DESIGNS]
    uint8_t discard[MAX_DESIGNS]
    # The cards of the hand the other player knows are there: the whole hand when the
    # draw pile was reshuffled, less the cards that have left it since (E18).
    uint8_t known[MAX_DESIGNS]
    Creature creatures[SLOTS]


ctypedef struct EnergyData:
    # the rules in force, copied from the game so the hot path never asks Python
    uint8_t hand_size
    uint8_t second_player_energy
    int16_t max_turns
    int16_t start_lives

    # where the game stands
    int16_t turn                # the turn under way, from 1
    int16_t steps               # steps taken in this turn (E19)
    int8_t active               # whose turn it is
    int8_t stage                # STAGE_*
    int8_t winner               # -1 playing, 0 or 1, 2 a draw
    uint8_t bought              # the turn's one buy is spent

    uint8_t common[COLOURS]     # the common supply
    # The face-up market: one for each face-up card (all distinct), and the cards left
    # in each zero-cost pile (E7).  The market deck nobody has seen: counts.
    uint8_t market[MAX_DESIGNS]
    uint8_t market_deck[MAX_DESIGNS]
    Side sides[2]
    Stack stack                 # effects under way and the decisions they wait on


cdef class EnergyState(GameState):
    cdef EnergyData s
