"""Vision: from a photo of the table to an observation: registration, reading, decoding.

Nothing here imports the renderer (``azulcam.synth``): the reader relies on what every copy of the
game shares and on the user's own table as calibration saw it.
"""
