"""The synthetic table: the renderer, its art families, game videos, the demo photos and the
positions data sets draw.

A tool for training, tests, benchmarks and the demo, never part of the reader: nothing in
``azulcam.vision`` imports it, and it imports nothing of the reader (the training samples, cut
by the reader's own crop code, are :mod:`azulcam.models.samples`).
"""
