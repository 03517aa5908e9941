"""What the dealer tablet shows of a live round, in words: hands with their totals, the hole card
face down, the prompt as a sentence and the actions' labels.

Pure (no Django): it reads the engine's live state (rebuilt by the services' replay) and the stored
cards as JSON, and only *describes* them; every total and every rule comes from the engine
(``describe_total`` of each game), nothing is decided here.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from tables.engine.blackjack.outcome import stake
from tables.engine.money import fmt

BLACKJACK = ("unlimited-blackjack", "mini-blackjack")
_RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
_ACTION_LABELS = {
    "hit": "Hit", "stand": "Stand", "double": "Double", "split": "Split", "insurance": "Insurance",
    "decline": "No insurance", "surrender": "Surrender", "call": "Call", "raise": "Raise", "fold": "Fold",
    "settle": "Settle", "start_hand": "Start hand",
}  # fmt: skip


def rank_words(code: str) -> str:
    """``AS`` → ``ace``, ``TD`` → ``10``, ``7H`` → ``7``, ``JK`` → ``joker``."""
    if code == "JK":
        return "joker"
    return _RANK_WORDS.get(code[:-1], code[:-1])


def _either(words: list[str]) -> str:
    words = [w.lower() for w in words]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def place_words(key: str | None) -> str:
    """Where a card went or who acted, for the floor's pages: ``seat:3/hand:1`` → ``seat 3, hand 2`` (hands and
    bets behind counted from 1, as the tablet says them); ``dealer`` → ``the dealer``; a player by name."""
    if not key:
        return "—"
    if key == "dealer":
        return "the dealer"
    label = actor_label(key)
    return "seat" + label[4:] if label.startswith("Seat ") and key.startswith("seat:") else label


def actor_label(actor: str | None, setup: dict[str, Any] | None = None, game: str = "") -> str:
    """``seat:3/hand:1`` → ``Seat 3, hand 2``; ``seat:3/behind:0`` → ``Seat 3, bet behind 1``;
    ``player:Seat 2`` → ``Seat 2``; ``dealer`` → ``Dealer``; Finnish 27's ``player`` → ``Seat N``."""
    if not actor:
        return ""
    if actor == "dealer":
        return "Dealer"
    if actor.startswith("player:"):
        name = actor.split(":", 1)[1]
        return name[:1].upper() + name[1:]
    if actor == "player":
        seats = (setup or {}).get("seats") or []
        return f"Seat {seats[0]['seat']}" if len(seats) == 1 else "Player"
    parts = []
    for part in actor.split("/"):
        name, _, value = part.partition(":")
        if not value.isdigit():
            return actor
        n = int(value)
        if name == "seat":
            parts.append(f"Seat {n}")
        elif name == "hand":
            parts.append(f"hand {n + 1}")
        elif name == "behind":
            parts.append(f"bet behind {n + 1}")
        else:
            return actor
    return ", ".join(parts)


def action_labels(game: str, prompt: dict[str, Any]) -> dict[str, str]:
    """The label of each allowed action, in words (``decline`` is "No insurance" or "No surrender")."""
    allowed = list(prompt.get("allowed") or [])
    extra = prompt.get("extra") or {}
    out = {}
    for a in allowed:
        label = _ACTION_LABELS.get(a, a.replace("_", " ").capitalize())
        if a == "decline" and "insurance" not in allowed:
            label = "No surrender" if "surrender" in allowed else "Nothing"
        elif a == "decline" and "surrender" in allowed:
            label = "Neither"  # both offered: "No insurance" would leave the surrender open
        if a == "insurance" and extra.get("insurance"):
            label = f"Insurance {extra['insurance']}"
        if a == "call" and game == "bluffjack":
            owed = extra.get("to_call", 0)
            label = f"Call {owed}" if owed else "Check"
        out[a] = label
    return out


# ---------------------------------------------------------------------------------------------
# The prompt in words


def prompt_text(game: str, prompt: dict[str, Any], state: Any, setup: dict[str, Any]) -> str:
    """The prompt as one sentence a dealer reads out, naming seats and hands in words."""
    actor = prompt.get("actor")
    who = actor_label(actor, setup, game)
    reason = str(prompt.get("reason") or "")
    needs = prompt.get("needs")
    allowed = list(prompt.get("allowed") or [])
    forced = prompt.get("forced")
    extra = prompt.get("extra") or {}
    labels = action_labels(game, prompt)
    choice = _either([labels[a] for a in allowed]) if allowed else ""
    if game in BLACKJACK and state is not None:
        text = _blackjack_text(prompt, state, who, choice)
        if text:
            return text
    if game == "finnish-27":
        # The engine says "player"/"dealer": name the seat, never twice.
        seat = _finnish_seat(setup)
        text = reason
        # A settlement's "player 27 (Joanca) vs dealer hard 25: win ..." read "Seat 1 27 (Joanca) vs ...".
        vs = re.match(r"player (.+?) vs dealer (.+?): (.+)$", text)
        if vs:
            text = f"{seat} holds {vs[1]}, the dealer {vs[2]}: {vs[3]}"
        elif text.startswith("player "):
            text = seat + text[len("player") :]
        elif text.startswith("dealer "):
            text = "Dealer" + text[len("dealer") :]
        text = text.replace("the player's", f"{seat}'s").replace("(player hits)", f"({seat} hits)")
        return text[:1].upper() + text[1:]
    if game == "bluffjack":
        name = actor.split(":", 1)[1] if actor and actor.startswith("player:") else ""
        # Each player's first card is private: the tablet never says a hand's total (with the cards in
        # view it would give the hidden card away).
        text = re.sub(r" holds [^:]+: hit or stand$", ": hit or stand", reason)
        if name and not reason.lower().startswith(name.lower()) and needs == "decision":
            text = f"{who}: {reason}"
        if forced and needs == "decision" and "must" not in text:
            text += f" — must {forced}"
        if extra.get("pot") is not None and needs in ("decision", "card"):
            text += f" · pot {extra['pot']}"
        return text[:1].upper() + text[1:]
    # Any other game: the reason with whose turn it is, never the same name twice.
    if who and not reason.lower().startswith(who.lower()):
        return f"{who}: {reason}"
    return reason


def _finnish_seat(setup: dict[str, Any]) -> str:
    seats = setup.get("seats") or []
    return f"seat {seats[0]['seat']}" if len(seats) == 1 else "the player"


def _blackjack_text(prompt: dict[str, Any], state: Any, who: str, choice: str) -> str:
    phase, needs = prompt.get("phase"), prompt.get("needs")
    extra = prompt.get("extra") or {}
    reason = str(prompt.get("reason") or "")
    up = rank_words(state.dealer[0].code) if state.dealer else ""
    if phase == "deal":
        if who == "Dealer":
            return (
                "Deal the dealer's hole card, face down"
                if not extra.get("face_up", True)
                else "Deal the dealer's up card"
            )
        return f"Deal {who.replace('Seat', 'seat')} a card"
    if phase == "offers":
        return f"{who}: the dealer shows an ace — {choice}"
    if phase == "play":
        if needs == "card":
            if extra.get("for"):
                return f"{who}: deal the card for the {extra['for']}"
            return f"{who}: deal the second card of the split hand"
        total = _hand_total_words(state, prompt)
        forced = prompt.get("forced")
        return f"{who}: {total} against the dealer's {up} — " + (f"must {forced}" if forced else choice)
    if phase == "dealer":
        return "Dealer " + reason.removeprefix("dealer ")
    if phase == "settle":
        return "Dealer " + reason.removeprefix("dealer ")
    if phase == "settled":
        return "Round settled: pay what is due"
    return ""


def _hand_total_words(state: Any, prompt: dict[str, Any]) -> str:
    from tables.engine.blackjack.hands import describe_total

    seat_no, hand_no = _seat_hand(prompt.get("actor") or "")
    for s in state.seats:
        if s.number == seat_no:
            hand = s.hands[hand_no or 0]
            return describe_total(hand.cards, after_split=len(s.hands) > 1)
    return ""


def _seat_hand(actor: str) -> tuple[int | None, int | None]:
    seat = hand = None
    for part in actor.split("/"):
        name, _, value = part.partition(":")
        if value.isdigit():
            if name == "seat":
                seat = int(value)
            elif name == "hand":
                hand = int(value)
    return seat, hand


# ---------------------------------------------------------------------------------------------
# Hands as the table shows them


def _behind_words(b: dict[str, Any], doubled_to: list[str] | None = None, insurance: Decimal | None = None) -> str:
    main = b.get("wagers", {}).get("main", "")
    along = "doubles along" if b.get("double_along") else "does not double along"
    follow = "follows both hands" if b.get("follow_split", "both") == "both" else "follows the first hand"
    if doubled_to:  # it did double along: said once, with the stake now
        along = f"doubled along to {' and '.join(doubled_to)}"
    insured = f", insurance {fmt(insurance)}" if insurance is not None else ""  # the bettor behind's own
    return f"behind {main}{insured}, {along}, {follow}"


_WAGER_WORDS = {"main": "main bet", "perfect-pairs": "Perfect Pairs bet", "21+3": "21+3 bet"}


def _seat_bets_words(seat: Any, wagers: dict[str, str]) -> str:
    """A seat's bets as they stand now, from the engine's stakes: ``main bet 20.00, doubled to 40.00 ·
    Perfect Pairs bet 5.00``; a split seat carries the main bet on each hand (``on each of 2 hands,
    hand 2 doubled to 20.00``); insurance once taken."""

    main = seat.bet.main
    words = f"main bet {fmt(main)}"
    if len(seat.hands) > 1:
        words += f" on each of {len(seat.hands)} hands"
        words += "".join(f", hand {i + 1} doubled to {fmt(stake(main, True))}" for i, h in enumerate(seat.hands) if h.doubled)
    elif seat.hands and seat.hands[0].doubled:
        words += f", doubled to {fmt(stake(main, True))}"
    parts = [words] + [f"{_WAGER_WORDS.get(k, k + ' bet')} {a}" for k, a in wagers.items() if k != "main"]
    if seat.insurance is not None:
        parts.append(f"insurance {fmt(seat.insurance)}")
    return " · ".join(parts)


def _behind_doubled(seat: Any, b: dict[str, Any]) -> list[str]:
    """What a bet behind stands at on each doubled hand it follows and doubles along with (``10.00``, or
    ``10.00 on hand 2``), from the engine's stakes."""

    if not b.get("double_along"):
        return []
    split = len(seat.hands) > 1
    followed = seat.hands if (b.get("follow_split", "both") == "both" or not split) else seat.hands[:1]
    main = Decimal(str(b.get("wagers", {}).get("main", "0")))
    return [fmt(stake(main, True)) + (f" on hand {i + 1}" if split else "")
            for i, h in enumerate(followed) if h.doubled]  # fmt: skip


def _behind_insurance(seat: Any, j: int) -> Decimal | None:
    """The insurance the ``j``-th bettor behind a seat took, if any (the engine's stakes)."""
    taken = getattr(seat, "behind_insurance", None) or []
    return taken[j] if j < len(taken) else None


def _take(pool: list[dict[str, Any]], code: str, prefer: str) -> dict[str, Any] | None:
    for c in pool:
        if c["code"] == code and c["to"] == prefer:
            pool.remove(c)
            return c
    for c in pool:
        if c["code"] == code:
            pool.remove(c)
            return c
    return None


def table_view(
    game: str, state: Any, setup: dict[str, Any], cards: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The dealer's hand and each seat's hands (split hands in playing order) with their totals.

    Also marks each card JSON in place: ``hand`` (the hand it belongs to now, e.g. ``seat:3/hand:1``),
    ``face_up`` (False for the blackjack hole card until the dealer plays) and ``hole``.
    """
    for c in cards:
        c.setdefault("face_up", True)  # the stored-prompt judgement of the hole card stands without a state
    if state is None:
        return None
    if game in BLACKJACK:
        return _blackjack_view(state, setup, cards)
    if game == "finnish-27":
        return _finnish_view(state, setup, cards)
    if game == "bluffjack":
        return _bluffjack_view(state, setup, cards)
    return None


def _bluffjack_view(state: Any, setup: dict[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A pot game: no dealer's hand; the pot, and per seat the player's stack as it stands now (chips
    leave it as they go in), what they put in this hand, whose turn it is, and the cards: each player's
    first card is dealt face down (the rules) and stays a card back, counted as private, until the
    showdown.  Seats in seat order; ``dealer`` is None (the tablet draws no dealer box)."""
    shown = state.phase in ("showdown", "over", "ready")  # "ready": the hand is settled
    mine: dict[str, list[dict[str, Any]]] = {}
    for c in cards:
        to = str(c.get("to", ""))
        if to.startswith("player:"):
            mine.setdefault(to.split(":", 1)[1], []).append(c)
    seat_of = getattr(state, "seat_of", {}) or {}
    seats = []
    for i, p in enumerate(state.players):
        own = mine.get(p.name, [])
        private = 0
        for j, c in enumerate(own):
            c["hand"] = f"player:{p.name}"
            if j == 0 and (not shown or p.folded):  # a folded hand is mucked unseen
                c["face_up"] = False
                c["private"] = True
                private += 1
        marks = []
        if i == state.button:
            marks.append("deals")
        if p.eliminated:
            marks.append("out of the game")
        elif p.folded:
            marks.append("folded")
        elif p.in_hand and p.stack == 0:
            marks.append("all-in")
        elif p.stood:
            marks.append("stood")
        seat = seat_of.get(p.name)
        label = f"Seat {seat}" if seat is not None else p.name
        if seat is not None and p.name.lower() != f"seat {seat}":
            label += f" · {p.name}"
        seats.append({
            "seat": seat, "label": label, "player": p.name, "stack": p.stack, "in_pot": p.committed,
            "private": private, "marks": marks, "turn": state.turn == i and state.phase not in ("showdown", "over"),
            "hands": [{"key": f"player:{p.name}", "label": "", "cards": [c["seq"] for c in own], "total": "",
                       "doubled": False, "surrendered": False, "done": p.folded or p.stood}],
            "behind": [],
        })  # fmt: skip
    return {"kind": "pot", "dealer": None, "pot": state.pot, "seats": seats}


def _blackjack_view(state: Any, setup: dict[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any]:
    from tables.engine.blackjack.hands import describe_total

    dealer_cards = [c for c in cards if c["to"] == "dealer"]
    hole_hidden = state.phase in ("deal", "offers", "play")
    for i, c in enumerate(dealer_cards):
        c["hand"] = "dealer"
        if i == 1:
            c["hole"] = True
            c["face_up"] = not hole_hidden
    if hole_hidden or len(state.dealer) < 2:
        total = f"shows {rank_words(state.dealer[0].code)}" if state.dealer else ""
    else:
        total = describe_total(state.dealer)
    view: dict[str, Any] = {
        "dealer": {"label": "Dealer", "cards": [c["seq"] for c in dealer_cards], "total": total,
                   "hole_face_down": bool(hole_hidden and len(dealer_cards) > 1)},
        "seats": [],
    }  # fmt: skip
    setups = {s["seat"]: s for s in setup.get("seats", [])}
    for seat in state.seats:
        n = seat.number
        pool = [c for c in cards if c["to"] == f"seat:{n}" or c["to"].startswith(f"seat:{n}/hand:")]
        split = len(seat.hands) > 1
        hands = []
        for i, h in enumerate(seat.hands):
            key = f"seat:{n}/hand:{i}" if split else f"seat:{n}"
            seqs = []
            for card in h.cards:
                taken = _take(pool, card.code, key)
                if taken is not None:
                    taken["hand"] = key
                    seqs.append(taken["seq"])
            hands.append({
                "hand": i, "key": key, "label": f"Hand {i + 1}" if split else "",
                "cards": seqs, "total": describe_total(h.cards, after_split=split) if h.cards else "",
                "doubled": h.doubled, "surrendered": h.surrendered, "done": h.done,
                "stake": fmt(stake(seat.bet.main, h.doubled)),
            })  # fmt: skip
        for c in pool:  # a card the hands do not hold (should not happen): still shown under the seat
            c["hand"] = f"seat:{n}"
        s = setups.get(n, {})
        view["seats"].append({
            "seat": n, "label": f"Seat {n}", "hands": hands, "split": split,
            "insurance": str(seat.insurance) if seat.insurance is not None else None,
            "bets": _seat_bets_words(seat, s.get("wagers", {})),
            "behind": [_behind_words(b, _behind_doubled(seat, b), _behind_insurance(seat, j))
                       for j, b in enumerate(s.get("behind", []))],
        })  # fmt: skip
    return view


def _finnish_view(state: Any, setup: dict[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any]:
    from tables.engine.finnish27.values import describe

    seats = setup.get("seats") or [{"seat": 1}]
    n = seats[0]["seat"]
    for c in cards:
        c["hand"] = "dealer" if c["to"] == "dealer" else f"seat:{n}"
    return {
        "dealer": {"label": "Dealer", "cards": [c["seq"] for c in cards if c["to"] == "dealer"],
                   "total": describe(state.dealer) if state.dealer else "", "hole_face_down": False},
        "seats": [{"seat": n, "label": f"Seat {n}", "split": False, "insurance": None, "behind": [],
                   "hands": [{"hand": 0, "key": f"seat:{n}", "label": "", "cards": [c["seq"] for c in cards if c["to"] != "dealer"],
                              "total": describe(state.player) if state.player else "", "doubled": False,
                              "surrendered": False, "done": False}]}],
    }  # fmt: skip
