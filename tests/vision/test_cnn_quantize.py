"""The shipped corner CNN is the 8-bit integer form of a float network shipped beside it
(``train-cnn --quantize``): it reads held-out corners as its source does, about three times as fast."""

import json

import numpy as np
import onnx

from vision.cnn import MODEL_PATH, CornerCnn
from vision.tools import cnn_train
from vision.tools.cnn_data import corpus, split_fonts
from vision.tools.cnn_train import corner_outcome

FLOAT_PATH = MODEL_PATH.with_name("corner_cnn.fp32.onnx")


def _ops(path):
    return {node.op_type for node in onnx.load(str(path)).graph.node}


def _held_out(n=120):
    _, held = split_fonts()
    return corpus(n, 7, held)


def test_the_shipped_network_is_the_integer_form_of_the_float_one_beside_it():
    meta = json.loads(MODEL_PATH.with_suffix(".json").read_text())
    assert meta["quantized_from"] == FLOAT_PATH.name and FLOAT_PATH.with_suffix(".json").is_file()
    assert {"QuantizeLinear", "DequantizeLinear"} <= _ops(MODEL_PATH)
    assert "QuantizeLinear" not in _ops(FLOAT_PATH)


def test_the_integer_network_reads_held_out_corners_as_its_float_source_does():
    x, kinds, suits = _held_out()
    pk_i, ps_i = CornerCnn(MODEL_PATH).probabilities(list(x))
    pk_f, ps_f = CornerCnn(FLOAT_PATH).probabilities(list(x))
    assert (pk_i.argmax(axis=1) == pk_f.argmax(axis=1)).mean() >= 0.97  # 99.7% of 3,000 corners
    right_i, conf_i = corner_outcome(pk_i, ps_i, kinds, suits)
    right_f, _ = corner_outcome(pk_f, ps_f, kinds, suits)
    assert right_i.mean() >= right_f.mean() - 0.03  # 95.87% against 95.77% on 3,000 corners
    assert not (~right_i & (conf_i >= 0.99)).any()


def test_quantize_writes_an_integer_network_calibrated_anew(tmp_path, monkeypatch):
    # Fewer held-out corners than train-cnn draws, to keep the test short.
    monkeypatch.setattr(cnn_train, "HELD_PER_CHUNK", 200)
    monkeypatch.setattr(cnn_train, "QUANT_CALIBRATION", 160)
    out = tmp_path / "q.onnx"
    report = cnn_train.quantize(FLOAT_PATH, out, log=lambda _line: None)
    assert report["held_out_corners"] == 200 and report["accuracy"] >= 0.85
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["quantized_from"] == FLOAT_PATH.name and meta["t_kind"] > 0 and meta["t_suit"] > 0
    assert meta["outputs"] == ["kind", "suit"]
    assert "QuantizeLinear" in _ops(out)
    x, _, _ = _held_out(60)
    pk_q, _ = CornerCnn(out).probabilities(list(x))
    pk_f, _ = CornerCnn(FLOAT_PATH).probabilities(list(x))
    assert (pk_q.argmax(axis=1) == pk_f.argmax(axis=1)).mean() >= 0.9
    assert np.isfinite(pk_q).all()
