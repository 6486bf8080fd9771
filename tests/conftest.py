import os
import tempfile

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
