"""Lesson 01 (``notebooks/01_stateless_runs.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
