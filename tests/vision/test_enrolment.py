"""Deck enrolment: ``python -m vision enroll DIR --out PROFILE`` and reading with the profile.

The decks are drawn by our own generator (``--design``): one scan of every card is enrolled, other
scans of the same design are read.  The design prints French court letters (V, D, R for J, Q, K),
which the generic classifier has never seen and does not read as J, Q, K.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import recognize
from vision.profile import FORMAT, cached_profile, enroll, load_profile, resolve
from vision.tools.synth import design_style, generate, render_card

DESIGN, COURT = 7, "VDR"
COURTS = [r + s for s in "SHDC" for r in "JQK"]


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "VISION_PROFILE"}
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "vision", *args], capture_output=True, text=True, env=full, timeout=300)


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """One scan of every card of the design (enrolled) and other scans of it (read)."""
    root = tmp_path_factory.mktemp("deck")
    generate(root / "enrol", "shoe", 54, seed=501, design=DESIGN, court=COURT)
    generate(root / "read", "shoe", 54, seed=500, design=DESIGN, court=COURT)
    done = _cli("enroll", str(root / "enrol"), "--out", str(root / "deck.profile"))
    assert done.returncode == 0, done.stderr
    return root


def _scans(folder: Path, codes: list[str]) -> list[tuple[str, Path]]:
    labels = json.loads((folder / "labels.json").read_text())
    return [(item["code"], folder / item["file"]) for item in labels["images"] if item["code"] in codes]


def test_the_cli_enrols_a_deck_and_reads_with_it(deck):
    out = json.loads(_cli("enroll", str(deck / "enrol"), "--out", str(deck / "again.profile")).stdout)
    assert out["cards"] == 54 and out["codes"] == 53 and out["glyph_samples"] > 100
    assert load_profile(deck / "again.profile").meta["cards"]["JK"] == 1
    scans = _scans(deck / "read", COURTS[:6])
    images = [str(p) for _, p in scans]
    with_flag = _cli("recognize", "--profile", str(deck / "deck.profile"), "--json", *images)
    with_env = _cli("recognize", "--json", *images, env={"VISION_PROFILE": str(deck / "deck.profile")})
    generic = _cli("recognize", "--json", *images)
    assert with_flag.returncode == with_env.returncode == generic.returncode == 0
    assert with_flag.stdout == with_env.stdout
    read = [json.loads(line) for line in with_flag.stdout.splitlines()]
    assert [r["image"] for r in read] == images
    assert [r["cards"][0]["code"] for r in read] == [code for code, _ in scans]
    assert generic.stdout != with_flag.stdout


def test_the_profile_reads_the_court_letters_the_generic_reader_does_not(deck):
    profile = load_profile(deck / "deck.profile")
    generic_right = enrolled_right = sure_wrong = 0
    for code, path in _scans(deck / "read", COURTS):
        img = cv2.imread(str(path))
        generic_right += recognize(img)[0]["code"] == code
        card = recognize(img, profile=profile)[0]
        enrolled_right += card["code"] == code
        sure_wrong += card["code"] != code and card["confidence"] >= 0.9
    # Of 12: V and D are no J or Q to the generic reader (R it has read as K, surely and rightly, since
    # the corner CNN of 2026-11-26, which takes R's shape for a K's: 7 right; before, 6; with the wider
    # CNN of session 28, 9). The profile reads what the generic reader cannot.
    assert generic_right < 12
    assert enrolled_right >= 11 and enrolled_right > generic_right and sure_wrong == 0


def test_a_joker_without_an_index_is_known_by_its_corners(tmp_path):
    # Design 1's Joker prints no index, and its star reaches into the corner crop: the generic
    # reader names it (blank corners) but is unsure of it; the enrolled Joker's corners make it sure.
    generate(tmp_path / "enrol", "shoe", 54, seed=100, design=1)
    generate(tmp_path / "read", "shoe", 53, seed=200, design=1)
    labels = json.loads((tmp_path / "enrol" / "labels.json").read_text())
    labels["images"] = [item for item in labels["images"] if item["code"] in ("JK", "AS", "7H")]
    (tmp_path / "enrol" / "labels.json").write_text(json.dumps(labels))  # the Joker and two cards suffice here
    profile = enroll([tmp_path / "enrol"])
    assert len(profile.joker_maps) == 2
    assert len(_scans(tmp_path / "read", ["JK"])) == 1
    for _code, path in _scans(tmp_path / "read", ["JK"]):
        img = cv2.imread(str(path))
        generic = recognize(img)[0]
        assert generic["code"] in ("JK", "unknown") and generic["confidence"] < 0.9
        card = recognize(img, profile=profile)[0]
        assert card["code"] == "JK" and card["confidence"] >= 0.9


def test_a_profile_leaves_the_cards_of_another_design_read_as_before(deck):
    profile = load_profile(deck / "deck.profile")
    other = deck / "other"
    generate(other, "shoe", 30, seed=77, design=3)
    for _, path in _scans(other, [c for r in "A23456789T" for c in (r + "S", r + "H", r + "D", r + "C")]):
        img = cv2.imread(str(path))
        assert recognize(img, profile=profile)[0]["code"] == recognize(img)[0]["code"]


def test_without_a_profile_the_reader_is_the_generic_one(deck, monkeypatch):
    monkeypatch.delenv("VISION_PROFILE", raising=False)
    assert resolve(None) is None
    img = cv2.imread(str(_scans(deck / "read", ["7H"])[0][1]))
    assert recognize(img) == recognize(img, profile=None)
    monkeypatch.setenv("VISION_PROFILE", "")
    assert resolve(None) is None


def test_vision_profile_is_loaded_once_per_file_and_modification(deck, tmp_path, monkeypatch):
    path = tmp_path / "p.profile"
    path.write_bytes((deck / "deck.profile").read_bytes())
    monkeypatch.setenv("VISION_PROFILE", str(path))
    first = resolve(None)
    assert resolve(None) is first and cached_profile(path) is first
    os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns + 10**9))
    assert resolve(None) is not first


def test_a_design_draws_every_card_alike():
    style = design_style(DESIGN, court=COURT)
    a, _ = render_card("7H", style, np.random.default_rng(1))
    b, _ = render_card("7H", style, np.random.default_rng(2))
    assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="court"):
        design_style(1, court="XY")


# Bad input ----------------------------------------------------------------------------------------


def _labelled(folder: Path, images: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "labels.json").write_text(json.dumps({"kind": "shoe", "images": images}))
    return folder


def test_a_folder_without_labels_is_refused(tmp_path):
    with pytest.raises(ValueError, match="labels.json: missing"):
        enroll([tmp_path])


def test_an_unknown_code_is_refused_naming_the_field(tmp_path):
    folder = _labelled(tmp_path / "d", [{"file": "a.jpg", "code": "XS"}])
    with pytest.raises(ValueError, match=r"images\[0\]\.code: unknown card code 'XS'"):
        enroll([folder])


def test_a_missing_or_unreadable_image_is_refused_naming_the_file(tmp_path):
    folder = _labelled(tmp_path / "d", [{"file": "gone.jpg", "code": "10h"}])
    with pytest.raises(ValueError, match="gone.jpg: image file missing"):
        enroll([folder])
    folder = _labelled(tmp_path / "e", [{"file": "bad.jpg", "code": "AS"}])
    (folder / "bad.jpg").write_bytes(b"not a jpeg at all")
    with pytest.raises(ValueError, match="bad.jpg: not an image"):
        enroll([folder])


def test_scene_labels_need_each_cards_corners(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "labels.json").write_text(json.dumps({"kind": "table", "images": [{"file": "t.jpg", "codes": ["AS"], "cards": [{"code": "AS"}]}]}))
    with pytest.raises(ValueError, match=r"images\[0\]\.cards\[0\]\.corners: missing"):
        enroll([folder])


def test_the_cli_reports_bad_input_without_a_traceback(tmp_path):
    folder = _labelled(tmp_path / "d", [{"file": "a.jpg", "code": "ZZ"}])
    for args in (["enroll", str(folder), "--out", str(tmp_path / "p")],
                 ["enroll", str(tmp_path / "nowhere"), "--out", str(tmp_path / "p")],
                 ["recognize", "--profile", str(tmp_path / "nowhere.profile"), "--json", str(tmp_path / "x.jpg")]):
        done = _cli(*args)
        assert done.returncode == 2
        assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
    assert "images[0].code" in _cli("enroll", str(folder), "--out", str(tmp_path / "p")).stderr
    bad = tmp_path / "bad.profile"
    bad.write_bytes(b"\x00" * 100)
    done = _cli("recognize", "--json", str(tmp_path / "x.jpg"), env={"VISION_PROFILE": str(bad)})
    assert done.returncode == 2 and "bad.profile: not a deck profile" in done.stderr


# The profile file ---------------------------------------------------------------------------------


def _rewrite(src: Path, dst: Path, **changes) -> Path:
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(changes)
    with open(dst, "wb") as f:
        np.savez(f, **arrays)
    return dst


def test_the_profile_round_trips_and_carries_its_format_and_version(deck, tmp_path):
    profile = load_profile(deck / "deck.profile")
    again = load_profile(profile.save(tmp_path / "copy.profile"))
    assert np.array_equal(again.codes, profile.codes) and np.array_equal(again.rank_feats, profile.rank_feats)
    assert np.array_equal(again.joker_maps, profile.joker_maps)
    assert again.meta["cnn_named"] == profile.meta["cnn_named"] and again.cnn_share() == profile.cnn_share()
    with np.load(deck / "deck.profile") as data:
        assert str(data["format"]) == FORMAT and int(data["version"]) == 1


def test_another_version_or_a_corrupt_file_is_a_clear_error(deck, tmp_path):
    with pytest.raises(ValueError, match="version 2 is not supported"):
        load_profile(_rewrite(deck / "deck.profile", tmp_path / "v2.profile", version=np.array(2)))
    with pytest.raises(ValueError, match="no 'vision-deck-profile' header"):
        load_profile(_rewrite(deck / "deck.profile", tmp_path / "other.profile", format=np.array("something else")))
    with pytest.raises(ValueError, match="do not match"):
        load_profile(_rewrite(deck / "deck.profile", tmp_path / "cut.profile", rank_feats=np.zeros((3, 5), np.float32)))
    truncated = tmp_path / "truncated.profile"
    truncated.write_bytes((deck / "deck.profile").read_bytes()[:500])
    with pytest.raises(ValueError, match="not a deck profile"):
        load_profile(truncated)
    with pytest.raises(ValueError, match="no such deck profile"):
        recognize(np.zeros((50, 50, 3), np.uint8), profile=tmp_path / "absent.profile")


def test_a_glyph_the_generic_reader_calls_junk_is_not_made_sure_by_its_leftover_odds():
    """A suit glyph as like one enrolled suit as another, which the generic reader takes for junk with
    its little suit odds leaning to clubs, is no sure club after enrolment (an unseen deck's spade was
    read a club at 0.9996); where the enrolled glyphs tell the suits apart, they choose."""
    from vision.features import N_FEATURES
    from vision.model import CLASSES, SUIT_CLASSES
    from vision.profile import DeckProfile

    rng = np.random.default_rng(4)
    glyph = rng.normal(size=N_FEATURES).astype(np.float32)
    codes = np.array(["QS", "QH", "QD", "QC"])
    alike = np.stack([glyph + 0.15 * rng.normal(size=N_FEATURES) for _ in codes]).astype(np.float32)
    profile = DeckProfile(codes, alike, alike, np.zeros((0, 1), np.float32))
    p = np.zeros((2, len(CLASSES)), np.float32)
    p[0, CLASSES.index("Q")] = 1.0
    p[1, CLASSES.index("junk")] = 0.99
    p[1, list(SUIT_CLASSES)] = [0.0005, 0.0005, 0.0005, 0.0085]  # junk, leaning to clubs
    feats = np.stack([glyph, glyph])
    suits = profile.weigh(feats, p)[1, list(SUIT_CLASSES)]
    assert suits.max() < 0.6, suits
    # One enrolled glyph plainly nearer: the enrolment reads it so, whatever the generic leftovers.
    plain = alike.copy()
    plain[0] = glyph
    plain[1:] = glyph + rng.normal(size=(3, N_FEATURES)).astype(np.float32)
    suits = DeckProfile(codes, plain, plain, np.zeros((0, 1), np.float32)).weigh(feats, p)[1, list(SUIT_CLASSES)]
    assert suits[0] > 0.9, suits
