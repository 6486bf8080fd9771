"""Rendering: pure functions from game state to text and images, for every front end."""
