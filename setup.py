"""The C rules cores, for search (engine/fast.py); everything else is in pyproject.toml.

``optional=True``: an install without a C compiler still works, and the engine falls back to Python.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("azulcam.engine._azul_core", ["engine/_azul_core.c"], optional=True, extra_compile_args=["-O2"]),
])
