"""Lesson 16 (``notebooks/16_choosing_a_memory_design.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
