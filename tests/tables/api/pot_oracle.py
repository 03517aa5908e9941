"""An independent settlement of the pot games, written for the tests from the published rule texts.

Nothing here imports or copies ``tables.engine``: it is a second, deliberately small reading of
shared/rules/bluffjack.txt and the Contract Rummy part of shared/rules/dealer-upcard-and-contract-rummy.txt,
used by tests/tables/api/test_pot_games_property.py to check what the server settles.

Bluffjack (published rule set: ante 1, the forced raise of 1, no Charlie, closest to 21 wins).  The
text says: a lone remaining player wins the pot even over 21; if several remain and all are over 21
the pot goes to the house; otherwise the one closest to 21 without going over wins, ties split.
Where the text is silent (all-in for less, odd chips) we follow the readings the system publishes
next to its engine: table stakes with side pots as in poker (a pot per all-in level of the players
still in; each pot is resolved among the players in it by the rule above, an unmatched excess comes
back to its only claimant) and an indivisible remainder of a split goes one chip each to the
winners nearest the dealer's left.  Both are the standard card-room conventions.

Contract Rummy: "each player scores the sum of all cards in his hand": 2-9 face value, 10 J Q K 10,
A 15, Joker 25; the lowest cumulative total after the seven deals wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# ------------------------------------------------------------------------------------------ Bluffjack

_FACE = {"T": 10, "J": 10, "Q": 10, "K": 10}


def blackjack_total(codes: Iterable[str]) -> int:
    """Blackjack count: 2-9 face value, T J Q K ten, each Ace one, one Ace eleven if that stays <= 21."""
    total, aces = 0, 0
    for code in codes:
        rank = code.upper().replace("10", "T")[0]
        if rank == "A":
            aces += 1
            total += 1
        elif rank in _FACE:
            total += 10
        else:
            total += int(rank)
    if aces and total + 10 <= 21:
        total += 10
    return total


_TWO_CARD_21 = {"T": 0, "J": 1, "Q": 2, "K": 3}  # A-T < A-J < A-Q < A-K, each suited above offsuit


def hand_rank(
    codes: Sequence[str], *, charlie: int = 0, charlie_tiebreak: bool = False, best_hand: bool = False
) -> tuple[int, ...] | None:
    """How good a hand is at the showdown (higher is better), None when it is over 21.

    The text: closest to 21 without going over.  Charlies (``charlie`` 5, 7 or 10): a hand of that
    many cards under 21 "would be the highest valued hand that is not equal to 21"; between Charlies the
    higher total wins, and with the minimum-size variant a tie on the sum goes to the longer Charlie (the
    system reads "that many cards" as that many or more, as a Five-Card Charlie is read at blackjack).
    "Best hand": two-card 21s rank A-K suited, A-K, A-Q suited, A-Q, A-J suited, A-J, A-T suited,
    A-T, then a 21 of three or more cards, then Charlies, then 20 down to 2.
    """
    codes = [c.upper().replace("10", "T") for c in codes]
    total = blackjack_total(codes)
    if total > 21:
        return None
    if total == 21:
        if best_hand and len(codes) == 2:
            ten = next(c for c in codes if c[0] != "A")
            suited = codes[0][1] == codes[1][1]
            return (3, 1 + 2 * _TWO_CARD_21.get(ten[0], 0) + int(suited))
        return (3, 0)
    if charlie and len(codes) >= charlie:
        return (2, total, len(codes) if charlie_tiebreak else 0)
    return (1, total)


@dataclass
class PotResult:
    amount: int
    contenders: list[str]
    winners: list[str]  # empty: the pot went to the house
    shares: dict[str, int] = field(default_factory=dict)


@dataclass
class BluffjackSettlement:
    committed: dict[str, int]  # chips each player put in (ante, calls, raises)
    won: dict[str, int]  # chips each player takes from the pots
    house: int  # chips the house takes
    folded: set[str]
    pots: list[PotResult]

    levels: list[int] = field(default_factory=list)  # the all-in level each pot reaches, in order

    def net(self, player: str) -> int:
        return self.won[player] - self.committed[player]

    def pot_wager(self, player: str, k: int) -> int:
        """What ``player`` put into pot ``k`` (the main pot is 0)."""
        below = self.levels[k - 1] if k else 0
        c = self.committed[player]
        return min(c, self.levels[k]) - min(c, below)


def settle_bluffjack(
    seats: Sequence[tuple[str, int]],
    dealer: str,
    cards: dict[str, list[str]],
    actions: Sequence[tuple[str, str, int | None]],
    *,
    ante: int = 1,
    charlie: int = 0,
    charlie_tiebreak: bool = False,
    best_hand: bool = False,
    odd_chip_to_house: bool = False,
) -> BluffjackSettlement:
    """Settle one hand.

    ``seats``: (player, stack before the ante) in clockwise order; ``dealer``: who holds the button;
    ``cards``: each player's cards; ``actions``: (player, action, amount) in order, where a raise's
    amount is what the player raises by, on top of what he owes.  Only the betting changes chips:
    hits and stands are ignored here.
    """
    names = [p for p, _ in seats]
    stack = dict(seats)
    committed = {p: min(ante, stack[p]) for p in names}
    folded: set[str] = set()
    for player, action, amount in actions:
        left = stack[player] - committed[player]
        owed = max(committed.values()) - committed[player]
        if action == "fold":
            folded.add(player)
        elif action == "call":
            committed[player] += min(owed, left)
        elif action == "raise":
            assert amount is not None and amount > 0, (player, action, amount)
            assert owed + amount <= left, f"{player} raises {amount} over {owed} owed with {left} left"
            committed[player] += owed + amount
        elif action in ("hit", "stand"):
            pass
        else:
            raise AssertionError(f"unknown Bluffjack action {action!r}")

    # Clockwise from the dealer's left: who is "nearest the dealer's left" for odd chips.
    d = names.index(dealer)
    from_left = names[d + 1 :] + names[: d + 1]

    live = [p for p in names if p not in folded]
    assert live, "everybody folded"
    levels = sorted({committed[p] for p in live})
    won = {p: 0 for p in names}
    house = 0
    pots: list[PotResult] = []
    pot_levels: list[int] = []
    below = 0
    for level in levels:
        amount = sum(min(committed[p], level) - min(committed[p], below) for p in names)
        contenders = [p for p in live if committed[p] >= level]
        below = level
        assert amount > 0  # a live player stands at every level
        if len(contenders) == 1:
            winners = contenders  # "if only one player remains, they win the pot, even if they went over 21"
        else:
            ranks = {p: hand_rank(cards[p], charlie=charlie, charlie_tiebreak=charlie_tiebreak, best_hand=best_hand)
                     for p in contenders}  # fmt: skip
            standing = {p: r for p, r in ranks.items() if r is not None}
            if not standing:
                winners = []  # "all players went over 21, no player wins the pot. The money goes to the house."
            else:
                best = max(standing.values())  # "closest to 21 without going over"
                winners = [p for p in contenders if standing.get(p) == best]  # "tied, they split the pot"
        pot = PotResult(amount, contenders, winners)
        if not winners:
            house += amount
        else:
            share, odd = divmod(amount, len(winners))
            for p in winners:
                pot.shares[p] = share
            if odd_chip_to_house:
                house += odd
            else:
                for p in [q for q in from_left if q in winners][:odd]:
                    pot.shares[p] += 1
            for p, s in pot.shares.items():
                won[p] += s
        pots.append(pot)
        pot_levels.append(level)
    # Chips folded players put in above every live player's level would have no claimant.
    assert below == max(committed.values()), (committed, folded)
    return BluffjackSettlement(
        committed=committed, won=won, house=house, folded=folded, pots=pots, levels=pot_levels
    )


# -------------------------------------------------------------------------------------- Contract Rummy

RUMMY_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 10, "J": 10, "Q": 10, "K": 10, "A": 15}  # fmt: skip
JOKER_POINTS = 25


def rummy_card_points(code: str) -> int:
    code = code.upper()
    if code.startswith("JK"):
        return JOKER_POINTS
    return RUMMY_POINTS[code.replace("10", "T")[0]]


def rummy_hand_score(codes: Iterable[str]) -> int:
    """The text: "each player scores the sum of all cards in his hand", by its table of card values."""
    return sum(rummy_card_points(c) for c in codes)


def rummy_winners(totals: dict[str, int]) -> list[str]:
    """The text: "the player with the fewest points at the end of the seven deals wins the game" (ties share)."""
    low = min(totals.values())
    return [p for p, t in totals.items() if t == low]
