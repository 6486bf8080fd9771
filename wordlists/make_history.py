"""Make ``wordle-nyt-history.tsv``: every NYT Wordle answer so far, by day and number.

Run by hand with a copy of ``public/used_dated.json`` from github.com/willray73-sys/wordle-words
(MIT; see README.md beside this file)::

    python wordlists/make_history.py used_dated.json

Each line of the output is ``date<TAB>number<TAB>answer``. The number is the puzzle's, counted
by day from #0 (CIGAR) on 2021-06-19 as the NYT and this bot count; it is computed from the
date, because the source's own ``number`` field stops being the puzzle number after
2022-11-07. On the four days the NYT changed its answer during the day (#241, #284, #324,
#325) the source keeps the later word, as this file does.
"""

import json
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
EPOCH = date(2021, 6, 19)


def main(source: str) -> None:
    rows = sorted(json.loads(Path(source).read_text())["results"], key=lambda r: r["date"])
    lines = []
    for i, row in enumerate(rows):
        day = date.fromisoformat(row["date"])
        number = (day - EPOCH).days
        word = row["word"].strip().lower()
        if number != i or len(word) != 5 or not word.isascii() or not word.isalpha():
            raise SystemExit(f"{row}: a day missing or a malformed word")
        lines.append(f"{day.isoformat()}\t{number}\t{word}\n")
    (HERE / "wordle-nyt-history.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
