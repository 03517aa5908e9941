"""The corner CNN is one network per process: threads reading at once each get their own corners' odds."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from vision.cnn import load_cnn
from vision.config import DEFAULT_CONFIG
from vision.read import corner_at
from vision.tools.synth import shoe_image


def test_threads_reading_at_once_get_their_own_corners_odds():
    corners = []
    for i, code in enumerate(("5S", "KH", "9D", "2C")):
        img, label = shoe_image(code, np.random.default_rng(i))
        corners.append(corner_at(img, np.asarray(label["corners"], np.float32), DEFAULT_CONFIG))
    cnn = load_cnn()
    alone = [cnn.probabilities([c]) for c in corners]

    def read(i: int) -> bool:
        kind, suit = cnn.probabilities([corners[i % 4]])
        return np.allclose(kind, alone[i % 4][0]) and np.allclose(suit, alone[i % 4][1])

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert all(pool.map(read, range(400)))
