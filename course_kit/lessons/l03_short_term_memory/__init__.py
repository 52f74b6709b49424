"""Lesson 03 (``notebooks/03_short_term_memory.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
