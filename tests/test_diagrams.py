"""Every mermaid diagram in the lessons has its rendered SVG (for offline handouts), and no SVG is stale."""

from __future__ import annotations

from course_kit import diagrams

FIX = "run `python -m course_kit.diagrams` (see its --help) and commit notebooks/diagrams/"


def test_every_diagram_has_its_svg_and_no_svg_is_stale() -> None:
    wanted = diagrams.all_sources()
    have = {p.stem for p in diagrams.DIAGRAMS.glob("*.svg")}
    assert not set(wanted) - have, f"diagrams with no SVG: {sorted(set(wanted) - have)}; {FIX}"
    assert not have - set(wanted), f"SVGs no lesson uses: {sorted(have - set(wanted))}; {FIX}"


def test_svgs_are_self_contained() -> None:
    for path in diagrams.DIAGRAMS.glob("*.svg"):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("<svg") and "<script" not in text
        assert "href=\"http" not in text and "url(http" not in text, path.name


def test_a_mermaid_block_is_found_and_inlined_as_an_image(tmp_path) -> None:
    source = "graph TD\n  A-->B\n"
    (tmp_path / f"{diagrams.diagram_id(source)}.svg").write_text("<svg/>", encoding="utf-8")
    markdown = f"Before\n\n```mermaid\n{source}```\n\nAfter"
    inlined, missing = diagrams.inline_diagrams(markdown, tmp_path)
    assert missing == [] and inlined.startswith("Before\n\n<img class=\"lesson-diagram\"") and inlined.endswith("After")
    _, missing = diagrams.inline_diagrams("```mermaid\ngraph LR\n  X-->Y\n```", tmp_path)
    assert missing == [diagrams.diagram_id("graph LR\n  X-->Y\n")]
