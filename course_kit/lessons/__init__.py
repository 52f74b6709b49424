"""One folder per lesson, named as its notebook: the lesson's named checks (``checks.py``) and its exercises
(``exercises.py``, registered with ``course_kit.exercises``). What several lessons share lives in
``course_kit.checks`` and ``course_kit.exercises``.
"""
