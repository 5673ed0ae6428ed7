"""The two shipped networks (``vision/models/*.onnx``), loaded once per process with ONNX Runtime on the CPU.

One thread each: the bot reads photos beside the solver and the chat, and the
time a photo costs is then the CPU time it takes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

MODELS = Path(__file__).resolve().parent / "models"


@cache
def _session(name: str) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(MODELS / name), options, providers=["CPUExecutionProvider"])


def find_tiles(canvas: np.ndarray) -> np.ndarray:
    """The finder's output (1x5x80x80) for one 1x3x320x320 canvas."""
    out: np.ndarray = _session("finder.onnx").run(None, {"canvas": canvas})[0]
    return out


def read_tiles(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reader's logits for nx3x48x48 crops: numbers (nx15) and colours (nx4)."""
    numbers, colours = _session("reader.onnx").run(None, {"tiles": crops})
    return np.asarray(numbers), np.asarray(colours)
