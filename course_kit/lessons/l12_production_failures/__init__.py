"""Lesson 12 (``notebooks/12_production_failures.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
