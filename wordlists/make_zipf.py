"""Make ``wordle-nyt-zipf.tsv``: the wordfreq Zipf frequency of every NYT-allowed word.

Run once, by hand, where the ``wordfreq`` package is installed (it is not a dependency of the
project: the bot reads the file this writes, and downloads nothing)::

    pip install --target /tmp/wordfreq wordfreq==3.1.1
    PYTHONPATH=/tmp/wordfreq python wordlists/make_zipf.py

A Zipf value is log10 of a word's frequency per billion words (``"about"`` is about 6.3);
0 means wordfreq does not know the word. Values are wordfreq's own, to two decimals.
"""

from pathlib import Path

from wordfreq import zipf_frequency  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent


def main() -> None:
    words = (HERE / "wordle-nyt-allowed.txt").read_text().split()
    lines = [f"{word}\t{zipf_frequency(word, 'en', wordlist='large'):.2f}\n" for word in words]
    (HERE / "wordle-nyt-zipf.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main()
