"""``make audit``: Lighthouse and the Nu HTML Checker over the built site (not part of ``make test``).

Needs Node 20 with npm, Java 11+ and Chromium. Installs ``lighthouse`` and ``vnu-jar`` (pinned below)
into ``_build/audit-tools`` (git-ignored, no install scripts run), serves ``_build/html`` on 127.0.0.1
under ``/en/latest/`` as Read the Docs does, then prints:

- Lighthouse 12 (mobile profile, the default) for the home page and a contribution page: the four
  category scores, and every audit below 1 that counts towards them;
- the Nu HTML Checker over every built page: errors in the project's own markup, and errors caused by
  furo or Sphinx, each with the template line that writes the offending markup.

Exit status 1 when a Lighthouse category is below ``--min-score`` (default 100: the target) or the project's
own markup has a Nu error. The figures are recorded in ``docs/audit.md``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections import Counter
from functools import partial
from http.server import ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.chromium import ARGS, PREFIX, SiteHandler, find_chromium  # noqa: E402

LIGHTHOUSE = "lighthouse@12.2.3"
VNU = "vnu-jar@26.9.27"
TOOLS = REPO / "_build" / "audit-tools"
LIGHTHOUSE_PAGES = ("index.html", "contributions/transformers-49135.html")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def template_dirs() -> dict[str, list[Path]]:
    """Where templates that may write a page's markup live: upstream (furo, Sphinx, extensions), here."""
    import furo
    import sphinx

    upstream = [Path(furo.__file__).parent / "theme", Path(sphinx.__file__).parent / "themes"]
    for name in ("sphinx_basic_ng", "notfound", "sphinx_design", "sphinx_copybutton"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        assert module.__file__ is not None, name
        upstream.append(Path(module.__file__).parent)
    return {"project": [REPO / "_templates", REPO / "sphinx_contributions"], "upstream": upstream}


def run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env)


def install_tools() -> None:
    """npm install into ``_build/audit-tools`` unless the pinned versions are already there."""

    def installed(name: str) -> str:
        package = TOOLS / "node_modules" / name / "package.json"
        return json.loads(package.read_text())["version"] if package.is_file() else ""

    if installed("lighthouse") == LIGHTHOUSE.split("@")[1] and installed("vnu-jar") == VNU.split("@")[1]:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("make audit needs Node.js 20 and npm (Debian: apt-get install nodejs npm)")
    TOOLS.mkdir(parents=True, exist_ok=True)
    print(f"installing {LIGHTHOUSE} and {VNU} into {TOOLS.relative_to(REPO)} …", flush=True)
    # no install scripts: vnu-jar's would download a Java runtime; the system Java runs vnu.jar
    done = run([npm, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", str(TOOLS),
                "-E", LIGHTHOUSE, VNU])  # fmt: skip
    if done.returncode != 0:
        sys.exit(done.stdout + done.stderr)


class CompressingHandler(SiteHandler):
    """The test server, plus gzip for text, as Read the Docs' CDN serves it: Lighthouse would otherwise
    measure uncompressed CSS that no reader ever downloads."""

    COMPRESS = ("text/", "application/javascript", "application/json", "image/svg+xml")

    def send_head(self) -> BytesIO | Any:
        path = Path(self.translate_path(self.path))
        kind = self.guess_type(str(path))
        if (
            not path.is_file()
            or "gzip" not in self.headers.get("Accept-Encoding", "")
            or not kind.startswith(self.COMPRESS)
        ):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=1200")
        self.end_headers()
        return BytesIO(body)


def serve(html: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(CompressingHandler, directory=str(html)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"


# -- Lighthouse -----------------------------------------------------------------------------------------


def lighthouse(url: str, chromium: str, out: Path) -> dict[str, object]:
    command = [
        str(TOOLS / "node_modules" / ".bin" / "lighthouse"),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=" + " ".join(ARGS),
    ]
    done = run(command, env={**os.environ, "CHROME_PATH": chromium})
    if done.returncode != 0 or not out.is_file():
        sys.exit(f"lighthouse failed on {url}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    report: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return report


def report_lighthouse(name: str, report: dict[str, object]) -> dict[str, int]:
    categories: dict[str, dict[str, object]] = report["categories"]  # type: ignore[assignment]
    audits: dict[str, dict[str, object]] = report["audits"]  # type: ignore[assignment]
    scores = {key: round(float(categories[key]["score"] or 0) * 100) for key in CATEGORIES}  # type: ignore[arg-type]
    print(f"Lighthouse {report['lighthouseVersion']} (mobile) {name}: "
          + ", ".join(f"{key} {scores[key]}" for key in CATEGORIES))  # fmt: skip
    for key in CATEGORIES:
        for ref in categories[key]["auditRefs"]:  # type: ignore[attr-defined]
            audit = audits[ref["id"]]
            if ref["weight"] and audit["score"] is not None and float(audit["score"]) < 1:  # type: ignore[arg-type]
                value = f" ({audit['displayValue']})" if audit.get("displayValue") else ""
                print(f"    {key}: {audit['id']} {audit['score']}{value}: {audit['title']}")
    return scores


# -- the Nu HTML Checker --------------------------------------------------------------------------------

_TAG = re.compile(r"<([a-zA-Z][\w-]*)")
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')


def template_source(snippet: str, dirs: list[Path]) -> str | None:
    """The template line that writes ``snippet``'s start tag: same element, and every attribute either
    literally or as a Jinja expression. ``path:line: text`` or None."""
    tag = _TAG.search(snippet)
    if tag is None:
        return None
    attrs = _ATTR.findall(snippet[tag.start() :].split(">", 1)[0])
    best: tuple[int, str] | None = None
    for folder in dirs:
        for path in sorted(folder.rglob("*.html")):
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if f"<{tag.group(1)}" not in line:
                    continue
                exact = 0
                for name, value in attrs:
                    if f'{name}="{value}"' in line:
                        exact += 1
                    elif f'{name}="{{' not in line:
                        break
                else:
                    if best is None or exact > best[0]:
                        best = (exact, f"{path}:{number}: {line.strip()}")
    return best[1] if best else None


def nu_check(html: Path) -> tuple[list[dict[str, object]], Counter[str]]:
    java = shutil.which("java")
    if java is None:
        sys.exit("make audit needs Java 11+ for the Nu HTML Checker (Debian: apt-get install default-jre-headless)")
    jar = TOOLS / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    done = run([java, "-jar", str(jar), "--format", "json", "--skip-non-html", str(html)])
    messages = json.loads(done.stderr)["messages"]
    errors = [m for m in messages if m["type"] == "error"]
    others = Counter(f"{m.get('subType', m['type'])}: {m['message']}" for m in messages if m["type"] != "error")
    return errors, others


def report_nu(html: Path, errors: list[dict[str, object]], others: Counter[str]) -> int:
    dirs = template_dirs()
    pages = sum(1 for _ in html.rglob("*.html"))
    own: list[str] = []
    upstream: Counter[str] = Counter()
    for error in errors:
        extract = str(error.get("extract", ""))
        start = int(error.get("hiliteStart", 0))  # type: ignore[call-overload]
        snippet = extract[start : start + int(error.get("hiliteLength", len(extract)))]  # type: ignore[call-overload]
        where = f"{Path(str(error['url']).removeprefix('file:')).relative_to(html)}:{error.get('lastLine')}"
        source = template_source(snippet, dirs["upstream"])
        if source is not None and template_source(snippet, dirs["project"]) is None:
            upstream[f"{error['message']}\n      written by {source}"] += 1
        else:
            own.append(f"  {where}: {error['message']}\n      {snippet.strip()}")
    print(f"Nu HTML Checker over {pages} pages: {len(own)} errors in the project's own markup, "
          f"{sum(upstream.values())} from furo/Sphinx, {sum(others.values())} warnings and notes")  # fmt: skip
    for line in own:
        print(line)
    for message, count in upstream.most_common():
        print(f"  from furo/Sphinx ({count} pages): {message}")
    for message, count in others.most_common():
        print(f"  note ({count}x): {message[:160]}")
    return len(own)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, default=REPO / "_build" / "html", help="the built site")
    parser.add_argument("--min-score", type=int, default=100, help="fail below this Lighthouse score")
    parser.add_argument("--skip-lighthouse", action="store_true")
    args = parser.parse_args()
    html: Path = args.html.resolve()
    if not (html / "index.html").is_file():
        sys.exit(f"no built site in {html}: run make html first")
    install_tools()
    status = 0
    if not args.skip_lighthouse:
        chromium = find_chromium()
        if chromium is None:
            sys.exit("make audit needs Chromium (Debian: apt-get install chromium)")
        server, base = serve(html)
        out = REPO / "_build" / "audit"
        out.mkdir(parents=True, exist_ok=True)
        try:
            for page in LIGHTHOUSE_PAGES:
                report = lighthouse(base + page, chromium, out / (page.replace("/", "--") + ".json"))
                scores = report_lighthouse(page, report)
                if min(scores.values()) < args.min_score:
                    status = 1
        finally:
            server.shutdown()
            server.server_close()
    errors, others = nu_check(html)
    if report_nu(html, errors, others):
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
