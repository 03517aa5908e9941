"""The player's forced plays in both regimes of the dealer's two-card total, and free choices
(rule text "Form The Player's Complete Hand"; rules/README.md "dealer below" / "dealer above")."""

from __future__ import annotations

import pytest

from tables.engine.finnish27 import forced_play, forced_reason

from .helpers import C

DEALER_HARD_20 = "KS 7D"  # below: hard < 24
DEALER_HARD_23 = "KS TD"  # below (last)
DEALER_SOFT_24 = "AS 9D"  # below: soft < 25
DEALER_HARD_24 = "KS JD"  # above
DEALER_SOFT_25 = "AS JD"  # above
DEALER_HARD_26 = "KS KD"  # above


@pytest.mark.parametrize("dealer", [DEALER_HARD_20, DEALER_HARD_23, DEALER_SOFT_24])
class TestDealerBelow:
    def test_player_must_hit_hard_below_21(self, dealer: str) -> None:
        assert forced_play(C("KS 7D"), C(dealer)) == "hit"  # hard 20
        assert forced_play(C("2S 3D"), C(dealer)) == "hit"

    def test_player_must_hit_soft_below_24(self, dealer: str) -> None:
        assert forced_play(C("AS 9H"), C(dealer)) == "hit"  # soft 23
        assert forced_play(C("AS 2H"), C(dealer)) == "hit"

    def test_player_must_stand_hard_25_or_more(self, dealer: str) -> None:
        assert forced_play(C("KS QD"), C(dealer)) == "stand"  # hard 25
        assert forced_play(C("KS KD"), C(dealer)) == "stand"
        assert forced_play(C("KS KD 9C"), C(dealer)) == "stand"  # 35

    def test_player_must_stand_soft_27(self, dealer: str) -> None:
        assert forced_play(C("AS 6H 7D"), C(dealer)) == "stand"

    @pytest.mark.parametrize("player", ["KS 8D", "KS 9D", "KS TD", "KS JD"])
    def test_player_chooses_on_hard_21_to_24(self, dealer: str, player: str) -> None:
        assert forced_play(C(player), C(dealer)) is None

    @pytest.mark.parametrize("player", ["AS TH", "AS JH", "AS QH"])
    def test_player_chooses_on_soft_24_to_26(self, dealer: str, player: str) -> None:
        assert forced_play(C(player), C(dealer)) is None


@pytest.mark.parametrize("dealer", [DEALER_HARD_24, DEALER_SOFT_25, DEALER_HARD_26])
class TestDealerAbove:
    def test_player_must_hit_when_not_above_the_dealer(self, dealer: str) -> None:
        assert forced_play(C("KS 9D"), C(dealer)) == "hit"  # hard 22 is not above 24+
        assert forced_play(C("AS 8D"), C(dealer)) == "hit"  # soft 22

    def test_player_must_stand_hard_above_the_dealer(self, dealer: str) -> None:
        assert forced_play(C("KS KD 2C"), C(dealer)) == "stand"  # hard 28
        assert forced_play(C("KS KD JC"), C(dealer)) == "stand"  # hard 37

    def test_player_must_stand_soft_27(self, dealer: str) -> None:
        assert forced_play(C("AS KD"), C(dealer)) == "stand"


def test_equal_totals_force_a_hit_against_a_dealer_at_24_or_more() -> None:
    assert forced_play(C("KS JD"), C(DEALER_HARD_24)) == "hit"  # 24 vs 24
    assert forced_play(C("AS QD"), C(DEALER_HARD_26)) == "hit"  # soft 26 vs 26


def test_hard_25_above_a_dealer_24_must_stand_but_only_with_hard() -> None:
    assert forced_play(C("KS QD"), C(DEALER_HARD_24)) == "stand"  # hard 25 > 24
    assert forced_play(C("AS JD"), C(DEALER_HARD_24)) is None  # soft 25 > 24: the player chooses


def test_the_raw_totals_are_compared_soft_against_hard() -> None:
    assert forced_play(C("AS QD"), C(DEALER_SOFT_25)) is None  # soft 26 above soft 25
    assert forced_play(C("KS KD"), C(DEALER_SOFT_25)) == "stand"  # hard 26 above soft 25


def test_the_regime_turns_at_hard_24_and_soft_25() -> None:
    # hard 22 chooses against hard 23 (below) but must hit against hard 24 (above)
    assert forced_play(C("KS 9D"), C(DEALER_HARD_23)) is None
    assert forced_play(C("KS 9D"), C(DEALER_HARD_24)) == "hit"
    # hard 21 chooses against soft 24 (below) but must hit against soft 25 (above)
    assert forced_play(C("KS 8D"), C(DEALER_SOFT_24)) is None
    assert forced_play(C("KS 8D"), C(DEALER_SOFT_25)) == "hit"


def test_only_the_dealers_first_two_cards_count_for_the_player() -> None:
    assert forced_play(C("KS 9D"), C("KS 7D 9C")) is None


def test_the_reason_reads_out_the_totals() -> None:
    play, why = forced_reason(C("AS 9D"), C("KS KD"))
    assert play == "hit"
    assert why.startswith("player must hit: soft 23 against dealer hard 26")
    assert forced_reason(C("KS 9D"), C(DEALER_HARD_20)) == (
        None, "player chooses hit or stand: hard 22 against dealer hard 20"
    )  # fmt: skip
