"""Lesson 13 (``notebooks/13_production_users.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
