"""Writes what a bench script printed into its section of a document (docs/speed.md), to show measured figures."""

from __future__ import annotations

from pathlib import Path


def rewrite_section(readme: Path, section: str, script: str, text: str, image: Path | None = None,
                    alt: str = "") -> None:
    """Replace the document's <!-- section:start --> ... <!-- section:end --> with text (and a picture)."""
    start, end = f"<!-- {section}:start -->", f"<!-- {section}:end -->"
    body = readme.read_text()
    if start not in body or end not in body:
        raise SystemExit(f"{readme} has no {start} ... {end} section")
    picture = ""
    if image is not None:
        picture = f"\n![{alt or section}]({image.resolve().relative_to(readme.resolve().parent).as_posix()})\n"
    block = f"{start}\n`python {script}` printed:\n\n{text}\n{picture}{end}"
    head, rest = body.split(start, 1)
    readme.write_text(head + block + rest.split(end, 1)[1])
