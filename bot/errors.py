"""Errors a person causes at the command line: shown as one line, never a traceback."""


class UsageError(ValueError):
    """An argument that makes no sense; the message says why."""
