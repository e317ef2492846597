# cython: language_level=3
"""Relinquish: the position as one flat struct.  See docs/rules/relinquish.md for the
rules, the rulings and the dictionary form of a position."""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t

from core.state cimport GameState

cdef enum:
    NUM_CARDS = 78        # 4 suits x (Commons 1-10, Page, Knight, King, Queen), 22 Tarots
    MAX_PLAYERS = 4
    MAX_NEGATES = 8       # Negates standing at once in one Enchant's chain (R6)


ctypedef struct RelData:
    # the rules in force, copied from the game so the hot path never asks Python
    uint8_t num_players
    uint8_t teams
    uint8_t acceptance
    uint8_t enchant_any
    uint8_t partner_rally
    uint8_t finesse
    uint8_t short_game
    int16_t max_turns

    # where the game stands
    int16_t turn                # turns begun since the first player was found
    int8_t phase                # the decision or chance event the game waits on
    int8_t active               # whose turn it is
    int8_t first                # who took the first turn
    uint8_t used                # maneuvers used this turn (bits: USED_*)
    uint8_t acted               # something was done this turn: it is no pass
    uint8_t passes              # turns in a row in which nothing was done
    uint8_t generation          # reshuffles so far: 0 until the Scry pile first runs out

    # the deal: each card in turn goes to a hand, a flip, the Scry pile or exile
    uint8_t deal_next           # the next card to place
    int8_t flip[MAX_PLAYERS]    # each player's latest flipped card, or -1
    uint8_t tied                # seats that flip again (bits)

    # the cards: where each lies (LOC_* with RESTING on a tableau card), and for a
    # hidden card the Scry pile generation it came from (0 the deal, g the g-th
    # reshuffle): everyone knows a card of generation g > 0 is one of that pile's
    uint8_t where[NUM_CARDS]
    uint8_t gen[NUM_CARDS]
    uint8_t hand_size[MAX_PLAYERS]
    uint8_t scry_size
    int16_t score[MAX_PLAYERS]  # once over: each seat's side's Commons

    # a Scry under way: the cards drawn, what remains to draw and who scries
    int8_t drawn[2]
    uint8_t draws_left
    uint8_t scries_left
    int8_t scry_for
    int8_t scry_ends_turn       # the Scry is an Acceptance: the turn passes after it

    # a Summon being paid for (L5)
    int8_t summon               # the Court, or -1
    uint8_t paid                # Commons rested for it so far
    uint8_t paid_off_suit       # one of them is not of the Court's suit

    # a Magick under way and its chain of counters (L6): cards are picked one by one,
    # in card order, from ``pool`` (bits by card id; every Common's id is below 56)
    int8_t spell                # SPELL_ENCHANT or SPELL_MURDER, or -1
    int8_t picker               # who picks the targets now
    int16_t pick_left           # the value still to pick, Bounties counted (L15)
    uint64_t pool
    uint64_t picked
    uint8_t defenders           # the seats of the side the Magick targets (bits)
    uint8_t defending           # the side whose counter is awaited: 1 the defenders
    uint8_t to_ask              # the seats of that side yet to answer (bits)
    uint8_t counters            # counters played so far
    int8_t last_tarot           # the value of the chain's latest Tarot
    int8_t victim               # a Murder's Court
    uint8_t depth               # Negates standing over the Enchant
    int8_t level_value[MAX_NEGATES + 1]   # the Enchant's Tarot, then each Negate's
    uint64_t level_set[MAX_NEGATES + 1]   # the Commons each would capture

    # a Battle under way (L7): the attackers still to clash, by the opponent each
    # attacks (bits by card id), and the clash being fought
    uint64_t aimed[MAX_PLAYERS]
    int8_t last_declared        # attackers are declared in card order
    int8_t facing               # the opponent whose clashes resolve now, or -1
    int8_t clash_attacker
    int8_t clash_defender
    int8_t taker                # the Court whose rank says which Common is captured
    # the clash's Rallies, chosen hidden one seat after another: the attacker, the
    # defender, then under partner_rally their partners (L7, L12).  A chosen Common
    # stays in hand until all are revealed; -1 is no Rally.
    int8_t rally_seat[MAX_PLAYERS]
    int8_t rally[MAX_PLAYERS]
    uint8_t rallies             # seats that rally in this clash
    uint8_t rallied             # of them, those that have chosen

    # a special ability under way (L9): the cards resting to pay for it, in card order,
    # the card a Finesse places, and a Bounty's target
    int8_t ability              # ABILITY_*, or -1
    int8_t placing
    int8_t ability_target
    uint64_t payers
    # what Bounties have added to each Common's value this turn (L15)
    int8_t bounty[56]


cdef class RelinquishState(GameState):
    cdef RelData s
