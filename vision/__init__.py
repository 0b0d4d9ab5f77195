"""Vision: capture, localisation, classification, observations, tracking and the synthetic renderer.

Not built yet: the camera pipeline arrives with issues 4 and 5.
"""
