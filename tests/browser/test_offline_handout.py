"""A handout page opened from ``file://`` with the network blocked: its diagram is there, and it asks for nothing.

Builds lesson 02's handout (executed on the offline model), opens it in Debian's Chromium through
Playwright with every non-``file:`` request refused, checks that the diagram image rendered and that
the page tried to load nothing from the network, and saves a screenshot to ``build/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from course_kit import handouts

from .test_jupyterlab import CHROMIUM, CHROMIUM_ARGS, REPO, SCREENSHOTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"
    ),
]


def test_a_handout_page_shows_its_diagram_with_the_network_blocked(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (test extra)")
    lesson = sorted((REPO / "notebooks").glob("02_*.ipynb"))[0]
    [built] = handouts.build_handouts([lesson], tmp_path / "lessons")
    assert built.ok, built.error

    attempted: list[str] = []

    def only_local_files(route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            attempted.append(url)
            route.abort()

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.route("**/*", only_local_files)
        page.goto(built.html.as_uri(), wait_until="load")
        diagrams = page.locator("img.lesson-diagram")
        assert diagrams.count() >= 1
        widths = diagrams.evaluate_all("images => images.map(i => i.complete ? i.naturalWidth : 0)")
        assert all(width > 100 for width in widths), widths
        diagrams.first.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "handout_offline_02.png"))
        browser.close()
    assert attempted == [], f"the page asked the network for {attempted}"
