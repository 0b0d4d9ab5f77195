"""The C rules cores (engine/_*_core.c): built by ``pip install -e .``; optional, so that an install
without a compiler still works (engine/fast.py then reports the core missing and the Python
engine serves alone). Everything else about the package is in pyproject.toml."""

from setuptools import Extension, setup

_FLAGS = ["-O2", "-std=c11", "-Wall"]
_SEARCH = ["engine/_search.h"]  # the assistant's tree search, included by both cores

setup(ext_modules=[
    Extension("azulcam.engine._azul_core", ["engine/_azul_core.c"], depends=_SEARCH, optional=True,
              extra_compile_args=_FLAGS),
    Extension("azulcam.engine._pavilion_core", ["engine/_pavilion_core.c"], depends=_SEARCH, optional=True,
              extra_compile_args=_FLAGS),
])
