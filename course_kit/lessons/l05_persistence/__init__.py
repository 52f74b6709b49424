"""Lesson 05 (``notebooks/05_persistence.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
