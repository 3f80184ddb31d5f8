"""Drives the lab's pages in a real browser: headless Chromium through Selenium, against a
`tributary lab` started here on a free port with a temporary database and the built-in sandbox.

    python3 Tests/Browser/lab_browser_test.py .build/debug/tributary [SCREENSHOT_FOLDER]

Each step writes a screenshot into the folder (by default `screenshots/`); any failed step ends
the run with a non-zero status and says which.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

TOKEN = "browser-test-token-0123456789"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_lab(binary, folder, port=None):
    port = port or free_port()
    environment = dict(os.environ, XDG_DATA_HOME=folder, XDG_CACHE_HOME=folder)
    environment.pop("NEWSAPI_KEY", None)
    environment.pop("NEWSAPI_BASE_URL", None)
    lab = subprocess.Popen(
        [binary, "lab", "--port", str(port), "--token", TOKEN, "--record"],
        stdout=subprocess.PIPE, stderr=open(os.path.join(folder, "lab.log"), "w"), env=environment, text=True,
    )
    line = lab.stdout.readline()
    if "Tributary lab at" not in line:
        raise SystemExit(f"the lab did not start: {line!r}")
    return lab, f"http://127.0.0.1:{port}"


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--hide-scrollbars"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    # A page with unsaved changes asks before it is left; driving it, the answer is yes.
    options.unhandled_prompt_behavior = "accept"
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


class Run:
    def __init__(self, base, shots):
        self.base, self.shots, self.failures = base, shots, []

    def step(self, name, driver, check):
        try:
            check()
            print(f"ok   {name}")
        except Exception as error:  # noqa: BLE001 - every failure is reported by step
            self.failures.append(name)
            line = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == __file__ and f.name != "wait"][-1]
            print(f"FAIL {name} (line {line}): {type(error).__name__}: {error}")
        finally:
            driver.save_screenshot(os.path.join(self.shots, f"{name}.png"))


def wait(driver, condition, seconds=15):
    # A page redraws parts of itself: an element found a moment ago may be gone, and is looked up again.
    return WebDriverWait(driver, seconds, poll_frequency=0.05,
                         ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]).until(lambda _: condition())


def example(name):
    """One of the lab's bundled example documents."""
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "TributaryLab", "Examples", name)) as f:
        return json.load(f)


def api(base, method, path, body=None):
    request = urllib.request.Request(
        base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")


def main():
    binary = sys.argv[1]
    shots = sys.argv[2] if len(sys.argv) > 2 else "screenshots"
    os.makedirs(shots, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="lab-browser-")
    lab, base = start_lab(binary, folder)
    labs = {"lab": lab, "binary": binary, "folder": folder}
    first, second = browser(), browser()
    run = Run(base, shots)
    try:
        news(run, first)
        streams(run, first, second)
        sharing(run, first)
        recordings(run, first, second)
        reconnecting(run, first, second, labs)
    finally:
        lab = labs["lab"]
        if lab.poll() is not None:
            print(f"the lab had ended with status {lab.returncode}; its log is {folder}/lab.log")
        first.quit()
        second.quit()
        lab.terminate()
        lab.wait(timeout=30)
    if run.failures:
        raise SystemExit(f"{len(run.failures)} step(s) failed: {', '.join(run.failures)}")
    print("every step passed")


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "ul.articles li.card")


def news(run, driver):
    base = run.base

    def first_load():
        # The news needs the session, which the printed link opens.
        driver.get(f"{base}/?token={TOKEN}")
        driver.get(base + "/news?view=top")
        wait(driver, lambda: driver.execute_script(
            "return performance.getEntriesByName('first-contentful-paint').length") > 0)
        paint = driver.execute_script(
            "return performance.getEntriesByName('first-contentful-paint')[0].startTime")
        weight = driver.execute_script(
            "const [page] = performance.getEntriesByType('navigation');"
            "return page.encodedBodySize + performance.getEntriesByType('resource')"
            ".filter(r => !r.name.includes('/img?')).reduce((sum, r) => sum + r.encodedBodySize, 0)")
        print(f"     first contentful paint after {paint:.0f} ms; HTML, CSS and JS {weight / 1024:.1f} KB")
        assert paint < 200, paint
        assert weight < 150 * 1024, weight

    run.step("news-first-load", driver, first_load)

    def search():
        driver.get(base + "/news?view=search")
        box = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]"))
        for character in "compiler":
            box.send_keys(character)
            time.sleep(0.03)
        wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "ul.articles").get_attribute("data-query") == "compiler"
             and len(cards(driver)) > 0)
        for card in cards(driver):
            assert "compiler" in card.text.lower(), card.text
        assert "q=compiler" in driver.current_url

    run.step("news-search", driver, search)

    def category():
        driver.get(base + "/news?view=category&category=technology&country=us")
        wait(driver, lambda: len(cards(driver)) >= 10)
        wait(driver, lambda: driver.execute_script(
            "return [...document.querySelectorAll('.thumb img.loaded')].filter(i => i.naturalWidth > 0).length") >= 3)
        selected = driver.find_element(By.CSS_SELECTOR, "[role=tab][aria-selected=true]").text
        assert selected == "Categories", selected

    run.step("news", driver, category)

    def source():
        driver.get(base + "/news?view=sources&country=us")
        button = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "ul.sources button"))
        name = button.find_element(By.TAG_NAME, "strong").text
        button.click()
        wait(driver, lambda: driver.find_element(By.TAG_NAME, "h1").text == name and len(cards(driver)) > 0)
        for card in cards(driver):
            assert name in card.find_element(By.CSS_SELECTOR, ".meta").text

    run.step("news-source", driver, source)

    def tab(name):
        driver.find_element(By.XPATH, f"//button[@role='tab' and normalize-space()='{name}']").click()

    def own_searches():
        # A search typed in Search stays there: Top headlines shows its own articles, and
        # coming back finds the search as it was typed.
        driver.get(base + "/news?view=search")
        box = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]"))
        box.send_keys("zzzz-no-such-words")
        wait(driver, lambda: "zzzz-no-such-words" in driver.current_url)
        tab("Top headlines")
        wait(driver, lambda: len(cards(driver)) > 0)
        assert driver.find_element(By.CSS_SELECTOR, "input[type=search]").get_attribute("value") == ""
        assert "No articles match" not in driver.find_element(By.TAG_NAME, "main").text
        tab("Search")
        wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]").get_attribute("value") == "zzzz-no-such-words")

    run.step("news-tabs-keep-their-own-search", driver, own_searches)

    def status_text():
        return driver.find_element(By.ID, "news-status").text

    def alerts():
        return [a.text for a in driver.find_elements(By.CSS_SELECTOR, "main [role=alert]") if a.text]

    def selection():
        driver.get(base + "/news?view=top&country=us")
        wait(driver, lambda: len(cards(driver)) > 0)
        # The Search tab with an empty box shows its prompt, none of the headlines.
        tab("Search")
        wait(driver, lambda: "Type to search every article." in status_text())
        assert not cards(driver) and "articles" not in status_text().replace("every article", ""), status_text()
        time.sleep(0.8)
        assert not cards(driver), "headlines came back under the Search tab"
        # A new category never shows the old one's cards while it loads.
        driver.get(base + "/news?view=category&category=business&country=us")
        wait(driver, lambda: len(cards(driver)) > 0)
        business = {c.find_element(By.TAG_NAME, "h3").text for c in cards(driver)}
        driver.execute_script("""
            window.seen = [];
            new MutationObserver(() => window.seen.push(
              [...document.querySelectorAll('ul.articles li.card h3')].map(h => h.textContent)
            )).observe(document.querySelector('ul.articles'), { childList: true });""")
        select = driver.find_element(By.CSS_SELECTOR, "select[aria-label=Category]")
        driver.execute_script("arguments[0].value = 'sports'; arguments[0].dispatchEvent(new Event('change'))", select)
        wait(driver, lambda: len(cards(driver)) > 0 and "category=sports" in driver.current_url)
        seen = driver.execute_script("return window.seen")
        assert all(not (set(titles) & business) for titles in seen), "business cards shown under sports"
        # Clearing a search returns to the prompt, its results gone.
        tab("Search")
        box = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]"))
        box.send_keys("compiler")
        wait(driver, lambda: len(cards(driver)) > 0)
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        wait(driver, lambda: "Type to search every article." in status_text() and not cards(driver))

    run.step("news-selection", driver, selection)

    def typing():
        driver.get(base + "/news?view=search")
        box = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]"))
        box.send_keys("compiler")
        wait(driver, lambda: len(cards(driver)) > 0)
        shown = len(cards(driver))
        for text in [" OR", ' "open', " (", " NOT", " AND"]:
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys("compiler" + text)
            end = time.time() + 1.2
            while time.time() < end:
                assert not alerts(), f"{text!r}: {alerts()}"
                time.sleep(0.05)
            hint = driver.find_element(By.ID, "query-state").text
            assert hint.startswith("Finish the query") or hint.startswith("Close the"), hint
            assert len(cards(driver)) == shown
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys("compiler OR swift")
        wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "ul.articles").get_attribute("data-query") == "compiler OR swift")
        assert not driver.find_element(By.ID, "query-state").text
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys("compiler)")
        wait(driver, lambda: alerts())
        assert "closes no parenthesis" in alerts()[0] and "q parameter" not in alerts()[0], alerts()

    run.step("news-typing", driver, typing)

    def back_and_forward():
        driver.get(base + "/news?view=top&country=us")
        wait(driver, lambda: len(cards(driver)) > 0)
        tab("Categories")
        wait(driver, lambda: "view=category" in driver.current_url and len(cards(driver)) > 0)
        select = driver.find_element(By.CSS_SELECTOR, "select[aria-label=Category]")
        driver.execute_script("arguments[0].value = 'sports'; arguments[0].dispatchEvent(new Event('change'))", select)
        wait(driver, lambda: "category=sports" in driver.current_url)
        country = driver.find_element(By.CSS_SELECTOR, "select[aria-label=Country]")
        driver.execute_script("arguments[0].value = 'gb'; arguments[0].dispatchEvent(new Event('change'))", country)
        wait(driver, lambda: "country=gb" in driver.current_url and "of" in status_text() or "No articles" in status_text())
        driver.back()
        wait(driver, lambda: "country=us" in driver.current_url and "category=sports" in driver.current_url)
        wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "select[aria-label=Country]").get_attribute("value") == "us")
        driver.back()
        wait(driver, lambda: "category=technology" in driver.current_url)
        assert driver.find_element(By.CSS_SELECTOR, "select[aria-label=Category]").get_attribute("value") == "technology"
        driver.back()
        wait(driver, lambda: "view=top" in driver.current_url and len(cards(driver)) > 0)
        selected = driver.find_element(By.CSS_SELECTOR, "[role=tab][aria-selected=true]").text
        assert selected == "Top headlines", selected
        driver.forward()
        wait(driver, lambda: "view=category" in driver.current_url and len(cards(driver)) > 0)
        # A search is an entry too; a reload keeps the view.
        tab("Search")
        box = wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=search]"))
        box.send_keys("compiler")
        wait(driver, lambda: "q=compiler" in driver.current_url and len(cards(driver)) > 0)
        driver.refresh()
        wait(driver, lambda: len(cards(driver)) > 0)
        assert driver.find_element(By.CSS_SELECTOR, "input[type=search]").get_attribute("value") == "compiler"
        driver.back()
        wait(driver, lambda: "view=search" in driver.current_url and "q=" not in driver.current_url)
        driver.back()
        wait(driver, lambda: "view=category" in driver.current_url and len(cards(driver)) > 0)
        assert driver.current_url.startswith(base), driver.current_url

    run.step("news-history", driver, back_and_forward)

    def choices():
        driver.get(base + "/news?view=sources")
        offered = wait(driver, lambda: "Spain" in driver.find_element(By.CSS_SELECTOR, "select[aria-label=Country]").text
                       and driver.find_element(By.CSS_SELECTOR, "select[aria-label=Country]").text.split("\n"))
        assert offered[0] == "Any country" and "Netherlands" in offered and "Japan" not in offered, offered
        wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "ul.sources li")) > 1)
        # The sources grid uses the page's width: several in a row.
        tops = {round(e.rect["y"]) for e in driver.find_elements(By.CSS_SELECTOR, "ul.sources li")[:4]}
        assert len(tops) == 1, tops
        tab("RSS / Atom")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "[aria-label='Suggested feeds'] button"))
        driver.find_element(By.XPATH, "//div[@aria-label='Suggested feeds']/button[text()='technology.rss']").click()
        wait(driver, lambda: len(cards(driver)) > 0 and "feeds%2Ftechnology.rss" in driver.current_url)
        wait(driver, lambda: driver.find_element(By.ID, "refresh"))
        driver.find_element(By.ID, "refresh").click()
        wait(driver, lambda: len(cards(driver)) > 0 and "articles" in status_text())

    run.step("news-choices", driver, choices)

    def bare_entries():
        # An entry without a date shows none, and one without a link is listed with its title as text.
        chosen = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)["url"][0]
        quirk = chosen.replace("feeds/technology.rss", "feeds/quirks/undated-linkless.rss")
        driver.get(base + "/news?view=feed&url=" + urllib.parse.quote(quirk, safe=""))
        wait(driver, lambda: len(cards(driver)) == 3)
        shown = cards(driver)
        titles = [card.find_element(By.TAG_NAME, "h3").text for card in shown]
        assert titles == ["Whole entry", "Undated entry", "Linkless entry"], titles
        links = [len(card.find_elements(By.CSS_SELECTOR, "h3 a")) for card in shown]
        assert links == [1, 1, 0], links
        meta = [card.find_element(By.CSS_SELECTOR, ".meta").text for card in shown]
        assert meta[0].startswith("Bare entries · ") and meta[1] == "Bare entries" and meta[2].startswith("Bare entries · "), meta
        assert "A note with no page of its own." in shown[2].text

    run.step("news-feed-entries", driver, bare_entries)


def editor_text(driver):
    return driver.find_element(By.CSS_SELECTOR, "textarea.json")


def replace_text(driver, text):
    area = editor_text(driver)
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", area, text)


def set_field(driver, label, value):
    """Sets the form field labelled `label` and says it changed, all in the page: the form is
    drawn anew whenever the text changes outside it, so an element found first may be gone."""
    wait(driver, lambda: driver.execute_script(
        "const field = document.querySelector(`[aria-label='${arguments[0]}']`);"
        "if (!field) return false; field.value = arguments[1]; field.dispatchEvent(new Event('change')); return true;",
        label, value))


def streams(run, first, second):
    base = run.base
    state = {}

    def create():
        first.get(f"{base}/?token={TOKEN}")
        first.get(base + "/streams")
        button = wait(first, lambda: first.find_element(By.XPATH, "//button[contains(., 'Map, filter and scan')]"))
        button.click()
        wait(first, lambda: "/streams/" in first.current_url and len(first.current_url.split("/streams/")[1]) == 22)
        state["id"] = first.current_url.split("/streams/")[1]
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, "svg.diagram"))
        wait(first, lambda: "doubled" in first.find_element(By.CSS_SELECTOR, "pre.lanes").text)
        # The document's own key order, and a short item a line rather than a line a key.
        lines = editor_text(first).get_attribute("value").split("\n")
        assert lines[1].strip() == '"schemaVersion": 1,' and lines[2].strip().startswith('"name"'), lines[:3]
        assert '{"value": 1, "operators": [{"operator": "delay", "seconds": 1}]},' in [line.strip() for line in lines], lines
        assert len(lines) < 40, len(lines)
        # A number a line beside the text.
        assert len(first.find_elements(By.CSS_SELECTOR, ".gutter span")) == len(lines)
        first.execute_script("document.querySelector('textarea.json').scrollIntoView()")
        first.save_screenshot(os.path.join(run.shots, "streams-json.png"))
        first.execute_script("window.scrollTo(0, 0)")

    run.step("streams", first, create)

    def invalid():
        document = json.loads(editor_text(first).get_attribute("value"))
        text = json.dumps(document, indent=2)
        broken = text.replace('"expression": "$0 * 2"', '"expression": "$0 * "', 1)
        replace_text(first, broken)
        wait(first, lambda: "expression" in first.find_element(By.ID, "json-error").text)
        # The error stands beside the field its path leads to, as well as under the JSON.
        beside = wait(first, lambda: first.find_element(By.XPATH, "//label[.//input[@aria-invalid='true']]/following-sibling::span[@class='field-error']"))
        field = first.find_element(By.XPATH, "//label[following-sibling::span[@class='field-error']]//input[@aria-invalid='true']")
        assert field.get_attribute("aria-label") == "Expression of doubled", field.get_attribute("aria-label")
        assert "expression" in beside.text.lower(), beside.text
        # The diagram still shows the last document that ran: dimmed and labelled stale, and
        # Save says why it cannot save.
        wait(first, lambda: "stale" in first.find_element(By.CSS_SELECTOR, ".diagram-box").get_attribute("class"))
        assert first.find_element(By.CSS_SELECTOR, ".stale-label").is_displayed()
        save = first.find_element(By.XPATH, "//button[text()='Save']")
        assert not save.is_enabled() and "valid" in save.get_attribute("title")
        assert "valid" in first.find_element(By.ID, "save-reason").text
        first.save_screenshot(os.path.join(run.shots, "streams-stale.png"))
        syntax = text.replace('"nodes": [', '"nodes": [,', 1)
        line = syntax[: syntax.index('"nodes": [,')].count("\n") + 1
        replace_text(first, syntax)
        wait(first, lambda: f"line {line}" in first.find_element(By.ID, "json-error").text)
        # While the JSON is not JSON, the form shows the last valid document, disabled, and says why.
        form_note = first.find_element(By.ID, "form-note")
        wait(first, lambda: form_note.is_displayed() and f"line {line}" in form_note.text)
        assert "last valid document" in form_note.text, form_note.text
        controls = first.find_elements(By.CSS_SELECTOR, "fieldset input, fieldset select")
        assert controls and not any(control.is_enabled() for control in controls)
        first.save_screenshot(os.path.join(run.shots, "streams-form-waits-for-json.png"))
        replace_text(first, text)
        wait(first, lambda: first.find_element(By.ID, "json-error").text == "")
        wait(first, lambda: "stale" not in first.find_element(By.CSS_SELECTOR, ".diagram-box").get_attribute("class"))
        assert not first.find_elements(By.CSS_SELECTOR, ".field-error")
        assert not first.find_element(By.CSS_SELECTOR, ".stale-label").is_displayed()
        # Back to what version 1 says, layout aside: nothing to save.
        wait(first, lambda: first.find_element(By.ID, "save-reason").text == "No changes since version 1.")
        assert not first.find_element(By.XPATH, "//button[text()='Save']").is_enabled()
        assert "edited" not in first.find_element(By.CSS_SELECTOR, ".toolbar .pill").text
        assert not first.find_element(By.ID, "form-note").is_displayed()
        assert all(control.is_enabled() for control in first.find_elements(By.CSS_SELECTOR, "fieldset input, fieldset select"))
        # A Marbles field that does not read as marbles holds Save back and marks the diagram stale.
        marbles = first.find_element(By.XPATH, "//input[@aria-label='Marbles of numbers']")
        written = marbles.get_attribute("value")
        typed = "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event(arguments[2]));"
        first.execute_script(typed, marbles, "a-(b", "input")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, ".field-error").text.startswith("Marbles: a ( without its )"))
        wait(first, lambda: first.find_element(By.ID, "save-reason").text == "Fix the Marbles of stream numbers to save.")
        assert not first.find_element(By.XPATH, "//button[text()='Save']").is_enabled()
        assert first.find_element(By.ID, "json-error").text == "", "the JSON is fine"
        assert "stale" in first.find_element(By.CSS_SELECTOR, ".diagram-box").get_attribute("class")
        assert first.find_element(By.CSS_SELECTOR, ".stale-label").is_displayed()
        first.execute_script(typed, first.find_element(By.XPATH, "//input[@aria-label='Marbles of numbers']"), written, "change")
        wait(first, lambda: "stale" not in first.find_element(By.CSS_SELECTOR, ".diagram-box").get_attribute("class"))
        wait(first, lambda: first.find_element(By.ID, "save-reason").text == "No changes since version 1.")

    run.step("streams-invalid", first, invalid)

    def together():
        second.get(f"{base}/?token={TOKEN}")
        second.get(f"{base}/streams/{state['id']}")
        wait(second, lambda: "viewing" in second.find_element(By.CSS_SELECTOR, ".toolbar").text)
        wait(first, lambda: "2 viewing" in first.find_element(By.CSS_SELECTOR, ".toolbar").text)
        # Each window says who it is once; the other sees the name, and it is kept for next time.
        for driver, name in [(first, "Ada"), (second, "Grace")]:
            field = driver.find_element(By.CSS_SELECTOR, "input.name-field")
            field.clear()
            field.send_keys(name)
        wait(first, lambda: "2 viewing: Ada, Grace" in first.find_element(By.CSS_SELECTOR, ".toolbar").text)
        wait(second, lambda: "2 viewing: Ada, Grace" in second.find_element(By.CSS_SELECTOR, ".toolbar").text)
        assert first.execute_script("return localStorage.getItem('tributary.displayName')") == "Ada"
        document = json.loads(editor_text(first).get_attribute("value"))
        document["name"] = "Edited in the first window"
        replace_text(first, json.dumps(document, indent=2))
        first.find_element(By.XPATH, "//button[text()='Save']").click()
        started = time.monotonic()
        wait(second, lambda: second.find_element(By.TAG_NAME, "h1").text == "Edited in the first window", 5)
        print(f"     the second window had the save after {1000 * (time.monotonic() - started):.0f} ms")
        wait(second, lambda: "saved by Ada" in second.find_element(By.CSS_SELECTOR, ".toolbar").text)
        wait(second, lambda: " · Ada · " in second.find_element(By.CSS_SELECTOR, "ul.versions").text)

    run.step("streams-two-windows", second, together)

    def merged():
        # Different parts: the first window's stream and the second's node merge on their own.
        mine = json.loads(editor_text(second).get_attribute("value"))
        mine["streams"][0]["items"][0]["value"] = 41
        replace_text(second, json.dumps(mine, indent=2))
        theirs = json.loads(editor_text(first).get_attribute("value"))
        theirs["nodes"][0]["expression"] = "$0 * 3"
        replace_text(first, json.dumps(theirs, indent=2))
        first.find_element(By.XPATH, "//button[text()='Save']").click()
        wait(second, lambda: "Merged version" in second.find_element(By.CSS_SELECTOR, ".toolbar").text)
        text = editor_text(second).get_attribute("value")
        assert '"value": 41' in text and "$0 * 3" in text, text
        second.find_element(By.XPATH, "//button[text()='Save']").click()
        wait(first, lambda: '"value": 41' in editor_text(first).get_attribute("value"))
        saved = api(base, "GET", f"/api/streams/{state['id']}")
        assert saved["document"]["streams"][0]["items"][0]["value"] == 41, saved
        assert saved["document"]["nodes"][0]["expression"] == "$0 * 3", saved
        assert saved["author"] == "Grace", saved

    run.step("streams-merge", second, merged)

    def conflict():
        # Only the fields both changed are asked about, theirs beside mine, the difference
        # marked; a field of the same node only one side changed merges without asking.
        mine = json.loads(editor_text(second).get_attribute("value"))
        mine["name"] = "Kept in the second window"
        mine["nodes"][0]["expression"] = "$0 * 5"
        replace_text(second, json.dumps(mine, indent=2))
        theirs = json.loads(editor_text(first).get_attribute("value"))
        theirs["name"] = "Saved again in the first"
        theirs["nodes"][0]["expression"] = "$0 * 7"
        theirs["nodes"][1]["expression"] = "$0 > 3"
        replace_text(first, json.dumps(theirs, indent=2))
        first.find_element(By.XPATH, "//button[text()='Save']").click()
        banner = wait(second, lambda: second.find_element(By.CSS_SELECTOR, ".banner.merge"))
        assert "changed 2 fields you changed too" in banner.text, banner.text
        # The versions list has their save while the choice waits.
        version = banner.text.split("Version ")[1].split(",")[0]
        wait(second, lambda: second.find_element(By.CSS_SELECTOR, "ul.versions li").text.startswith(f"{version} · Ada"))
        rows = banner.find_elements(By.CSS_SELECTOR, "tr[data-conflict]")
        assert [row.get_attribute("data-conflict") for row in rows] == ["name", "node doubled › expression"], [row.text for row in rows]
        theirs_cell, mine_cell = rows[1].find_elements(By.TAG_NAME, "td")
        assert theirs_cell.find_element(By.TAG_NAME, "mark").text == "7", theirs_cell.text
        assert mine_cell.find_element(By.TAG_NAME, "mark").text == "5", mine_cell.text
        assert "node above2 › expression (theirs)" in banner.text, banner.text
        assert "Kept in the second window" in editor_text(second).get_attribute("value")
        # Until each conflict is chosen, the main Save says why it waits, and so does Merge.
        assert not second.find_element(By.XPATH, "//button[text()='Save']").is_enabled()
        assert "Choose theirs or mine" in second.find_element(By.ID, "save-reason").text
        merge = banner.find_element(By.XPATH, ".//button[text()='Merge']")
        assert not merge.is_enabled() and "2 fields still to choose" in banner.text, banner.text
        rows[0].find_element(By.CSS_SELECTOR, "input[value='mine']").click()
        assert not merge.is_enabled() and "One field still to choose" in banner.text, banner.text
        rows[1].find_element(By.CSS_SELECTOR, "input[value='theirs']").click()
        second.save_screenshot(os.path.join(run.shots, "streams-conflict-choice.png"))
        assert merge.is_enabled()
        merge.click()
        merged = json.loads(editor_text(second).get_attribute("value"))
        assert merged["name"] == "Kept in the second window", merged
        assert merged["nodes"][0]["expression"] == "$0 * 7" and merged["nodes"][1]["expression"] == "$0 > 3", merged
        second.find_element(By.XPATH, "//button[text()='Save']").click()
        wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == "Kept in the second window")
        saved = api(base, "GET", f"/api/streams/{state['id']}")["document"]
        assert saved["nodes"][0]["expression"] == "$0 * 7" and saved["nodes"][1]["expression"] == "$0 > 3", saved

    run.step("streams-conflict", second, conflict)

    def hostile_title():
        document = json.loads(editor_text(first).get_attribute("value"))
        document["name"] = "<img src=x onerror=document.title='owned'>"
        made = api(base, "POST", "/api/streams", document)
        first.get(f"{base}/streams/{made['id']}")
        wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == document["name"])
        assert not first.find_elements(By.CSS_SELECTOR, "h1 img")
        assert first.title != "owned"

    run.step("streams-hostile-title", first, hostile_title)

    def open_example(name):
        first.get(base + "/streams")
        wait(first, lambda: first.find_element(By.XPATH, f"//button[contains(., '{name}')]")).click()
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, "svg.diagram").get_attribute("width"))

    def readable_marbles():
        open_example("typing burst")
        # Whole at first sight; at its actual size, its 13 px value text is read as drawn.
        wait(first, lambda: first.execute_script(
            "const b = document.querySelector('.diagram-box'); return b.scrollWidth <= b.clientWidth"))
        first.find_element(By.ID, "zoom").click()
        wait(first, lambda: abs(first.execute_script(
            "const d = document.querySelector('svg.diagram');"
            "return d.getBoundingClientRect().width / Number(d.getAttribute('width'))") - 1) < 0.01)
        first.find_element(By.ID, "zoom").click()
        # A marble's whole value is its hover title, in the page as in the file.
        titles = first.execute_script("return [...document.querySelectorAll('svg.diagram g.value title')].map(t => t.textContent)")
        assert "swift ui at 1.4s" in titles, titles
        source = urllib.request.urlopen(f"{base}/api/streams/{first.current_url.split('/streams/')[1]}/diagram.svg").read().decode()
        assert 'font-size="13" fill="#111">swift</text>' in source
        assert "← typed" in source

    run.step("streams-marbles", first, readable_marbles)

    def failed_run():
        open_example("failing")
        failures = wait(first, lambda: first.find_element(By.ID, "run-failures").text)
        assert "Division by zero" in failures and "failed at" in failures, failures

    run.step("streams-failed-run", first, failed_run)

    def operator_fields():
        open_example("Map, filter and scan")
        marbles = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "input[aria-label='Marbles of numbers']"))
        wait(first, lambda: marbles.get_attribute("value") == "-123(4|)")
        select = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "select[aria-label='Operator of doubled']"))
        wait(first, lambda: len(select.find_elements(By.TAG_NAME, "option")) == 13)
        def change(label, value):
            set_field(first, label, value)

        change("Operator of doubled", "debounce")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, "input[aria-label='Seconds of doubled']"))
        node = lambda: next(n for n in json.loads(editor_text(first).get_attribute("value"))["nodes"] if n["id"] == "doubled")
        assert node()["seconds"] == 0.5 and "expression" not in node(), node()
        wait(first, lambda: "debounce(0.5s)" in first.find_element(By.CSS_SELECTOR, "pre.lanes").text)
        assert first.find_element(By.ID, "json-error").text == ""
        change("Seconds of doubled", "2")
        wait(first, lambda: node()["seconds"] == 2)
        change("Operator of doubled", "throttle")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, "input[aria-label='The latest of a window, not the first of doubled']").click() or True)
        wait(first, lambda: node().get("latest") is True and node()["seconds"] == 2)
        change("Operator of doubled", "merge")
        wait(first, lambda: node().get("inputs") == ["numbers"] and "input" not in node() and "seconds" not in node())
        wait(first, lambda: "merge(numbers)" in first.find_element(By.CSS_SELECTOR, "pre.lanes").text)

    run.step("streams-operator-fields", first, operator_fields)

    def bad_links():
        first.get(base + "/streams")
        link = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "input[aria-label='Document link or id']"))
        link.send_keys("http://example.org/streams/nonsense", Keys.ENTER)
        wait(first, lambda: "neither a document’s link nor its id" in first.find_element(By.ID, "open-problem").text)
        first.save_screenshot(os.path.join(run.shots, "streams-bad-link-list.png"))
        assert first.current_url.rstrip("/") == base + "/streams", first.current_url
        for path in ["AAAAAAAAAAAAAAAAAAAAAA", "not-an-id"]:
            first.get(f"{base}/streams/{path}")
            wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == "No such document")
            assert path in first.find_element(By.CSS_SELECTOR, "main [role=alert]").text
            assert not first.find_elements(By.CSS_SELECTOR, "textarea.json")
        # A version that is no number names none: it is not taken for the latest.
        made = api(base, "POST", "/api/streams", example("serial.json"))
        for version in ["0", "abc"]:
            first.get(f"{base}/streams/{made['id']}/versions/{version}")
            wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == "No such version")
            assert "is not a version" in first.find_element(By.CSS_SELECTOR, "main [role=alert]").text
            assert not first.find_elements(By.CSS_SELECTOR, "textarea.json")

    run.step("streams-bad-link", first, bad_links)

    def values_as_typed():
        made = api(base, "POST", "/api/streams", {
            "schemaVersion": 1, "name": "Languages", "streams": [{"id": "langs", "items": [{"value": 1}]}],
            "nodes": [{"id": "loud", "operator": "map", "input": "langs", "expression": "$0"}],
        })
        first.get(f"{base}/streams/{made['id']}")
        # The form is drawn again as the operators arrive: each field is looked up when it is used.
        find = lambda name: first.find_element(By.CSS_SELECTOR, f"input[aria-label='{name}']")
        field = lambda name: find(f"{name} of langs").get_attribute("value")
        wait(first, lambda: field("Marbles") == "(1|)" and len(first.find_elements(By.CSS_SELECTOR, "select option")) == 13)
        marbles, values = find("Marbles of langs"), find("Values of langs")
        document = lambda: json.loads(editor_text(first).get_attribute("value"))
        # Typed, never left: the fields apply once typing pauses.
        values.click()
        values.send_keys("a=swift, b=rust")
        marbles.click()
        marbles.send_keys(Keys.CONTROL, "a")
        marbles.send_keys("--a--b|")
        wait(first, lambda: [item["value"] for item in document()["streams"][0]["items"]] == ["swift", "rust"])
        assert list(document()["streams"][0]) == ["id", "items", "ending"], list(document()["streams"][0])
        wait(first, lambda: "--a--b|" in first.find_element(By.CSS_SELECTOR, "pre.lanes").text)
        expression = find("Expression of loud")
        expression.click()
        expression.send_keys(Keys.CONTROL, "a")
        expression.send_keys("upper($0)")
        wait(first, lambda: document()["nodes"][0]["expression"] == "upper($0)")
        wait(first, lambda: "where a = swift, b = rust" in first.find_element(By.CSS_SELECTOR, "pre.lanes").text
             and "SWIFT" in first.find_element(By.CSS_SELECTOR, "pre.lanes").text)
        # Shown back from the run, stand-ins and their values, once the fields are left.
        first.find_element(By.TAG_NAME, "h1").click()
        editor_text(first).click()
        replace_text(first, editor_text(first).get_attribute("value"))
        wait(first, lambda: field("Values") == "a=swift, b=rust" and field("Marbles") == "--a--b|")
        first.save_screenshot(os.path.join(run.shots, "streams-values.png"))

    run.step("streams-values-as-typed", first, values_as_typed)

    def nothing_lost():
        made = api(base, "POST", "/api/streams", example("serial.json"))
        key = f"tributary.draft.{made['id']}"
        first.get(f"{base}/streams/{made['id']}")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
        document = json.loads(editor_text(first).get_attribute("value"))
        replace_text(first, json.dumps({**document, "name": "Drafted"}, indent=2))
        wait(first, lambda: first.execute_script(f"return localStorage.getItem('{key}')") is not None)
        # Leaving by the lab's own link asks first; declining stays, changes and all.
        first.execute_script("window.asked = 0; window.confirm = () => { window.asked += 1; return false; }")
        first.find_element(By.CSS_SELECTOR, "nav a[data-section=streams]").click()
        assert first.execute_script("return window.asked") == 1
        assert first.current_url.endswith(f"/streams/{made['id']}"), first.current_url
        assert '"Drafted"' in editor_text(first).get_attribute("value")
        # Closing or reloading the tab asks too.
        assert first.execute_script(
            "const e = new Event('beforeunload', { cancelable: true }); dispatchEvent(e); return e.defaultPrevented") is True
        # A reload offers the draft back.
        first.refresh()
        offer = wait(first, lambda: first.find_element(By.ID, "draft-offer"))
        assert "unsaved changes" in offer.text, offer.text
        first.save_screenshot(os.path.join(run.shots, "streams-draft-offer.png"))
        offer.find_element(By.XPATH, ".//button[text()='Restore them']").click()
        wait(first, lambda: '"Drafted"' in editor_text(first).get_attribute("value"))
        # Ctrl-S saves, credited to the name typed a moment before.
        name = first.find_element(By.CSS_SELECTOR, "input.name-field")
        name.clear()
        name.send_keys("Grace")
        editor_text(first).send_keys(Keys.CONTROL, "s")
        wait(first, lambda: api(base, "GET", f"/api/streams/{made['id']}")["version"] == 2)
        versions = api(base, "GET", f"/api/streams/{made['id']}/versions")["versions"]
        assert versions[-1]["author"] == "Grace", versions
        wait(first, lambda: first.execute_script(f"return localStorage.getItem('{key}')") is None)
        # Saved, it leaves without asking.
        first.find_element(By.CSS_SELECTOR, "nav a[data-section=streams]").click()
        wait(first, lambda: first.current_url.rstrip("/").endswith("/streams"))

    run.step("streams-nothing-typed-is-lost", first, nothing_lost)

    def operators_keep_fields():
        made = api(base, "POST", "/api/streams", example("map-filter-scan.json"))
        first.get(f"{base}/streams/{made['id']}")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
        node = lambda: next(n for n in json.loads(editor_text(first).get_attribute("value"))["nodes"] if n["id"] == "doubled")
        expression = node()["expression"]
        for name in ["filter", "scan", "delay", "map"]:
            select = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "select[aria-label='Operator of doubled']"))
            wait(first, lambda: len(select.find_elements(By.TAG_NAME, "option")) > 1)
            set_field(first, "Operator of doubled", name)
            wait(first, lambda: node()["operator"] == name)
        # map → filter → scan → delay → map keeps the expression map began with.
        assert node()["expression"] == expression, node()
        api_save = urllib.request.Request(f"{base}/api/streams/{made['id']}", method="DELETE", headers={"Authorization": f"Bearer {TOKEN}"})
        urllib.request.urlopen(api_save).read()

    run.step("streams-operators-keep-fields", first, operators_keep_fields)

    def diagrams_fit():
        made = api(base, "POST", "/api/streams", example("zip-vs-combineLatest.json"))
        try:
            for width in [1280, 390]:
                first.set_window_size(width, 900)
                first.get(f"{base}/streams/{made['id']}")
                wait(first, lambda: first.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
                # The whole run at first sight: nothing of the diagram past its box, no page
                # wider than the window.
                wait(first, lambda: first.execute_script(
                    "const b = document.querySelector('.diagram-box'); return b.scrollWidth <= b.clientWidth"))
                assert first.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
                first.save_screenshot(os.path.join(run.shots, f"streams-diagram-fits-{width}.png"))
                # Actual size for detail, to pan across; Fit again.
                natural = float(first.execute_script("return document.querySelector('.diagram-box svg.diagram').getAttribute('width')"))
                first.find_element(By.ID, "zoom").click()
                wait(first, lambda: abs(first.execute_script(
                    "return document.querySelector('.diagram-box svg.diagram').getBoundingClientRect().width") - natural) < 1.5)
                if width == 390:
                    assert first.execute_script(
                        "const b = document.querySelector('.diagram-box'); return b.scrollWidth > b.clientWidth")
                first.find_element(By.ID, "zoom").click()
                wait(first, lambda: first.execute_script(
                    "const b = document.querySelector('.diagram-box'); return b.scrollWidth <= b.clientWidth"))
        finally:
            first.set_window_size(1280, 1000)

    run.step("streams-diagrams-fit", first, diagrams_fit)

    def delete():
        made = api(base, "POST", "/api/streams", {
            "schemaVersion": 1, "name": "To be deleted", "streams": [{"id": "n", "items": [{"value": 1}]}],
        })
        first.get(f"{base}/streams/{made['id']}")
        second.get(f"{base}/streams/{made['id']}")
        wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == "To be deleted")
        wait(second, lambda: second.find_element(By.TAG_NAME, "h1").text == "To be deleted")
        first.find_element(By.XPATH, "//button[text()='Delete']").click()
        wait(first, lambda: "cannot be undone" in first.find_element(By.CSS_SELECTOR, ".banner").text)
        first.save_screenshot(os.path.join(run.shots, "streams-delete-confirm.png"))
        first.find_element(By.XPATH, "//button[text()='Keep it']").click()
        wait(first, lambda: not first.find_elements(By.CSS_SELECTOR, ".banner"))
        assert api(base, "GET", f"/api/streams/{made['id']}")["version"] == 1
        first.find_element(By.XPATH, "//button[text()='Delete']").click()
        wait(first, lambda: first.find_element(By.XPATH, "//button[text()='Delete for good']")).click()
        wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == "Document deleted")
        wait(second, lambda: "This document was deleted" in second.find_element(By.CSS_SELECTOR, ".banner").text)
        try:
            api(base, "GET", f"/api/streams/{made['id']}")
            raise AssertionError("the document is still there")
        except urllib.error.HTTPError as error:
            assert error.code == 404, error.code

    run.step("streams-delete", first, delete)


def sharing(run, first):
    """A share link opened in a browser that never had the lab's session: the document, its
    marbles and its diagram, drawn by the lab, and nothing that needs the session; a link to one
    version; and the diagram embedded in another site's page, which no other page may do."""
    base = run.base
    document = example("typing-debounce.json")
    made = api(base, "POST", "/api/streams", document)
    fresh = browser()
    try:
        def received():
            fresh.get(f"{base}/streams/{made['id']}")
            wait(fresh, lambda: fresh.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
            wait(fresh, lambda: "settled = debounce(0.3s)" in fresh.find_element(By.CSS_SELECTOR, "pre.lanes").text)
            note = wait(fresh, lambda: fresh.find_element(By.ID, "read-only-note"))
            assert "tributary lab" in note.text and "Read-only" in note.text, note.text
            marbles = fresh.find_element(By.XPATH, "//input[@aria-label='Marbles of typed']")
            assert marbles.get_attribute("value").startswith("-sabc"), marbles.get_attribute("value")
            assert not marbles.is_enabled()
            assert fresh.find_element(By.CSS_SELECTOR, "textarea.json").get_attribute("readonly") is not None
            for name in ["Save", "Delete"]:
                assert not fresh.find_element(By.XPATH, f"//button[text()='{name}']").is_enabled(), name
            assert "token" not in fresh.find_element(By.TAG_NAME, "main").text.replace("tributary lab", "")

        run.step("share-link-in-a-fresh-browser", fresh, received)

        def one_version():
            renamed = urllib.request.Request(
                f"{base}/api/streams/{made['id']}", method="PUT", data=json.dumps({**document, "name": "Renamed"}).encode(),
                headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json", "If-Match": '"1"'},
            )
            urllib.request.urlopen(renamed).read()
            fresh.get(f"{base}/streams/{made['id']}/versions/1")
            note = wait(fresh, lambda: fresh.find_element(By.ID, "read-only-note"))
            assert "Version 1 of this document" in note.text, note.text
            wait(fresh, lambda: fresh.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
            assert fresh.find_element(By.TAG_NAME, "h1").text == "A typing burst through debounce"
            fresh.find_element(By.ID, "latest-link").click()
            wait(fresh, lambda: fresh.find_element(By.TAG_NAME, "h1").text == "Renamed")

        run.step("share-link-to-one-version", fresh, one_version)

        def embedded():
            # Another site's page frames the embed and, as the page itself, the editor.
            folder = tempfile.mkdtemp(prefix="lab-embed-")
            with open(os.path.join(folder, "index.html"), "w") as page:
                page.write(f'<iframe id="embed" src="{base}/embed/{made["id"]}" width="640" height="360"></iframe>'
                           f'<iframe id="editor" src="{base}/streams/{made["id"]}" width="640" height="360"></iframe>')
            port = free_port()
            site = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", folder],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                def serving():
                    try:
                        return urllib.request.urlopen(f"http://127.0.0.1:{port}/").status == 200
                    except OSError:
                        return False

                wait(fresh, serving)
                fresh.get(f"http://127.0.0.1:{port}/")
                fresh.switch_to.frame(fresh.find_element(By.ID, "embed"))
                picture = wait(fresh, lambda: fresh.find_element(By.TAG_NAME, "img"))
                wait(fresh, lambda: fresh.execute_script("return arguments[0].naturalWidth", picture) > 0)
                link = fresh.find_element(By.TAG_NAME, "a").get_attribute("href")
                assert link.endswith(f"/streams/{made['id']}/versions/2"), link
                fresh.switch_to.default_content()
                fresh.switch_to.frame(fresh.find_element(By.ID, "editor"))
                assert not fresh.find_elements(By.ID, "main"), "the editor was framed"
                fresh.switch_to.default_content()
            finally:
                site.terminate()
                site.wait(timeout=10)

        run.step("share-embedded-elsewhere", fresh, embedded)
    finally:
        fresh.quit()

    def offered():
        first.get(f"{base}/streams/{made['id']}")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
        wait(first, lambda: first.find_element(By.XPATH, "//button[text()='Share']")).click()
        panel = wait(first, lambda: first.find_element(By.ID, "share-panel"))
        values = {field.get_attribute("id"): field.get_attribute("value") for field in panel.find_elements(By.TAG_NAME, "input")}
        assert values["share-latest"] == f"{base}/streams/{made['id']}", values
        assert values["share-version"] == f"{base}/streams/{made['id']}/versions/2", values
        assert values["share-embed"].startswith(f'<iframe src="{base}/embed/{made["id"]}/versions/2"'), values

    run.step("share-offers-links-and-embed", first, offered)


def ingest(driver, recording, events):
    """Sends `events` into `recording` as a recorder does, from the page's own origin and session."""
    answer = driver.execute_async_script("""
        const [recording, batch, done] = arguments;
        const socket = new WebSocket(`ws://${location.host}/api/recordings/${recording}/ingest?recorder=${crypto.randomUUID()}`);
        let replies = 0;
        socket.onopen = () => socket.send(JSON.stringify(batch));
        socket.onmessage = (message) => { replies += 1; if (replies === 2) { socket.close(); done(message.data); } };
        socket.onclose = (closing) => done(`closed ${closing.code}`);
    """, recording, {"type": "events", "first": 0, "events": events, "dropped": 0})
    assert '"stored"' in answer, answer


def recordings(run, first, second):
    """The lab runs with --record: its news reader's lanes arrive live in the recording "lab news"."""
    base = run.base

    def marbles(driver):
        return driver.find_elements(By.CSS_SELECTOR, ".lanes-chart circle.marble")

    def lane_names(driver):
        return [node.text for node in driver.find_elements(By.CSS_SELECTOR, ".lanes-chart text.lane-name")]

    def event_count(driver):
        text = driver.find_element(By.CSS_SELECTOR, "main .meta").text
        return int(text.split(" ")[0].replace(",", "")) if text and text[0].isdigit() else 0

    def listed():
        first.get(f"{base}/?token={TOKEN}")
        first.get(base + "/news?view=search")
        box = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "input[type=search]"))
        box.send_keys("swift")
        wait(first, lambda: len(cards(first)) > 0)
        first.get(base + "/recordings")
        link = wait(first, lambda: first.find_element(By.LINK_TEXT, "lab news"))
        assert "event" in link.find_element(By.XPATH, "..").text
        link.click()
        # The news client's own HTTP exchanges are in the same timeline.
        wait(first, lambda: {"typed", "query", "request", "response", "http"} <= set(lane_names(first)))
        assert first.find_element(By.TAG_NAME, "h1").text == "lab news"

    run.step("recordings-list-and-lanes", first, listed)

    def live():
        before = event_count(first)
        second.get(f"{base}/?token={TOKEN}")
        second.get(base + "/news?view=search")
        box = wait(second, lambda: second.find_element(By.CSS_SELECTOR, "input[type=search]"))
        box.send_keys("compiler")
        wait(first, lambda: event_count(first) > before + 3)
        wait(first, lambda: any("compiler" in (m.find_element(By.TAG_NAME, "title").get_attribute("textContent") or "")
                                for m in marbles(first)))

    run.step("recordings-follow-live", first, live)

    def read_a_value():
        pause = first.find_element(By.XPATH, "//button[text()='Pause']")
        pause.click()
        assert pause.get_attribute("aria-pressed") == "false"
        marble = [m for m in marbles(first)
                  if "compiler" in (m.find_element(By.TAG_NAME, "title").get_attribute("textContent") or "")][-1]
        first.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", marble)
        detail = first.find_element(By.CSS_SELECTOR, ".lane-detail").text
        assert "compiler" in detail, detail
        zoom = first.find_element(By.CSS_SELECTOR, "button[aria-label='Zoom in']")
        width = first.execute_script("return document.querySelector('.lanes-chart svg').getBBox().width")
        zoom.click()
        zoom.click()
        wait(first, lambda: first.execute_script(
            "return document.querySelector('.lanes-chart svg').getBBox().width") != width)
        href = first.find_element(By.LINK_TEXT, "Download test").get_attribute("href")
        assert "/test.swift?input=" in href, href
        source = first.execute_script(
            "return fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text())", href)
        assert "import Testing" in source and "@Test" in source, source[:200]

    run.step("recordings-read-a-value", first, read_a_value)

    def as_document():
        for select, lane in [("Input lane", "request"), ("Output lane", "response")]:
            set_field(first, select, lane)
        first.find_element(By.XPATH, "//button[text()='Open as document']").click()
        wait(first, lambda: first.current_url.startswith(base + "/streams/"))
        wait(first, lambda: "\"id\": \"request\"" in editor_text(first).get_attribute("value"))

    run.step("recordings-open-as-document", first, as_document)

    def labels_apart():
        # Six short subscriptions one after another share a row; a lane of words holds an empty one.
        def event(lane, subscription, kind, t, **more):
            return {"lane": lane, "subscription": subscription, "kind": kind, "t": t, "source": "Labels.swift:1", **more}

        events = []
        for number in range(1, 7):
            start = 0.02 * number
            events += [event("letters", number, "subscribed", start), event("letters", number, "value", start + 0.005, value=str(number)),
                       event("letters", number, "finished", start + 0.015)]
        events += [event("words", 1, "subscribed", 0.3), event("words", 1, "value", 0.5, value=""),
                   event("words", 1, "value", 1.0, value="swift"), event("words", 1, "value", 2.0, value="a longer value"),
                   event("words", 1, "finished", 3.0)]
        events.sort(key=lambda item: item["t"])
        first.get(base + "/recordings")
        ingest(first, "labels", events)
        first.get(base + "/recordings")
        wait(first, lambda: first.find_element(By.LINK_TEXT, "labels")).click()
        wait(first, lambda: {"letters", "words"} <= set(lane_names(first)))
        labels = first.execute_script("""
            return [...document.querySelectorAll('.lanes-chart text')].map((node) => {
              const box = node.getBBox();
              return { text: node.textContent, kind: node.getAttribute('class'), x: box.x, y: box.y, width: box.width, height: box.height };
            });""")
        drawn = [label for label in labels if label["kind"] in ("subscription", "value-label", "lane-name")]
        for index, one in enumerate(drawn):
            for other in drawn[index + 1:]:
                apart = (one["x"] + one["width"] <= other["x"] or other["x"] + other["width"] <= one["x"]
                         or one["y"] + one["height"] <= other["y"] or other["y"] + other["height"] <= one["y"])
                assert apart, f"{one} is drawn on {other}"
        values = [label["text"] for label in drawn if label["kind"] == "value-label"]
        assert '""' in values and "swift" in values and "a longer value" in values, values
        assert "#1" in [label["text"] for label in drawn if label["kind"] == "subscription"]
        empty = [m for m in marbles(first) if m.find_element(By.TAG_NAME, "title").get_attribute("textContent").startswith('"" at')]
        assert len(empty) == 1, [m.find_element(By.TAG_NAME, "title").get_attribute("textContent") for m in marbles(first)]
        first.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", empty[0])
        assert first.find_element(By.CSS_SELECTOR, ".lane-detail code").text == '""'
        # A time cursor from the link: every lane's latest value and state there, and the change
        # that led there; the arrow keys step event by event, and the link follows.
        address = first.current_url.split("?")[0]
        first.get(address + "?t=0.65")
        state = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "#at-cursor .cursor-state"))
        wait(first, lambda: "At 650 ms" in state.text)
        assert 'words #1 value "" at 500 ms' in first.find_element(By.ID, "cursor-change").text, state.text
        rows = {row.find_element(By.TAG_NAME, "th").text: row.text for row in state.find_elements(By.CSS_SELECTOR, "tbody tr")}
        assert rows["letters"].startswith("letters 6 #6") and rows["letters"].endswith("none alive"), rows
        assert rows["words"].startswith('words "" #1') and rows["words"].endswith("1 alive: #1"), rows
        assert first.find_elements(By.CSS_SELECTOR, ".lanes-chart line.cursor")
        assert first.find_element(By.XPATH, "//button[@aria-pressed]").text == "Follow live"
        first.save_screenshot(os.path.join(run.shots, "recordings-time-cursor.png"))
        chart = first.find_element(By.CSS_SELECTOR, ".lanes-chart")
        chart.send_keys(Keys.ARROW_RIGHT)
        wait(first, lambda: "words #1 value swift at 1" in first.find_element(By.ID, "cursor-change").text)
        wait(first, lambda: first.current_url.endswith("?t=1"))
        chart.send_keys(Keys.ARROW_LEFT)
        wait(first, lambda: 'value ""' in first.find_element(By.ID, "cursor-change").text)
        chart.send_keys(Keys.ESCAPE)
        wait(first, lambda: not first.find_elements(By.CSS_SELECTOR, "#at-cursor .cursor-state"))
        wait(first, lambda: "?t=" not in first.current_url)

    run.step("recordings-labels-apart", first, labels_apart)

    def file_round_trip():
        # "Download file" saves the recording; the list page imports it back, and refuses a
        # damaged one with the line that is wrong.
        href = first.find_element(By.LINK_TEXT, "Download file").get_attribute("href")
        assert first.find_element(By.LINK_TEXT, "Trace for Perfetto").get_attribute("href").endswith("/trace.json")
        text = first.execute_script("return fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text())", href)
        folder = tempfile.mkdtemp(prefix="lab-import-")
        good, bad = os.path.join(folder, "labels.tributary.ndjson"), os.path.join(folder, "damaged.tributary.ndjson")
        with open(good, "w") as f:
            f.write(text)
        lines = text.split("\n")
        with open(bad, "w") as f:
            f.write("\n".join(lines[:3] + ["{not json"] + lines[4:]))
        first.get(base + "/recordings")
        chooser = wait(first, lambda: first.find_element(By.ID, "import-file"))
        chooser.send_keys(bad)
        wait(first, lambda: "Line 4 is not an event" in first.find_element(By.ID, "import-status").text)
        assert "damaged.tributary.ndjson" in first.find_element(By.ID, "import-status").text
        first.save_screenshot(os.path.join(run.shots, "recordings-import-refused.png"))
        first.find_element(By.ID, "import-file").send_keys(good)
        wait(first, lambda: first.find_element(By.TAG_NAME, "h1").text == "labels (2)")
        wait(first, lambda: {"letters", "words"} <= set(lane_names(first)))

    run.step("recordings-file-round-trip", first, file_round_trip)

    def state_as_diffs():
        # A structured lane (lane(_:encoding:)): each value's change from the one before, path by
        # path, at the time cursor and when a marble is clicked; the state whole under "as JSON".
        states = [{"query": "", "results": []}, {"query": "sw", "results": []},
                  {"query": "swift", "results": [{"id": 1, "title": "Swift 6"}], "error": None}]
        events = [{"lane": "state", "subscription": 1, "kind": "subscribed", "t": 0.1, "source": "Model.swift:9"}]
        # The third at 0.1 * 15, that is 1.5000000000000002, as times summed in floating point are
        # recorded: a link to 1.5 still stands on it.
        for index, state in enumerate(states):
            events.append({"lane": "state", "subscription": 1, "kind": "value", "t": [0.5, 1.0, 0.1 * 15][index], "source": "Model.swift:9",
                           "value": f"State(query: {state['query']!r})", "structure": json.dumps(state)})
        events.append({"lane": "state", "subscription": 1, "kind": "value", "t": 2.0, "source": "Model.swift:9",
                       "value": "State(…)", "cut": True})
        first.get(base + "/recordings")
        ingest(first, "state", events)
        first.get(base + "/recordings")
        wait(first, lambda: first.find_element(By.LINK_TEXT, "state")).click()
        wait(first, lambda: "state" in lane_names(first))
        first.get(first.current_url.split("?")[0] + "?t=1.5")
        changes = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "#at-cursor ul.diff"))
        lines = [item.text for item in changes.find_elements(By.TAG_NAME, "li")]
        assert lines == ['+ error: null', '~ query: "sw" → "swift"', '+ results[0]: {"id":1,"title":"Swift 6"}'], lines
        assert [item.get_attribute("class") for item in changes.find_elements(By.TAG_NAME, "li")] == ["diff-added", "diff-changed", "diff-added"]
        whole = first.find_element(By.CSS_SELECTOR, "#at-cursor details.whole")
        whole.find_element(By.TAG_NAME, "summary").click()
        # The JSON is written out when the details open, on the toggle event that follows the click.
        written = wait(first, lambda: first.find_element(By.CSS_SELECTOR, "#at-cursor details.whole[open] pre"))
        assert '"title": "Swift 6"' in written.text
        first.save_screenshot(os.path.join(run.shots, "recordings-state-diff.png"))
        # On a phone each lane is a block, the state whole wraps, and nothing is wider than the window.
        try:
            first.set_window_size(390, 844)
            wait(first, lambda: first.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"))
            name = first.find_element(By.CSS_SELECTOR, "#at-cursor .cursor-lanes th[scope=row]")
            assert name.text == "state" and name.size["height"] < 40, (name.text, name.size)
            first.save_screenshot(os.path.join(run.shots, "recordings-state-diff-phone.png"))
        finally:
            first.set_window_size(1280, 1000)
        # The chart is drawn again for the new width: each marble is looked up when it is clicked.
        def click_value(index):
            first.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", marbles(first)[index])
            return True
        # Clicked again until the detail shows it: a click on a marble the redraw replaced does nothing.
        detail = lambda: first.find_element(By.CSS_SELECTOR, ".lane-detail").text
        wait(first, lambda: click_value(0) and "The first value of its subscription" in detail())
        wait(first, lambda: click_value(1) and '~ query: "" → "sw"' in first.find_element(By.CSS_SELECTOR, ".lane-detail ul.diff").text)
        wait(first, lambda: click_value(3) and "only its description was kept" in detail())

    run.step("recordings-state-as-diffs", first, state_as_diffs)

    def long_recording():
        # Longer than the live snapshot: the page draws the latest events at once, then reads the
        # ones before them and draws the whole; a lane denser than its pixels is drawn a column
        # at a time, and the cursor still steps event by event.
        events = [{"lane": "ticks", "subscription": 1, "kind": "subscribed", "t": 0, "source": "Ticks.swift:1"}]
        events += [{"lane": "ticks", "subscription": 1, "kind": "value", "t": round(0.001 * (index + 1), 6), "value": str(index),
                    "source": "Ticks.swift:1"} for index in range(59_999)]
        header = {"format": "tributary-recording", "version": 1, "name": "ticks", "events": len(events), "dropped": 0}
        body = "\n".join([json.dumps(header)] + [json.dumps(event) for event in events]) + "\n"
        request = urllib.request.Request(base + "/api/recordings/import", data=body.encode(), method="POST",
                                         headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/x-ndjson"})
        made = json.load(urllib.request.urlopen(request, timeout=60))
        first.get(base + f"/recordings/{made['id']}?t=0.5")
        counts = lambda: first.find_element(By.CSS_SELECTOR, "h1 + .meta").text
        wait(first, lambda: counts() == "60,000 events", 30)
        wait(first, lambda: "value 499 at 500 ms" in first.find_element(By.ID, "cursor-change").text)
        width = first.find_element(By.CSS_SELECTOR, ".lanes-chart").size["width"]
        dense = first.find_elements(By.CSS_SELECTOR, ".lanes-chart circle.marble.dense")
        assert 0 < len(dense) <= width / 4 + 1, (len(dense), width)
        assert first.find_element(By.CSS_SELECTOR, ".lanes-chart circle.marble.dense title").get_attribute("textContent").endswith(
            tuple("0123456789")), "a column's marble names how many values it stands for"
        chart = first.find_element(By.CSS_SELECTOR, ".lanes-chart")
        chart.send_keys(Keys.ARROW_RIGHT)
        wait(first, lambda: "value 500 at 501 ms" in first.find_element(By.ID, "cursor-change").text)
        wait(first, lambda: first.current_url.endswith("?t=0.501"))

    run.step("recordings-long-recording", first, long_recording)

    def missing():
        first.get(base + "/recordings/no-such-recording")
        wait(first, lambda: "There is no recording" in first.find_element(By.TAG_NAME, "main").text)
        assert first.find_element(By.TAG_NAME, "h1").text == "No such recording"

    run.step("recordings-missing", first, missing)


def reconnecting(run, first, second, labs):
    """The lab stops under an editor with unsaved changes and a news page: both say so at once,
    what is typed meanwhile stays, and when the lab is back both say so and Save saves it all."""
    base = run.base
    made = api(base, "POST", "/api/streams", example("map-filter-scan.json"))
    state = {}

    def lost():
        first.get(f"{base}/streams/{made['id']}")
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, ".diagram-box svg.diagram"))
        wait(first, lambda: "viewing" in first.find_element(By.CSS_SELECTOR, ".toolbar").text)
        second.get(base + "/news")
        wait(second, lambda: len(cards(second)) > 0)
        document = json.loads(editor_text(first).get_attribute("value"))
        document["name"] = "Typed before the lab stopped"
        replace_text(first, json.dumps(document, indent=2))
        labs["lab"].terminate()
        try:
            labs["lab"].wait(timeout=30)
        except subprocess.TimeoutExpired:
            # What is tested here is the pages: a lab slow to stop is stopped, and said to be.
            print("     the lab took longer than 30 s to stop after SIGTERM; killed")
            labs["lab"].kill()
            labs["lab"].wait(timeout=30)
        for driver in (first, second):
            banner = wait(driver, lambda: driver.find_element(By.ID, "connection"))
            wait(driver, lambda: banner.is_displayed() and "cannot be reached" in banner.text)
        save = first.find_element(By.XPATH, "//button[text()='Save']")
        wait(first, lambda: not save.is_enabled())
        assert "Not connected" in first.find_element(By.ID, "save-reason").text
        lanes_before = first.find_element(By.CSS_SELECTOR, "pre.lanes").text
        state["lanes"] = lanes_before
        document["nodes"][0]["expression"] = "$0 * 10"
        replace_text(first, json.dumps(document, indent=2))
        state["document"] = document
        # The text cannot run while the lab is gone: the diagram says it is of the last run.
        stale = first.find_element(By.CSS_SELECTOR, ".stale-label")
        wait(first, lambda: stale.is_displayed() and "cannot be reached" in stale.get_attribute("title"))
        first.save_screenshot(os.path.join(run.shots, "connection-lost.png"))

    run.step("connection-lost", first, lost)

    def back():
        port = urllib.parse.urlsplit(base).port
        labs["lab"], _ = start_lab(labs["binary"], labs["folder"], port)
        for driver in (first, second):
            banner = driver.find_element(By.ID, "connection")
            wait(driver, lambda: "back" in banner.text, 30)
        save = first.find_element(By.XPATH, "//button[text()='Save']")
        wait(first, lambda: save.is_enabled())
        assert json.loads(editor_text(first).get_attribute("value")) == state["document"]
        # What was typed meanwhile runs once the lab is back.
        wait(first, lambda: not first.find_element(By.CSS_SELECTOR, ".stale-label").is_displayed())
        wait(first, lambda: first.find_element(By.CSS_SELECTOR, "pre.lanes").text != state["lanes"])
        save.click()
        wait(first, lambda: "Saved as version 2" in first.find_element(By.CSS_SELECTOR, ".toolbar").text)
        saved = api(base, "GET", f"/api/streams/{made['id']}")["document"]
        assert saved["name"] == "Typed before the lab stopped" and saved["nodes"][0]["expression"] == "$0 * 10", saved
        # The news page asked again by itself.
        wait(second, lambda: len(cards(second)) > 0 and "lost" not in second.find_element(By.ID, "news-status").text)

    run.step("connection-back", first, back)


if __name__ == "__main__":
    main()
