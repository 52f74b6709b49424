"""Named checks for the lessons' check cells: a claim proven in a line that reads like a sentence.

A lesson's check cell is at most three lines. What a claim needs beyond that — picking the injected
messages out of a recorded request, a URL with no server behind it, comparing what two requests carried —
lives here, one module per kind of evidence, each function named for what it checks. Helpers that one
lesson alone uses live in that lesson's module (``l02_sessions.py`` …); helpers that several lessons use
live once, in a module named for what they look at (``requests.py``, ``addresses.py``).
"""
