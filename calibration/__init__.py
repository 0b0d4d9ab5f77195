"""Calibration: board layouts (slot geometry as data), the components' sizes (boards, tiles,
factory displays: :mod:`.geometry`), calibration profiles, colour references.
"""
