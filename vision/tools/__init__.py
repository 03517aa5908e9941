"""Synthesis, training and evaluation: the card and scene generator (``synth``), the glyph
rendering it and the training set draw with (``glyphs``, ``glyphset``), the index classifier's
training (``train``) and the measurement on a labelled folder (``evaluate``).

Never imported at run time: reading a scan (``vision.recognize``) and enrolling a deck need numpy
and OpenCV alone; these tools also need matplotlib's font machinery and the machine's fonts.
``tests/vision/test_tools_apart.py`` pins that.
"""
