"""Lesson 00 (``notebooks/00_setup.ipynb``): its named checks (``checks.py``)."""
