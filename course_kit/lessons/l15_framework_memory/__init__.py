"""Lesson 15 (``notebooks/15_framework_memory.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
