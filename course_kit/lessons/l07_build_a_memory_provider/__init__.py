"""Lesson 07 (``notebooks/07_build_a_memory_provider.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
