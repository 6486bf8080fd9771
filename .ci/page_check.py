"""A server's page served at BASE: PAGE answers with its heading, the style sheet as CSS, an
unknown slug 404. Used by .ci/smoke (the wheel) and .ci/image (the Docker image)."""

import sys
import time
import urllib.error
import urllib.request

base, page = sys.argv[1], sys.argv[2]
for _ in range(300):  # until it listens: at most 30 s
    try:
        text = urllib.request.urlopen(base + page, timeout=5).read().decode()
        break
    except (ConnectionError, urllib.error.URLError):
        time.sleep(0.1)
else:
    sys.exit("wordlebot web never answered")
assert "<h1>This server&#x27;s boards</h1>" in text, text[:500]
css = urllib.request.urlopen(base + "/static/site.css", timeout=5)
assert css.status == 200 and css.headers["Content-Type"].startswith("text/css")
try:
    urllib.request.urlopen(base + "/s/no-such-page", timeout=5)
    sys.exit("an unknown page answered")
except urllib.error.HTTPError as error:
    assert error.code == 404, error.code
