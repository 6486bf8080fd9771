"""Learning agents for the Wordle family, and the study of whether hard mode is harder.

They play through :class:`~engine.agents.environment.WordleEnv` (reset/step, the engine's
exact scoring, each mode's legal guesses) and use the solver's measures and positions; the
solver never imports them. ``qlearning`` is the seed document's tabular agent, corrected;
``rollout`` plays well by one-step lookahead over rollouts of a greedy base policy
(Bhambri, Bhattacharjee and Bertsekas, 2022); ``study`` plays every answer with each agent
in each mode and compares the modes.
"""
