"""Game codes: format, parse, and refusals that name the wrong part."""

import pytest

import engine
from engine.codes import decode_deal, encode_deal


@pytest.mark.parametrize(
    ("code", "kind", "deal", "cells"),
    [
        ("BK1-C4-AAAAA24", "bakers", 860, 4),
        ("  bk1-c2-aaaaa24 ", "bakers", 860, 2),
        ("BK1-C1-AAAAAAA", "bakers", 0, 1),
        ("BK1-C4-7777777", "bakers", 2**35 - 1, 4),
        ("CA1-AAAAA24", "calculation", 860, None),
        ("ca1-aaaaaab\t", "calculation", 1, None),
    ],
)
def test_good_codes_parse(code, kind, deal, cells):
    gc = engine.parse_code(code)
    assert (gc.kind, gc.deal, gc.cells, gc.version) == (kind, deal, cells, 1)
    assert str(gc) == code.strip().upper()


@pytest.mark.parametrize(
    ("code", "part"),
    [
        ("", "game"),
        ("XX1-C4-AAAAA24", "game"),
        ("FC1-C4-AAAAA24", "deal_number"),  # FreeCell numbers its deals: MS11982
        ("BK2-C4-AAAAA24", "version"),
        ("BK-C4-AAAAA24", "version"),
        ("BKX-C4-AAAAA24", "version"),
        ("CA9-AAAAA24", "version"),
        ("BK1-C3-AAAAA24", "cells"),
        ("BK1-C0-AAAAA24", "cells"),
        ("BK1-4-AAAAA24", "cells"),
        ("BK1-AAAAA24", "length"),
        ("BK1-C4-AAAA24", "length"),
        ("BK1-C4-AAAAAA24", "length"),
        ("CA1-C4-AAAAA24", "length"),
        ("BK1-C4-AAAAA18", "alphabet"),
        ("BK1-C4-AAAA-24", "length"),
        ("CA1-AAAAA!4", "alphabet"),
        ("BK1-C4-" + "A" * 500, "length"),
        ("BK1-C4-AAAAÄ24", "alphabet"),
    ],
)
def test_bad_codes_name_the_wrong_part(code, part):
    with pytest.raises(engine.CodeError) as info:
        engine.new_game(code)
    assert info.value.part == part
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_deal_numbers_round_trip_through_base32():
    for n in (0, 1, 31, 32, 860, 123456789, 2**35 - 1):
        assert decode_deal(encode_deal(n)) == n
    assert encode_deal(860) == "AAAAA24"
    with pytest.raises(ValueError):
        encode_deal(2**35)


def test_make_code_checks_cells():
    assert engine.code_for("bakers", 860, 2) == "BK1-C2-AAAAA24"
    with pytest.raises(ValueError):
        engine.make_code("bakers", 1, 3)
