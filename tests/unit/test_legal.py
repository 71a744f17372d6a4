"""legal_actions: a fixed order (snapshot) and every listed action accepted by decide."""
import random

from domain import decide, legal_actions

from domain_fixtures import OTHER_HANDS, state_of


def test_draw_phase_snapshot():
    assert legal_actions(state_of(), 0) == [{"type": "draw", "from": "stock"},
                                            {"type": "draw", "from": "discard"}]
    assert legal_actions(state_of(), 1) == []


def test_play_phase_snapshot_after_opening():
    state = state_of(phase="play", hands=[["6C", "4C", "JK", "QD"]] + OTHER_HANDS,
                     melds=[{"owner": 1, "cards": ["5C", "JK=6C", "7C", "8C"]},
                            {"owner": 1, "cards": ["KD", "KS", "KH"]}],
                     opened=["earlier", "earlier", None, None], taken_from_discard="QD")
    assert legal_actions(state, 0) == [
        {"type": "lay_off", "meld": 0, "card": "4C"},
        {"type": "lay_off", "meld": 0, "card": "JK=4C"},
        {"type": "lay_off", "meld": 0, "card": "JK=9C"},
        {"type": "lay_off", "meld": 1, "card": "JK"},
        {"type": "swap_joker", "meld": 0, "card": "6C", "joker_to": {"meld": 0, "as": "4C"}},
        {"type": "swap_joker", "meld": 0, "card": "6C", "joker_to": {"meld": 0, "as": "9C"}},
        {"type": "swap_joker", "meld": 0, "card": "6C", "joker_to": {"meld": 1, "as": None}},
        {"type": "discard", "card": "4C"},
        {"type": "discard", "card": "6C"},
        {"type": "discard", "card": "JK"},
    ]


def test_every_listed_action_is_accepted():
    state = state_of(phase="play", hands=[["6C", "4C", "JK", "QD"]] + OTHER_HANDS,
                     melds=[{"owner": 1, "cards": ["5C", "JK=6C", "7C", "8C"]},
                            {"owner": 1, "cards": ["KD", "KS", "KH"]}],
                     opened=["earlier", "earlier", None, None])
    for action in legal_actions(state, 0):
        assert decide(state, 0, action, random.Random(0))


def test_an_opening_is_offered_when_search_finds_one():
    hand = ["7S", "7S", "7C", "KC", "KD", "KS", "2D", "5S", "9C", "10H", "QH"]
    actions = legal_actions(state_of(phase="play", hands=[hand] + OTHER_HANDS), 0)
    assert actions[0]["type"] == "open" and len(actions[0]["melds"]) == 2
