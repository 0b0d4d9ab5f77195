"""The committed records replay, score as committed, and are remade byte for byte by their commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from azulcam.cli import main
from azulcam.engine.record import Record, final_state, score_report

RECORDS = Path(__file__).parents[2] / "fixtures" / "records"

COMMANDS = {
    "azul-2p-colored": ["--players", "2", "--seed", "1"],
    "azul-3p-grey": ["--players", "3", "--wall", "grey", "--seed", "2", "--bots", "greedy,random,greedy"],
    "azul-4p-colored-jokers": ["--players", "4", "--jokers", "--seed", "3", "--bots", "greedy,random,greedy,random"],
    "azul-2p-grey-jokers": ["--players", "2", "--wall", "grey", "--jokers", "--seed", "4"],
    "pavilion-2p-colored": ["--game", "pavilion", "--players", "2", "--seed", "11"],
    "pavilion-4p-grey": ["--game", "pavilion", "--side", "grey", "--players", "4", "--seed", "12",
                         "--bots", "greedy,random,greedy,random"],
}
TILES = {"azul": 100, "pavilion": 132}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_fixture_scores_as_committed(name: str) -> None:
    record = Record.load(RECORDS / f"{name}.json")
    expected = json.loads((RECORDS / f"{name}.score.json").read_text())
    report = score_report(record)
    assert report == expected
    state = final_state(record)
    assert state.is_over()
    assert sum(state.tile_counts()) == TILES[record.game]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_fixture_is_remade_by_its_command(name: str, tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    assert main(["play", *COMMANDS[name], "--out", str(out)]) == 0
    assert out.read_bytes() == (RECORDS / f"{name}.json").read_bytes()
