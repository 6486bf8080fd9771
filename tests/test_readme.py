"""The README's example histories are possible: a history no answer fits would make its
`check` and `hint` examples print an error instead of what the README says."""

import re
from pathlib import Path

import pytest

from engine.history import parse_history
from engine.solver.hints import hint
from engine.variants import get_variant

README = (Path(__file__).parent.parent / "README.md").read_text()
HISTORIES = re.findall(r'--history "([^"]+)"', README)


def test_the_readme_has_history_examples() -> None:
    assert HISTORIES


@pytest.mark.parametrize("history", HISTORIES)
def test_each_readme_history_fits_some_answer(history: str) -> None:
    variant = get_variant("wordle")
    assert hint(variant, parse_history(history, variant)).remaining > 0
