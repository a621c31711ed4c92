#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Open latency-compare --format=html pages in a real headless browser.

html-browser.py SHOT.png PAGE HOSTILE_PAGE

Debian's chromium through chromium-driver (selenium), with no network: every
host name resolves to nothing and every request goes to a proxy that does
not exist.  PAGE must load with no console message of level WARNING or
above and no resource fetched, its verdict table must have rows, the
"changed rows only" box must hide exactly the rows not marked changed (and
show them again), and a click on the p heading must sort the rows by p.  A
screenshot of the whole of PAGE goes to SHOT.png.  HOSTILE_PAGE, whose
labels are markup with handlers, must run nothing: no alert, no handler's
global set, no image element, no console message.  Prints one line a check
passed ("ok ..."); exits 1 at the first that fails.
"""
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

# What the hostile labels' handlers would do if they ran.
TRAP = """
window.__alerts = 0;
window.alert = window.confirm = window.prompt = function () {
    window.__alerts++;
};
"""


def fail(msg):
    print("not ok: %s" % msg)
    sys.exit(1)


def browser(profile):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--no-first-run",
              "--disable-background-networking", "--disable-sync",
              "--disable-extensions", "--window-size=1280,900",
              "--host-resolver-rules=MAP * ~NOTFOUND",
              "--proxy-server=http://127.0.0.1:9",
              "--user-data-dir=" + profile):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                            options=opts)


def load(d, path):
    d.get("file://" + path)
    if d.execute_script("return document.readyState") != "complete":
        fail("%s did not finish loading" % path)
    msgs = [m for m in d.get_log("browser")
            if m.get("level") in ("WARNING", "SEVERE")]
    if msgs:
        fail("console of %s: %s" % (path, msgs))
    res = d.execute_script(
        "return performance.getEntriesByType('resource')"
        ".map(function(e){return e.name;})")
    if res:
        fail("%s fetched %s" % (path, res))
    print("ok %s loads with no console message and fetches nothing" % path)


def rows(d):
    return d.find_elements(By.CSS_SELECTOR, "table.figures tbody tr")


def check_page(d, path, shot):
    load(d, path)
    all_rows = rows(d)
    verdict = d.find_elements(By.CSS_SELECTOR, "#verdict tbody tr")
    if not verdict:
        fail("the verdict table has no rows")
    changed = [r.get_attribute("id") for r in all_rows
               if r.get_attribute("data-changed") == "1"]
    print("ok the verdict table has %d rows, %d of %d rows changed"
          % (len(verdict), len(changed), len(all_rows)))
    d.find_element(By.ID, "changed-only").click()
    shown = [r.get_attribute("id") for r in all_rows if r.is_displayed()]
    if shown != changed:
        fail("changed rows only shows %s, not %s" % (shown, changed))
    d.find_element(By.ID, "changed-only").click()
    if not all(r.is_displayed() for r in all_rows):
        fail("the unchanged rows do not come back")
    print("ok the filter hides the %d unchanged rows and shows them again"
          % (len(all_rows) - len(changed)))
    heads = d.find_elements(By.CSS_SELECTOR, "#verdict thead th")
    col = [h.text for h in heads].index("p")
    heads[col].click()
    ps = [float(r.find_elements(By.TAG_NAME, "td")[col]
                .get_attribute("data-v"))
          for r in d.find_elements(By.CSS_SELECTOR, "#verdict tbody tr")]
    known = [p for p in ps if p == p]
    if known != sorted(known) or ps[:len(known)] != known:
        fail("a click on p does not sort by p: %s" % ps)
    print("ok a click on the p heading sorts the rows by p")
    height = d.execute_script("return document.body.scrollHeight")
    d.set_window_size(1280, min(int(height) + 40, 16000))
    if not d.save_screenshot(shot):
        fail("no screenshot")
    print("ok screenshot %s" % shot)


def check_hostile(d, path):
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                      {"source": TRAP})
    load(d, path)
    try:
        d.switch_to.alert
        fail("an alert is open")
    except NoAlertPresentException:
        pass
    got = d.execute_script(
        "return [window.__alerts, typeof window.pwned, "
        "document.images.length, document.scripts.length]")
    if got != [0, "undefined", 0, 1]:
        fail("the hostile labels ran (alerts, pwned, images, scripts): %s"
             % got)
    text = d.find_element(By.ID, "labels").text
    if "<img src=x onerror=" not in text:
        fail("the hostile label is not shown as text")
    print("ok the hostile labels show as text and run nothing")


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as profile:
        d = browser(profile)
        try:
            check_page(d, argv[2], argv[1])
            check_hostile(d, argv[3])
        finally:
            d.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
