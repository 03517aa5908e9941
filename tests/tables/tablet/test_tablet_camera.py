"""The tablet's camera (Playwright, headless Chromium at 1280x800, Chromium's fake camera playing a
video made from a card image of the project's own generator, ``vision.tools.synth``): a card held still
under the camera is captured by itself and read by the real recogniser; a tap captures too."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tables.models import Round
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.tables.tablet.test_tablet_rounds import needs
from tests.tables.tablet.test_tablet_trust import open_blackjack, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

W, H, FPS = 640, 480, 10


def _frame_of_card(code: str, seed: int) -> Any:
    """A 640x480 camera view of a generated card on the felt (the generator's own background, widened)."""
    import cv2
    import numpy as np

    from vision.tools.synth import random_style, shoe_image

    rng = np.random.default_rng(seed)
    img, _ = shoe_image(code, rng, random_style(rng, finnish=False))
    scale = min((H - 20) / img.shape[0], (W - 20) / img.shape[1])
    img = cv2.resize(img, (int(img.shape[1] * scale), int(img.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    top, left = (H - img.shape[0]) // 2, (W - img.shape[1]) // 2
    return cv2.copyMakeBorder(img, top, H - img.shape[0] - top, left, W - img.shape[1] - left, cv2.BORDER_REPLICATE)


def card_video(code: str, path: Path) -> Path:
    """A Y4M video: one second of empty felt, then the card held still for four; the first generated
    card that the real recogniser reads surely after the video's colour subsampling and a JPEG."""
    import cv2
    import numpy as np

    from vision import recognize

    for seed in range(40):
        frame = _frame_of_card(code, seed)
        i420 = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420)
        seen = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
        ok, buf = cv2.imencode(".jpg", seen, [cv2.IMWRITE_JPEG_QUALITY, 90])
        cards = recognize(cv2.imdecode(buf, cv2.IMREAD_COLOR)) if ok else []
        if len(cards) == 1 and cards[0]["code"] == code and cards[0]["confidence"] >= 0.99:
            break
    else:
        raise AssertionError(f"no generated view of {code} reads surely")
    felt = np.empty_like(frame)
    felt[:] = frame[2, 2]  # the background's own colour, no card
    empty = cv2.cvtColor(felt, cv2.COLOR_BGR2YUV_I420)
    with path.open("wb") as f:
        f.write(f"YUV4MPEG2 W{W} H{H} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for n in range(5 * FPS):
            f.write(b"FRAME\n" + (empty if n < FPS else i420).tobytes())
    return path


@pytest.fixture
def camera_browser(tmp_path: Path) -> Any:
    import shutil

    if not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    playwright = pytest.importorskip("playwright.sync_api")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    video = card_video("9S", tmp_path / "card.y4m")
    args = [*CHROMIUM_ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]  # fmt: skip
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
        yield b
        b.close()


def test_a_card_held_still_under_the_camera_is_captured_by_itself_and_a_tap_captures_too(
    camera_browser, live_server, demo_casino, dealer
):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(camera_browser, live_server, table, dealer, ["1-main-500"])
    page.context.grant_permissions(["camera"])
    page.click("#btn-camera")
    page.wait_for_selector("#camera-video:not([hidden])")
    page.wait_for_function("document.getElementById('camera-video').videoWidth > 0")
    # Felt, then the card held still: it is captured and read without a tap.
    page.wait_for_selector("#hands [data-code='9S']", timeout=30_000)
    page.wait_for_timeout(6000)  # the card lies there (the video loops: felt, the same card): not read again
    rnd = Round.objects.get(table=table)
    assert [c.code for c in rnd.cards.order_by("seq")] == ["9S"]
    shot(page, "tablet-camera.png")
    # A tap captures whatever is in view: tapped while the card is there (the video loops through felt).
    page.wait_for_selector("#camera-state:has-text('card read: place the next one')", timeout=15_000)
    page.click("#btn-capture")
    page.wait_for_function("document.querySelectorAll('#hands .playing-card').length >= 2", timeout=30_000)
    cards = list(rnd.cards.order_by("seq"))
    assert [c.code for c in cards] == ["9S", "9S"]
    assert all(c.source == "scan" and c.confidence >= 0.9 and len(c.image_sha256) == 64 for c in cards)
    needs(page, "card")
    # The camera is remembered on this tablet: after a reload it is back on.
    page.reload()
    page.wait_for_selector("#camera-video:not([hidden])")
