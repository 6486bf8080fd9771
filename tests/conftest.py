import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable

import pytest
from hypothesis import settings

# Keep the tests' pattern-matrix cache out of the user's cache directory.
os.environ.setdefault("WORDLEBOT_CACHE_DIR", tempfile.mkdtemp(prefix="wordlebot-test-cache-"))

from engine.variants import Variant, get_variant

# Shared, noisy machines: correctness is tested here, speed only by `wordlebot bench`.
settings.register_profile("default", deadline=None)
settings.load_profile("default")


@pytest.fixture(scope="session")
def wordle() -> Variant:
    return get_variant("wordle")


@pytest.fixture(scope="session")
def primel() -> Variant:
    return get_variant("primel")


LOCKER = textwrap.dedent(
    """
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    db.execute("COMMIT")
    """
)


@pytest.fixture
def lock_database() -> Callable[[str, float], subprocess.Popen[str]]:
    """Lock a database file from another process for some seconds; returns that process."""

    def lock(path: str, seconds: float) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-c", LOCKER, path, str(seconds)], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None and process.stdout.readline().strip() == "locked"
        return process

    return lock
