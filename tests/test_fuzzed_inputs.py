"""Every public format, mutated as a stranger's file may be, through the door that reads it:
a legal result or a clear refusal, never an internal error (``bench/fuzz.py`` runs 10,000)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azulcam.i18n import catalogue_data
from support.fuzzing import DOORS, attempt, mutate


@pytest.mark.parametrize("name", sorted(DOORS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(rng=st.randoms(use_true_random=False))
def test_a_mutated_input_is_read_or_refused_never_a_crash(name, rng):
    outcome, what = attempt(name, rng)
    assert outcome in ("read", "refused") and what
    if what.startswith("invalid"):  # the form's refusal: worded in both languages
        assert all(what in catalogue_data(lang) for lang in ("en", "fr")), what


@pytest.mark.parametrize("name", sorted(DOORS))
def test_every_valid_input_is_read(name):
    inputs, _, door = DOORS[name]
    outcomes = {door(data)[0] for data in inputs()}
    if name == "correction":  # some are refused by the game they are made on (a join's scores), by design
        assert "read" in outcomes
    else:
        assert outcomes == {"read"}


@given(rng=st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None, derandomize=True)
def test_a_mutation_leaves_the_original_alone(rng):
    original = {"a": [1, 2, {"b": "c"}], "d": None}
    kept = {"a": [1, 2, {"b": "c"}], "d": None}
    mutate(original, rng)
    assert original == kept
