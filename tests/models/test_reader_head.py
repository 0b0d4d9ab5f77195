"""The reading model's last layer, open to a table memory: its ``features`` output and shipped head
give back its own probabilities (what a refit starts from must be the model the reader ships)."""

import numpy as np

from azulcam.vision.classify import load_reader


def probabilities(logits: np.ndarray) -> np.ndarray:
    """The model's 15 logits as its output: presence first, then a softmax over the kinds."""
    present = 1.0 / (1.0 + np.exp(-logits[:, :1]))
    kinds = np.exp(logits[:, 1:] - logits[:, 1:].max(axis=1, keepdims=True))
    return np.concatenate([1.0 - present, present * kinds / kinds.sum(axis=1, keepdims=True)], axis=1)


def test_features_and_head_give_the_models_probabilities() -> None:
    model = load_reader()
    patches = np.random.default_rng(0).integers(0, 256, (40, 32, 32, 9), dtype=np.uint8)
    probs, features = model.features(patches)
    weight, bias = model.head()
    assert features.shape == (40, weight.shape[1]) and weight.shape[0] == len(model.info.labels)
    np.testing.assert_allclose(probs, model.probabilities(patches), atol=1e-6)
    np.testing.assert_allclose(probabilities(features.astype(np.float64) @ weight.T + bias), probs, atol=1e-5)
    # The head is not any head: another one gives other answers.
    assert np.abs(probabilities(features @ weight[::-1].T + bias) - probs).max() > 0.1
