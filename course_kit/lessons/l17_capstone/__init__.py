"""Lesson 17 (``notebooks/17_capstone.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
