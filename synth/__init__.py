"""The synthetic table: the renderer, its art families, game videos and training samples.

A tool for training, tests, benchmarks and the demo, never part of the reader: nothing in
``azulcam.vision`` imports it.
"""
