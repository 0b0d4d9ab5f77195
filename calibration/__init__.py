"""Calibration: board layouts (slot geometry as data), calibration profiles, colour references.

Not built yet: the layouts arrive with issue 4.
"""
