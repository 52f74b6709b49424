"""Lesson 02 (``notebooks/02_sessions.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
