"""Lesson 10 (``notebooks/10_memory_that_changes.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
