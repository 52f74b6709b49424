"""Lesson 08 (``notebooks/08_cortadel_provider.ipynb``): its named checks (``checks.py``) and exercises (``exercises.py``)."""
