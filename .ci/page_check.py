"""A server's page served at BASE: PAGE answers with its heading, the style sheet as CSS, an
unknown slug 404; and the game window's page and its built script (the server is started
with an OAuth2 client set). Used by .ci/smoke (the wheel) and .ci/image (the Docker image)."""

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
window = urllib.request.urlopen(base + "/activity/", timeout=5)
assert 'name="wordlebot-client-id" content="123456789012345678"' in window.read().decode()
script = urllib.request.urlopen(base + "/activity/app.js", timeout=5)
assert script.headers["Content-Type"].startswith("text/javascript")
assert len(script.read()) > 10_000  # the built client, shipped in the package
