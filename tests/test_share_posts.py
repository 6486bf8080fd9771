"""Clones' shares as people really post them (issue 38, point 8): each real post of
tests/fixtures/shares/real-posts.json (README.md beside it names its source) is read with the
right game, number, score and rows, or refused with a reason. ``python tests/share_posts.py``
prints the fraction."""

import pytest

from engine.shares import parse_shares
from tests.share_posts import load, misread

POSTS = load()


def test_every_post_names_its_source() -> None:
    assert all(post["source"] and post["clone"] for post in POSTS)


@pytest.mark.parametrize("post", POSTS, ids=[f"{i}-{p['clone']}" for i, p in enumerate(POSTS)])
def test_each_real_post_is_read_right(post: dict) -> None:
    assert misread(post) is None


NYT = "Wordle 1,234 2/6\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"
DISCORD = (
    "Wordle 1,234 2/6\n:black_large_square::yellow_square::black_large_square:"
    ":white_large_square::black_large_square:\n" + ":green_square:" * 5
)


@pytest.mark.parametrize(
    "text",
    [
        DISCORD,  # Discord names its emoji in English in every language
        NYT.replace("⬛", "⬛\ufe0f"),  # with variation selectors
        NYT.replace("\n", " "),  # one line
        "wordle.at\n" + NYT,  # a site line above the header
    ],
)
def test_the_ways_a_grid_is_pasted_read_the_same(text: str) -> None:
    result = parse_shares(text)
    assert result.problems == []
    assert result.shares[0].to_json()["boards"][0]["rows"] == ["01000", "22222"]
