"""Lesson 90 (``notebooks/90_options.ipynb``): its named checks (``checks.py``)."""
