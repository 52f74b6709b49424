"""Lesson 14 (``notebooks/14_scaling_out.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
