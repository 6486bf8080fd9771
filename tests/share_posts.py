"""How many real posts of the clones are read right (issue 38, point 8).

``python tests/share_posts.py [FILE]`` prints, for each post of FILE (by default
tests/fixtures/shares/real-posts.json; ``held-out`` names held-out-posts.json beside it, the posts
gathered after the parser was tuned, to measure it on posts it was not tuned to), whether it was
read right and, if not, what came out; then the fraction. A post is read right
when its shares come out as listed (game, number, guesses, rows, and whether it may be
recorded: a post whose header has no grid is refused, with a reason), and a post of a game the
bot does not play gives no share and names that game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.shares import parse_shares

FIXTURES = Path(__file__).parent / "fixtures" / "shares"
POSTS = FIXTURES / "real-posts.json"
HELD_OUT = FIXTURES / "held-out-posts.json"


def load(path: Path = POSTS) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))


def misread(post: dict[str, Any]) -> str | None:
    """What was read wrong in ``post`` (None: read right)."""
    result = parse_shares(post["text"])
    got = [
        {"game": s.game, "puzzle": s.puzzle, "guesses": s.boards[0].guesses,
         "rows": s.to_json()["boards"][0]["rows"], "recordable": s.recordable}
        for s in result.shares
    ]  # fmt: skip
    wanted = [{"recordable": True, **share} for share in post["shares"]]
    for want, share, read in zip(wanted, got, result.shares, strict=False):
        if "boards" in want:  # a multi-board share: every board's guesses, not only the first's
            read_boards = [board.guesses for board in read.boards]
            share["boards"] = read_boards
    unplayed = [u.title for u in getattr(result, "unplayed", [])]
    if got != wanted:
        return f"read {got}, problems {result.problems}"
    if unplayed != post.get("unplayed", []):
        return f"games not played: {unplayed}, problems {result.problems}"
    if any(not share["recordable"] for share in wanted) and not result.problems:
        return "refused without a reason"
    return None


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else POSTS
    posts = load(HELD_OUT if argv[:1] == ["held-out"] else path)
    right = 0
    tally: dict[str, list[int]] = {}  # per batch and per clone: [right, posts]
    for post in posts:
        wrong = misread(post)
        right += wrong is None
        for key in (f"batch {post.get('batch', 1)}", post["clone"]):
            tally.setdefault(key, [0, 0])
            tally[key][0] += wrong is None
            tally[key][1] += 1
        print(f"{'ok ' if wrong is None else 'BAD'} {post['clone']}: {post['text'].strip()[:30]!r}")
        if wrong:
            print(f"    {wrong[:300]}")
    for key, (ok, count) in sorted(tally.items()):
        print(f"  {key}: {ok} of {count}")
    print(f"{right} of {len(posts)} real posts read right ({100 * right / len(posts):.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
