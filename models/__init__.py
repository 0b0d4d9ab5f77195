"""Shipped ONNX models, their model card and the training script (not built yet: issue 5)."""
