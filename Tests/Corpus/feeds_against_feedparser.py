#!/usr/bin/env python3
"""Reads a corpus of feeds kept outside the project with `tributary news feed --json` and
with feedparser, the reference reader, side by side, and reports:

- entries kept: the entries this reader prints, of those feedparser finds (per feed, at most
  as many as feedparser finds);
- titles invented: entries with a title where feedparser's has none;
- invalid JSON: outputs of `--json` that do not parse;
- broken feeds: feeds feedparser calls broken (bozo) that this reader refused or noted a
  repair for, and feeds it calls well-formed that this reader refused;
- judged expectations: feedparser's own expectations (the `Expect:` line of each test feed)
  that speak only of what `--json` reports (the entries' titles, links, authors and ids, their
  number, bozo), evaluated against what it printed; a title, which this reader gives as text
  and feedparser as sanitized HTML, meets one whose text is the same.

The corpus is feedparser's own test suite: its sdist from PyPI, about 2,200 feeds, real and
pathological. Usage, from the package root after `swift build`:

    python3 Tests/Corpus/feeds_against_feedparser.py [--tributary .build/debug/tributary]
        [--corpus DIR] [--show-misses N]

It makes a virtual environment with feedparser under $TMPDIR/tributary-feed-corpus the first
time, and downloads the sdist there.
"""

import argparse
import concurrent.futures
import glob
import http.server
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import threading
import venv

FEEDPARSER = "feedparser==6.0.14"
HEADER = re.compile(rb"^Header:\s+([^:]+):(.+)$", re.MULTILINE)
EXPECT = re.compile(rb"Description:\s*(.*?)\s*Expect:\s*(.*)\s*-->")
# What the `--json` output says, in feedparser's words.
JUDGED_KEYS = {"title", "link", "author", "id", "summary", "description", "published_parsed", "issued_parsed"}


def workplace():
    root = os.path.join(tempfile.gettempdir(), "tributary-feed-corpus")
    os.makedirs(root, exist_ok=True)
    python = os.path.join(root, "venv", "bin", "python")
    if not os.path.exists(python):
        venv.create(os.path.join(root, "venv"), with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q", FEEDPARSER], check=True)
    tests = glob.glob(os.path.join(root, "feedparser-*", "tests"))
    if not tests:
        subprocess.run(
            [python, "-m", "pip", "download", "-q", FEEDPARSER, "--no-binary", ":all:", "--no-deps", "-d", root],
            check=True,
        )
        archive = glob.glob(os.path.join(root, "feedparser-*.tar.gz"))[0]
        with tarfile.open(archive) as tar:
            tar.extractall(root, filter="data")
        tests = glob.glob(os.path.join(root, "feedparser-*", "tests"))
    return python, tests[0]


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves each test feed with the headers its `Header:` lines name, as feedparser's own
    test server does."""

    def send_head(self):
        path = self.translate_path(self.path)
        try:
            with open(path, "rb") as f:
                blob = f.read()
        except OSError:
            self.send_error(404)
            return None
        headers = {k.decode().strip(): v.decode().strip() for k, v in HEADER.findall(blob)}
        self.send_response(int(headers.pop("Status", 200)))
        self.send_header("Content-Type", headers.pop("Content-type", headers.pop("Content-Type", "application/xml")))
        self.send_header("Content-Length", str(len(blob)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        import io

        return io.BytesIO(blob)

    def log_message(self, *args):
        pass


REFERENCE = r"""
import feedparser, json, sys
out = {}
for url in sys.stdin.read().split():
    d = feedparser.parse(url)
    out[url] = {
        "bozo": bool(d.bozo),
        "bozoException": str(d.get("bozo_exception", ""))[:120],
        "title": d.feed.get("title"),
        "entries": [{"title": e.get("title"), "hasTitle": "title" in e} for e in d.entries],
    }
print(json.dumps(out))
"""


def reference(python, urls):
    result = subprocess.run([python, "-c", REFERENCE], input=" ".join(urls), capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def ours(tributary, url):
    run = subprocess.run([tributary, "news", "feed", url, "--json"], capture_output=True, timeout=60)
    output = run.stdout.decode("utf-8", "replace")
    errors = run.stderr.decode("utf-8", "replace")
    entries = None
    valid = True
    if run.returncode == 0:
        try:
            entries = json.loads(output)
        except ValueError:
            valid = False
    return {"entries": entries, "valid": valid, "noted": "note: to read the feed" in errors, "errors": errors}


class Entry(dict):
    """An entry as feedparser's expectations read it: missing keys raise KeyError."""


class Text(str):
    """A title as this reader gives it, as text: equal to feedparser's (sanitized HTML) when
    that HTML's text is the same."""

    def __eq__(self, other):
        return isinstance(other, str) and (str(self) == other or str(self) == plain(other))

    def __ne__(self, other):
        return not self == other

    __hash__ = str.__hash__


def parsed(timestamp):
    """An ISO 8601 timestamp as feedparser's `*_parsed` values are: a UTC struct_time."""
    import calendar
    import time

    if timestamp is None:
        return None
    return time.gmtime(calendar.timegm(time.strptime(timestamp[:19], "%Y-%m-%dT%H:%M:%S")))


def plain(html):
    import html as entities

    text = re.sub(r"<[^>]*>", " ", html)
    return " ".join(entities.unescape(text).split())


def judged(expectation, result):
    """Whether what this reader printed meets `expectation`, or None when the expectation
    speaks of something `--json` does not say (the feed's own fields, details, other keys)."""
    names = set(re.findall(rb"\['([a-z_]+)'\]", expectation))
    words = set(re.findall(rb"\b(entries|feed|bozo|len)\b", expectation))
    if not names or not names <= {b"entries", *[k.encode() for k in JUDGED_KEYS]} or b"feed" in words:
        return None
    # feedparser's own test server's address, which this run does not have.
    if b"127.0.0.1:8097" in expectation:
        return None
    entries = [
        # An entry without a title meets an expectation of a title with no text in it.
        Entry(
            {
                k: v
                for k, v in {
                    "title": Text(e.get("title") or ""),
                    "link": e.get("url"),
                    "author": e.get("author"),
                    "id": e.get("id"),
                    "summary": Text(e.get("description") or ""),
                    "description": Text(e.get("description") or ""),
                    "published_parsed": parsed(e.get("publishedAt")),
                    "issued_parsed": parsed(e.get("publishedAt")),
                }.items()
                if v is not None
            }
        )
        for e in (result["entries"] or [])
    ]
    broken = result["entries"] is None or result["noted"]
    try:
        return bool(eval(expectation.decode("utf-8"), {"entries": entries, "bozo": broken}))
    except (KeyError, IndexError, TypeError):
        return False
    except (AttributeError, NameError, SyntaxError):
        return None


def main():
    arguments = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    arguments.add_argument("--tributary", default=".build/debug/tributary")
    arguments.add_argument("--corpus", help="a directory of feeds; feedparser's tests by default")
    arguments.add_argument("--show-misses", type=int, default=0)
    arguments.add_argument("--show-refused", type=int, default=0)
    arguments.add_argument("--show-unmet", type=int, default=0)
    arguments.add_argument("--show-unnoted", type=int, default=0)
    options = arguments.parse_args()
    python, tests = workplace()
    root = options.corpus or tests
    files = sorted(
        f
        for f in glob.glob(os.path.join(root, "**", "*.xml"), recursive=True)
        if "/http/" not in f and "/compression/" not in f
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Handler(*a, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/" % server.server_address[1]
    urls = [base + os.path.relpath(f, root) for f in files]
    refs = reference(python, urls)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = dict(zip(urls, pool.map(lambda u: ours(options.tributary, u), urls)))
    server.shutdown()

    found = kept = invented = invalid = 0
    bozo_noted = bozo_total = clean_refused = clean_total = 0
    judged_total = judged_met = 0
    misses = []
    refused = []
    unnoted = []
    noted_clean = 0
    unmet = []
    for file, url in zip(files, urls):
        ref, got = refs[url], results[url]
        entries = got["entries"] or []
        found += len(ref["entries"])
        kept += min(len(entries), len(ref["entries"]))
        if len(entries) < len(ref["entries"]):
            misses.append((os.path.relpath(file, root), len(ref["entries"]), len(entries), got["errors"].strip()[:160]))
        for mine, theirs in zip(entries, ref["entries"]):
            if mine.get("title") is not None and not theirs["title"]:
                invented += 1
        invalid += 0 if got["valid"] else 1
        if ref["bozo"]:
            bozo_total += 1
            if got["entries"] is None or got["noted"]:
                bozo_noted += 1
            else:
                unnoted.append((os.path.relpath(file, root), ref["bozoException"]))
        else:
            clean_total += 1
            noted_clean += 1 if got["noted"] else 0
            if got["entries"] is None and got["valid"]:
                clean_refused += 1
                refused.append((os.path.relpath(file, root), got["errors"].strip()[:200]))
        with open(file, "rb") as f:
            match = EXPECT.search(f.read())
        if match:
            verdict = judged(match.group(2).strip(), got)
            if verdict is not None:
                judged_total += 1
                judged_met += 1 if verdict else 0
                if not verdict:
                    unmet.append((os.path.relpath(file, root), match.group(2).strip().decode("utf-8", "replace")[:160], json.dumps(entries[:1], ensure_ascii=False)[:300]))

    def share(a, b):
        return "%d of %d (%.1f%%)" % (a, b, 100.0 * a / b if b else 100.0)

    print("feeds:               %d" % len(files))
    print("entries kept:        " + share(kept, found))
    print("titles invented:     %d" % invented)
    print("invalid JSON:        %d" % invalid)
    print("broken, noted:       " + share(bozo_noted, bozo_total))
    print("well-formed, refused: %d of %d" % (clean_refused, clean_total))
    print("well-formed, noted:  %d of %d" % (noted_clean, clean_total))
    print("judged expectations: " + share(judged_met, judged_total))
    for miss in misses[: options.show_misses]:
        print("  missed %s: %d found, %d kept  %s" % miss)
    for refusal in refused[: options.show_refused]:
        print("  refused %s: %s" % refusal)
    for file, why in unnoted[: options.show_unnoted]:
        print("  unnoted %s: %s" % (file, why))
    for expectation in unmet[: options.show_unmet]:
        print("  unmet %s: %s\n        got %s" % expectation)
    return 0


if __name__ == "__main__":
    sys.exit(main())
