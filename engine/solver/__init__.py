"""Solvers: greedy strategies, exact search, decision trees and hints.

Vocabulary (after Wordlegames.jl): a :class:`Position` holds the remaining ``candidates``
(answers still possible) and the ``pool`` of guesses the mode allows; a strategy is a
function from a position to the next guess; a tree is a strategy played against every
answer at once.
"""
