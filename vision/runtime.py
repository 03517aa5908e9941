"""The networks' run time: an onnxruntime session of a shipped ONNX model (the corner CNN, the index
detector).  No torch at run time."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def session(path: Path) -> Any:
    """An onnxruntime session of the model at ``path``, one thread a pass: the networks are small (a
    thread pool costs more than it gives), and a server's requests are read side by side by its own
    workers.  A session's ``run`` may be called from several threads at once (OpenCV's dnn network,
    used before, may not).  onnxruntime is imported here, when a network is first loaded."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
