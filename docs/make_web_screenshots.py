"""Take the pictures of a server's page that the docs show (docs/web-*.png): the real
application over a database of its own after a season of games, opened in Debian's Chromium
at a phone and a desktop width, in the normal and the high-contrast palettes, each checked
by axe-core first. tests/test_web_browser.py takes the same pictures with the same harness
(tests/web_browser.py). Needs the test extra, Chromium and axe-core (`.ci/run` installs
both). Run from the repository's root after changing the pages:

    python docs/make_web_screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from web_browser import launched, screenshots, served  # noqa: E402


def main() -> int:
    with (
        tempfile.TemporaryDirectory() as folder,
        served(f"sqlite:///{Path(folder) / 'bot.sqlite3'}") as url,
        launched() as browser,
    ):
        for path in screenshots(browser, url, HERE).values():
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
