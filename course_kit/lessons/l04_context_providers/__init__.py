"""Lesson 04 (``notebooks/04_context_providers.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
