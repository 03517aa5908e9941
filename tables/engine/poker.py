"""Five-card poker evaluation over five or more cards, with wild Jokers and multi-deck duplicates.

``evaluate(cards, order)`` finds the best five-card hand among ``cards``: its category, a strength
that orders hands (higher is better), and the five cards used, each Joker shown as the card it
stands for (``wild`` marks which ones).  Jokers may stand for any rank and suit, duplicates
included, since a multi-deck shoe can hold several copies of a card: that is what makes five of a
kind and a flush holding a pair possible.

The category order is a parameter.  ``FINNISH`` is the order of the Finnish 27 rule text (a flush
above four of a kind and a full house, five of a kind on top); ``STANDARD`` is the usual order with
five of a kind on top (it only occurs with wild cards or several decks).  Straights run A-2-3-4-5 up
to T-J-Q-K-A, without wrapping.

How it stays fast: without Jokers the non-suited categories (pairs ... quads, straights) come
from bit masks of the ranks occurring 1, 2, 3, 4 and 5+ times, built in one pass; with Jokers (or
an unusual category order) a general search runs, memoised per rank multiset and Joker count.
Suits are looked at only when some suit (plus Jokers) reaches five cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, Rank, Suit
from .errors import InvalidInput

HIGH_CARD = "high-card"
ONE_PAIR = "one-pair"
TWO_PAIR = "two-pair"
THREE_OF_A_KIND = "three-of-a-kind"
STRAIGHT = "straight"
FLUSH = "flush"
FULL_HOUSE = "full-house"
FOUR_OF_A_KIND = "four-of-a-kind"
STRAIGHT_FLUSH = "straight-flush"
FIVE_OF_A_KIND = "five-of-a-kind"

CATEGORIES = frozenset(
    {HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND,
     STRAIGHT_FLUSH, FIVE_OF_A_KIND}
)  # fmt: skip

_SUITED = frozenset({FLUSH, STRAIGHT_FLUSH})
_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_CARDS: dict[tuple[int, Suit], Card] = {(int(r), s): Card(r, s) for r in Rank for s in Suit}

# A pick is (rank, suit or None, wild): suit None means "any real card of that rank".
Pick = tuple[int, Suit | None, bool]
_ANY: Suit | None = None  # typed None: "any real card of that rank"
Found = tuple[tuple[int, ...], list[Pick]]


class CategoryOrder:
    """An order of the ten categories, lowest first; compare hands with ``PokerHand.strength``."""

    __slots__ = ("name", "low_to_high", "index", "_memo", "_plain")

    def __init__(self, name: str, low_to_high: Sequence[str]) -> None:
        if sorted(low_to_high) != sorted(CATEGORIES) or len(low_to_high) != len(CATEGORIES):
            raise InvalidInput(
                f"a category order lists each of {sorted(CATEGORIES)} once, got {list(low_to_high)!r}",
                field="category_order",
            )
        self.name = name
        self.low_to_high: tuple[str, ...] = tuple(low_to_high)
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.low_to_high)}
        # The non-suited categories, highest first, for the rank-only search.
        self._plain: tuple[str, ...] = tuple(c for c in reversed(self.low_to_high) if c not in _SUITED)
        self._memo: dict[tuple[tuple[int, ...], int], tuple[int, tuple[int, ...], list[Pick]]] = {}

    def __repr__(self) -> str:
        return f"CategoryOrder({self.name!r})"


STANDARD = CategoryOrder(
    "standard",
    (HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND,
     STRAIGHT_FLUSH, FIVE_OF_A_KIND),
)  # fmt: skip
# shared/rules/finnish-27-no-bust.txt: "high card, one pair, two pair, three-of-a-kind, straight,
# full house, four-of-a-kind, flush, straight-flush, and five-of-a-kind".
FINNISH = CategoryOrder(
    "finnish-27",
    (HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FULL_HOUSE, FOUR_OF_A_KIND, FLUSH,
     STRAIGHT_FLUSH, FIVE_OF_A_KIND),
)  # fmt: skip
ORDERS = {"standard": STANDARD, "finnish-27": FINNISH}


@dataclass(frozen=True, slots=True)
class PokerHand:
    """The best five-card hand: ``strength`` orders hands under the order used (higher is better)."""

    category: str
    strength: tuple[int, ...]
    cards: tuple[Card, ...]  # the five cards, Jokers shown as the card they stand for
    wild: tuple[bool, ...]  # which of ``cards`` are Jokers

    @property
    def label(self) -> str:
        """Human text, e.g. ``flush (AS AS* KS 9S 4S)`` with ``*`` after a Joker's card."""
        shown = " ".join(c.code + ("*" if w else "") for c, w in zip(self.cards, self.wild, strict=True))
        return f"{self.category.replace('-', ' ')} ({shown})"


# ---------------------------------------------------------------------------------------------
# Rank-only searches.  ``cnt`` is indexed by rank (2..14); ``j`` is the number of Jokers.  Each
# returns the best (key, picks) of hands of that shape, or None.

_DESC = tuple(range(14, 1, -1))
# Straight windows, top card first; the wheel's Ace is rank 14 playing low.
_WINDOWS = tuple((top, tuple(14 if r == 1 else r for r in range(top, top - 5, -1))) for top in range(14, 4, -1))


def _of_a_kind(cnt: list[int], j: int, n: int) -> tuple[int, int] | None:
    """The highest rank that reaches ``n`` copies with Jokers, and how many Jokers that takes."""
    for r in _DESC:
        if cnt[r] + j >= n:
            return r, max(0, n - cnt[r])
    if j >= n:  # Jokers only: they stand for Aces
        return 14, n
    return None


def _kickers(cnt: list[int], exclude: tuple[int, ...], k: int, jokers_left: int) -> list[Pick]:
    """The ``k`` highest real cards of ranks not in ``exclude``; spare Jokers fill in as high cards."""
    out: list[Pick] = []
    for r in _DESC:
        if r in exclude:
            continue
        for _ in range(cnt[r]):
            if len(out) == k:
                return out
            out.append((r, None, False))
    for r in _DESC:
        if len(out) == k or jokers_left == 0:
            break
        if r not in exclude and cnt[r] == 0:
            out.append((r, None, True))
            jokers_left -= 1
    return out


def _group(r: int, real: int, wild: int) -> list[Pick]:
    return [(r, _ANY, False)] * real + [(r, _ANY, True)] * wild


def _five_kind(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    if cs[0] + j < 5:
        return None
    hit = _of_a_kind(cnt, j, 5)
    if hit is None:
        return None
    r, w = hit
    return (r,), _group(r, 5 - w, w)


def _four_kind(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    if cs[0] + j < 4:
        return None
    hit = _of_a_kind(cnt, j, 4)
    if hit is None:
        return None
    r, w = hit
    kick = _kickers(cnt, (r,), 1, j - w)
    if not kick:
        return None
    return (r, kick[0][0]), _group(r, 4 - w, w) + kick


def _full_house(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    # The fewest Jokers any full house needs: the trips on the largest group, the pair on the next.
    if max(0, 3 - cs[0]) + max(0, 2 - cs[1]) > j:
        return None
    for t in _DESC:
        need3 = max(0, 3 - cnt[t])
        if need3 > j:
            continue
        for p in _DESC:
            if p == t:
                continue
            need2 = max(0, 2 - cnt[p])
            if need3 + need2 <= j:
                return (t, p), _group(t, 3 - need3, need3) + _group(p, 2 - need2, need2)
    return None


_STRAIGHT_MEMO: dict[int, tuple[int, tuple[int, ...]] | None] = {}


def _straight_top(present: Iterable[int], j: int) -> tuple[int, tuple[int, ...]] | None:
    """The highest straight the ranks ``present`` make with ``j`` Jokers filling gaps (memoised by rank mask)."""
    mask = 0
    for r in present:
        mask |= 1 << r
    memo_key = mask << 4 | min(j, 5)
    if memo_key in _STRAIGHT_MEMO:
        return _STRAIGHT_MEMO[memo_key]
    found: tuple[int, tuple[int, ...]] | None = None
    for top, window in _WINDOWS:
        if sum(1 for r in window if not mask >> r & 1) <= j:
            found = (top, window)
            break
    _STRAIGHT_MEMO[memo_key] = found  # at most 2**13 masks x 6 Joker counts
    return found


def _straight(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    present = {r for r in _DESC if cnt[r]}
    if len(present) + j < 5:
        return None
    hit = _straight_top(present, j)
    if hit is None:
        return None
    top, window = hit
    return (top,), [(r, None, r not in present) for r in window]


def _n_kind(n: int, cnt: list[int], j: int, cs: list[int]) -> Found | None:
    """n of a kind (three or a pair) filled with the best kickers to five cards."""
    if cs[0] + j < n:
        return None
    hit = _of_a_kind(cnt, j, n)
    if hit is None:
        return None
    r, w = hit
    kick = _kickers(cnt, (r,), 5 - n, j - w)
    if len(kick) < 5 - n:
        return None
    return (r, *(k[0] for k in kick)), _group(r, n - w, w) + kick


def _three_kind(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    return _n_kind(3, cnt, j, cs)


def _two_pair(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    if max(0, 2 - cs[0]) + max(0, 2 - cs[1]) > j:
        return None
    for p1 in _DESC:
        need1 = max(0, 2 - cnt[p1])
        if need1 > j:
            continue
        for p2 in _DESC:
            if p2 >= p1:
                continue
            need2 = max(0, 2 - cnt[p2])
            if need1 + need2 <= j:
                kick = _kickers(cnt, (p1, p2), 1, j - need1 - need2)
                if not kick:
                    return None
                picks = _group(p1, 2 - need1, need1) + _group(p2, 2 - need2, need2) + kick
                return (p1, p2, kick[0][0]), picks
        return None  # the highest possible first pair has no second pair: nothing lower will
    return None


def _one_pair(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    return _n_kind(2, cnt, j, cs)


def _high_card(cnt: list[int], j: int, cs: list[int]) -> Found | None:
    kick = _kickers(cnt, (), 5, j)
    if len(kick) < 5:
        return None
    return tuple(p[0] for p in kick), kick


_PLAIN: dict[str, Callable[[list[int], int, list[int]], Found | None]] = {
    FIVE_OF_A_KIND: _five_kind,
    FOUR_OF_A_KIND: _four_kind,
    FULL_HOUSE: _full_house,
    STRAIGHT: _straight,
    THREE_OF_A_KIND: _three_kind,
    TWO_PAIR: _two_pair,
    ONE_PAIR: _one_pair,
    HIGH_CARD: _high_card,
}


def _top(mask: int, k: int) -> list[int]:
    """The ``k`` highest ranks set in ``mask``."""
    out: list[int] = []
    while mask and len(out) < k:
        r = mask.bit_length() - 1
        out.append(r)
        mask ^= 1 << r
    return out


def _plain_masks(m1: int, m2: int, m3: int, m4: int, m5: int) -> tuple[str, tuple[int, ...], list[Pick]]:
    """Best hand ignoring suits, without Jokers, for the usual order of the non-suited categories
    (both published orders keep it).  ``mN`` has bit r set when rank r occurs at least N times."""
    if m5:
        r = m5.bit_length() - 1
        return FIVE_OF_A_KIND, (r,), [(r, _ANY, False)] * 5
    if m4:
        q = m4.bit_length() - 1
        k = (m1 & ~(1 << q)).bit_length() - 1
        return FOUR_OF_A_KIND, (q, k), [(q, _ANY, False)] * 4 + [(k, _ANY, False)]
    if m3:
        t = m3.bit_length() - 1
        rest = m2 & ~(1 << t)
        if rest:
            p = rest.bit_length() - 1
            return FULL_HOUSE, (t, p), [(t, _ANY, False)] * 3 + [(p, _ANY, False)] * 2
    straight = _STRAIGHT_BY_MASK.get(m1, _NO_STRAIGHT)
    if straight is _NO_STRAIGHT:
        straight = _straight_top(_top(m1, 13), 0)
        _STRAIGHT_BY_MASK[m1] = straight
    if straight is not None:
        return STRAIGHT, (straight[0],), [(r, _ANY, False) for r in straight[1]]
    if m3:
        t = m3.bit_length() - 1
        k1, k2 = _top(m1 & ~(1 << t), 2)
        return THREE_OF_A_KIND, (t, k1, k2), [(t, _ANY, False)] * 3 + [(k1, _ANY, False), (k2, _ANY, False)]
    if m2:
        p1 = m2.bit_length() - 1
        rest = m2 & ~(1 << p1)
        if rest:
            p2 = rest.bit_length() - 1
            k = (m1 & ~(1 << p1) & ~(1 << p2)).bit_length() - 1
            picks: list[Pick] = [(p1, _ANY, False)] * 2 + [(p2, _ANY, False)] * 2 + [(k, _ANY, False)]
            return TWO_PAIR, (p1, p2, k), picks
        k1, k2, k3 = _top(m1 & ~(1 << p1), 3)
        return ONE_PAIR, (p1, k1, k2, k3), [(p1, _ANY, False)] * 2 + [(k, _ANY, False) for k in (k1, k2, k3)]
    top = _top(m1, 5)
    return HIGH_CARD, tuple(top), [(r, _ANY, False) for r in top]


_NO_STRAIGHT: tuple[int, tuple[int, ...]] = (0, ())
_STRAIGHT_BY_MASK: dict[int, tuple[int, tuple[int, ...]] | None] = {}  # at most 2**13 rank masks


_NATURAL_PLAIN = (FIVE_OF_A_KIND, FOUR_OF_A_KIND, FULL_HOUSE, STRAIGHT, THREE_OF_A_KIND, TWO_PAIR, ONE_PAIR, HIGH_CARD)


def _best_plain(cnt: list[int], j: int, order: CategoryOrder) -> tuple[int, tuple[int, ...], list[Pick]]:
    """Best hand ignoring suits: (order index, key, picks); memoised per order."""
    memo_key = (tuple(cnt), j)
    hit = order._memo.get(memo_key)
    if hit is not None:
        return hit
    result: tuple[int, tuple[int, ...], list[Pick]] = (-1, (), [])
    cs = sorted(cnt, reverse=True)
    for category in order._plain:
        found = _PLAIN[category](cnt, j, cs)
        if found is not None:
            result = (order.index[category], found[0], found[1])
            break
    if len(order._memo) > 500_000:  # bounded: many-card multi-deck hands could grow it without end
        order._memo.clear()
    order._memo[memo_key] = result
    return result


def _best_suited(
    cards: Sequence[Card], j: int, suits: Iterable[Suit], order: CategoryOrder
) -> tuple[int, tuple[int, ...], list[Pick]] | None:
    """Best straight flush or flush among the suits that reach five cards with the Jokers."""
    best: tuple[int, tuple[int, ...], list[Pick]] | None = None
    sf_index, fl_index = order.index[STRAIGHT_FLUSH], order.index[FLUSH]
    for suit in suits:
        ranks = sorted((int(c.rank) for c in cards if c.suit is suit and c.rank is not None), reverse=True)
        present = set(ranks)
        sf = _straight_top(present, j)
        if sf is not None:
            top, window = sf
            sf_picks: list[Pick] = [(r, suit, r not in present) for r in window]
            cand: tuple[int, tuple[int, ...], list[Pick]] = (sf_index, (top,), sf_picks)
            if best is None or cand[:2] > best[:2]:
                best = cand
        # Jokers in a flush stand for Aces of the suit: a multi-deck flush may hold a pair.
        five = sorted(ranks + [14] * j, reverse=True)[:5]
        real = ranks[: 5 - min(j, 5)] if j else ranks[:5]
        picks: list[Pick] = [(r, suit, False) for r in real]
        picks += [(14, suit, True)] * (5 - len(real))
        picks.sort(key=lambda p: -p[0])
        cand = (fl_index, tuple(five), picks)
        if best is None or cand[:2] > best[:2]:
            best = cand
    return best


def _realise(cards: Sequence[Card], picks: list[Pick]) -> tuple[tuple[Card, ...], tuple[bool, ...]]:
    """Turn picks into the five cards: real cards taken from ``cards``, Jokers shown as what they stand for."""
    pool = list(cards)
    out: list[Card] = []
    for r, suit, is_wild in picks:
        if is_wild:
            out.append(_CARDS[(r, suit if suit is not None else _spare_suit(r, out))])
            continue
        for i, c in enumerate(pool):
            if c.rank == r and (suit is None or c.suit is suit):
                out.append(pool.pop(i))
                break
    return tuple(out), tuple([p[2] for p in picks])


def _spare_suit(rank: int, chosen: list[Card]) -> Suit:
    """A suit for a Joker's card: one its rank does not already show, so the hand reads naturally."""
    used = {c.suit for c in chosen if c.rank == rank}
    for s in _SUITS:
        if s not in used:
            return s
    return Suit.SPADES


def evaluate(cards: Sequence[Card], order: CategoryOrder = FINNISH) -> PokerHand:
    """The best five-card hand out of five or more cards (Jokers wild) under ``order``."""
    if len(cards) < 5:
        raise InvalidInput(f"a poker hand needs at least five cards, got {len(cards)}", field="cards")
    # One pass: rank multiplicity masks (bit r of mN: rank r occurs N+ times), suits, Jokers.
    m1 = m2 = m3 = m4 = m5 = 0
    suit_count = {Suit.SPADES: 0, Suit.HEARTS: 0, Suit.DIAMONDS: 0, Suit.CLUBS: 0}
    j = 0
    for c in cards:
        r = c.rank
        if r is None:
            j += 1
            continue
        b = 1 << r
        if m1 & b:
            if m2 & b:
                if m3 & b:
                    if m4 & b:
                        m5 |= b
                    else:
                        m4 |= b
                else:
                    m3 |= b
            else:
                m2 |= b
        else:
            m1 |= b
        suit_count[c.suit] += 1  # type: ignore[index]
    if j == 0 and order._plain == _NATURAL_PLAIN:
        category, key, picks = _plain_masks(m1, m2, m3, m4, m5)
        index = order.index[category]
    else:
        cnt = [0] * 15
        for c in cards:
            if c.rank is not None:
                cnt[c.rank] += 1
        index, key, picks = _best_plain(cnt, j, order)
    flushable = [s for s, n in suit_count.items() if n + j >= 5]
    if flushable:
        suited = _best_suited(cards, j, flushable, order)
        if suited is not None and suited[:2] > (index, key):
            index, key, picks = suited
    five, wild = _realise(cards, picks)
    return PokerHand(order.low_to_high[index], (index, *key), five, wild)


def category_of(cards: Sequence[Card], order: CategoryOrder = FINNISH) -> str:
    """Just the category of the best five-card hand."""
    return evaluate(cards, order).category

