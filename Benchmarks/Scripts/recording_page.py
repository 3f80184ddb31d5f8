"""The recording page with 100,000 events, measured in headless Chromium.

    python3 Benchmarks/Scripts/recording_page.py .build/release/tributary

Starts a lab on a free port over a new SQLite file, imports a recording of 100,000 events (a
ticking lane of 60,000 values, 2,000 searches of a subscription each, a structured state lane
and its HTTP exchanges), opens its page and reports, as the page measures them:
- the first draw: from the page's navigation to the paint that first draws events;
- the whole recording drawn: to the paint after the events before the snapshot were read;
- the time cursor: frames per second while it steps event by event (an arrow key a frame) and
  while it is dragged across the axis (a pointer move a frame), each for three seconds.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TOKEN = "recording-page-0123456789"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def recording(total=100_000):
    events = []

    def add(lane, subscription, kind, t, **more):
        events.append({"lane": lane, "subscription": subscription, "kind": kind, "t": round(t, 6), "source": "Bench.swift:1", **more})

    add("ticks", 1, "subscribed", 0.0)
    for index in range(60_000):
        add("ticks", 1, "value", 0.001 * index + 0.0005, value=str(index))
    for search in range(2_000):
        start = 0.03 * search
        add("search", search + 1, "subscribed", start)
        add("search", search + 1, "value", start + 0.01, value=f"query {search}")
        add("search", search + 1, "finished", start + 0.02)
    state = {"query": "", "results": [], "page": 0}
    for index in range(total - len(events) - 2_000 * 2):
        state = {"query": f"q{index % 97}", "results": [f"r{index}", f"r{index + 1}"], "page": index % 5}
        add("state", 1, "value", 0.002 * index + 0.0001, value=f"State({index})", structure=json.dumps(state))
    for exchange in range(2_000):
        add("http", exchange + 1, "subscribed", 0.03 * exchange + 0.005)
        add("http", exchange + 1, "value", 0.03 * exchange + 0.015, value=f"GET /search?q={exchange} → 200, 812 bytes in 10 ms")
    events.sort(key=lambda event: event["t"])
    assert len(events) == total, len(events)
    header = {"format": "tributary-recording", "version": 1, "name": "page benchmark", "events": total, "dropped": 0}
    return "\n".join([json.dumps(header)] + [json.dumps(event, separators=(",", ":")) for event in events]) + "\n"


def main():
    binary = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="recording-page-")
    port = free_port()
    lab = subprocess.Popen([binary, "lab", "--port", str(port), "--database", os.path.join(folder, "lab.sqlite"), "--token", TOKEN],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        request = urllib.request.Request(base + "/api/recordings/import", data=recording().encode(), method="POST",
                                         headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/x-ndjson"})
        made = json.load(urllib.request.urlopen(request, timeout=120))
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--window-size=1280,900"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(options=options)
        driver.set_script_timeout(60)
        try:
            driver.get(f"{base}/?token={TOKEN}")
            driver.get(f"{base}/recordings/{made['id']}")
            first = WebDriverWait(driver, 30).until(lambda d: d.execute_script(
                "return performance.getEntriesByName('tributary:recording-drawn')[0]?.startTime ?? null"))
            WebDriverWait(driver, 60).until(lambda d: "100,000 events" in d.find_element(By.CSS_SELECTOR, "h1 + .meta").text
                                            and "drawn" not in d.find_element(By.CSS_SELECTOR, "h1 + .meta").text)
            whole = driver.execute_script("return performance.now()")
            driver.execute_script("document.querySelector('.lanes-chart').focus()")
            # The cursor set on the axis, then stepped an event a frame.
            stepping = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const chart = document.querySelector('.lanes-chart');
                const box = chart.getBoundingClientRect();
                chart.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, clientX: box.left + 400, clientY: box.top + 10 }));
                dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
                let frames = 0;
                const start = performance.now();
                const frame = () => {
                  chart.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
                  frames += 1;
                  if (performance.now() - start < 3000) requestAnimationFrame(frame);
                  else requestAnimationFrame(() => done({ frames, seconds: (performance.now() - start) / 1000,
                    at: document.getElementById('cursor-change')?.textContent ?? '' }));
                };
                requestAnimationFrame(frame);
            """)
            dragging = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const chart = document.querySelector('.lanes-chart');
                const box = chart.getBoundingClientRect();
                chart.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, clientX: box.left + 200, clientY: box.top + 10 }));
                let frames = 0;
                const start = performance.now();
                const frame = () => {
                  const x = box.left + 200 + (frames * 3) % (box.width - 220);
                  chart.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: x, clientY: box.top + 10 }));
                  frames += 1;
                  if (performance.now() - start < 3000) requestAnimationFrame(frame);
                  else requestAnimationFrame(() => { dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
                    done({ frames, seconds: (performance.now() - start) / 1000 }); });
                };
                requestAnimationFrame(frame);
            """)
            marbles = driver.execute_script("return document.querySelectorAll('.lanes-chart circle').length")
            print(f"first draw: {first:.0f} ms after navigation")
            print(f"whole recording (100,000 events) drawn: {whole:.0f} ms after navigation")
            print(f"cursor stepped an event a frame: {stepping['frames'] / stepping['seconds']:.1f} frames per second"
                  f" ({stepping['frames']} frames in {stepping['seconds']:.2f} s); last: {stepping['at'][:80]}")
            print(f"cursor dragged: {dragging['frames'] / dragging['seconds']:.1f} frames per second"
                  f" ({dragging['frames']} frames in {dragging['seconds']:.2f} s)")
            print(f"circles drawn in view: {marbles}")
        finally:
            driver.quit()
    finally:
        lab.terminate()
        lab.wait(timeout=30)


if __name__ == "__main__":
    main()
