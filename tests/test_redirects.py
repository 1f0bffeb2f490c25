"""A renamed write-up's old address still leads to it (issue 33): the output remembers each key's page
(``.contributions-written.json``), and a key whose page moved gets a redirect page at the old address,
said in one info line; the feed's entry id is the key's, so a feed reader sees the same entry. The
redirect stays on the builds after, and goes when its write-up does."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING
from xml.etree import ElementTree as ET

if TYPE_CHECKING:
    from pathlib import Path

PAGE = """\
# A fix <b>

:::{contribution}
:repo: owner/repo
:pr: 7
:summary: S.
:::

:::{problem}
P.
:::

:::{root-cause}
R.
:::

:::{fix}
F.
:::

:::{verification}
V.
:::
"""

REDIRECT = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>A fix &lt;b&gt;</title>
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="0; url=new-name.html">
<link rel="canonical" href="https://example.org/site/contributions/new-name.html">
</head>
<body>
<p>This page has moved: <a href="new-name.html">A fix &lt;b&gt;</a>.</p>
</body>
</html>
"""

ATOM = "{http://www.w3.org/2005/Atom}"


def build(src: Path, out: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sphinx", "-W", "--no-color", "-b", "html", str(src), str(out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def feed_entries(out: Path) -> list[tuple[str, str]]:
    feed = ET.parse(out / "contributions.atom").getroot()
    return [
        (entry.findtext(f"{ATOM}id") or "", entry.find(f"{ATOM}link[@rel='alternate']").get("href", ""))  # type: ignore[union-attr]
        for entry in feed.findall(f"{ATOM}entry")
    ]


def test_a_renamed_write_up_keeps_its_old_address_and_its_feed_id(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    (src / "contributions").mkdir(parents=True)
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
        'html_baseurl = "https://example.org/site/"\nproject = "P"\n',
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Home\n\n```{toctree}\n:glob:\ncontributions/*\n```\n", encoding="utf-8")
    (src / "contributions" / "notes.md").write_text("# Notes\n", encoding="utf-8")  # the glob's, at the end
    old, new = src / "contributions" / "old-name.md", src / "contributions" / "new-name.md"
    old.write_text(PAGE, encoding="utf-8")
    first = build(src, out)
    assert "redirect" not in first.stdout
    id_before = feed_entries(out)
    assert id_before == [
        ("https://example.org/site/contributions.json#repo%237", "https://example.org/site/contributions/old-name.html")
    ]

    old.rename(new)
    moved = build(src, out)
    said = [line for line in moved.stdout.splitlines() if "redirect" in line]
    assert said == ["contributions/old-name moved to contributions/new-name: a redirect page keeps its old address"]
    assert (out / "contributions" / "old-name.html").read_text(encoding="utf-8") == REDIRECT
    assert not (out / "_sources" / "contributions" / "old-name.md.txt").exists()
    assert "<h1>A fix &lt;b&gt;" in (out / "contributions" / "new-name.html").read_text(encoding="utf-8")
    assert feed_entries(out) == [
        ("https://example.org/site/contributions.json#repo%237", "https://example.org/site/contributions/new-name.html")
    ]

    again = build(src, out)  # nothing changed: the redirect stays, unsaid
    assert [line for line in again.stdout.splitlines() if "redirect" in line] == []
    assert (out / "contributions" / "old-name.html").read_text(encoding="utf-8") == REDIRECT

    new.unlink()  # the write-up is gone: so is the redirect to it
    build(src, out)
    assert not (out / "contributions" / "old-name.html").exists()
    assert not (out / "contributions" / "new-name.html").exists()
