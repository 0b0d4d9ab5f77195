"""What the command line prints as JSON reads back equal: strings exactly as they are, numbers'
lists and small objects on one line for people to read."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from azulcam.cli.common import dump_json

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


def test_runs_of_spaces_in_strings_are_kept():
    data = {"players": ["two  spaces", " lead", "tab\there"], "boards": [{"name": "a   b", "corners": [[1, 2], [3, 4]]}]}
    text = dump_json(data)
    assert json.loads(text) == data and '"two  spaces"' in text
    assert '"corners": [[1, 2], [3, 4]]' not in text and "[1, 2]" in text  # numbers' lists on one line


@given(JSON)
def test_what_is_printed_reads_back_equal(data):
    assert json.loads(dump_json(data)) == data
