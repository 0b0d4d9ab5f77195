"""The web dashboard and streaming overlay (``azulcam serve``): see README.md beside this file."""
