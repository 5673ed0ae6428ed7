"""Training of the shipped models (needs the optional ``train`` extra: PyTorch and ONNX).

Nothing here is imported at run time; ``photos`` alone (no PyTorch) is shared
with the benchmark and the tests, so all three split the photos the same way.
"""
