"""Lesson 06 (``notebooks/06_seeded_state.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
