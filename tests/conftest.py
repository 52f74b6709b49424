"""Suite-wide settings: every test and every notebook runs on the offline lesson model."""

from __future__ import annotations

import os

# Set before any notebook kernel starts, so nbmake's kernels inherit it whatever .env says.
os.environ["LESSON_MODEL"] = "offline"
