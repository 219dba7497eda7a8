"""bench/fitting.py: what the fit scripts share (the writer of analyzer/data's fitted figures, the log loss)."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from fitting import DATA, write_variant

# The shipped files and the script (and feature names) that wrote them before the writer was shared.
SHIPPED = [("reader.json", "bench/fit_reader.py", True), ("reading.json", "bench/fit_reading.py", False)]


@pytest.mark.parametrize(("name", "script", "has_features"), SHIPPED)
def test_each_shipped_entry_written_again_gives_the_same_bytes(
    name: str, script: str, has_features: bool, tmp_path: Path
) -> None:
    shipped = (DATA / name).read_bytes()
    data = json.loads(shipped)
    assert data["script"] == script and ("features" in data) is has_features
    shutil.copy(DATA / name, tmp_path / name)
    for variant, entry in data["variants"].items():
        features = data["features"] if has_features else None
        path = write_variant(name, script, variant, entry, features=features, folder=tmp_path)
        assert path == tmp_path / name and path.read_bytes() == shipped


def test_a_new_file_is_made_and_other_variants_are_kept(tmp_path: Path) -> None:
    path = write_variant("x.json", "bench/a.py", "classic", {"near": 0.5}, folder=tmp_path)
    assert json.loads(path.read_text()) == {"script": "bench/a.py", "variants": {"classic": {"near": 0.5}}}
    write_variant("x.json", "bench/b.py", "megajogos", {"near": 0.25}, features=("f", "g"), folder=tmp_path)
    assert json.loads(path.read_text()) == {
        "script": "bench/b.py",
        "features": ["f", "g"],
        "variants": {"classic": {"near": 0.5}, "megajogos": {"near": 0.25}},
    }
    assert path.read_text().endswith("}\n")


def test_log_loss_is_the_mean_negative_log_likelihood() -> None:
    from fitting import log_loss

    assert log_loss([0.5, 0.5], [1, 0]) == pytest.approx(math.log(2))
    assert log_loss([0.9, 0.2], [1, 0]) == pytest.approx(-(math.log(0.9) + math.log(0.8)) / 2)
    assert log_loss([1.0, 0.0], [0, 1]) == pytest.approx(-math.log(1e-12))  # held off 0 and 1
    assert log_loss([], []) == 0
