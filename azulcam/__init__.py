"""azulcam: watches a game of Azul or Azul: Summer Pavilion through a camera and keeps it.

The command-line entry point lives here; the work is done by ``azulcam.engine``,
``azulcam.vision``, ``azulcam.calibration`` and ``azulcam.dashboard``.
"""

__version__ = "0.1.0"
