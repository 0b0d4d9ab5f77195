"""Helpers the test suites share, importable as ``support`` (``pythonpath`` in pyproject.toml):
no test reaches into another test module or edits ``sys.path``."""
