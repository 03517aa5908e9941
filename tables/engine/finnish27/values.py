"""Finnish 27 card values, soft and hard totals, the initial 27s, and the forced plays.

Everything here is a small pure function over card sequences, fast enough for the analysis to call
millions of times (tables/analysis simulates with them).  Rule text: shared/rules/finnish-27-no-bust.txt;
readings: shared/rules/README.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Rank
from ..rulesets import Finnish27Rules

PUBLISHED_RULES = Finnish27Rules()
TARGET = 27
ACE = Rank.ACE
KING = Rank.KING

# The three initial 27s, ranked "in reverse order of their probabilities of occurrence".
JO_JO = "jo-jo"
FINNISH_27 = "finnish-27"
JOANCA = "joanca"
INITIAL_27_RANK = {JO_JO: 3, FINNISH_27: 2, JOANCA: 1}
INITIAL_27_LABEL = {JO_JO: "Jo Jo", FINNISH_27: "Finnish 27", JOANCA: "Joanca"}

# The player's forced plays depend on the dealer's two-card total: "dealer below" is hard < 24 or
# soft < 25 (the text's two lists); these thresholds are the rule text's, not rule-set options.
DEALER_BELOW_HARD = 24
DEALER_BELOW_SOFT = 25
PLAYER_HITS_HARD_BELOW = 21
PLAYER_HITS_SOFT_BELOW = 24
PLAYER_STANDS_HARD_FROM = 25

HIT = "hit"
STAND = "stand"


def card_value(card: Card) -> int:
    """A card's numeric value with the Ace low (1) and a Joker past the initial hand (0)."""
    r = card.rank
    if r is None:
        return 0
    return 1 if r is ACE else int(r)


def hand_value(cards: Sequence[Card]) -> tuple[int, bool]:
    """The hand total and whether it is soft (holds a high Ace, counted 14).

    A Joker among a hand's first two cards takes the value that makes the initial hand 27 (a lone
    Joker is 27 on its own); a Joker dealt later counts 0.  At most one Ace can be high: a second
    would take the total past 27.
    """
    hard = 0
    ace = False
    for c in cards:
        r = c.rank
        if r is None:
            continue
        if r is ACE:
            ace = True
            hard += 1
        else:
            hard += r
    n = len(cards)
    if n and (cards[0].rank is None or (n > 1 and cards[1].rank is None)):
        hard += _joker_fill(cards)
    if ace and hard <= TARGET - 13:
        return hard + 13, True
    return hard, False


def _joker_fill(cards: Sequence[Card]) -> int:
    """What the Joker(s) of the initial hand add so that the initial hand is 27.

    The value is fixed when the initial hand is formed, with an Ace beside the Joker played high
    (Joker 13); cards after an initial 27 only occur in hands that broke the rules, and then add
    to that 27 like any hand (the Ace may still turn low).
    """
    first, second = cards[0], (cards[1] if len(cards) > 1 else None)
    if second is None or (first.rank is None and second.rank is None):
        return TARGET
    other = second if first.rank is None else first
    # The other card's best value: an Ace plays high here (14 keeps the hand at 27).
    return TARGET - (14 if other.rank is ACE else int(other.rank))  # type: ignore[arg-type]


def describe_total(total: int, soft: bool) -> str:
    """``soft 25``, ``hard 23``, ``27``, or ``29`` (over 27 a hand is always hard)."""
    if total == TARGET:
        return "27"
    if total > TARGET:
        return str(total)
    return f"{'soft' if soft else 'hard'} {total}"


def describe(cards: Sequence[Card]) -> str:
    """The total of ``cards`` in words (``soft 25``)."""
    return describe_total(*hand_value(cards))


def initial_27(cards: Sequence[Card]) -> str | None:
    """Which initial 27 the first two cards are (``jo-jo``, ``finnish-27``, ``joanca``), or None."""
    if len(cards) < 2:
        return None
    a, b = cards[0].rank, cards[1].rank
    if a is None and b is None:
        return JO_JO
    if a is None or b is None:
        return JOANCA
    if {a, b} == {ACE, KING}:
        return FINNISH_27
    return None


def initial_winner(player: Sequence[Card], dealer: Sequence[Card]) -> str | None:
    """``player`` or ``dealer`` if an initial 27 decides the round at once, else None.

    The higher-ranked 27 wins; equal ranks go to the dealer.
    """
    pk, dk = initial_27(player), initial_27(dealer)
    if pk is None and dk is None:
        return None
    if pk is None:
        return "dealer"
    if dk is None:
        return "player"
    return "player" if INITIAL_27_RANK[pk] > INITIAL_27_RANK[dk] else "dealer"


def dealer_is_below(dealer_total: int, dealer_soft: bool) -> bool:
    """Whether the dealer's two-card total is "below" (hard < 24 or soft < 25) for the player's forced plays."""
    return dealer_total < (DEALER_BELOW_SOFT if dealer_soft else DEALER_BELOW_HARD)


# Why a play is forced: short tags, turned into words by ``forced_reason``.
WHY_HARD_UNDER_21 = "hard under 21"
WHY_SOFT_UNDER_24 = "soft under 24"
WHY_HARD_25_UP = "hard 25 or more"
WHY_27 = "27 wins"
WHY_NOT_ABOVE_DEALER = "not above the dealer"
WHY_HARD_ABOVE_DEALER = "hard and above the dealer"


def player_play(pt: int, ps: bool, dt: int, ds: bool) -> tuple[str | None, str]:
    """The forced play (``hit``/``stand``/None for a free choice) and its reason tag, from the totals.

    ``pt, ps`` is the player's total and softness, ``dt, ds`` the dealer's two-card total.
    """
    if pt == TARGET:  # both lists force a stand on 27: hard 25+ or soft 27, and above any dealer 2-card total
        return STAND, WHY_27
    if dealer_is_below(dt, ds):
        if ps:
            if pt < PLAYER_HITS_SOFT_BELOW:
                return HIT, WHY_SOFT_UNDER_24
            return None, ""  # soft 24-26; soft 27 stands above
        if pt < PLAYER_HITS_HARD_BELOW:
            return HIT, WHY_HARD_UNDER_21
        if pt >= PLAYER_STANDS_HARD_FROM:
            return STAND, WHY_HARD_25_UP
        return None, ""
    # Dealer at hard 24+ or soft 25+: the raw totals are compared.
    if pt <= dt:
        return HIT, WHY_NOT_ABOVE_DEALER
    if not ps:
        return STAND, WHY_HARD_ABOVE_DEALER
    return None, ""  # soft and above the dealer, below 27


def forced_play(player_cards: Sequence[Card], dealer_cards: Sequence[Card]) -> str | None:
    """``hit`` or ``stand`` when the rules force the player's play, None for a free choice.

    Only the dealer's first two cards count (the player plays before the dealer draws).
    """
    pt, ps = hand_value(player_cards)
    dt, ds = hand_value(dealer_cards[:2])
    return player_play(pt, ps, dt, ds)[0]


def forced_reason(player_cards: Sequence[Card], dealer_cards: Sequence[Card]) -> tuple[str | None, str]:
    """The forced play and the words a dealer reads out: ``player must hit: soft 23 against dealer 26``."""
    pt, ps = hand_value(player_cards)
    dt, ds = hand_value(dealer_cards[:2])
    play, why = player_play(pt, ps, dt, ds)
    mine, theirs = describe_total(pt, ps), describe_total(dt, ds)
    if play is None:
        return None, f"player chooses hit or stand: {mine} against dealer {theirs}"
    return play, f"player must {play}: {mine} against dealer {theirs} ({why})"


def dealer_must_hit(cards: Sequence[Card], rules: Finnish27Rules = PUBLISHED_RULES) -> bool:
    """Whether the dealer must draw: hard below 24, soft below 25 (rule-set values)."""
    total, soft = hand_value(cards)
    return total < (rules.dealer_stands_soft if soft else rules.dealer_stands_hard)


def dealer_reason(cards: Sequence[Card], rules: Finnish27Rules = PUBLISHED_RULES) -> tuple[str, str]:
    """The dealer's forced play and why: ``dealer must hit: hard 18``."""
    total, soft = hand_value(cards)
    limit = rules.dealer_stands_soft if soft else rules.dealer_stands_hard
    kind = "soft" if soft else "hard"
    if total < limit:
        return HIT, f"dealer must hit: {describe_total(total, soft)} (below {kind} {limit})"
    return STAND, f"dealer must stand: {describe_total(total, soft)} ({kind} {limit} or more)"


def player_decided(cards: Sequence[Card], rules: Finnish27Rules = PUBLISHED_RULES) -> str | None:
    """After the player's hand: ``player`` if it is 27 (wins at once), ``dealer`` if over hard 35, else None."""
    total, soft = hand_value(cards)
    if total == TARGET:
        return "player"
    if not soft and total > rules.player_loses_over_hard:
        return "dealer"
    return None


def distance(total: int) -> int:
    """How far a total is from 27 (neither side busts at 28-35)."""
    return abs(TARGET - total)
