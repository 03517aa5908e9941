"""The run-time reader never imports ``vision.tools`` (synthesis, training, evaluation) nor the
matplotlib font machinery those need: a scan is read, and a deck enrolled, with numpy and OpenCV."""

import json
import subprocess
import sys
import textwrap

from vision.tools.synth import generate

_READ_AND_ENROL = textwrap.dedent(
    """
    import contextlib, io, json, sys

    import cv2

    import vision
    from vision.__main__ import main

    shoe, table, profile = sys.argv[1:4]
    labels = json.load(open(shoe + "/labels.json"))
    image = cv2.imread(shoe + "/" + labels["images"][0]["file"])
    vision.recognize(image)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["enroll", shoe, "--out", profile]) == 0
        scene = json.load(open(table + "/labels.json"))["images"][0]["file"]
        assert main(["recognize", "--profile", profile, "--json", table + "/" + scene]) == 0
    vision.recognize(image, profile=vision.load_profile(profile))
    print(json.dumps(sorted(m for m in sys.modules if m.startswith(("vision.tools", "matplotlib")))))
    """
)


def test_reading_and_enrolling_import_nothing_of_the_tools(tmp_path):
    generate(tmp_path / "shoe", "shoe", 3, 0)
    generate(tmp_path / "table", "table", 1, 0)
    done = subprocess.run(
        [sys.executable, "-c", _READ_AND_ENROL, str(tmp_path / "shoe"), str(tmp_path / "table"),
         str(tmp_path / "deck.profile")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []
