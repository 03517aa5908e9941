"""The learned index detector of table scenes (``vision/detector.py``, behind
``RecognizerConfig.index_detector``): the shipped model loads with onnxruntime and finds the
visible indices of a scene we render, with the card's "down"; the switch validates; bad input is a
clear ValueError; shoe scans are read the same with it on or off.  The scenes are drawn with faces
none of the readers was trained on (DejaVu, italics) and seeds apart from ``heldout``'s."""

import math

import numpy as np
import pytest

from vision import recognize
from vision.config import RecognizerConfig
from vision.detector import MODEL_PATH, IndexDetector, load_detector, prepare
from vision.model import load_model
from vision.tools.synth import design_style, find_font, shoe_image, table_image


def _visible_indices(label: dict) -> list[dict]:
    return [ix for card in label["cards"] for ix in card["indices"] if ix["visible"]]


def test_a_scene_reports_where_every_card_index_is_and_whether_it_shows():
    style = design_style(7901, "Tinos-Italic", finnish=False, index="under")
    img, label = table_image(np.random.default_rng([930, 1]), style=style, indices=True)
    plain, plain_label = table_image(np.random.default_rng([930, 1]), style=style)
    assert np.array_equal(img, plain) and plain_label["codes"] == label["codes"]  # the same scene
    for card in label["cards"]:
        assert len(card["indices"]) == 2  # top left, and the copy turned half round bottom right
        q = np.array(card["corners"])
        assert card["height_px"] == pytest.approx(np.linalg.norm(q[3] - q[0]), rel=0.1)
        top, bottom = card["indices"]
        assert math.dist(top["centre"], q[0]) < 0.3 * card["height_px"]
        assert math.dist(bottom["centre"], q[2]) < 0.3 * card["height_px"]
        assert np.dot(top["down"], q[3] - q[0]) > 0 > np.dot(bottom["down"], q[3] - q[0])
    # In a hand each card lies over the one before it: the lower cards' bottom-right indices are covered.
    hands = [c for c in label["cards"] if not c["top_of_stack"]]
    assert all(not c["indices"][1]["visible"] for c in hands)


def test_the_shipped_detector_finds_the_visible_indices_of_a_scene_with_their_down():
    detector = load_detector(MODEL_PATH)
    found = total = 0
    for i, (font, layout) in enumerate([("DejaVuSans.ttf", "under"), ("Arimo-Italic", "small"),
                                        ("DejaVuSerif.ttf", "beside"), ("Carlito-BoldItalic", "large")]):  # fmt: skip
        style = design_style(7910 + i, find_font(font), finnish=False, index=layout)
        img, label = table_image(np.random.default_rng([931, i]), style=style, indices=True)
        peaks = detector.peaks(img)
        for ix in _visible_indices(label):
            total += 1
            near = [p for p in peaks if math.dist((p.x, p.y), ix["centre"]) <= 0.08 * 720]
            if near and max(float(np.dot(p.down, ix["down"])) for p in near) > math.cos(math.radians(20)):
                found += 1
        # Peaks far from any index, visible or not, are few.
        every = [ix["centre"] for card in label["cards"] for ix in card["indices"]]
        stray = [p for p in peaks if min(math.dist((p.x, p.y), c) for c in every) > 0.08 * 720]
        assert len(stray) <= 3
    assert total >= 20
    assert found >= 0.8 * total


def test_the_detector_reads_a_region_of_a_scene_as_it_reads_the_whole():
    style = design_style(7920, "DejaVuSans.ttf", finnish=False, index="under")
    img, label = table_image(np.random.default_rng([932, 0]), style=style, indices=True)
    detector = IndexDetector(MODEL_PATH)
    whole = detector.peaks(img)
    xs = np.array([c["corners"] for c in label["cards"]]).reshape(-1, 2)
    roi = (int(xs[:, 0].min()), int(xs[:, 1].min()), int(xs[:, 0].max()) + 1, int(xs[:, 1].max()) + 1)
    part = detector.peaks(img, roi=roi)
    sure = [p for p in whole if p.score >= 0.6]
    assert all(any(math.dist((p.x, p.y), (q.x, q.y)) < 4 for q in part) for p in sure)


def test_the_switch_takes_off_or_on_only(monkeypatch):
    assert RecognizerConfig(index_detector="on").index_detector == "on"
    with pytest.raises(ValueError, match="index_detector"):
        RecognizerConfig(index_detector="yes")
    with pytest.raises(ValueError, match="detector_peak"):
        RecognizerConfig(detector_peak=1.5)
    monkeypatch.delenv("VISION_INDEX_DETECTOR", raising=False)
    assert RecognizerConfig().index_detector == "on"  # the default since the scene screen
    monkeypatch.setenv("VISION_INDEX_DETECTOR", "off")
    assert RecognizerConfig().index_detector == "off"
    monkeypatch.setenv("VISION_INDEX_DETECTOR", "sometimes")
    with pytest.raises(ValueError, match="index_detector"):
        RecognizerConfig()


@pytest.mark.parametrize("bad", [np.zeros((40, 60), np.uint8), np.zeros((40, 60, 4), np.uint8),
                                 np.zeros((4, 4, 3), np.uint8), np.zeros((40, 60, 3), np.float32)])  # fmt: skip
def test_the_detector_refuses_what_is_no_bgr_picture(bad):
    with pytest.raises(ValueError, match="expected"):
        prepare(bad)


def test_shoe_scans_are_read_the_same_with_the_detector_on():
    style = design_style(7930, "DejaVuSans.ttf", finnish=False, index="small")
    rng = np.random.default_rng([933, 0])
    for code in ("7H", "TS", "QD"):
        img, _ = shoe_image(code, rng, style)
        assert recognize(img, RecognizerConfig(index_detector="on")) == recognize(img, RecognizerConfig(index_detector="off"))


def test_the_switch_of_the_cnn_at_the_detectors_peaks_takes_off_or_on_only(monkeypatch):
    with pytest.raises(ValueError, match="peak_reader"):
        RecognizerConfig(peak_reader="yes")
    with pytest.raises(ValueError, match="peak_read_min"):
        RecognizerConfig(peak_read_min=0.0)
    with pytest.raises(ValueError, match="peak_margin"):
        RecognizerConfig(peak_margin=-0.1)
    monkeypatch.delenv("VISION_PEAK_READER", raising=False)
    assert RecognizerConfig().peak_reader == "on"
    monkeypatch.setenv("VISION_PEAK_READER", "off")
    assert RecognizerConfig().peak_reader == "off"


def _scene_counts(cards: list[dict], codes: list[str]) -> tuple[int, int]:
    from collections import Counter

    want, got = Counter(codes), Counter(c["code"] for c in cards if c["code"] != "unknown")
    hit = sum((got & want).values())
    return hit, sum(got.values()) - hit


def _read_off_and_on(off: RecognizerConfig, on: RecognizerConfig, decks: list[tuple[str, str]], seed: int):
    """Two scenes of 10 cards of each (face, index layout) deck, each read with ``off`` and with ``on``:
    yields (cards off, cards on, the scene's codes)."""
    for i, (font, layout) in enumerate(decks):
        style = design_style(7940 + i, find_font(font), finnish=i % 2 == 1, index=layout)
        rng = np.random.default_rng([seed, i])
        for _ in range(2):
            img, label = table_image(rng, 10, style=style)
            yield recognize(img, off), recognize(img, on), label["codes"]


def _tally(hits: dict[str, int], false: dict[str, int], before: list[dict], after: list[dict], codes: list[str]) -> None:
    """Add a scene's right and false cards, read off and on, to ``hits`` and ``false``."""
    for name, cards in (("off", before), ("on", after)):
        h, f = _scene_counts(cards, codes)
        hits[name] += h
        false[name] += f


def test_the_cnn_at_the_detectors_peaks_names_cards_the_glyph_rules_missed_or_misread_and_only_unsure():
    # (A sure card it reads otherwise is made unsure: the witness's veto.)
    # Scenes of faces none of the readers was trained on, where the glyph rules and the perceptron
    # miss lower cards of hands (their indices small, the suit beside the rank, italic).
    off, on = RecognizerConfig(peak_reader="off"), RecognizerConfig(peak_reader="on")
    hits = {"off": 0, "on": 0}
    false = {"off": 0, "on": 0}
    decks = [("DejaVuSerif.ttf", "beside"), ("Arimo-Italic", "small"), ("Cousine-Italic", "large"),
             ("URWBookman-LightItalic", "beside"), ("P052-Italic", "small"), ("DejaVuSans.ttf", "under")]
    for before, after, codes in _read_off_and_on(off, on, decks, 934):
        assert len(after) >= len(before)
        for was, now in zip(before, after[: len(before)], strict=False):
            # A card the CNN reads otherwise at its index is made unsure (and is the CNN's read
            # where that is surer, or sure too): whatever changes, the dealer confirms.
            assert now["corners"] == was["corners"]
            assert now == was or now["confidence"] < 0.9
        assert all(c["confidence"] < 0.9 for c in after[len(before) :])  # what it adds, the dealer confirms
        _tally(hits, false, before, after, codes)
    # Measured: 80 -> 90 of the 120 cards, 10 -> 12 false ones; 2026-12-07, 95 -> 109 and 4 -> 7; since
    # session 32 (a top card read at both its indices once, the scene witness's margin), 97 -> 109 and
    # 2 -> 7: the glyph rules' reads got better, not the peak pass worse; since session 34 (the CNN
    # reads the scenes' hypotheses, the perceptron its witness), 95 -> 107 and 1 -> 7 (with the
    # perceptron reading them, still 97 -> 109 and 2 -> 7).
    assert hits["on"] >= hits["off"] + 6
    assert false["on"] <= false["off"] + 6


def test_with_the_cnn_as_the_corner_reader_the_peaks_still_find_the_cards_the_glyph_rules_missed():
    # The CNN as the reader (``corner_reader="cnn"``) reads the glyph rules' hypotheses; the lower cards
    # they lay out none for are found at the detector's peaks, as with the perceptron.
    off = RecognizerConfig(corner_reader="cnn", peak_reader="off")
    on = RecognizerConfig(corner_reader="cnn", peak_reader="on")
    hits = {"off": 0, "on": 0}
    false = {"off": 0, "on": 0}
    decks = [("DejaVuSerif.ttf", "beside"), ("Arimo-Italic", "small"), ("URWBookman-LightItalic", "beside"),
             ("DejaVuSans.ttf", "under")]
    for before, after, codes in _read_off_and_on(off, on, decks, 935):
        assert all(c["confidence"] < 0.9 for c in after if not any(c["corners"] == b["corners"] for b in before))
        _tally(hits, false, before, after, codes)
    # Measured (session 33): 63 -> 68 of the 80 cards, 4 -> 3 false ones; before, with the CNN as the
    # reader the peak pass did not run at all.
    assert hits["on"] >= hits["off"] + 3
    assert false["on"] <= false["off"] + 2


def test_a_card_is_weighed_by_the_cnns_read_at_its_index_as_the_witness_weighs():
    from vision.scene import _weighed_at_index

    config = RecognizerConfig()
    quad = [[0, 0], [63, 0], [63, 88], [0, 88]]
    sure = {"code": "7H", "confidence": 0.97, "corners": quad}
    unsure = {"code": "unknown", "confidence": 0.45, "corners": quad, "guesses": [{"code": "7H", "confidence": 0.45}]}
    assert _weighed_at_index(sure, {"code": "7H", "confidence": 0.9}, config) == sure
    assert _weighed_at_index(sure, {"code": "6H", "confidence": 0.45}, config) == sure  # too weak to veto
    # Another card named at 0.5 or more (witness_veto, since session 28) makes the sure card unsure.
    assert _weighed_at_index(sure, {"code": "6H", "confidence": 0.55}, config) == {**sure, "confidence": 0.85}
    assert _weighed_at_index(sure, {"code": "TH", "confidence": 0.8}, config) == {**sure, "confidence": 0.85}
    # Sure at one corner (0.9 x 0.9) against a sure card: the CNN's read comes first, unsure.
    assert _weighed_at_index(sure, {"code": "TH", "confidence": 0.89}, config) == {**sure, "code": "TH", "confidence": 0.85}
    taken = _weighed_at_index(unsure, {"code": "TH", "confidence": 0.88}, config)
    assert taken == {"code": "TH", "confidence": 0.85, "corners": quad}  # the CNN's read, unsure, no guesses
    # An unsure card the CNN reads as another: the CNN's read, unless the card is surer by more than
    # peak_margin (0.2).
    assert _weighed_at_index({**sure, "confidence": 0.8}, {"code": "TH", "confidence": 0.7}, config) == {
        **sure, "code": "TH", "confidence": 0.7}
    assert _weighed_at_index({**sure, "confidence": 0.89}, {"code": "TH", "confidence": 0.7}, config)["code"] == "TH"
    assert _weighed_at_index({**sure, "confidence": 0.89}, {"code": "TH", "confidence": 0.68}, config)["code"] == "7H"
    assert _weighed_at_index({**sure, "confidence": 0.8}, {"code": "TH", "confidence": 0.55}, config)["code"] == "7H"
    assert _weighed_at_index({**sure, "confidence": 0.8}, {"code": "TH", "confidence": 0.7}, RecognizerConfig(peak_margin=0.0))["code"] == "7H"


def test_a_card_size_measured_off_outlines_gives_way_where_the_detectors_peaks_say_half_or_twice():
    from types import SimpleNamespace

    from vision.scene import _against_peaks

    config = RecognizerConfig()

    def scene(*sizes: float) -> SimpleNamespace:
        return SimpleNamespace(peaks=lambda _config: [SimpleNamespace(card_h=s) for s in sizes])

    assert _against_peaks(150.0, scene(140, 160, 155), config) == 150.0
    assert _against_peaks(300.0, scene(140, 160, 155, 150), config) is None  # twice the cards' size
    assert _against_peaks(70.0, scene(140, 160, 155), config) is None
    assert _against_peaks(300.0, scene(150, 150), config) == 300.0  # too few peaks to go by
    assert _against_peaks(None, scene(150, 150, 150), config) is None
    with pytest.raises(ValueError, match="peak_size_ratio"):
        RecognizerConfig(peak_size_ratio=1.0)


def test_a_table_marking_joining_hands_into_one_region_does_not_double_the_card_size():
    # The printed arc and "BLACKJACK PAYS" joined the hands into one region whose
    # straight edges stood as a card twice the size (310 px against 152): no card was found.
    from vision.tools.heldout import deck, unseen_decks

    name, font, number = unseen_decks()[0]
    assert name == "DejaVuSans"
    design, finnish = deck(number, 4)
    style = design_style(design + 6000, font, finnish=finnish, index="one-corner")
    img, label = table_image(np.random.default_rng([973, design]), style=style)
    cards = recognize(img, RecognizerConfig())
    assert len(label["codes"]) == 10
    assert _scene_counts(cards, label["codes"])[0] >= 8  # 0 before


def test_a_sure_card_keeps_its_code_where_the_cnn_reads_it_so_at_its_own_outline():
    # A sure card at whose index the CNN's read from a peak's layout names another card surely is
    # the CNN's read, unless the CNN reads the card's own code at the card's own outline (the peak's
    # layout took in something else): then the card is only made unsure.
    from vision.scene import _checked_at_outline, _weighed_at_index

    config = RecognizerConfig()
    img, label = shoe_image("KH", np.random.default_rng(5), design_style(7990, find_font("DejaVuSans.ttf"), index="under"))
    card = {"code": "KH", "confidence": 0.97, "corners": label["corners"]}
    read = {"code": "4H", "confidence": 0.85}
    checked = _checked_at_outline(img, card, read, load_model(), config)
    assert checked["code"] == "4H" and checked["confidence"] < 0.81
    assert _weighed_at_index(card, checked, config) == {**card, "confidence": 0.85}  # made unsure, code kept
    other = {**card, "code": "QS"}  # the CNN at the outline does not read the card's code: the read stands
    assert _checked_at_outline(img, other, read, load_model(), config) == read
    assert _weighed_at_index(other, read, config)["code"] == "4H"


class _WordCnn:
    """Stands in for the corner CNN: every corner read as "JOKER" down the side with probability ``p``."""

    def __init__(self, p: float) -> None:
        from vision.cnn import JOKER

        self.kind = np.full(16, (1 - p) / 15)
        self.kind[JOKER] = p

    def probabilities(self, corners):
        return np.tile(self.kind, (len(corners), 1)), np.full((len(corners), 4), 0.25)


def test_the_cnn_names_a_joker_at_a_peak_only_where_it_reads_its_word_surely(monkeypatch):
    from vision.scene import _cnn_cards

    image = np.full((300, 220, 3), 255, np.uint8)
    quad = np.array([[10, 10], [190, 10], [190, 262], [10, 262]], np.float32)
    config = RecognizerConfig()
    assert config.peak_joker == 0.9
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _WordCnn(0.95))
    (joker,) = _cnn_cards(image, [quad], load_model(), config, jokers=True)
    assert joker is not None and joker["code"] == "JK" and joker["confidence"] == config.witness_cap  # asked
    assert _cnn_cards(image, [quad], load_model(), config) == [None]  # (the outline's own check: no Jokers)
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _WordCnn(0.85))  # the word, not surely enough
    assert _cnn_cards(image, [quad], load_model(), config, jokers=True) == [None]
    with pytest.raises(ValueError, match="peak_joker"):
        RecognizerConfig(peak_joker=0.0)
