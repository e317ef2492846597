"""The engine's enums that mirror the tuples of cards.py (types, subtypes, areas, Trap
requirements, events, targets, effect words, keywords, libraries, directions, and the
counts of events and colours) are checked entry by entry when the engine is imported:
a tuple reordered or grown under its enum is refused, naming the enum and the entry."""
import pytest

from core.creature_shrines.engine import CARD_ORDERS, MIRRORS, check_card_orders


def test_the_shipped_card_lists_pass():
    check_card_orders(CARD_ORDERS)


@pytest.mark.parametrize("name", [name for _, name, _ in MIRRORS])
def test_a_card_list_in_another_order_is_refused(name):
    orders = dict(CARD_ORDERS, **{name: tuple(reversed(CARD_ORDERS[name]))})
    with pytest.raises(ImportError, match=r"^engine enum \S+"):
        check_card_orders(orders)


def test_the_refusal_names_the_enum_and_the_entry():
    types = ("structure", "creature") + CARD_ORDERS["TYPES"][2:]
    with pytest.raises(ImportError) as refused:
        check_card_orders(dict(CARD_ORDERS, TYPES=types))
    assert str(refused.value) == ("engine enum T_*: 'creature' is 0, but cards.TYPES[0] is "
                                  "'structure'")


def test_a_keyword_moved_is_named_by_its_bit():
    keywords = list(CARD_ORDERS["KEYWORDS"])
    keywords.remove("flying")
    keywords.append("flying")
    with pytest.raises(ImportError, match=r"^engine enum K_\*: 'flying' is 5, but "
                                          r"cards.KEYWORDS\[5\] is 'guard'$"):
        check_card_orders(dict(CARD_ORDERS, KEYWORDS=tuple(keywords)))


def test_a_tuple_cut_short_or_grown_is_refused():
    with pytest.raises(ImportError, match=r"^engine enum AR_\*: 'pathway' is 3, but "
                                          r"cards.AREAS has 3 entries$"):
        check_card_orders(dict(CARD_ORDERS, AREAS=CARD_ORDERS["AREAS"][:3]))
    with pytest.raises(ImportError, match=r"^engine enum COLOURS: 5 entries, but "
                                          r"cards.COLOURS has 6$"):
        check_card_orders(dict(CARD_ORDERS, COLOURS=CARD_ORDERS["COLOURS"] + ("grey",)))
