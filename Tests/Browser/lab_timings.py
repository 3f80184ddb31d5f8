#!/usr/bin/env python3
"""How fast the lab's pages answer a person, measured in headless Chromium against a built binary.

    python3 Tests/Browser/lab_timings.py .build/release/tributary [searches] [edits]

- News: a word typed into the search box, a key every 60 ms, then from the last keystroke to the
  page showing the state with that word's results (`ul.articles` naming the query, not busy).
  The view model waits for a 300 ms pause in typing before it searches.
- Streams: a digit typed into the JSON of a document, then from that keystroke to the new
  diagram in the page. The editor waits for a 100 ms pause before it runs the document.

Both times are taken in the page (`performance.now()` at the `input` event, and in a
`MutationObserver` when the answer is drawn), so Selenium's own round trips are not counted.
Prints the median and the 90th percentile of each and exits non-zero past the targets: the
pause + 50 ms for a search, 150 ms for a diagram.
"""

import json
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from lab_browser_test import TOKEN, browser, start_lab, wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

SEARCH_PAUSE_MS = 300
WORDS = ["compiler", "swift", "market", "energy", "climate", "football", "election", "science", "health",
         "music", "rocket", "bank", "vaccine", "chip", "storm", "court", "film", "travel", "ocean", "robot"]

# Installed in the page before a measurement: notes when the watched part changes to show what
# was asked for, after the last keystroke.
WATCH = """
const [selector, want] = arguments;
window.__timing = { last: null, shown: null };
const field = document.querySelector(selector);
field.addEventListener('input', () => { window.__timing.last = performance.now(); window.__timing.shown = null; });
const done = want === null
  ? () => document.querySelector('.diagram-box svg.diagram') !== window.__timing.before
  : () => {
      const list = document.querySelector('ul.articles');
      return list && list.getAttribute('data-query') === want && list.getAttribute('aria-busy') === 'false';
    };
window.__timing.before = document.querySelector('.diagram-box svg.diagram');
new MutationObserver(() => {
  if (window.__timing.last !== null && window.__timing.shown === null && done()) {
    window.__timing.shown = performance.now();
  }
}).observe(document.body, { subtree: true, childList: true, attributes: true });
"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def searches(driver, base, count):
    times = []
    for word in (WORDS * 3)[:count]:
        driver.get(base + "/news?view=search")
        box = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]"))
        driver.execute_script(WATCH, "input[type=search]", word)
        for character in word:
            box.send_keys(character)
            time.sleep(0.06)
        wait(driver, lambda: driver.execute_script("return window.__timing.shown") is not None)
        last, shown = driver.execute_script("return [window.__timing.last, window.__timing.shown]")
        times.append(shown - last)
    return times


def edits(driver, base, count):
    driver.get(base + "/streams")
    button = wait(driver, lambda: driver.find_element(By.XPATH, "//button[contains(., 'Map, filter and scan')]"))
    button.click()
    wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "svg.diagram"))
    times = []
    for index in range(count):
        text = driver.find_element(By.CSS_SELECTOR, "textarea.json")
        value = text.get_attribute("value")
        # The first item's value goes from 1 to 10 and back, a key at a time.
        at = value.index('"value": 1') + len('"value": 1') + index % 2
        driver.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(arguments[1], arguments[1]);",
                              text, at)
        driver.execute_script(WATCH, "textarea.json", None)
        text.send_keys("0" if index % 2 == 0 else Keys.BACKSPACE)
        wait(driver, lambda: driver.execute_script("return window.__timing.shown") is not None)
        last, shown = driver.execute_script("return [window.__timing.last, window.__timing.shown]")
        times.append(shown - last)
        time.sleep(0.3)
    return times


def report(name, times, target):
    median, p90 = statistics.median(times), percentile(times, 0.9)
    verdict = "ok" if median <= target else "OVER"
    print(f"{verdict:4} {name}: median {median:.0f} ms, p90 {p90:.0f} ms, "
          f"fastest {min(times):.0f} ms, {len(times)} times (target: median ≤ {target} ms)")
    return median <= target


def main():
    binary = sys.argv[1]
    count_searches = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    count_edits = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    folder = tempfile.mkdtemp(prefix="lab-timings-")
    lab, base = start_lab(binary, folder)
    driver = browser()
    try:
        driver.get(f"{base}/?token={TOKEN}")
        searched = searches(driver, base, count_searches)
        edited = edits(driver, base, count_edits)
    finally:
        driver.quit()
        lab.terminate()
        lab.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps({"search": [round(t, 1) for t in searched], "diagram": [round(t, 1) for t in edited]}))
    fine = report("last keystroke of a search to its results", searched, SEARCH_PAUSE_MS + 50)
    fine = report("keystroke in the JSON to the new diagram", edited, 150) and fine
    if not fine:
        raise SystemExit("past a target")


if __name__ == "__main__":
    main()
