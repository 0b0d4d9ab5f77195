"""The models shipped inside the package: found, checked against their SHA-256, opened on the CPU.

Both networks (the tile classifier and the loose-tile detector) load the same way, so that an
altered or truncated file is refused with the same clear reason whichever it is.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..engine.errors import CodedError
from ..engine.notice import Notice


class ShippedModelError(CodedError):
    """A shipped model that is missing, altered (SHA-256 mismatch) or unreadable: ``code`` and
    ``params`` (``model``, the model's name as a message; ``path``; the reason). Each network has
    its own kind, so that a reader can tell which one failed."""


def package_file(name: str) -> Path:
    """A file of the ``azulcam.models`` package (the ``models/`` folder)."""
    from importlib.resources import files

    return Path(str(files("azulcam.models") / name))


def verified_session(path: Path, what: str, error: type[ShippedModelError], digest_path: Path | None = None,
                     threads: int = 1) -> tuple[Any, str]:
    """An onnxruntime session of the model at ``path`` (CPU, ``threads`` threads) and its SHA-256, after
    checking the digest against ``digest_path`` (by default ``<path>.sha256``). Raises ``error`` naming the
    model (``what``: the catalogue's key of its name, ``model.name.detector``), the file and the reason:
    missing, digest file missing, digest mismatch, no onnxruntime, corrupt graph."""
    model = Notice(what)
    digest_path = digest_path if digest_path is not None else path.with_name(path.name + ".sha256")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error("model.missing", model=model, path=str(path), reason=exc.strerror or str(exc)) from exc
    try:
        expected = digest_path.read_text().split()[0].lower()
    except (OSError, IndexError) as exc:
        raise error("model.no_digest", path=str(digest_path)) from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise error("model.altered", model=model, path=str(path), expected=expected, actual=actual)
    try:
        import onnxruntime as ort
    except ImportError as exc:
        raise error("model.no_onnxruntime") from exc
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Idle pool threads would spin for a while after each run, taking the cores from the OpenCV
    # steps that come next in a frame.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = ort.InferenceSession(data, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for a corrupt graph
        raise error("model.corrupt", model=model, path=str(path), reason=str(exc)) from exc
    return session, actual
