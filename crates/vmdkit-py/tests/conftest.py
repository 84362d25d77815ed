"""Shared fixtures: the corpus of real files beside the repository (../shared/corpus).

Locally, tests that need it are skipped when it is missing; under CI=true they fail.
"""

import csv
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CORPUS = Path(os.environ.get("VMDKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
POSE = Path(os.environ.get("VMDKIT_POSE", ROOT.parent / "shared" / "pose"))


def _need(path: Path) -> Path:
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing (CI=true: tests never skip for missing data)")
        pytest.skip(f"{path} is missing")
    return path


@pytest.fixture(scope="session")
def corpus() -> Path:
    return _need(CORPUS)


@pytest.fixture(scope="session")
def manifest(corpus: Path) -> list:
    with open(corpus / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.fixture(scope="session")
def pose_dir() -> Path:
    return _need(POSE)
