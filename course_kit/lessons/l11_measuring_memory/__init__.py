"""Lesson 11 (``notebooks/11_measuring_memory.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
