"""The held-out measurement (``python -m vision heldout``), the generator's index layouts and the
corner CNN as a second witness of the perceptron."""

import json
import shutil
from dataclasses import replace

import numpy as np
import pytest

from vision import model as model_module
from vision.config import DEFAULT_CONFIG, RecognizerConfig
from vision.index_reader import CornerRead
from vision.read import cnn_witness, scene_witness
from vision.tools import heldout
from vision.tools.cnn_data import family
from vision.tools.glyphs import font_files
from vision.tools.synth import CARD_H, CARD_W, INDEX_LAYOUTS, design_style, generate, render_card


def _ink(img: np.ndarray) -> int:
    return int((img.min(axis=2) < 150).sum())


def test_a_design_can_print_its_index_in_each_layout():
    for layout in INDEX_LAYOUTS:
        style = design_style(11, "Tinos-Regular", finnish=False, index=layout)
        assert style.index_layout == layout
        card, _ = render_card("7H", style, np.random.default_rng(0))
        assert _ink(card[: CARD_H // 3, : CARD_W // 3]) > 0  # an index top left in every layout
        bottom_right = _ink(card[-CARD_H // 8 :, -CARD_W // 5 :])  # the mirrored index, clear of the pips
        if layout == "one-corner":
            assert bottom_right == 0
        else:
            assert bottom_right > 0


def test_the_layouts_keep_the_design_and_refuse_unknown_names():
    plain = design_style(5, "Tinos-Regular")
    assert plain.index_layout is None
    beside = design_style(5, "Tinos-Regular", index="beside")
    assert replace(beside, index_layout=None) == plain  # the same design, the index laid out otherwise
    assert (
        design_style(5, "Tinos-Regular", index="large").index_h
        > design_style(5, "Tinos-Regular", index="small").index_h
    )
    with pytest.raises(ValueError, match="index"):
        design_style(5, index="diagonal")
    with pytest.raises(ValueError, match="--design"):
        generate(__import__("pathlib").Path("/nonexistent"), "shoe", 1, 0, index="beside")


def test_the_folds_part_the_families_and_training_leaves_the_fold_out():
    k = 5
    folds = [heldout.fold_families(j, k) for j in range(k)]
    flat = [f for fold in folds for f in fold]
    assert sorted(flat) == heldout.families() and len(set(flat)) == len(flat)
    held = set(folds[2])
    fonts = heldout.training_fonts(2, k)
    assert fonts and not any(family(p) in held for p in fonts)
    assert len(fonts) + sum(family(p) in held for p in font_files()) == len(font_files())
    with pytest.raises(ValueError, match="fold"):
        heldout.fold_families(5, k)
    with pytest.raises(ValueError, match="shipped"):
        heldout.train_fold(2, k, model_module.MODEL_PATH)


def test_reliability_bins_count_reads_and_their_share_right():
    rows = heldout.reliability([(0.55, True), (0.55, False), (0.95, True), (1.0, True), (0.999, False)])
    by = {(r["lo"], r["hi"]): r for r in rows}
    assert by[(0.5, 0.6)]["n"] == 2 and by[(0.5, 0.6)]["accuracy"] == 0.5
    assert by[(0.95, 0.99)]["n"] == 1
    assert by[(0.99, 1.0)]["n"] == 2 and by[(0.99, 1.0)]["right"] == 1
    assert sum(r["n"] for r in rows) == 5


def test_a_fold_is_measured_on_a_tiny_held_out_set(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    shutil.copy(
        model_module.MODEL_PATH, models / "fold2of5.npz"
    )  # stands in for the fold's retrained perceptron
    out = tmp_path / "heldout.json"
    result = heldout.run(
        out,
        k=5,
        folds=[2],
        shoe=2,
        scenes=1,
        layouts=("under", "beside"),
        models=models,
        fams_per_fold=1,
        shipped=False,
    )
    name = "perceptron, fonts held out"
    overall = result["overall"][name]
    assert overall["shoe"] == 4 and overall["scenes"] == 2
    assert 0 <= overall["top1"] <= 1 and 0 <= overall["recall"] <= 1
    assert set(result["per_layout"][name]) == {"under", "beside"}
    assert result["folds"]["2"]["families"] == heldout.fold_families(2, 5)[:1]
    assert json.loads(out.read_text())["k"] == 5
    text = heldout.markdown(result)
    assert "| perceptron, fonts held out | all | 4 |" in text
    png = heldout.plot_reliability({"shoe": result["reliability"][name]["shoe"]}, tmp_path / "r.png", "t")
    assert png.read_bytes()[:4] == b"\x89PNG"


class _FakeCnn:
    """Stands in for the corner CNN: every corner read as ``kind`` and ``suit``."""

    def __init__(self, kind: int, suit: int, p: float = 0.99) -> None:
        self.kind = np.full(16, (1 - p) / 15)
        self.kind[kind] = p
        self.suit = np.full(4, (1 - p) / 3)
        self.suit[suit] = p

    def probabilities(self, corners):
        n = len(corners)
        return np.tile(self.kind, (n, 1)), np.tile(self.suit, (n, 1))


QUAD = np.array([[10, 10], [190, 10], [190, 262], [10, 262]], np.float32)
IMAGE = np.full((280, 200, 3), 255, np.uint8)
MLP = model_module.load_model()


def _witnessed(card, cnn, monkeypatch, mode):
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: cnn)
    config = RecognizerConfig(corner_reader="mlp", cnn_witness=mode)
    return cnn_witness(card, IMAGE, [QUAD, np.roll(QUAD, -2, axis=0)], MLP, config)


def test_the_witness_makes_a_sure_read_unsure_when_the_cnn_names_another_card(monkeypatch):
    card = {"code": "5S", "confidence": 0.97, "corners": []}
    other = _FakeCnn(kind=10, suit=0)  # the CNN reads JS
    assert _witnessed(card, other, monkeypatch, "veto")["confidence"] == 0.85
    assert _witnessed(card, other, monkeypatch, "veto")["code"] == "5S"
    assert _witnessed(card, other, monkeypatch, "off") is card
    same = _FakeCnn(kind=4, suit=0)  # the CNN reads 5S too
    assert _witnessed(card, same, monkeypatch, "veto") == card
    unsure = {"code": "5S", "confidence": 0.8, "corners": []}
    assert _witnessed(unsure, other, monkeypatch, "veto") == unsure  # only sure reads are vetoed


def test_the_witness_agreeing_surely_makes_an_unsure_read_sure_in_agree_mode_only(monkeypatch):
    same = _FakeCnn(kind=4, suit=0)
    unsure = {"code": "5S", "confidence": 0.8, "corners": []}
    assert _witnessed(unsure, same, monkeypatch, "veto") == unsure
    assert _witnessed(unsure, same, monkeypatch, "agree")["confidence"] >= 0.9
    unknown = {
        "code": "unknown",
        "confidence": 0.4,
        "corners": [],
        "guesses": [{"code": "5S", "confidence": 0.4}],
    }
    named = _witnessed(unknown, same, monkeypatch, "agree")
    assert named["code"] == "5S" and named["confidence"] >= 0.9 and "guesses" not in named


def test_the_witness_stays_out_of_the_cnn_reader_and_of_an_enrolled_deck_when_switched_off(monkeypatch):
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=10, suit=0))
    card = {"code": "5S", "confidence": 0.97, "corners": []}
    cnn_reading = RecognizerConfig(corner_reader="cnn", cnn_witness="veto")
    assert cnn_witness(card, IMAGE, [QUAD], MLP, cnn_reading) is card
    enrolled = replace(MLP, profile=object())  # type: ignore[arg-type]
    off = replace(DEFAULT_CONFIG, cnn_witness="veto", cnn_witness_enrolled="off")
    assert cnn_witness(card, IMAGE, [QUAD], enrolled, off) is card
    # On (the default): an enrolled deck's sure read the CNN disputes is made unsure, as any other.
    vetoed = cnn_witness(card, IMAGE, [QUAD], enrolled, replace(DEFAULT_CONFIG, cnn_witness="veto"))
    assert vetoed is not card and vetoed["confidence"] < 0.9
    with pytest.raises(ValueError, match="cnn_witness_enrolled"):
        RecognizerConfig(cnn_witness_enrolled="maybe")
    with pytest.raises(ValueError, match="cnn_witness"):
        RecognizerConfig(cnn_witness="vote")
    assert CornerRead(None).probs is None


def test_rescue_takes_the_cnns_sure_read_where_the_perceptron_names_no_card(monkeypatch):
    cnn = _FakeCnn(kind=4, suit=0)  # the CNN reads 5S surely
    unknown = {
        "code": "unknown",
        "confidence": 0.3,
        "corners": [],
        "guesses": [{"code": "JS", "confidence": 0.3}],
    }
    joker = {"code": "JK", "confidence": 0.72, "corners": []}  # no index found: a Joker without one?
    for card in (unknown, joker):
        assert _witnessed(card, cnn, monkeypatch, "agree") == card
        rescued = _witnessed(card, cnn, monkeypatch, "rescue")
        assert rescued["code"] == "5S" and rescued["confidence"] >= 0.9 and "guesses" not in rescued
        assert rescued["corners"] == card["corners"]
    named = {"code": "JS", "confidence": 0.7, "corners": []}  # the perceptron names another card: not rescued
    assert _witnessed(named, cnn, monkeypatch, "rescue") == named
    unsure_cnn = _FakeCnn(kind=4, suit=0, p=0.8)  # named, not sure: taken, and stays unsure
    rescued = _witnessed(unknown, unsure_cnn, monkeypatch, "rescue")
    assert rescued["code"] == "5S" and 0.5 <= rescued["confidence"] < 0.9
    blind_cnn = _FakeCnn(kind=4, suit=0, p=0.3)
    assert _witnessed(unknown, blind_cnn, monkeypatch, "rescue") == unknown


def test_arbitrate_puts_the_cnns_surer_read_first_where_the_perceptron_is_unsure(monkeypatch):
    cnn = _FakeCnn(kind=5, suit=0)  # the CNN reads 6S surely
    unsure = {"code": "5S", "confidence": 0.7, "corners": []}
    first = _witnessed(unsure, cnn, monkeypatch, "arbitrate")
    assert first["code"] == "6S" and first["confidence"] < 0.9  # first, but the tablet still asks
    assert _witnessed(unsure, cnn, monkeypatch, "rescue") == unsure
    surer = {"code": "5S", "confidence": 0.88, "corners": []}
    assert _witnessed(surer, _FakeCnn(kind=5, suit=0, p=0.6), monkeypatch, "arbitrate") == surer  # the CNN no surer
    sure = {"code": "5S", "confidence": 0.97, "corners": []}
    vetoed = _witnessed(sure, _FakeCnn(kind=5, suit=0, p=0.8), monkeypatch, "arbitrate")
    assert vetoed["code"] == "5S" and vetoed["confidence"] == 0.85  # vetoed by a less sure read: only vetoed
    overruled = _witnessed(sure, cnn, monkeypatch, "arbitrate")
    assert overruled["code"] == "6S" and overruled["confidence"] == 0.85  # by a surer one: its read first, asked
    assert _witnessed(sure, _FakeCnn(kind=5, suit=0, p=0.55), monkeypatch, "arbitrate") == sure  # below witness_veto
    unknown = {"code": "unknown", "confidence": 0.43, "corners": [], "guesses": [{"code": "6S", "confidence": 0.43}]}
    agreed = _witnessed(unknown, _FakeCnn(kind=5, suit=0, p=0.75), monkeypatch, "arbitrate")
    assert agreed["code"] == "6S" and 0.5 <= agreed["confidence"] < 0.9 and "guesses" not in agreed
    assert _witnessed(unknown, _FakeCnn(kind=5, suit=0, p=0.75), monkeypatch, "rescue") == unknown
    # Both unsure: the CNN's read first unless the perceptron's is surer by more than witness_margin.
    nearly = {"code": "5S", "confidence": 0.8, "corners": []}
    assert _witnessed(nearly, _FakeCnn(kind=5, suit=0, p=0.85), monkeypatch, "arbitrate")["code"] == "6S"  # 0.72
    assert _witnessed({**nearly, "confidence": 0.84}, _FakeCnn(kind=5, suit=0, p=0.85), monkeypatch, "arbitrate")["code"] == "5S"
    # The CNN's Joker (its word read in both corners) where the perceptron names nothing: offered, asked.
    joker = _witnessed(unknown, _FakeCnn(kind=13, suit=0), monkeypatch, "arbitrate")
    assert joker["code"] == "JK" and joker["confidence"] == 0.85


def test_arbitrate_names_a_joker_where_the_cnn_reads_both_corners_as_a_jokers(monkeypatch):
    # The word in both corners, read by the perceptron as a Jack (its "J" over its "O"), surely or not.
    word = _FakeCnn(kind=13, suit=0)
    for jack in ({"code": "JD", "confidence": 0.97, "corners": []}, {"code": "JD", "confidence": 0.7, "corners": []}):
        named = _witnessed(jack, word, monkeypatch, "arbitrate")
        assert named["code"] == "JK" and named["confidence"] == 0.85  # first, and the tablet asks
        assert _witnessed(jack, word, monkeypatch, "veto")["code"] == "JD"  # only "arbitrate" names it
    # Both corners blank paper (a Joker printed without an index), where the perceptron read the card's
    # edge in one corner as an index: the Joker, as unsure as the perceptron's own blank-cornered Joker.
    edge = {"code": "JC", "confidence": 0.59, "corners": []}
    blank = _witnessed(edge, _FakeCnn(kind=14, suit=0, p=0.8), monkeypatch, "arbitrate")
    assert blank["code"] == "JK" and blank["confidence"] == RecognizerConfig().joker_no_index_confidence
    # The CNN's blank too unsure (below witness_joker): the perceptron's read stands.
    assert _witnessed(edge, _FakeCnn(kind=14, suit=0, p=0.6), monkeypatch, "arbitrate") == edge


def test_arbitrate_names_a_joker_where_neither_reader_finds_a_rank_on_card_stock(monkeypatch):
    # Both corners paper with some ink (a frame's line), no rank to the perceptron (its guess the Joker)
    # nor to the CNN ("no index"): a Joker printed without an index, named and asked.
    unread = {"code": "unknown", "confidence": 0.432, "corners": [], "guesses": [{"code": "JK", "confidence": 0.432}]}
    named = _witnessed(unread, _FakeCnn(kind=15, suit=0, p=0.6), monkeypatch, "arbitrate")
    assert named["code"] == "JK" and named["confidence"] == RecognizerConfig().joker_art_confidence < 0.9
    assert _witnessed(unread, _FakeCnn(kind=15, suit=0, p=0.6), monkeypatch, "rescue") == unread
    # The CNN reads a rank in the corners: no Joker (its read is too unsure to name anything).
    assert _witnessed(unread, _FakeCnn(kind=0, suit=0, p=0.4), monkeypatch, "arbitrate")["code"] != "JK"
    # Not card stock (the corners noise, not paper): not named.
    monkeypatch.setattr("vision.read._paper", lambda corner, config: False)
    assert _witnessed(unread, _FakeCnn(kind=15, suit=0, p=0.6), monkeypatch, "arbitrate") == unread


def test_scene_cards_have_a_witness_mode_of_their_own_arbitrate_by_default(monkeypatch):
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=10, suit=0))  # the CNN reads JS surely
    monkeypatch.delenv("VISION_CNN_WITNESS", raising=False)
    monkeypatch.delenv("VISION_CNN_WITNESS_SCENES", raising=False)
    config = RecognizerConfig()
    assert (config.cnn_witness, config.cnn_witness_scenes) == ("arbitrate", "arbitrate")  # the defaults
    corners = QUAD.tolist()
    sure = {"code": "5S", "confidence": 0.97, "corners": corners}
    unsure = {"code": "5S", "confidence": 0.7, "corners": corners}
    weighed = scene_witness([sure, unsure], IMAGE, MLP, config)
    assert weighed[0]["confidence"] == 0.85  # vetoed
    assert weighed[1]["code"] == "JS" and weighed[1]["confidence"] == 0.85  # arbitrated: the CNN's read, unsure
    screen = RecognizerConfig(cnn_witness_scenes="screen")
    assert scene_witness([sure, unsure], IMAGE, MLP, screen) == [{**sure, "confidence": 0.85}, unsure]  # screen: no
    assert cnn_witness(unsure, IMAGE, [QUAD], MLP, config)["code"] == "JS"  # a shoe scan's too
    off = RecognizerConfig(cnn_witness_scenes="off")
    assert scene_witness([sure], IMAGE, MLP, off) == [sure]
    with pytest.raises(ValueError, match="cnn_witness_scenes"):
        RecognizerConfig(cnn_witness_scenes="always")


def test_a_scene_cards_read_gives_way_to_the_cnns_unless_surer_by_the_scene_margin(monkeypatch):
    # The CNN reads JS at 0.85 in each glyph's odds: 0.65 as one corner (``_combine``).
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=10, suit=0, p=0.85))
    config = RecognizerConfig(cnn_witness="arbitrate", cnn_witness_scenes="arbitrate")
    assert config.scene_witness_margin == 0.3
    corners = QUAD.tolist()
    unsure = {"code": "5S", "confidence": 0.8, "corners": corners}  # surer than the CNN, by less than 0.3
    much_surer = {"code": "5S", "confidence": 0.89, "corners": corners}  # by 0.24
    sure = {"code": "5S", "confidence": 0.93, "corners": corners}  # sure, by 0.28
    surest = {"code": "5S", "confidence": 0.99, "corners": corners}  # by 0.34
    weighed = scene_witness([unsure, much_surer, sure, surest], IMAGE, MLP, config)
    assert [c["code"] for c in weighed] == ["JS", "JS", "JS", "5S"]
    assert [c["confidence"] for c in weighed] == [0.6502, 0.6502, 0.6502, 0.85]  # the CNN's, unsure; the sure 5S asked
    narrow = RecognizerConfig(cnn_witness_scenes="arbitrate", scene_witness_margin=0.1)
    assert [c["code"] for c in scene_witness([unsure, sure], IMAGE, MLP, narrow)] == ["5S", "5S"]
    # A shoe scan's card keeps its own margin (``witness_margin``, 0.1): the perceptron's 0.8 stands.
    assert cnn_witness(unsure, IMAGE, [QUAD], MLP, config)["code"] == "5S"
    with pytest.raises(ValueError, match="scene_witness_margin"):
        RecognizerConfig(scene_witness_margin=1.5)


def test_a_scene_joker_named_from_its_word_is_no_card_where_the_cnn_reads_no_word_there(monkeypatch):
    corners = QUAD.tolist()
    word = {"code": "JK", "confidence": 0.85, "corners": corners}  # "JOKER" down one corner (card_from_corner)
    words = {"code": "JK", "confidence": 0.93, "corners": corners}  # down both corners
    blank = {"code": "JK", "confidence": 0.72, "corners": corners}  # a Joker printed without an index
    config = RecognizerConfig(cnn_witness="arbitrate", cnn_witness_scenes="arbitrate")
    for kind, p in ((15, 0.99), (14, 0.99), (0, 0.5)):  # no index, blank paper, an ace it hardly reads
        monkeypatch.setattr("vision.cnn.load_cnn", lambda kind=kind, p=p: _FakeCnn(kind=kind, suit=0, p=p))
        one, both, none = scene_witness([word, words, blank], IMAGE, MLP, config)
        assert one["code"] == both["code"] == "unknown" and one["confidence"] < 0.5
        assert one["guesses"] == [{"code": "JK", "confidence": 0.85}]
        assert none == blank  # blank corners are what it shows
        assert cnn_witness(word, IMAGE, [QUAD], MLP, config) == word  # a shoe scan's Joker: not so
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=13, suit=0))  # the CNN reads the word
    assert [c["code"] for c in scene_witness([word, words], IMAGE, MLP, config)] == ["JK", "JK"]
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=10, suit=0))  # a jack of spades, surely
    assert scene_witness([word], IMAGE, MLP, config)[0]["code"] == "JS"  # named, as before


def test_screen_takes_an_unsure_scene_card_for_none_where_the_cnn_sees_no_index(monkeypatch):
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=15, suit=0))  # no index there
    corners = QUAD.tolist()
    unsure = {"code": "5S", "confidence": 0.7, "corners": corners}
    sure = {"code": "5S", "confidence": 0.95, "corners": corners}
    joker = {"code": "JK", "confidence": 0.72, "corners": corners}
    for mode in ("screen", "arbitrate"):  # arbitrate screens a scene's cards too
        screened, kept, joker_kept = scene_witness([unsure, sure, joker], IMAGE, MLP, RecognizerConfig(cnn_witness_scenes=mode))
        assert screened["code"] == "unknown" and screened["confidence"] < 0.5
        assert screened["guesses"] == [{"code": "5S", "confidence": 0.7}] and screened["corners"] == corners
        # A sure read is not screened, but asked (the CNN does not name it: ``witness_doubt``), nor a
        # Joker without an index.
        assert kept == {**sure, "confidence": 0.85} and joker_kept == joker
        undoubted = RecognizerConfig(cnn_witness_scenes=mode, witness_doubt=0.0)
        assert scene_witness([sure], IMAGE, MLP, undoubted) == [sure]
    # A shoe scan is one card, never screened away.
    assert cnn_witness(unsure, IMAGE, [QUAD], MLP, RecognizerConfig(cnn_witness="arbitrate")) == unsure
    assert scene_witness([unsure], IMAGE, MLP, RecognizerConfig(cnn_witness_scenes="veto")) == [unsure]


def test_a_veto_only_witness_runs_no_cnn_for_an_unsure_read(monkeypatch):
    def no_cnn():
        raise AssertionError("the CNN ran")

    monkeypatch.setattr("vision.cnn.load_cnn", no_cnn)
    unsure = {"code": "5S", "confidence": 0.7, "corners": []}
    assert cnn_witness(unsure, IMAGE, [QUAD], MLP, RecognizerConfig(cnn_witness="veto")) is unsure


def test_saved_runs_are_reported_and_their_reliability_pooled(tmp_path):
    rows = heldout.reliability([(0.95, True), (0.55, False)])
    other = heldout.reliability([(0.96, False)])
    both = heldout.pooled([rows, other])
    top = next(r for r in both if r["lo"] == 0.95)
    assert top["n"] == 2 and top["right"] == 1 and abs(top["mean_confidence"] - 0.955) < 1e-9
    saved = {"overall": {}, "reliability": {"perceptron, fonts held out": {"shoe": rows}}}
    (tmp_path / "a.json").write_text(json.dumps(saved))
    text = heldout.report([tmp_path / "a.json"], tmp_path / "r.png")
    assert "share right" in text and (tmp_path / "r.png").is_file()


def test_a_deck_enrolled_from_its_own_scans_is_read_with_its_profile(tmp_path, monkeypatch):
    style = design_style(2101, font_files()[0], finnish=True, index="under")
    profile = heldout.enrol_deck(style, [7, 2101, 1])
    assert sum(profile.meta["cards"].values()) == 53  # one scan of each card, the Joker included
    seen = []
    monkeypatch.setattr(heldout, "recognize", lambda img, config, profile: seen.append(profile) or [])
    heldout.enrolled_reader(profile)(IMAGE)
    assert seen == [profile]  # the reader reads with the deck's profile
    monkeypatch.undo()
    result = heldout.run_unseen(tmp_path / "u.json", shoe=2, scenes=0, layouts=("under",),
                                faces=heldout.UNSEEN_FACES[:1], cnn=False, witness=False, enrolled=True)
    assert result["overall"][heldout.ENROLLED]["shoe"] == 2
    assert result["overall"][heldout.ENROLLED_DEFAULT]["shoe"] == 2  # the product's reader, with the profile
    assert "| shipped perceptron, deck enrolled | all | 2 |" in heldout.markdown(result)


def test_the_cnns_blank_corner_counts_only_on_paper_not_on_noise(monkeypatch):
    # Noise (a picture that is no card) was never shown to the CNN, which may call it a blank corner:
    # two blank corners would name a Joker.  A blank read stands only where the crop is mostly paper.
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=14, suit=0))  # "blank" everywhere
    from vision.read import _cnn_reads

    paper = np.full((95, 54, 3), 235, np.uint8)
    noise = np.random.default_rng(0).integers(0, 256, (95, 54, 3), dtype=np.uint8)
    on_paper, on_noise = _cnn_reads([paper, noise], RecognizerConfig())
    assert on_paper.probs is None and not on_paper.ink  # blank: a Joker's corner
    assert on_noise.probs is None and on_noise.ink  # something, but no index


def test_a_scene_card_nothing_names_is_no_sure_joker_for_the_word_in_its_one_corner(monkeypatch):
    # A scene's card is weighed by one corner: a small index there (an A♦ of one unseen face, read
    # unknown with the Joker as its guess) can pass for "JOKER" to the CNN.  Named, but asked.
    monkeypatch.setattr("vision.cnn.load_cnn", lambda: _FakeCnn(kind=13, suit=0))  # the word, surely
    unread = {"code": "unknown", "confidence": 0.432, "corners": QUAD.tolist(), "guesses": [{"code": "JK", "confidence": 0.432}]}
    [named] = scene_witness([unread], IMAGE, MLP, RecognizerConfig(cnn_witness_scenes="arbitrate"))
    assert named["code"] == "JK" and named["confidence"] == RecognizerConfig().witness_cap
    # A Joker already read by its word (a hand's corner) is made sure by the CNN's reading it too, as before.
    word = {"code": "JK", "confidence": 0.85, "corners": QUAD.tolist()}
    assert scene_witness([word], IMAGE, MLP, RecognizerConfig(cnn_witness_scenes="arbitrate"))[0]["confidence"] == 0.93
