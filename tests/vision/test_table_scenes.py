"""Table scenes: generated felt with cards, overlapping hands, chips and printed markings."""

from collections import Counter

import cv2
import numpy as np
import pytest

from vision import recognize
from vision.config import DEFAULT_CONFIG
from vision.features import glyph_features
from vision.index_reader import RANKS, SUITS, read_corner
from vision.model import load_model
from vision.scene import _merge
from vision.tools.synth import random_style, render_card, table_image


def _scores(seed: int, scenes: int, height: int = 720) -> tuple[int, int, int, int]:
    """(cards found and read right, cards wrongly named, cards missed, wrong names with confidence >= 0.9)."""
    rng = np.random.default_rng(seed)
    tp = fp = fn = sure_wrong = 0
    for _ in range(scenes):
        img, label = table_image(rng, width=height * 16 // 9, height=height)
        cards = recognize(img)
        got = Counter(c["code"] for c in cards if c["code"] != "unknown")
        want = Counter(label["codes"])
        hit = sum((got & want).values())
        tp, fp, fn = tp + hit, fp + sum(got.values()) - hit, fn + sum(want.values()) - hit
        sure = Counter(c["code"] for c in cards if c["code"] != "unknown" and c["confidence"] >= 0.9)
        sure_wrong += sum((sure - want).values())
    return tp, fp, fn, sure_wrong


def test_cards_of_overlapping_hands_are_found_by_their_indices():
    # 12 generated scenes, 69 cards, most in hands where a lower card shows only its index corner.
    # Measured: recall 90 %, precision 90 % (the 98 % / 99 % are not reached yet).
    tp, fp, fn, sure_wrong = _scores(seed=8, scenes=12)
    assert tp / (tp + fn) >= 0.85
    assert tp / (tp + fp) >= 0.85
    assert sure_wrong <= 1  # a confident wrong card is the failure that matters most


def test_a_larger_picture_of_the_table_is_read_as_well():
    # 1920 x 1080, the cards half as large again (as a finer camera sees them): read at full resolution.
    # Over 40 such scenes (seed 21) recall was 91.8 % and precision 97.2 %, against 85.1 % / 93.5 % for
    # the same seed at 1280 x 720; made smaller to 1280 first, they read worse (86 % / 97 % with the
    # previous classifier, which read them at 92.5 % / 98.8 % at full size).
    tp, fp, fn, sure_wrong = _scores(seed=5, scenes=8, height=1080)  # measured 57 right, 3 wrong, 5 missed
    assert tp / (tp + fn) >= 0.85
    assert tp / (tp + fp) >= 0.9
    assert sure_wrong == 0


def test_reads_of_one_card_merge_but_two_cards_of_a_hand_stay_two():
    card = [[100.0, 100.0], [172.0, 100.0], [172.0, 200.0], [100.0, 200.0]]
    turned = [card[2], card[3], card[0], card[1]]  # the same card laid out from its other index
    below = [[x + 8.0, y + 18.0] for x, y in card]  # the next card of a hand, turned the same way
    same = _merge([{"code": "7C", "confidence": 0.9, "corners": card},
                   {"code": "7S", "confidence": 0.8, "corners": turned}], card_h=100)
    assert [c["code"] for c in same] == ["7C"]
    hand = _merge([{"code": "7C", "confidence": 0.9, "corners": card},
                   {"code": "4D", "confidence": 0.8, "corners": below}], card_h=100)
    assert sorted(c["code"] for c in hand) == ["4D", "7C"]
    # One top-left corner read twice ("10" as TD, and its "1" as a Finnish ace): a card lying over
    # another this near would hide the lower card's index, so it is one card, the surer read kept.
    again = [[x + 3.0, y - 4.0] for x, y in card]
    twice = _merge([{"code": "AD", "confidence": 0.86, "corners": again},
                    {"code": "TD", "confidence": 0.88, "corners": card}], card_h=100)
    assert [c["code"] for c in twice] == ["TD"]


def _corner(code: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    face, _ = render_card(code, random_style(rng, finnish=False), rng)
    card = cv2.resize(face, (DEFAULT_CONFIG.card_width, DEFAULT_CONFIG.card_height), interpolation=cv2.INTER_AREA)
    return card[: int(DEFAULT_CONFIG.corner_h * card.shape[0]), : int(DEFAULT_CONFIG.corner_w * card.shape[1])].copy()


def _glyph_centres(corner: np.ndarray) -> list[tuple[float, float]]:
    grey = corner.min(axis=2)
    _, ink = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, _, stats, cents = cv2.connectedComponentsWithStats(ink.astype(np.uint8))
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_HEIGHT] >= 0.05 * corner.shape[0]]
    return sorted((float(cents[i][0]), float(cents[i][1])) for i in big)


def _ink(corner: np.ndarray, mask: np.ndarray, y: int, x: int, colour: tuple[int, int, int]) -> None:
    """Print ``mask`` (0-255, its value the ink's cover) on ``corner`` at (x, y) in ``colour`` (BGR)."""
    a = (mask.astype(np.float32) / 255)[:, :, None]
    h, w = mask.shape
    corner[y : y + h, x : x + w] = (corner[y : y + h, x : x + w] * (1 - a) + np.array(colour) * a).astype(np.uint8)


def _code_of(read) -> str:  # type: ignore[no-untyped-def]
    """The code a corner read names most surely."""
    i = np.unravel_index(int(np.argmax(read.probs)), read.probs.shape)
    return RANKS[i[0]] + SUITS[i[1]]


def _photo(canvas: np.ndarray, blur: float) -> np.ndarray:
    """A generated felt with its cards, as the camera's slight blur gives it."""
    return cv2.GaussianBlur(np.clip(canvas, 0, 255).astype(np.uint8), (0, 0), blur)


def _named(img: np.ndarray) -> Counter:
    """The codes ``recognize`` names in ``img`` (unknowns left out)."""
    return Counter(c["code"] for c in recognize(img) if c["code"] != "unknown")


def test_a_ten_found_by_either_digit_reads_as_ten():
    model = load_model()
    corner = _corner("TH", seed=3)
    digits = sorted(_glyph_centres(corner), key=lambda c: c[1])[:2]  # the two glyphs of "10", side by side
    for at in digits:
        read = read_corner(corner, model, DEFAULT_CONFIG, rank_at=at)
        assert read.probs is not None
        assert RANKS[int(np.argmax(read.probs.sum(axis=1)))] == "T"


def test_an_index_seen_a_quarter_turn_off_is_not_taken_for_a_rank():
    model = load_model()
    for code, seed in (("7S", 1), ("QD", 2), ("4C", 5)):
        corner = _corner(code, seed)
        top = min(_glyph_centres(corner), key=lambda c: c[1])
        upright = read_corner(corner, model, DEFAULT_CONFIG, rank_at=top)
        assert upright.score >= DEFAULT_CONFIG.index_rank_score
        turned = np.ascontiguousarray(np.rot90(corner))  # the glyphs lie on their side
        h = turned.shape[0]
        sideways = read_corner(turned, model, DEFAULT_CONFIG, rank_at=(top[1], h - 1 - top[0]))
        assert sideways.probs is None or sideways.score < DEFAULT_CONFIG.index_rank_score


def test_a_card_joined_to_a_light_table_marking_is_still_read():
    # A beige printed line from the felt's edge up to the card: the card's white region then runs
    # out along it; trimmed off, the card reads as without it.
    same = 0
    for seed in range(100, 106):
        img, label = table_image(np.random.default_rng(seed), n_cards=1)
        before = sorted(c["code"] for c in recognize(img) if c["code"] != "unknown")
        quad = np.array(label["cards"][0]["corners"], np.int32)
        y = int(quad[:, 1].mean())
        cv2.line(img, (0, y), (int(quad[:, 0].min()) + 3, y), (170, 200, 215), 6)
        same += sorted(c["code"] for c in recognize(img) if c["code"] != "unknown") == before
    assert same >= 5


def test_two_pips_are_one_shape_twice_and_a_rank_over_its_suit_is_not():
    from vision.index_reader import _same_shape
    from vision.tools.glyphs import drawn_suit, font_files, text_mask

    rng = np.random.default_rng(0)
    spade = drawn_suit("S", 64, rng)
    other_spade = cv2.resize(spade, (spade.shape[1] * 3 // 4, spade.shape[0] * 3 // 4))  # smaller, same shape
    spade_f = glyph_features(spade)
    assert _same_shape(spade_f, glyph_features(other_spade)) > DEFAULT_CONFIG.index_same_shape
    font = font_files()[0]
    for rank in ("A", "4", "7", "10", "Q"):
        assert _same_shape(glyph_features(text_mask(rank, font, 64)), spade_f) < DEFAULT_CONFIG.index_same_shape


def test_a_long_row_of_touching_cards_is_a_scene_not_a_shoe_scan():
    # Nine cards spread in a row cover over 12 % of the picture in one white region; that region is
    # no card's shape, so it is a table scene and its cards are read one by one.
    from vision.tools.synth import _background, _warp_card, card_quad

    rng = np.random.default_rng(3)
    style = random_style(rng, finnish=False)
    canvas = _background(720, 1280, rng, felt=True)
    codes = ["2S", "5H", "7C", "9D", "JS", "QH", "KC", "3D", "8S"]
    for i, code in enumerate(codes):
        face, alpha = render_card(code, style, rng)
        _warp_card(face, alpha, canvas, card_quad(330 + 62 * i, 360, 200, 0.0, 0.0, rng))
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    mask = cv2.inRange(img, (200, 200, 200), (255, 255, 255))
    assert cv2.countNonZero(mask) > 0.12 * 720 * 1280
    got = Counter(c["code"] for c in recognize(img))
    assert sum((got & Counter(codes)).values()) >= 7


def test_plainly_red_ink_is_read_red_whatever_its_suit_glyph_looks_like():
    # A red index whose suit glyph came out club-shaped (a blot, a fragment): the colour, plain at
    # any size, wins over the glyph's shape.
    model = load_model()
    for seed in (1, 2, 3):
        corner = _corner("7C", seed)
        ink = corner.min(axis=2) < 128
        corner[ink] = (40, 30, 200)  # BGR red
        read = read_corner(corner, model, DEFAULT_CONFIG)
        assert read.probs is not None
        suits = read.probs.sum(axis=0)  # S H D C
        assert suits[1] + suits[2] > suits[0] + suits[3]


def test_a_card_laid_out_from_an_index_must_lie_on_the_white_of_the_cards():
    from vision.scene import _on_white

    region = np.zeros((300, 300), np.uint8)
    cv2.rectangle(region, (50, 50), (149, 189), 1, cv2.FILLED)  # one card, 100 x 140
    card = np.array([[50, 50], [150, 50], [150, 190], [50, 190]], np.float32)
    assert _on_white(card[None], region, (0, 0), (300, 300))[0] == 1.0
    # Laid out from a pip halfway down the card: most of it would lie on the felt.
    assert _on_white(card[None] + [50, 70], region, (0, 0), (300, 300))[0] < 0.5
    # A card running out of the picture is not held against it.
    region[:, :60] = 1  # the white runs on to the picture's left edge
    assert _on_white(card[None] - [100, 0], region, (0, 0), (300, 300))[0] == 1.0


def test_the_card_size_is_read_off_a_hands_outline_when_no_card_lies_alone():
    from vision.scene import _card_height

    def hand(x: int, y: int, angle: float) -> np.ndarray:
        mask = np.zeros((720, 1280), np.uint8)
        for k in range(3):  # three cards of 160 x 115, each laid 30 px right and 22 px down of the last
            box = ((x + 30 * k, y + 22 * k), (115, 160), angle)
            cv2.fillPoly(mask, [cv2.boxPoints(box).astype(np.int32)], 255)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        return contours[0]

    regions = [hand(300, 300, 0.0), hand(800, 400, 20.0)]
    assert abs(_card_height(regions, 720) - 160) <= 8  # not the default of a fifth of the picture (144)


def test_finnish_two_digit_ranks_are_not_read_as_aces():
    # Finnish indices print ten, Jack, Queen and King as 10, 11, 12 and 13; the second digit alone is
    # a "1" (the Finnish ace) or a "0", and must not be taken for a rank of its own.  Hands of two,
    # the two-digit card on top, turned up to 60 degrees.  (Before the fix: 3 false aces.)
    from vision.tools.synth import _background, _warp_card, card_quad

    extra_aces = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        style = random_style(rng, finnish=True)
        canvas = _background(720, 1280, rng, felt=True)
        codes = []
        for i, (low, top) in enumerate([("5C", "JS"), ("7D", "QD"), ("2S", "KC"), ("9H", "TH")]):
            a = np.radians(rng.uniform(-60, 60))
            for k, code in enumerate((low, top)):
                face, alpha = render_card(code, style, rng)
                off = k * np.array([35 * np.cos(a) - 28 * np.sin(a), 35 * np.sin(a) + 28 * np.cos(a)])
                _warp_card(face, alpha, canvas, card_quad(220 + 280 * i + off[0], 360 + off[1], 150, np.degrees(a), 0.0, rng))
                codes.append(code)
        got = _named(_photo(canvas, 0.8))
        extra_aces += sum(n for code, n in (got - Counter(codes)).items() if code[0] == "A")
    assert extra_aces <= 1


def _pale_rank_over_dark_suit(rank: str, suit: str, font: str, rng: np.random.Generator) -> np.ndarray:
    """An index corner: a pale grey rank run into a dark red suit drawn just below it, blurred."""
    from vision.tools.glyphs import drawn_suit, text_mask

    corner = np.full((96, 54, 3), 235, np.uint8)
    rm, sm = text_mask(rank, font, 26), drawn_suit(suit, 18, rng)
    (rh, rw), sw = rm.shape, sm.shape[1]
    _ink(corner, 0.45 * rm.astype(np.float32), 6, 8, (0, 0, 0))  # pale: ink covering under half
    _ink(corner, sm, 6 + rh - 2, 8 + rw // 2 - sw // 2, (30, 30, 200))
    return cv2.GaussianBlur(corner, (0, 0), 1.0)


def test_a_pale_rank_run_into_its_dark_suit_is_parted_from_it():
    from vision.tools.glyphs import font_files

    fonts = font_files()
    rng = np.random.default_rng(0)
    model = load_model()
    right = 0
    for i, code in enumerate(["7H", "8D", "5H", "9D", "3H", "6D"]):
        corner = _pale_rank_over_dark_suit(code[0], code[1], fonts[i * 7 % len(fonts)], rng)
        read = read_corner(corner, model, DEFAULT_CONFIG)
        if read.probs is not None:
            right += _code_of(read) == code
    assert right >= 4


def test_a_joker_without_an_index_on_top_of_a_hand_is_found():
    # Nothing in its corners says where it is; it is the card-sized part of the hand that no read
    # index accounts for, and its corners are blank.
    from dataclasses import replace

    from vision.tools.synth import _background, _warp_card, card_quad

    found = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        style = replace(random_style(rng, finnish=False), joker_text=False)
        canvas = _background(720, 1280, rng, felt=True)
        a = np.radians(rng.uniform(-40, 40))
        for k, code in enumerate(("5C", "9D", "JK")):
            face, alpha = render_card(code, style, rng)
            off = k * np.array([40 * np.cos(a) - 30 * np.sin(a), 40 * np.sin(a) + 30 * np.cos(a)])
            _warp_card(face, alpha, canvas, card_quad(600 + off[0], 330 + off[1], 170, np.degrees(a), 0.0, rng))
        found += "JK" in {c["code"] for c in recognize(_photo(canvas, 0.7))}
    assert found >= 2  # measured: 2 of 4 (none before)


def _hand_and_joker_apart(seed: int, *, word: bool, joined: bool) -> tuple[np.ndarray, Counter]:
    """A hand of three (5♣ 9♦ Q♥) and a Joker lying apart from it, turned its own way: ``word``,
    "JOKER" down its corners (else no index); ``joined``, a pale table line runs from the hand to the
    Joker, so that both are one card-white region.  The picture and the codes in it."""
    from dataclasses import replace

    from vision.tools.synth import _background, _warp_card, card_quad

    rng = np.random.default_rng(seed)
    style = replace(random_style(rng, finnish=False), joker_text=word)
    canvas = _background(720, 1280, rng, felt=True)
    angle, height = float(rng.uniform(-40, 40)), float(rng.uniform(110, 170))
    a = np.radians(angle)
    codes = ["5C", "9D", "QH"]
    for k, code in enumerate(codes):
        face, alpha = render_card(code, style, rng)
        off = k * 0.32 * height * np.array([np.cos(a) - 0.2 * np.sin(a), np.sin(a) + 0.2 * np.cos(a)])
        _warp_card(face, alpha, canvas, card_quad(350 + off[0], 360 + off[1], height, angle, 0.0, rng))
    face, alpha = render_card("JK", style, rng)
    _warp_card(face, alpha, canvas, card_quad(850, 380, height, float(rng.uniform(0, 360)), 0.0, rng))
    if joined:
        cv2.line(canvas, (350, 360), (850, 380), (236, 236, 236), 3, cv2.LINE_AA)
    return _photo(canvas, 0.7), Counter([*codes, "JK"])


def test_a_joker_without_an_index_apart_from_a_hand_it_is_joined_to_by_a_table_line_is_found():
    # The strip no index accounts for is the Joker by itself, turned its own way (not the hand's): a
    # strip of a card's size and shape, nearly filling its least rectangle, is a card.  A lone figure
    # in its middle is the Joker's art, not an ace's pip.
    found = false = 0
    for seed in range(8):
        img, want = _hand_and_joker_apart(seed, word=False, joined=True)
        got = _named(img)
        found += got["JK"] >= 1
        false += sum((got - want).values())
    assert found >= 4  # measured: 5 of 8 (none before)
    assert false == 0  # measured: none (an ace of clubs counted from the Joker's star, before that was kept)


def test_a_joker_alone_whose_word_the_perceptron_does_not_read_is_named_by_the_cnn():
    # The perceptron reads nothing in its corners, or takes the word's "J" for a Jack's, unsurely; the
    # corner CNN finds both corners a Joker's.
    found = false = 0
    for seed in range(12, 30):
        img, want = _hand_and_joker_apart(seed, word=True, joined=False)
        got = _named(img)
        found += got["JK"] >= 1
        false += sum((got - want).values())
    assert found >= 12  # measured: 13 of 18 (9 before)
    assert false <= 2  # measured: 1 (1 before)


def test_a_scene_joker_whose_art_counts_as_one_pip_stays_a_joker(monkeypatch):
    from vision import read
    from vision.pips import PipCount

    monkeypatch.setattr(read, "pip_count", lambda *a: PipCount("A", np.array([0.1, 0.0, 0.0, 0.9])))
    joker = {"code": "JK", "confidence": 0.72, "corners": [[0, 0], [63, 0], [63, 88], [0, 88]]}
    quad = np.array(joker["corners"], np.float32)
    img = np.full((100, 80, 3), 255, np.uint8)
    assert read.counted(joker, img, quad, load_model(), DEFAULT_CONFIG, scene=True) == joker
    # An unknown read whose face shows one pip is still named by it (an ace whose index was read unsurely;
    # the index's suit kept, of the pip's colour).
    unknown = {**joker, "code": "unknown", "confidence": 0.4, "guesses": [{"code": "AS", "confidence": 0.4}]}
    assert read.counted(unknown, img, quad, load_model(), DEFAULT_CONFIG, scene=True)["code"] == "AS"


def test_no_glyph_where_the_rank_was_seen_reads_nothing():
    # A hypothesis says where its rank glyph is; a cut that lost that glyph must not read the
    # nearest glyph instead (the suit, a pip of the art, another card's index).
    model = load_model()
    for code, seed in (("7S", 1), ("KH", 4), ("4C", 5)):
        corner = _corner(code, seed)
        rank = min(_glyph_centres(corner), key=lambda c: c[1])
        read = read_corner(corner, model, DEFAULT_CONFIG, rank_at=rank)
        assert read.probs is not None and RANKS[int(np.argmax(read.probs.sum(axis=1)))] == code[0]
        beside = (rank[0] + 0.45 * corner.shape[1], rank[1])  # blank paper right of the index
        assert read_corner(corner, model, DEFAULT_CONFIG, rank_at=beside).probs is None


def test_a_rank_otsus_cut_showed_for_a_pip_is_not_read_from_the_darker_cut(monkeypatch):
    from vision import index_reader

    sure = np.zeros((13, 4))
    sure[0, 2] = 0.98  # "AD", as a half-hidden heart pip once read in the darker cut
    reads = {"otsu": index_reader.CornerRead(sure, ink=True, score=0.0),  # two pips alike: vetoed
             "light": index_reader.CornerRead(None, ink=True),
             "dark": index_reader.CornerRead(sure, ink=True, score=0.92)}
    monkeypatch.setattr(index_reader, "_read_corner", lambda *a, cut, **k: reads[cut])
    corner = np.full((96, 54, 3), 255, np.uint8)
    read = index_reader.read_corner(corner, load_model(), DEFAULT_CONFIG, rank_at=(10.0, 12.0))
    assert index_reader._strength(read) < 0.5
    # Without a place for the rank (a whole card's corner), the darker cut still reads.
    assert index_reader._strength(index_reader.read_corner(corner, load_model(), DEFAULT_CONFIG)) > 0.9


def test_a_joker_column_parted_only_by_the_darker_cut_wins_over_unsure_rank_reads(monkeypatch):
    # A blurred "JOKER" runs together in Otsu's and the lighter cut, which then read some rank
    # unsurely; the darker cut parts the letters: the corner is a Joker's.
    from vision import index_reader

    unsure = np.zeros((13, 4))
    unsure[11, 0] = 0.58  # "QS" off the run-together letters
    reads = {"otsu": index_reader.CornerRead(unsure, ink=True, score=0.87),
             "light": index_reader.CornerRead(unsure * 0.6, ink=True, score=0.87),
             "dark": index_reader.CornerRead(None, joker_text=True, ink=True)}  # fmt: skip
    monkeypatch.setattr(index_reader, "_read_corner", lambda *a, cut, **k: reads[cut])
    corner = np.full((96, 54, 3), 255, np.uint8)
    assert index_reader.read_corner(corner, load_model(), DEFAULT_CONFIG, rank_at=(10.0, 12.0)).joker_text
    assert index_reader.read_corner(corner, load_model(), DEFAULT_CONFIG).joker_text


def test_small_cards_lying_alone_are_found():
    # Cards 90 px tall in 1280 x 720 (the scenes span 85-210 px) each cover under 1% of the
    # picture: less than a shoe scan's card, and still a scene's cards.
    from vision.tools.synth import _background, _warp_card, card_quad

    found = total = 0
    for seed in range(4):
        rng = np.random.default_rng(40 + seed)
        style = random_style(rng, finnish=False)
        canvas = _background(720, 1280, rng, felt=True)
        codes = []
        for i, code in enumerate(("7C", "QH", "2S", "9D")):
            face, alpha = render_card(code, style, rng)
            _warp_card(face, alpha, canvas, card_quad(200 + 280 * i, 360, 90, rng.uniform(-30, 30), 0.0, rng))
            codes.append(code)
        found += sum((_named(_photo(canvas, 0.5)) & Counter(codes)).values())
        total += len(codes)
    assert found >= 0.75 * total, (found, total)


def test_a_broken_line_or_a_chip_under_an_index_is_no_joker_column():
    from vision.tools.glyphs import drawn_suit, font_files, text_mask

    model = load_model()
    # The dashes of a court card's thin frame, broken by blur and noise, run down the corner.
    dashes = np.full((96, 54, 3), 235, np.uint8)
    for y in range(8, 90, 11):
        cv2.rectangle(dashes, (14, y), (16, y + 7), (60, 60, 60), -1)
    read = read_corner(cv2.GaussianBlur(dashes, (0, 0), 0.6), model, DEFAULT_CONFIG)
    assert not read.joker_text
    # A "2" over its heart, and under them the white notches of a chip cut its rim into pieces.
    index = np.full((96, 54, 3), 235, np.uint8)
    rng = np.random.default_rng(0)
    _ink(index, text_mask("2", font_files()[0], 20), 6, 10, (30, 30, 200))
    _ink(index, drawn_suit("H", 14, rng), 30, 10, (30, 30, 200))
    for y in (50, 66, 82):
        cv2.ellipse(index, (16, y + 6), (8, 6), 0, 0, 360, (170, 60, 30), -1)
    read = read_corner(cv2.GaussianBlur(index, (0, 0), 0.6), model, DEFAULT_CONFIG)
    assert not read.joker_text and read.probs is not None
    assert _code_of(read) == "2H"


def test_small_cards_in_hands_only_are_read_at_a_card_size_that_fits_them():
    # Two hands of four cards 90 px tall and nothing else: no region holds one card, no top card
    # shows a whole long and short edge (the hands run along the cards' short side), so no outline
    # gives the card size.  Read at a fifth of the picture (144 px) they were all lost.
    import math

    from vision.cards import card_mask
    from vision.scene import _card_height
    from vision.tools.synth import _background, _warp_card, card_quad

    found = total = 0
    for seed in range(3):
        rng = np.random.default_rng(70 + seed)
        style = random_style(rng, finnish=False)
        canvas = _background(720, 1280, rng, felt=True)
        codes = []
        for cx, angle in ((350, 90.0), (850, 0.0)):
            a = math.radians(angle)
            for k, code in enumerate(rng.choice(["2D", "4H", "6C", "9H", "QD", "KS", "7S", "3C"], 4, replace=False)):
                off = k * 90 * 0.32
                quad = card_quad(cx + off * math.sin(a), 300 + off * math.cos(a), 90, angle, 0.0, rng)
                face, alpha = render_card(str(code), style, rng)
                _warp_card(face, alpha, canvas, quad)
                codes.append(str(code))
        img = _photo(canvas, 0.5)
        contours, _ = cv2.findContours(card_mask(img), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        assert _card_height([c for c in contours if cv2.contourArea(c) >= 1800], 720) is None
        found += sum((_named(img) & Counter(codes)).values())
        total += len(codes)
    assert found >= 0.6 * total, (found, total)


def test_felt_left_in_a_rounded_corner_is_not_taken_for_the_rank():
    # The quad is the card's sharp rectangle: a round corner leaves a speck of felt at the crop's
    # top left, nearer the corner than the rank.
    model = load_model()
    for code, seed in (("7S", 1), ("KH", 4), ("4C", 5)):
        corner = _corner(code, seed)
        corner[3:8, 3:8] = (40, 90, 30)  # the felt, parted from the crop's edge by its trimmed sliver
        read = read_corner(corner, model, DEFAULT_CONFIG)
        assert read.probs is not None and _code_of(read) == code


def test_a_card_read_twice_in_one_place_is_reported_once_and_two_alike_in_a_hand_stay_two():
    # A 5 of hearts read from both its indices, one outline laid out a little large and turned, was
    # reported twice at 0.9 (hands spread as the development scenes' are).
    from vision.scene import _once

    def card(code, confidence, corners):
        return {"code": code, "confidence": confidence, "corners": corners}

    big = [[957.69, 200.95], [1123.48, 154.41], [1188.48, 385.99], [1022.7, 432.53]]
    right = [[1133.39, 342.27], [1007.52, 364.48], [976.49, 188.67], [1102.36, 166.46]]
    assert _once([card("5H", 0.9, big), card("5H", 0.9, right)]) == [card("5H", 0.9, right)]  # the tighter
    assert _once([card("5H", 0.95, big), card("5H", 0.9, right)]) == [card("5H", 0.95, big)]  # the surer
    assert len(_once([card("5H", 0.9, big), card("6H", 0.9, right)])) == 2  # two codes: two cards
    # Two cards of one code in a hand, the upper a quarter of a width right and a fifth of a height down.
    lower = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], np.float64)
    upper = lower + [0.25 * 63, 0.2 * 88]
    assert len(_once([card("8D", 0.9, lower.tolist()), card("8D", 0.9, upper.tolist())])) == 2


def test_a_top_card_read_at_both_its_indices_turned_half_round_is_reported_once():
    # Seed 84 of bench/scene_misses.py (Tinos Italic, large indices): the top K of spades of a hand read
    # at each of its indices, each outline laid out a fifth too long, 0.22 of a card apart: it was
    # reported twice, both asked.  The cards of a hand lie turned alike: turned half round from each
    # other in one place, the two are one card.
    from vision.scene import _once

    def card(code, confidence, corners):
        return {"code": code, "confidence": confidence, "corners": corners}

    from_top_left = [[1051, 504], [1036, 595], [909, 575], [923, 484]]
    from_bottom_right = [[927, 558], [943, 467], [1070, 490], [1054, 581]]
    assert _once([card("KS", 0.9, from_bottom_right), card("KS", 0.89, from_top_left)]) == [card("KS", 0.9, from_bottom_right)]
    assert len(_once([card("KS", 0.9, from_bottom_right), card("KD", 0.89, from_top_left)])) == 2  # two codes
    # Turned alike at the same place and spread, the two are two cards of a hand (a shoe of several decks).
    turned_alike = (np.asarray(from_top_left) + np.asarray(from_bottom_right)[0] - np.asarray(from_top_left)[0]).tolist()
    assert len(_once([card("KS", 0.9, turned_alike), card("KS", 0.89, from_top_left)])) == 2
    # Turned half round but 0.6 of a card apart: two cards.
    apart = (np.asarray(from_bottom_right) + [0, 80]).tolist()
    assert len(_once([card("KS", 0.9, apart), card("KS", 0.89, from_top_left)])) == 2


def test_two_cards_read_in_one_place_are_both_asked_and_a_hands_cards_are_not():
    # Seed 35 of bench/scene_sure_reads.py (DejaVu Serif, suit under the rank): a hand's indices in a column
    # read as a Joker's word at 0.93, on an outline lying over the 4 of hearts' read at 0.90.
    from vision.config import DEFAULT_CONFIG
    from vision.scene import _one_place_doubted

    def card(code, confidence, corners):
        return {"code": code, "confidence": confidence, "corners": np.asarray(corners, np.float64).tolist()}

    cap = DEFAULT_CONFIG.witness_cap
    four = card("4H", 0.9, [[740, 420], [832, 400], [858, 520], [766, 540]])
    joker = card("JK", 0.93, [[737, 428], [829, 405], [855, 525], [763, 548]])
    assert [c["confidence"] for c in _one_place_doubted([four, joker], DEFAULT_CONFIG)] == [cap, cap]
    # A hand at the development scenes' tightest spread (a fifth of a width right, an eighth of a height
    # down): two cards, each read as it was.
    lower = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], np.float64)
    upper = lower + [0.22 * 63, 0.12 * 88]
    hand = [card("8D", 0.95, lower), card("5C", 0.97, upper)]
    assert _one_place_doubted(hand, DEFAULT_CONFIG) == hand
    # A region not recognised is no conflict of codes.
    assert _one_place_doubted([four, {**joker, "code": "unknown"}], DEFAULT_CONFIG)[0]["confidence"] == 0.9
    # One code twice, overlapping (seed 53, Tinos Italic, large indices: the top 3 of clubs reported from
    # each of its indices at 0.90, 0.38 of a card apart): both asked; so too two alike side by side in a hand.
    club = card("3C", 0.9, [[520, 420], [592, 420], [592, 520], [520, 520]])
    ghost = card("3C", 0.9, [[540, 390], [612, 390], [612, 490], [540, 490]])
    assert [c["confidence"] for c in _one_place_doubted([club, ghost], DEFAULT_CONFIG)] == [cap, cap]
    # Two alike half a card apart or more are two cards, each read as it was.
    far = card("3C", 0.95, np.asarray(club["corners"]) + [0.7 * 72, 0.1 * 100])
    assert _one_place_doubted([club, far], DEFAULT_CONFIG) == [club, far]


def _one_corner_read(rank: str, suit: str, p: float):
    from vision.index_reader import CornerRead

    probs = np.full((13, 4), (1 - p) / 51)
    probs[RANKS.index(rank), SUITS.index(suit)] = p
    return CornerRead(probs, ink=True, score=1.0)


def test_a_sure_scene_card_the_cnn_reads_unsurely_at_its_index_is_asked():
    from dataclasses import replace

    from vision.read import _doubted

    card = {"code": "KH", "confidence": 0.9, "corners": [[0, 0], [1, 0], [1, 1], [0, 1]]}
    # the CNN's read of the top-left index: the same card surely, the same card hardly, another card hardly
    assert _doubted(card, _one_corner_read("K", "H", 0.98), DEFAULT_CONFIG) == card
    assert _doubted(card, _one_corner_read("K", "H", 0.45), DEFAULT_CONFIG)["confidence"] == DEFAULT_CONFIG.witness_cap
    assert _doubted(card, _one_corner_read("K", "C", 0.45), DEFAULT_CONFIG)["confidence"] == DEFAULT_CONFIG.witness_cap
    assert _doubted(card, _one_corner_read("K", "C", 0.45), replace(DEFAULT_CONFIG, witness_doubt=0.0)) == card
    unsure = {**card, "confidence": 0.7}
    assert _doubted(unsure, _one_corner_read("K", "C", 0.45), DEFAULT_CONFIG) == unsure


def _unseen_style(face: str, layout: str):
    """(design, style) of heldout's unseen-face deck ``face`` in the index ``layout``, as
    bench/scene_misses.py and bench/scene_sure_reads.py draw it; skipped where the face is not installed."""
    from vision.tools.heldout import deck, unseen_decks
    from vision.tools.synth import INDEX_LAYOUTS, design_style

    decks = [d for d in unseen_decks() if d[0] == face]
    if not decks:
        pytest.skip(f"{face} is not on this machine")
    _, font, number = decks[0]
    design, finnish = deck(number, INDEX_LAYOUTS.index(layout))
    return design, design_style(design, font, finnish=finnish, index=layout)


def test_a_jokers_word_read_as_a_king_from_its_k_is_not_sure():
    # Seed 69's one-corner scene of DejaVu Serif Condensed (bench/scene_sure_reads.py): a Joker's
    # "JOKER" laid out as an index at its "K", read K♥ at 0.9 by the perceptron; the CNN reads K♣ at
    # 0.37 there.  Session 29: asked, not sure.
    design, style = _unseen_style("DejaVuSerifCondensed", "one-corner")
    rng = np.random.default_rng([69, design, 99])
    table_image(rng, style=style)
    img, label = table_image(rng, style=style)
    assert "JK" in label["codes"] and "KH" not in label["codes"]
    cards = recognize(img)
    assert not [c for c in cards if c["code"] == "KH" and c["confidence"] >= 0.9]


def test_cards_measured_too_large_off_a_hands_outline_are_read_at_the_detectors_size_too():
    # Seed 84's one-corner scene of DejaVu Sans (bench/scene_misses.py): two hands fanned along the cards'
    # length show straight edges in a card's proportion over several cards, measured 221 px for cards
    # 161 px tall; the detector's peaks put them at 161.  Read at 221 px, the top cards' outlines laid
    # out from the cards' indices (the J♥, the 8♣) covered the indices of the cards above them: not found.
    from vision.cards import card_mask
    from vision.scene import _against_peaks, _card_height, _card_regions, _peaks_doubt, _Scene

    design, style = _unseen_style("DejaVuSans", "one-corner")
    img, label = table_image(np.random.default_rng([84, design, 99]), style=style, indices=True)
    assert sorted(label["codes"]) == sorted(["9D", "9S", "3H", "JH", "7D", "QC", "8C", "8H"])
    regions = _card_regions(card_mask(img))
    scene = _Scene(img, regions)
    measured = _against_peaks(_card_height(regions, img.shape[0]), scene, DEFAULT_CONFIG)
    assert measured is not None and measured > 1.3 * 161
    theirs = _peaks_doubt(measured, scene, DEFAULT_CONFIG)
    assert theirs is not None and abs(theirs - 161) < 10
    assert _peaks_doubt(0.7 * theirs, scene, DEFAULT_CONFIG) is None  # larger than measured: the measure stands
    assert _peaks_doubt(1.2 * theirs, scene, DEFAULT_CONFIG) is None  # near enough
    named = Counter(c["code"] for c in recognize(img) if c["code"] != "unknown")
    assert named == Counter(label["codes"])  # before: the J♥ and the 8♣ not found


def test_a_peak_beside_a_card_of_its_code_is_another_card_and_one_on_it_is_that_card():
    # Seed 82's large-index scene of P052 Italic (bench/scene_misses.py): two 6♥ side by side in a hand (a
    # shoe of several decks), the lower one's index showing 0.33 of a card left of the upper one's: its
    # peak, within a card's height of the upper 6♥, was taken for that card's own index laid out off.
    from vision.scene import _on_or_by

    upper = [[1071, 379], [1207, 379], [1206, 569], [1070, 568]]
    assert not _on_or_by((1015, 400), upper)  # the lower 6♥'s index, beside the upper card
    assert _on_or_by((1085, 398), upper)  # the upper card's own top-left index
    assert _on_or_by((1062, 390), upper)  # its index, the outline laid out a little off
    assert _on_or_by((1195, 550), upper)  # its bottom-right index


def test_a_card_alone_with_a_chip_bitten_out_of_its_edge_is_read_whole():
    # Seed 81's suit-beside scene of DejaVu Sans Mono Bold (bench/scene_misses.py): a Finnish 13♣ lying
    # alone, a chip over its left long edge and another at its right.  Its outline is no card's shape
    # (``_maybe_single``), and trimming the region to its card bodies cut the card apart at the chip: not
    # found, though read whole it names K♣ at 0.97.  Its convex hull is one card's shape and size.
    from vision.cards import card_mask
    from vision.scene import _bitten_single, _card_regions, _maybe_single

    design, style = _unseen_style("DejaVuSansMono-Bold", "beside")
    img, label = table_image(np.random.default_rng([81, design, 99]), style=style, indices=True)
    (king,) = [c for c in label["cards"] if c["code"] == "KC"]
    centre = tuple(float(v) for v in np.asarray(king["corners"]).mean(axis=0))
    # (the card's centre lies under the chip, off its region)
    (region,) = [r for r in _card_regions(card_mask(img)) if cv2.pointPolygonTest(r, centre, True) > -0.3 * king["height_px"]]
    assert not _maybe_single(region) and _bitten_single(region, king["height_px"])
    assert not _bitten_single(region, 1.4 * king["height_px"])  # not a card of the scene's size
    found = [c for c in recognize(img) if c["code"] == "KC"]
    assert len(found) == 1 and found[0]["confidence"] >= 0.9
    assert np.linalg.norm(np.asarray(found[0]["corners"]).mean(axis=0) - centre) < 0.2 * king["height_px"]


def test_a_hand_of_two_cards_is_no_card_with_a_bite_out_of_it():
    from vision.scene import _bitten_single

    canvas = np.zeros((400, 400), np.uint8)
    for dx in (0, 40):  # two cards of 140 x 100, the second a third of a card across from the first
        cv2.fillConvexPoly(canvas, np.array([[100 + dx, 100 + dx // 2], [200 + dx, 100 + dx // 2],
                                             [200 + dx, 240 + dx // 2], [100 + dx, 240 + dx // 2]], np.int32), 255)
    (hand,), _ = cv2.findContours(canvas, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert not _bitten_single(hand, 140.0)
    lone = np.zeros_like(canvas)
    cv2.fillConvexPoly(lone, np.array([[100, 100], [200, 100], [200, 240], [100, 240]], np.int32), 255)
    cv2.circle(lone, (110, 170), 26, 0, -1)  # a chip over its long edge
    (bitten,), _ = cv2.findContours(lone, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert _bitten_single(bitten, 140.0)


def test_a_joker_alone_whose_corner_crops_show_its_edge_is_found_by_the_perceptrons_blank_corners():
    # Seed 82's one-corner scene of DejaVu Serif (bench/scene_misses.py): a Joker printing no index lies
    # alone; the corner crops of its outline catch a sliver of its edge, which the corner CNN reads as
    # ink with no index ("none"), so the card was unknown (a Joker guessed at 0.43).  The perceptron,
    # the scene's witness, finds both corners blank paper: a Joker, asked (under 0.9).
    design, style = _unseen_style("DejaVuSerif", "one-corner")
    rng = np.random.default_rng([82, design, 99])
    img, label = table_image(rng, style=style, indices=True)
    (joker,) = [c for c in label["cards"] if c["code"] == "JK"]
    centre = np.asarray(joker["corners"]).mean(axis=0)
    found = [c for c in recognize(img) if np.linalg.norm(np.asarray(c["corners"]).mean(axis=0) - centre) < 0.3 * joker["height_px"]]
    assert [c["code"] for c in found] == ["JK"] and found[0]["confidence"] < 0.9


def test_a_hand_with_a_cards_outline_is_no_measure_of_the_card_size_where_three_indices_show_on_it():
    # Seed 84's one-corner scene of Tinos Italic (bench/scene_misses.py): three cards lying nearly one
    # over the other fill 0.93 of a rectangle 162 x 128 px, in a card's proportion (1.27), and were
    # taken for one card 162 px tall; the cards are 116-120 px.  Laid out at that size, the Finnish
    # aces on top of both hands ran off the cards' white and were not found.  The learned detector finds
    # three indices on that region: no card's outline.
    from vision.cards import card_mask
    from vision.scene import _card_height, _card_regions, _looks_single, _many_indices, _Scene

    design, style = _unseen_style("Tinos-Italic", "one-corner")
    rng = np.random.default_rng([84, design, 99])
    table_image(rng, style=style)
    img, label = table_image(rng, style=style, indices=True)
    assert sorted(label["codes"]) == ["2C", "6S", "7H", "AD", "AH"]
    regions = _card_regions(card_mask(img))
    peaks = _Scene(img, regions).peaks(DEFAULT_CONFIG)
    stacked = [r for r in regions if _looks_single(r)]
    assert len(stacked) == 1 and _many_indices(stacked[0], peaks)
    assert abs(_card_height(regions, 720) - 162) < 5  # without the peaks, as before
    measured = _card_height(regions, 720, peaks)
    assert measured is None or abs(measured - 119) < 10
    named = Counter(c["code"] for c in recognize(img) if c["code"] != "unknown")
    assert named == Counter(label["codes"])  # before: the A♥ and the A♦ not found
