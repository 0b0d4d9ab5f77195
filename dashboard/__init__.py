"""The web dashboard and streaming overlay (not built yet)."""
