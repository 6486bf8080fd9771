"""The word lists shipped with the engine, as plain text files beside this module.

See README.md in this folder for where each list came from and its licence.
"""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
