"""Lesson 09 (``notebooks/09_memory_tools.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
