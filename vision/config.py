"""Thresholds of the recogniser, in one frozen object passed down the pipeline."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

WITNESS_MODES = ("off", "veto", "screen", "agree", "rescue", "arbitrate")


@dataclass(frozen=True, slots=True)
class RecognizerConfig:
    """Every tunable of the pipeline (sizes are fractions of the image or of the canonical card)."""

    card_width: int = 180  # canonical card, portrait (63 x 88 mm)
    card_height: int = 252
    max_side: int = 1600  # larger images are reduced to this longest side to find cards (corners are scaled back)
    min_card_area: float = 0.01  # fraction of the image area
    corner_w: float = 0.30  # index corner crop, fractions of the canonical card
    corner_h: float = 0.38
    corner_w_wide: float = 0.42  # table scenes: a corner read again this wide when ink is cut by the crop's right side
    unknown_below: float = 0.5  # below this confidence the code is "unknown" (with the best guesses)
    joker_no_index_confidence: float = 0.72  # a card whose corners hold no index (many Jokers print none)
    # A shoe scan's card in whose index corners neither the perceptron nor the corner CNN reads a rank,
    # both corners mostly paper with some ink (art, a frame, the card's edge): a Joker, asked (``read.weigh``).
    joker_art_confidence: float = 0.6
    joker_disputed_confidence: float = 0.85  # one corner reads "JOKER", the other a Jack (the word's J over its O): asked, the Joker first
    single_corner_factor: float = 0.9  # confidence when only one corner could be read
    index_prefilter: float = 0.1  # table scenes: below this a rank glyph as photographed is not worth reading
    index_spacing: float = 1.5  # table scenes: one index per this many rank heights (its own suit, a 10's digits)
    index_same_shape: float = 0.9  # table scenes: "rank" and "suit" this alike (correlation) are two pips
    index_on_white: float = 0.7  # table scenes: a card laid out from an index lies this much on the cards' white
    index_dark_ink: float = 0.55  # table scenes: in a blob too big for a glyph, ink darker than this part of the paper
    index_rank_score: float = 0.5  # table scenes: a hypothesis's rank glyph must look this much like a rank
    suit_px_blind: float = 4.5  # a suit this tall in the photograph (px) or less: spade/club, heart/diamond unreadable
    suit_px_sharp: float = 8.0  # from this tall on its shape is trusted
    suit_bays_px: float = 14.0  # a suit this tall in the photograph and in the rectified corner (px) shows a club's or heart's bays
    suit_bay_missing: float = 0.3  # ... and a club (heart) whose bays it does not show is weighed by this
    suit_core_below_px: float = 12.0  # a suit shorter than this in the photograph is read from its core too
    suit_core_fraction: float = 0.35  # the core: this darkest fraction of the suit's ink
    pip_min_px: float = 6.0  # a pip this tall in the photograph (px) or more can witness for a small index's suit
    pip_suit_mass: float = 0.8  # ... when it reads this surely as a suit (not a rank, letter or art)
    pip_shape_odds: float = 4.0  # table scenes: a face's pips whose grey shapes (``pip_shape``) sum to these log-odds name their suit
    red_threshold: float = 28.0  # mean R - max(G, B) of ink pixels above which the ink is red
    red_sure_margin: float = 30.0  # this far from the threshold the colour is plain
    # Deck enrolment (``profile.py``): a glyph's correlation with its nearest enrolled glyph.
    # (Plain digits of two sans-serif designs correlate 0.90-0.96, a glyph with itself on another
    # scan of its design mostly 0.97 or more; suits of two designs are more alike still.)
    profile_match_lo: float = 0.85  # a rank glyph less like an enrolled one: the enrolled glyphs say nothing (another design, art)
    profile_match_hi: float = 0.95  # from this on the glyph is read as the enrolled rank it is nearest
    profile_suit_lo: float = 0.93  # the same for suit glyphs
    profile_suit_hi: float = 0.98
    profile_sharpness: float = 30.0  # odds e^(this x correlation) between the classes' nearest enrolled glyphs
    profile_enrol_card_px: tuple[float, ...] = (170.0, 120.0)  # enrolment also keeps each corner as seen on cards this tall (scenes)
    profile_floor: float = 0.005  # the generic odds, floored at this, weigh the enrolled glyphs' odds (a sure generic read needs a clear match to turn)
    profile_duplicate: float = 0.97  # enrolment keeps one of a card's glyph samples this alike
    # An enrolled deck's table scenes are read by the corner CNN, with the perceptron reading with the
    # profile its witness (as an unseen deck's are), where at enrolment the CNN named this share of the
    # deck's cards or more (``DeckProfile.cnn_share``); a deck printing indices of its own (court letters
    # V, D, R: 4 of its 53 cards named wrong, 0.925) keeps the perceptron, which enrolment taught.
    # Above 1: never.
    profile_cnn_share: float = 0.97
    profile_joker_match: float = 0.85  # a corner with no index this like an enrolled Joker's: that Joker
    profile_joker_confidence: float = 0.93
    # Which classifier reads an index corner: "mlp" (glyphs cut from the ink, the perceptron) or "cnn"
    # (the corner CNN, ``cnn.py``, on the grey-level corner; an enrolled deck is still read by "mlp").
    # The default comes from the environment variable VISION_CORNER_READER.
    corner_reader: str = field(default_factory=lambda: os.environ.get("VISION_CORNER_READER", "mlp"))
    # Which classifier reads a table scene's index corners where ``corner_reader`` is "mlp" (shoe scans
    # are read by the perceptron and the CNN as before): "mlp", the perceptron with the CNN its witness
    # (``read.scene_witness``, in the mode ``cnn_witness_scenes``); "cnn", the corner CNN with the
    # perceptron its witness (``read.perceptron_witness``).  An enrolled deck only where the CNN named
    # its cards at enrolment (``profile_cnn_share``; else read with its profile by the
    # perceptron); not with ``cnn_witness_scenes`` "off" (no CNN in scenes at all).
    # The default, "cnn" since session 34 (heldout's unseen-face scenes 93.2 / 97.3% against
    # 92.5 / 96.8%, reads of 0.9 or more 267 against 231, none wrong: docs/vision.md), comes from
    # the environment variable VISION_SCENE_READER.
    scene_reader: str = field(default_factory=lambda: os.environ.get("VISION_SCENE_READER", "cnn"))
    # The corner CNN as a second witness of the perceptron's reads (``read.cnn_witness``): "off";
    # "veto", a sure read (>= witness_sure) is made unsure (witness_cap) when the CNN names another
    # card with confidence witness_veto or more; "agree", also a read the CNN names surely too is as
    # sure as the surer of the two; "rescue", also where the perceptron names no card (unknown, or a
    # Joker for want of an index) the CNN's read is taken with its own confidence if it names a
    # card; "arbitrate", also where the perceptron is unsure of its read and the CNN names another
    # card more surely, the CNN's read comes first, unsure (witness_cap).  The default, "arbitrate",
    # comes from the environment variable VISION_CNN_WITNESS.  A table scene's cards have a mode of
    # their own, ``cnn_witness_scenes`` (VISION_CNN_WITNESS_SCENES): "screen", a veto that also takes
    # an unsure card for no card where the CNN sees no rank index (``read.weigh``); "arbitrate", the
    # default since the corner CNN of 2026-11-26 (later), screens so too (``read.scene_witness``);
    # with the CNN before it, agreement made wrong reads sure (docs/vision.md).
    cnn_witness: str = field(default_factory=lambda: os.environ.get("VISION_CNN_WITNESS", "arbitrate"))
    cnn_witness_scenes: str = field(default_factory=lambda: os.environ.get("VISION_CNN_WITNESS_SCENES", "arbitrate"))
    # Whether the witness also weighs the reads of an enrolled deck (read with its profile): "on" (the
    # default since session 14: enrolled unseen faces read 99.31% of shoe scans with it, 98.52%
    # without, below the generic reader's 99.10%), or "off" (VISION_CNN_WITNESS_ENROLLED).
    cnn_witness_enrolled: str = field(default_factory=lambda: os.environ.get("VISION_CNN_WITNESS_ENROLLED", "on"))
    witness_sure: float = 0.9
    # Shoe scans: where the corner CNN reads both index corners as the same card, each surely and
    # together (their geometric mean, as ``read._combine`` takes it) with at least this confidence,
    # its read stands alone: the perceptron, the pips and the witness are not asked (two scans in three
    # of fonts the CNN never saw, none of those read wrong: docs/vision.md, session 29).  Above 1,
    # never (env VISION_CNN_ALONE).  Not with an enrolled deck, whose profile reads through the perceptron.
    cnn_alone: float = field(default_factory=lambda: float(os.environ.get("VISION_CNN_ALONE", "0.95")))
    # 0.5 since session 28: the wider CNN is less sure of a half-cut index than the one before (a 2 of
    # diamonds read 2 at 0.53-0.57 by it, at 0.61 by the old one, K at 0.996 by the perceptron).
    witness_veto: float = 0.5
    witness_cap: float = 0.85
    # Table scenes: a sure card stays sure only where the CNN's read of its top-left index names it
    # this surely (``read._doubted``); 0: never asked so (env VISION_WITNESS_DOUBT).
    witness_doubt: float = field(default_factory=lambda: float(os.environ.get("VISION_WITNESS_DOUBT", "0.5")))
    # "arbitrate": where both are unsure and disagree, the CNN's read comes first unless the perceptron's
    # is surer by more than this (chosen on recorded shoe reads of the unseen faces at other seeds).
    witness_margin: float = 0.1
    # Table scenes' "arbitrate" (``read.scene_witness``): where the perceptron and the CNN name different
    # cards, the CNN's read comes first, unsure (``witness_cap``), unless the perceptron's is surer by more
    # than this, sure or not.  Chosen on the scene witness's recorded reads of unseen faces (seeds 201-206,
    # docs/vision.md "Session 32"): where they disagree, the CNN was right in 264 of 294 unsure cards
    # and 12 of 15 sure ones.
    scene_witness_margin: float = 0.3
    # "arbitrate": where the CNN reads both of a card's index corners as a Joker's ("JOKER" down the
    # side, or blank paper), each with this probability or more, and the perceptron another card, the
    # Joker comes first, unsure (``read._cnn_joker``).
    witness_joker: float = 0.7
    # The CNN's "blank corner" counts only where most of the crop is paper: at least this share of it
    # within 40 grey levels of its paper (a Joker's blank corners: 0.63-0.93 on the development and
    # generated Jokers; noise, which the CNN was never shown, 0.30-0.33).
    blank_paper_share: float = 0.5
    # A shoe scan's card shows card stock in at least one index corner (``smooth_paper_share``): a
    # frame of noise or random pixels, taken whole for a card, is no card at all (it read as a sure
    # Joker through the "JOKER" column test).
    card_paper_share: float = 0.2
    # Shoe scans: where the index corners are read unsure, the face's pips are counted (``pips.pip_count``,
    # ``read.counted``): "on" (the default, env VISION_PIP_COUNTER) or "off".
    pip_counter: str = field(default_factory=lambda: os.environ.get("VISION_PIP_COUNTER", "on"))
    # Table scenes: the learned index detector (``detector.py``, ``models/index_detector.onnx``) adds a
    # hypothesis at each index centre it finds inside a card-white region to those of the glyph-pair
    # rules: "off" or "on".  Shoe scans never run it.  The default, "on" (with the scene screen:
    # docs/vision.md), comes from the environment variable VISION_INDEX_DETECTOR.
    index_detector: str = field(default_factory=lambda: os.environ.get("VISION_INDEX_DETECTOR", "on"))
    detector_peak: float = 0.4  # a detector peak this sure (0-1) or more is a hypothesis
    # Table scenes: the corner CNN reads the card at each detector peak that no card found accounts
    # for (``scene._peak_cards``; env ``VISION_PEAK_READER``, "on" or "off"), and names it, unsure,
    # when its read is at least ``peak_read_min``.
    peak_reader: str = field(default_factory=lambda: os.environ.get("VISION_PEAK_READER", "on"))
    peak_read_min: float = 0.5
    # Where a card's top-left index lies at a peak and the CNN reads another card there, and the card
    # is unsure, the CNN's read comes first unless the card is surer by more than this (chosen on 560
    # scenes of unseen faces, docs/vision.md "Session 18").
    peak_margin: float = 0.2
    # The peak pass names a Joker, unsure (``witness_cap``), where the CNN reads "JOKER" down a peak's
    # corner with this probability or more (over six draws of unseen-face scenes, every peak read so at
    # 0.5 or more lay at a Joker: docs/vision.md "Session 32").
    peak_joker: float = 0.9
    # A card height measured off a scene's outlines is not used where the index detector's peaks put the
    # cards at this many times smaller or larger (``scene._against_peaks``).
    peak_size_ratio: float = 1.5
    # Where the peaks put the cards this many times smaller than measured or more (but not
    # ``peak_size_ratio``), the scene is read at both sizes, and the one whose cards cover the cards' white
    # best is kept (``scene._peaks_doubt``).
    peak_size_doubt: float = 1.3

    def __post_init__(self) -> None:
        for name in ("corner_reader", "scene_reader"):
            if getattr(self, name) not in ("mlp", "cnn"):
                raise ValueError(f"{name} must be 'mlp' or 'cnn', got {getattr(self, name)!r}")
        for name in ("cnn_witness", "cnn_witness_scenes"):
            if getattr(self, name) not in WITNESS_MODES:
                raise ValueError(f"{name} must be one of {', '.join(WITNESS_MODES)}, got {getattr(self, name)!r}")
        for name in ("cnn_witness_enrolled", "pip_counter", "index_detector", "peak_reader"):
            if getattr(self, name) not in ("off", "on"):
                raise ValueError(f"{name} must be 'off' or 'on', got {getattr(self, name)!r}")
        for name, ok, what in _RANGES:
            if not ok(getattr(self, name)):
                raise ValueError(f"{name} must be {what}, got {getattr(self, name)!r}")


# The numbers a configuration checks: name, whether a value will do, and what it must be.
_RANGES: tuple[tuple[str, Callable[[float], bool], str], ...] = (
    ("cnn_alone", lambda v: 0.5 <= v, "0.5 or more (above 1: never)"),
    ("profile_cnn_share", lambda v: 0.0 < v, "more than 0 (above 1: never)"),
    ("witness_doubt", lambda v: 0.0 <= v < 1.0, "in [0, 1)"),
    ("detector_peak", lambda v: 0.0 < v < 1.0, "in (0, 1)"),
    ("peak_read_min", lambda v: 0.0 < v < 1.0, "in (0, 1)"),
    ("scene_witness_margin", lambda v: 0.0 <= v <= 1.0, "in [0, 1]"),
    ("peak_joker", lambda v: 0.0 < v <= 1.0, "in (0, 1]"),
    ("peak_margin", lambda v: 0.0 <= v <= 1.0, "in [0, 1]"),
    ("peak_size_ratio", lambda v: v > 1.0, "more than 1"),
    ("peak_size_doubt", lambda v: v > 1.0, "more than 1"),
)


DEFAULT_CONFIG = RecognizerConfig()
