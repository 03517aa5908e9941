"""A table scene read by the corner CNN with the perceptron its witness (``scene_reader`` "cnn")."""

from collections import Counter

import numpy as np
import pytest

from vision import recognize
from vision import scene as scene_module
from vision.config import RecognizerConfig
from vision.index_reader import RANKS, SUITS, CornerRead
from vision.model import load_model
from vision.profile import enroll
from vision.read import perceptron_witness
from vision.tools.heldout import unseen_decks
from vision.tools.synth import design_style, generate, table_image

QUAD = np.array([[10, 10], [190, 10], [190, 262], [10, 262]], np.float32)
IMAGE = np.full((280, 200, 3), 255, np.uint8)
MLP = load_model()
CONFIG = RecognizerConfig(corner_reader="mlp", scene_reader="mlp")


def _read(code: str | None, p: float = 1.0) -> CornerRead:
    """A corner the perceptron reads as ``code`` with odds ``p`` (None: no index)."""
    if code is None:
        return CornerRead(None, ink=True)
    probs = np.full((13, 4), (1 - p) / 51)
    probs[RANKS.index(code[0]), SUITS.index(code[1])] = p
    return CornerRead(probs, ink=True, score=1.0, suit_px=99.0)


def _witnessed(cards, monkeypatch, top, bottom):
    """``cards`` weighed by a perceptron that reads ``top`` in each card's top-left corner and
    ``bottom`` in its bottom-right one."""
    def perceptron(image, quad, model, config, *args, **kwargs):
        assert config.corner_reader == "mlp"  # the witness reads with the perceptron, not the CNN
        return top if np.allclose(quad, QUAD) else bottom

    monkeypatch.setattr("vision.read.read_corner_at", perceptron)
    return perceptron_witness(cards, IMAGE, MLP, CONFIG)


def _card(code: str, confidence: float) -> dict:
    return {"code": code, "confidence": confidence, "corners": QUAD.tolist()}


def test_a_cnn_card_the_perceptron_reads_alike_is_as_sure_as_the_surer_of_the_two(monkeypatch):
    unsure = _card("7H", 0.7)
    both = _witnessed([unsure], monkeypatch, _read("7H"), _read("7H"))[0]  # both corners: a card lying whole
    assert both == {**unsure, "confidence": 1.0}
    # A lower card of a hand: its other corner covered, read as the card over it (or nothing).
    for covered in (_read("QS"), _read(None)):
        one = _witnessed([unsure], monkeypatch, _read("7H"), covered)[0]
        assert one == {**unsure, "confidence": 0.9}  # one corner's odds, scaled (single_corner_factor)
    # The perceptron less sure than the CNN, or unsure itself: the CNN's confidence stands.
    assert _witnessed([_card("7H", 0.88)], monkeypatch, _read("7H", 0.8), _read(None))[0]["confidence"] == 0.88
    assert _witnessed([unsure], monkeypatch, _read("7H", 0.8), _read(None))[0] == unsure


def test_the_other_corner_is_read_only_where_the_two_together_could_be_sure(monkeypatch):
    asked = []

    def perceptron(image, quad, model, config, *args, **kwargs):
        asked.append("top" if np.allclose(quad, QUAD) else "bottom")
        return _read("7H", 0.8)  # 0.8 in each corner: 0.8 together, never sure

    monkeypatch.setattr("vision.read.read_corner_at", perceptron)
    unsure = _card("7H", 0.7)
    assert perceptron_witness([unsure], IMAGE, MLP, CONFIG) == [unsure] and asked == ["top"]


def test_the_perceptron_never_changes_the_cnns_code_and_asks_where_both_are_sure_and_differ(monkeypatch):
    sure, unsure = _card("7H", 0.95), _card("7H", 0.7)
    vetoed, kept = _witnessed([sure, unsure], monkeypatch, _read("TH"), _read("TH"))
    assert vetoed == {**sure, "confidence": 0.85}  # asked (witness_cap), the CNN's code kept
    assert kept == unsure
    # An unsure read of another card is no veto.
    assert _witnessed([sure], monkeypatch, _read("TH", 0.8), _read(None))[0] == sure


def test_a_read_the_cnn_hardly_names_is_not_made_sure_by_the_perceptron(monkeypatch):
    # witness_doubt (0.5) of one corner's odds (0.9): the CNN must name the card 0.45 or more.
    faint = _card("7H", 0.44)
    assert _witnessed([faint], monkeypatch, _read("7H"), _read("7H"))[0] == faint
    named = _card("7H", 0.46)
    assert _witnessed([named], monkeypatch, _read("7H"), _read("7H"))[0]["confidence"] == 1.0


def test_unknown_cards_and_jokers_are_left_as_the_cnn_read_them(monkeypatch):
    unknown = {**_card("unknown", 0.4), "guesses": [{"code": "7H", "confidence": 0.4}]}
    joker = _card("JK", 0.85)
    assert _witnessed([unknown, joker], monkeypatch, _read("7H"), _read("7H")) == [unknown, joker]


def test_the_scene_reader_is_checked_and_an_enrolled_deck_of_indices_of_its_own_keeps_the_perceptron(
        monkeypatch, tmp_path):
    with pytest.raises(ValueError, match="scene_reader"):
        RecognizerConfig(scene_reader="both")
    monkeypatch.delenv("VISION_SCENE_READER", raising=False)
    assert RecognizerConfig().scene_reader == "cnn"  # the default
    monkeypatch.setenv("VISION_SCENE_READER", "mlp")
    assert RecognizerConfig().scene_reader == "mlp"
    called = []
    monkeypatch.setattr(scene_module, "perceptron_witness", lambda cards, image, **k: called.append(1) or cards)
    img, _ = table_image(np.random.default_rng(3))
    recognize(img, RecognizerConfig(scene_reader="cnn"))
    assert called  # the CNN read the scene, the perceptron its witness
    called.clear()
    recognize(img, RecognizerConfig(scene_reader="mlp"))
    recognize(img, RecognizerConfig(scene_reader="cnn", corner_reader="cnn"))  # the CNN alone, as before
    # An enrolled deck printing court letters of its own (V, D, R): the perceptron reads with its profile,
    # which taught it the letters the CNN does not know (4 of its 53 cards named wrong).
    generate(tmp_path / "vdr", "shoe", 54, seed=502, design=7, court="VDR")
    letters = enroll([tmp_path / "vdr"])
    assert 0.8 < letters.cnn_share() < RecognizerConfig().profile_cnn_share
    recognize(img, RecognizerConfig(scene_reader="cnn"), profile=letters)
    assert not called
    # An enrolled deck of standard indices, every one the CNN named at enrolment: read as an unseen deck is,
    # the perceptron witnessing with the profile.
    generate(tmp_path / "std", "shoe", 54, seed=502, design=7)
    standard = enroll([tmp_path / "std"])
    assert standard.meta["cnn_named"] == [53, 53]  # every card (the Joker aside)
    witnessed_with = []
    monkeypatch.setattr(scene_module, "perceptron_witness",
                        lambda cards, image, **k: witnessed_with.append(k["model"].profile) or cards)
    recognize(img, RecognizerConfig(scene_reader="cnn"), profile=standard)
    assert witnessed_with == [standard]
    # ... unless told never to (above 1), and a profile enrolled before the CNN's names were counted.
    recognize(img, RecognizerConfig(scene_reader="cnn", profile_cnn_share=1.01), profile=standard)
    older = enroll([tmp_path / "std"])
    del older.meta["cnn_named"]
    assert older.cnn_share() == 0.0
    recognize(img, RecognizerConfig(scene_reader="cnn"), profile=older)
    assert witnessed_with == [standard]


def _tally(config: RecognizerConfig, scenes) -> tuple[int, int, int, int]:
    """(found, false, read 0.9 or more, read 0.9 or more wrong) over ``scenes``."""
    found = false = sure = sure_wrong = 0
    for img, codes in scenes:
        cards = [c for c in recognize(img, config) if c["code"] != "unknown"]
        got, want = Counter(c["code"] for c in cards), Counter(codes)
        hit = sum((got & want).values())
        found, false = found + hit, false + sum(got.values()) - hit
        sure_got = Counter(c["code"] for c in cards if c["confidence"] >= 0.9)
        sure, sure_wrong = sure + sum(sure_got.values()), sure_wrong + sum((sure_got - want).values())
    return found, false, sure, sure_wrong


def test_scenes_of_an_unseen_face_read_by_the_cnn_are_sure_more_often_with_the_perceptron_its_witness():
    (_, font, number), = unseen_decks(["DejaVuSans.ttf"])
    style = design_style(number, font)
    rng = np.random.default_rng([41, number])
    scenes = [(img, label["codes"]) for img, label in (table_image(rng, style=style) for _ in range(6))]
    cnn_alone = _tally(RecognizerConfig(corner_reader="cnn"), scenes)
    witnessed = _tally(RecognizerConfig(corner_reader="mlp", scene_reader="cnn"), scenes)
    assert witnessed[:2] == cnn_alone[:2]  # the same cards found and named: the witness only weighs them
    assert witnessed[2] > cnn_alone[2] and witnessed[3] == 0
    cards = sum(len(codes) for _, codes in scenes)
    assert witnessed[0] >= 0.9 * cards and witnessed[1] <= 0.05 * cards
