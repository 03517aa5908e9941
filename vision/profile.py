"""Deck enrolment: a casino teaches the reader its own cards.

``enroll(dirs)`` reads labelled scans (``labels.json`` beside them, in the format of
shared/data/cards-dev) and keeps, for every card, the index glyphs as this deck prints them: the
rank glyph and the suit glyph that the reader's own segmentation cuts from each index corner, as the
classifier's features (``features.glyph_features``), from each of the reader's three ink cuts.  At
read time (``DeckProfile.weigh``) a rank (suit) glyph close to an enrolled one is weighed toward the
rank (suit) it was enrolled as; a glyph like none enrolled leaves the generic classifier's read as
it is.  The profile rides on the classifier (``Mlp.profile``), so every corner read, shoe scan or
table scene, uses it.

The profile file is an ``.npz`` with a header (``format``, ``version``, ``meta``); a file that is
not one, or of another version, is a ``ValueError`` naming it.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from .arrays import F32, I64, U8, Floats, f32, u8
from .config import DEFAULT_CONFIG, RecognizerConfig
from .features import N_FEATURES, PROFILE, SIDE
from .model import CLASSES, RANK_CLASSES, RANK_OF, SUIT_CLASSES, Mlp, load_model
from .read import corner_at

FORMAT = "vision-deck-profile"
VERSION = 1
RANKS = "A23456789TJQK"
SUITS = "SHDC"
CODES = [r + s for s in SUITS for r in RANKS] + ["JK"]
_SHAPE = SIDE * SIDE + 2 * PROFILE  # the glyph image and its ink profiles: the part compared
_RANK_CLASS = np.array([CLASSES.index({"T": "10"}.get(r, r)) for r in RANKS])  # rank -> its standard class
_CLASS_RANK = np.array([RANKS.index(RANK_OF[CLASSES[c]]) for c in RANK_CLASSES])  # rank class -> rank
_SUIT_CLASS = np.array([CLASSES.index(s) for s in SUITS])


def parse_code(raw: object) -> str | None:
    """A card code as the rules write it (``AS``, ``TH``, ``10h``, ``JK``), or None when it is none."""
    if not isinstance(raw, str):
        return None
    s = raw.strip().upper()
    if s.startswith("10"):
        s = "T" + s[2:]
    return s if s in CODES else None


def _vectors(feats: F32) -> F32:
    """The compared part of glyph features (N, F), centred and of unit length (rows)."""
    v = feats[:, :_SHAPE].astype(np.float32)
    v = v - v.mean(axis=1, keepdims=True)
    unit: F32 = v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-9)  # (numpy's stubs: norm is Any)
    return unit


class _Enrolled(NamedTuple):
    """The enrolled glyphs of one kind (rank or suit), grouped by class so that one reduceat gives
    each class's nearest glyph."""

    vecs: F32  # (N, _SHAPE): ``_vectors`` of the glyphs, class by class
    classes: I64  # (C,): the classes enrolled, ascending
    starts: I64  # (C,): where each class's rows begin in ``vecs``


def _enrolled(of: I64, feats: F32) -> _Enrolled:
    order = np.argsort(of, kind="stable")
    classes, starts = np.unique(of[order], return_index=True)
    return _Enrolled(_vectors(feats[order]), classes, starts.astype(np.int64, copy=False))


@dataclass(frozen=True, eq=False)
class DeckProfile:
    """Enrolled index glyphs: for sample i, its card ``codes[i]`` and the features of its rank glyph
    and suit glyph (``rank_feats[i]``, ``suit_feats[i]``)."""

    codes: npt.NDArray[np.str_]  # (N,)
    rank_feats: F32  # (N, N_FEATURES)
    suit_feats: F32  # (N, N_FEATURES)
    joker_maps: F32  # (K, JOKER_MAP): the enrolled Jokers' corners (``corner_map``)
    meta: dict[str, Any] = field(default_factory=dict)
    _ranks: _Enrolled = field(init=False, repr=False)
    _suits: _Enrolled = field(init=False, repr=False)

    def __post_init__(self) -> None:
        cards = np.array([c != "JK" for c in self.codes], bool)
        ranks = np.array([RANKS.index(c[0]) for c in self.codes[cards]], np.int64)
        suits = np.array([SUITS.index(c[1]) for c in self.codes[cards]], np.int64)
        object.__setattr__(self, "_ranks", _enrolled(ranks, self.rank_feats[cards]))
        object.__setattr__(self, "_suits", _enrolled(suits, self.suit_feats[cards]))

    def __len__(self) -> int:
        return len(self.codes)

    def cnn_share(self) -> float:
        """The share of the deck's enrolled cards (Jokers aside) that the corner CNN named as they were
        enrolled (``meta["cnn_named"]``: named right, of; ``_cnn_names``); 0 for a profile enrolled before
        it was counted (its scenes are read by the perceptron, as they were)."""
        named = self.meta.get("cnn_named")
        if not (isinstance(named, list) and len(named) == 2 and all(isinstance(n, int) for n in named)) or named[1] <= 0:
            return 0.0
        return min(max(float(named[0]) / float(named[1]), 0.0), 1.0)

    def joker_likeness(self, corner: U8) -> float:
        """How much an index corner crop (upright, canonical) looks like an enrolled Joker's corner
        (correlation of ``corner_map``; 0 when no Joker was enrolled or the corner is blank)."""
        if not len(self.joker_maps):
            return 0.0
        return float(np.max(self.joker_maps @ corner_map(corner)))

    @staticmethod
    def _best(vecs: F32, enrolled: _Enrolled, k: int) -> F32:
        """(M, k): each glyph's highest correlation with an enrolled glyph of each class (-1: none enrolled)."""
        best = np.full((len(vecs), k), -1.0, np.float32)
        if len(enrolled.vecs):
            # A glyph or two against many: einsum's own loop.  BLAS would split so thin a product
            # across threads, which on a busy machine took 20-40 ms instead of under one.
            sims = np.einsum("ij,kj->ik", vecs, enrolled.vecs) if len(vecs) <= 4 else vecs @ enrolled.vecs.T
            best[:, enrolled.classes] = np.maximum.reduceat(sims, enrolled.starts, axis=1)
        return best

    def rank_likeness(self, feats: F32, config: RecognizerConfig = DEFAULT_CONFIG) -> Floats:
        """(M,): how surely each glyph is one of the enrolled rank glyphs (0 to 1)."""
        best = self._best(_vectors(feats), self._ranks, 13).max(axis=1)
        return _weight(best, config.profile_match_lo, config.profile_match_hi)

    def weigh(self, feats: F32, p: F32, config: RecognizerConfig = DEFAULT_CONFIG) -> F32:
        """Class probabilities ``p`` (M, classes) of glyphs ``feats`` whose first row is a rank
        glyph and second a suit glyph, with those two rows weighed by the enrolled glyphs.

        A glyph whose nearest enrolled glyph correlates ``profile_match_hi`` or more is read as
        the enrolled class, the generic odds (floored at ``profile_floor``) breaking near ties; from
        ``profile_match_lo`` to there the two reads are mixed; below, the generic read stands
        (suits: ``profile_suit_lo`` and ``profile_suit_hi``)."""
        out = p.copy()
        vecs = _vectors(feats[:2])
        rank_best = self._best(vecs[:1], self._ranks, 13)[0]
        suit_best = self._best(vecs[1:2], self._suits, 4)[0]
        for row, best, classes, generic, lo, hi in (
            (0, rank_best, _RANK_CLASS, np.bincount(_CLASS_RANK, weights=p[0, list(RANK_CLASSES)], minlength=13),
             config.profile_match_lo, config.profile_match_hi),
            (1, suit_best, _SUIT_CLASS, p[1, list(SUIT_CLASSES)], config.profile_suit_lo, config.profile_suit_hi),
        ):
            w = float(_weight(best.max(keepdims=True), lo, hi)[0])
            if w <= 0.0:
                continue
            # The generic odds as they are, not renormalised over this kind of glyph: where the generic
            # reader calls the glyph junk (a large suit it does not know), its leftover odds among the
            # suits are no read, and the enrolled glyphs choose (an unseen deck's spade, near-junk
            # generically and a little likelier a club, was read a club at 0.9996 after enrolment).
            q = np.exp(config.profile_sharpness * (best - best.max())) * (generic + config.profile_floor)
            enrolled = np.zeros(p.shape[1])
            enrolled[classes] = q / q.sum()
            out[row] = (1 - w) * p[row] + w * enrolled
        return out

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {**self.meta, "samples": len(self)}
        with open(path, "wb") as f:  # (a file object: numpy adds no ".npz" to the name given)
            np.savez_compressed(
                f, format=np.array(FORMAT), version=np.array(VERSION), meta=np.array(json.dumps(meta)),
                codes=self.codes.astype("<U2"), rank_feats=self.rank_feats.astype(np.float32),
                suit_feats=self.suit_feats.astype(np.float32), joker_maps=self.joker_maps.astype(np.float32),
            )  # fmt: skip
        return path


JOKER_MAP = 12 * 20


def corner_map(corner: U8) -> F32:
    """An index corner crop (h, w, 3) BGR as a small map of its ink (12 x 20, centred, unit length;
    zeros for a blank corner): what a Joker without an index shows there (its art, or nothing)."""
    from .index_reader import ink_levels

    grey, lo, hi, _ = ink_levels(corner)
    ink = np.clip((hi - grey.astype(np.float32)) / max(hi - lo, 40.0), 0.0, 1.0)
    small = f32(cv2.resize(ink, (12, 20), interpolation=cv2.INTER_AREA)).ravel()
    v: F32 = small - small.mean()
    n = float(np.linalg.norm(v))
    return (v / n).astype(np.float32) if n > 1e-3 else np.zeros_like(v)


def _weight(best: Floats, lo: float, hi: float) -> Floats:
    weight: Floats = np.clip((best - lo) / (hi - lo), 0.0, 1.0)
    return weight


def load_profile(path: str | Path) -> DeckProfile:
    """Read a profile written by ``DeckProfile.save``; ValueError naming the file when it is not one."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such deck profile")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ValueError(f"{path}: not a deck profile (unreadable: {exc})") from None
    if "format" not in arrays or str(arrays["format"]) != FORMAT:
        raise ValueError(f"{path}: not a deck profile (no '{FORMAT}' header)")
    version = arrays.get("version")
    if version is None or version.shape != () or int(version) != VERSION:
        raise ValueError(f"{path}: deck profile version {None if version is None else version.tolist()} "
                         f"is not supported (this reader reads version {VERSION}); enrol the deck again")
    try:
        meta = json.loads(str(arrays["meta"]))
        codes, rank_feats, suit_feats = arrays["codes"], arrays["rank_feats"], arrays["suit_feats"]
        joker_maps = arrays["joker_maps"]
    except (KeyError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: corrupt deck profile ({exc})") from None
    n = len(codes)
    if (rank_feats.shape != (n, N_FEATURES) or suit_feats.shape != (n, N_FEATURES) or joker_maps.ndim != 2
            or joker_maps.shape[1] != JOKER_MAP or not all(c in CODES for c in codes.tolist())):
        raise ValueError(f"{path}: corrupt deck profile (codes and glyph features do not match)")
    if not (np.isfinite(rank_feats).all() and np.isfinite(suit_feats).all() and np.isfinite(joker_maps).all()):
        raise ValueError(f"{path}: corrupt deck profile (glyph features are not finite)")
    return DeckProfile(codes.astype(str), rank_feats.astype(np.float32), suit_feats.astype(np.float32),
                       joker_maps.astype(np.float32), meta)


_CACHE: dict[str, tuple[int, int, DeckProfile]] = {}


def cached_profile(path: str | os.PathLike[str]) -> DeckProfile:
    """``load_profile``, once per file and modification (path, mtime and size)."""
    key = os.path.abspath(path)
    try:
        st = os.stat(key)
    except OSError:
        raise ValueError(f"{path}: no such deck profile") from None
    hit = _CACHE.get(key)
    if hit is not None and hit[:2] == (st.st_mtime_ns, st.st_size):
        return hit[2]
    profile = load_profile(key)
    _CACHE[key] = (st.st_mtime_ns, st.st_size, profile)
    return profile


def resolve(profile: DeckProfile | str | os.PathLike[str] | None) -> DeckProfile | None:
    """The profile to read with: the one given (loaded if a path), else the one the environment
    variable ``VISION_PROFILE`` names, else none (the generic reader)."""
    if profile is None:
        env = os.environ.get("VISION_PROFILE", "").strip()
        return cached_profile(env) if env else None
    if isinstance(profile, DeckProfile):
        return profile
    if isinstance(profile, (str, os.PathLike)):
        return cached_profile(profile)
    raise ValueError(f"profile must be a path or a DeckProfile, got {type(profile).__name__}")


def model_with(profile: DeckProfile | None) -> Mlp:
    """The shipped classifier, reading with ``profile``."""
    model = load_model()
    return model if profile is None else replace(model, profile=profile)


# Enrolment ----------------------------------------------------------------------------------------


class _Recorder:
    """Stands in for a profile during enrolment: keeps the rank and suit glyph features of the
    corner read last, and leaves the read as it is."""

    def __init__(self) -> None:
        self.got: tuple[F32, F32] | None = None

    def weigh(self, feats: F32, p: F32, config: RecognizerConfig = DEFAULT_CONFIG) -> F32:
        self.got = (feats[0].copy(), feats[1].copy())
        return p

    def rank_likeness(self, feats: F32, config: RecognizerConfig = DEFAULT_CONFIG) -> Floats:
        return np.zeros(len(feats))

    def joker_likeness(self, corner: U8) -> float:
        return 0.0

    def cnn_share(self) -> float:
        return 0.0


def _read_image(path: Path) -> U8:
    if not path.is_file():
        raise ValueError(f"{path}: image file missing")
    data = np.fromfile(str(path), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ValueError(f"{path}: not an image, or a corrupt or truncated one")
    return u8(img)


def _corners(raw: object, where: str) -> F32:
    try:
        quad = np.asarray(raw, np.float64)
    except (TypeError, ValueError):
        quad = np.zeros(0)
    if quad.shape != (4, 2) or not np.isfinite(quad).all():
        raise ValueError(f"{where}: corners must be four [x, y] points (TL, TR, BR, BL as printed)")
    return quad.astype(np.float32)


def _shoe_quad(img: U8, path: Path, config: RecognizerConfig) -> F32:
    """The card of a one-card scan, found as the reader finds it (its orientation unknown)."""
    from .cards import card_contours, card_mask, portrait_order, quad_of

    contours = card_contours(card_mask(img), config)
    if not contours:
        raise ValueError(f"{path}: no card found (give its corners in labels.json)")
    quad = quad_of(contours[0])
    if quad is None:
        raise ValueError(f"{path}: no card found (give its corners in labels.json)")
    return portrait_order(quad)


def _samples(img: U8, quads: list[F32], config: RecognizerConfig, model: Mlp,
             recorder: _Recorder) -> list[tuple[F32, F32]]:
    """Rank and suit glyph features of the index top left in each of ``quads``, from each ink cut."""
    from .index_reader import _read_corner, ink_levels
    from .read import _px_scale

    h = config.card_height
    out: list[tuple[F32, F32]] = []
    for quad in quads:
        sharp = corner_at(img, quad, config)
        size = (sharp.shape[1], sharp.shape[0])
        scale = _px_scale(quad, config)
        for card_px in (None, *config.profile_enrol_card_px):
            corner, px = sharp, scale
            if card_px is not None and card_px < scale * h:
                # The same corner as a table scene's camera sees a card this many pixels tall: drawn
                # small, blurred a little, and enlarged again by the rectification.
                f = card_px / h
                small = cv2.resize(sharp, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
                small = cv2.GaussianBlur(small, (0, 0), 0.6)
                corner, px = u8(cv2.resize(small, size, interpolation=cv2.INTER_CUBIC)), f
            elif card_px is not None:
                continue
            levels = ink_levels(corner)
            for cut in ("otsu", "light", "dark"):
                recorder.got = None
                _read_corner(corner, model, config, cut=cut, rank_at=None, px_scale=px, levels=levels)
                if recorder.got is not None:
                    out.append(recorder.got)
    return out


def enroll(dirs: list[str | Path], config: RecognizerConfig = DEFAULT_CONFIG) -> DeckProfile:  # noqa: C901  (complexity ratchet: existing, to be split)
    """A profile of the decks scanned in ``dirs`` (each with a ``labels.json``: one card per image
    with its ``code`` and, best, its ``corners``; or table scenes whose ``cards`` each give ``code``
    and ``corners``).  Raises ValueError naming the file and field of any bad input."""
    if not dirs:
        raise ValueError("no folder of scans to enrol")
    recorder = _Recorder()
    model = replace(load_model(), profile=recorder)
    codes: list[str] = []
    ranks: list[F32] = []
    suits: list[F32] = []
    jokers: list[F32] = []
    cards: dict[str, int] = {}
    cnn_named = [0, 0]  # cards the corner CNN names as enrolled, of the cards (``DeckProfile.cnn_share``)
    for d in dirs:
        folder = Path(d)
        labels_path = folder / "labels.json"
        if not labels_path.is_file():
            raise ValueError(f"{labels_path}: missing (enrolment needs labelled scans)")
        try:
            labels = json.loads(labels_path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{labels_path}: not readable JSON ({exc})") from None
        images = labels.get("images") if isinstance(labels, dict) else None
        if not isinstance(images, list) or not images:
            raise ValueError(f"{labels_path}: 'images' must be a non-empty list")
        for i, item in enumerate(images):
            where = f"{labels_path}: images[{i}]"
            if not isinstance(item, dict) or not isinstance(item.get("file"), str):
                raise ValueError(f"{where}.file: missing")
            if "code" in item:
                code = parse_code(item["code"])
                if code is None:
                    raise ValueError(f"{where}.code: unknown card code {item['code']!r}")
                img = _read_image(folder / item["file"])
                quad = _corners(item["corners"], where) if "corners" in item else _shoe_quad(img, folder / item["file"], config)
                jobs = [(code, [quad, np.roll(quad, -2, axis=0)])]
            elif isinstance(item.get("cards"), list):
                jobs = []
                for j, card in enumerate(item["cards"]):
                    code = parse_code(card.get("code") if isinstance(card, dict) else None)
                    if code is None:
                        raise ValueError(f"{where}.cards[{j}].code: unknown card code {card.get('code') if isinstance(card, dict) else card!r}")
                    if "corners" not in card:
                        raise ValueError(f"{where}.cards[{j}].corners: missing (a scene's cards need their corners to be enrolled)")
                    quad = _corners(card["corners"], f"{where}.cards[{j}]")
                    # A card under another shows its top-left index only; the top card shows both.
                    jobs.append((code, [quad, np.roll(quad, -2, axis=0)] if card.get("top_of_stack") else [quad]))
                img = _read_image(folder / item["file"])
            else:
                raise ValueError(f"{where}.code: missing (or 'cards' with a code and corners per card)")
            for code, quads in jobs:
                cards[code] = cards.get(code, 0) + 1
                if code == "JK":
                    # What the Joker shows in its corners (art, a star, nothing): a Joker without an
                    # index is known by it.  ("JOKER" down the corner the generic reader reads.)
                    jokers.extend(m for m in (corner_map(corner_at(img, q, config)) for q in quads) if m.any())
                    continue
                cnn_named[0] += _cnn_names(img, quads, code, config)
                cnn_named[1] += 1
                for rank_f, suit_f in _samples(img, quads, config, model, recorder):
                    codes.append(code)
                    ranks.append(rank_f)
                    suits.append(suit_f)
    if not codes:
        raise ValueError("no index glyph found in any enrolled scan")
    keep = _novel(np.array(codes), np.stack(ranks), np.stack(suits), config.profile_duplicate)
    meta = {"format": FORMAT, "version": VERSION, "sources": [str(d) for d in dirs], "cards": cards,
            "cnn_named": cnn_named}
    return DeckProfile(np.array(codes, "<U2")[keep], np.stack(ranks)[keep], np.stack(suits)[keep],
                       np.array(jokers, np.float32).reshape(-1, JOKER_MAP), meta)


def _cnn_names(img: U8, quads: list[F32], code: str, config: RecognizerConfig) -> bool:
    """Whether the corner CNN names the card of the index corners top left in ``quads`` as ``code``: one
    corner or more read as it (its likeliest rank and suit), none as another card.  (A corner read as no
    index, as the other corner of a deck printing one is, neither names nor belies it.)"""
    from .cnn import corner_read, load_cnn  # (its probs are ranks x suits in this module's RANKS and SUITS)

    kind, suit = load_cnn().probabilities([corner_at(img, q, config) for q in quads])
    named = []
    for k, s in zip(kind, suit, strict=True):
        read = corner_read(k, s)
        if read.probs is not None:
            r, su = np.unravel_index(int(np.argmax(read.probs)), read.probs.shape)
            named.append(RANKS[int(r)] + SUITS[int(su)] == code)
    return bool(named) and all(named)


def _novel(codes: npt.NDArray[np.str_], ranks: F32, suits: F32, same: float) -> I64:
    """Indices of the samples worth keeping: of a card's samples whose rank and suit glyphs both
    correlate ``same`` or more with a sample kept before, one is enough (the profile stays small and
    fast to read with however many scans of a card are enrolled)."""
    rv, sv = _vectors(ranks), _vectors(suits)
    keep: list[int] = []
    for code in np.unique(codes):
        kept: list[int] = []
        for i in np.nonzero(codes == code)[0]:
            if kept and bool(np.any((rv[kept] @ rv[i] >= same) & (sv[kept] @ sv[i] >= same))):
                continue
            kept.append(int(i))
        keep.extend(kept)
    return np.array(sorted(keep), np.int64)
