#!/usr/bin/env python3
"""Drives the remote page in headless Chromium (see remote-page.sh). Prints one line per check
and a counted summary; exits 1 when any check failed."""
import argparse, json, os, shutil, sys, time, urllib.error, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from kiosk_process import Kiosk, scratch_library

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

checks = []

def check(name, ok, detail=""):
    checks.append(ok)
    print(("ok    " if ok else "FAIL  ") + name + (f": {detail}" if detail else ""), flush=True)

def call(base, method, path, token=None, body=None, headers=None):
    request = urllib.request.Request(base + path, data=body, method=method, headers=dict(headers or {}))
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()

def check_settings(browser, base, token, state):
    """Settings from the phone page (issue 30, item 4): the form shows what is in force, a changed
    interval and toggle reach the API and the settings file, a wrong value is refused on the page
    with the reason, a change must be JSON, and "Back to config.toml" forgets them."""
    from selenium.webdriver.support.ui import Select
    field = lambda key: browser.find_element(By.CSS_SELECTOR, f'[data-key="{key}"]')
    message = lambda: browser.find_element(By.ID, "settings-message").text
    def settings():
        return json.loads(call(base, "GET", "/api/settings", token)[1])
    browser.execute_script("document.getElementById('settings').scrollIntoView()")
    WebDriverWait(browser, 10).until(lambda b: field("slideshow.interval").get_attribute("value") != "")
    interval = field("slideshow.interval")
    check("the settings form shows the interval in force", interval.get_attribute("value") == "10", interval.get_attribute("value"))
    ken_burns = field("slideshow.ken_burns")
    was = ken_burns.is_selected()
    interval.clear()
    interval.send_keys("25")
    ken_burns.click()
    Select(field("overlay.clock")).select_by_value("top-right")
    browser.find_element(By.ID, "settings-save").click()
    WebDriverWait(browser, 10).until(lambda b: "Saved" in message())
    now = settings()
    check("the API reports the interval changed on the page", now["settings"]["slideshow"]["interval"] == 25, f'{now["settings"]["slideshow"]}')
    check("the API reports the Ken Burns toggle changed on the page", now["settings"]["slideshow"]["ken_burns"] == (not was))
    check("only the changed settings are kept, over config.toml",
          now["from_settings_file"] == ["slideshow.interval", "slideshow.ken_burns", "overlay.clock"], f'{now["from_settings_file"]}')
    path = os.path.join(state, "settings.toml")
    text = open(path).read() if os.path.exists(path) else ""
    check("they are in the settings file", "interval = 25" in text and "ken_burns = " in text, path)
    check("the page says where they come from", "settings.toml" in browser.find_element(By.ID, "settings-source").text)
    browser.save_screenshot(os.path.join(browser.out, "5-settings.png"))
    interval = field("slideshow.interval")
    interval.clear()
    interval.send_keys("0")
    browser.find_element(By.ID, "settings-save").click()
    WebDriverWait(browser, 10).until(lambda b: "out of range" in message())
    check("a wrong value is refused on the page with the reason", "slideshow.interval" in message(), message())
    check("and nothing changed", settings()["settings"]["slideshow"]["interval"] == 25)
    status, body = call(base, "PUT", "/api/settings", token, b'{"kiosk": true}', {"Content-Type": "text/plain"})
    check("a change not sent as JSON: 403", status == 403 and "application/json" in json.loads(body)["error"], body.decode())
    status, body = call(base, "PUT", "/api/settings", token, b'{"slideshow": {"interval": -3}}', {"Content-Type": "application/json"})
    check("an out-of-range interval over the API: 400 with the reason", status == 400 and "out of range" in json.loads(body)["error"], body.decode())
    check_source_settings(browser, base, token, state, message, settings)
    browser.execute_script("window.confirm = () => true")
    browser.find_element(By.ID, "settings-reset").click()
    WebDriverWait(browser, 10).until(lambda b: "Back to config.toml" in message())
    now = settings()
    check("Back to config.toml forgets them", now["from_settings_file"] == [] and now["settings"]["slideshow"]["interval"] == 10
          and not os.path.exists(path), f'{now["from_settings_file"]}')

def check_source_settings(browser, base, token, state, message, settings):
    """Photo sources on the settings (issue 34, item 1): the form lists config.toml's, one added
    on the page is saved whole in the settings file and reported by the status at once, and a
    remote that is not REMOTE:PATH (an rclone on-the-fly backend here) is refused with the reason."""
    rows = lambda: browser.find_elements(By.CSS_SELECTOR, "#settings-sources .source")
    shown = [(r.find_element(By.CLASS_NAME, "name").get_attribute("value"), r.find_element(By.CLASS_NAME, "remote").get_attribute("value"))
             for r in rows()]
    check("the settings list config.toml's sources", shown == [("family", "nextcloud:Photos/Frame"), ("nas", "nas:photos")], f"{shown}")
    # The interval refused just before is still in the form: put back what is saved.
    interval = browser.find_element(By.CSS_SELECTOR, '[data-key="slideshow.interval"]')
    interval.clear()
    interval.send_keys("25")
    browser.find_element(By.ID, "settings-add-source").click()
    row = rows()[-1]
    row.find_element(By.CLASS_NAME, "name").send_keys("kitchen")
    row.find_element(By.CLASS_NAME, "remote").send_keys("dav:Photos/Kitchen")
    interval = row.find_element(By.CLASS_NAME, "interval")
    interval.clear()
    interval.send_keys("30")
    browser.find_element(By.ID, "settings-save").click()
    WebDriverWait(browser, 10).until(lambda b: "Saved" in message())
    now = settings()
    check("a source added on the page reaches the API", [x["name"] for x in now["settings"]["source"]] == ["family", "nas", "kitchen"]
          and now["settings"]["source"][2] == {"name": "kitchen", "remote": "dav:Photos/Kitchen", "interval": 30, "quota_mb": 0},
          f'{now["settings"]["source"]}')
    text = open(os.path.join(state, "settings.toml")).read()
    check("the whole list is kept in the settings file", 'name = "kitchen"' in text and 'remote = "dav:Photos/Kitchen"' in text
          and 'name = "family"' in text, text)
    status = json.loads(call(base, "GET", "/api/status", token)[1])
    check("the status reports the new source at once", [x["name"] for x in status["sources"]] == ["family", "nas", "kitchen"],
          f'{status["sources"]}')
    WebDriverWait(browser, 10).until(lambda b: "kitchen: not synced yet" in b.find_element(By.ID, "sources").text)
    check("the page's status line shows it", True, browser.find_element(By.ID, "sources").text)
    browser.execute_script("document.getElementById('settings-sources').scrollIntoView()")
    browser.save_screenshot(os.path.join(browser.out, "5b-sources.png"))
    remote = rows()[-1].find_element(By.CLASS_NAME, "remote")
    remote.clear()
    remote.send_keys(":local:/etc")
    browser.find_element(By.ID, "settings-save").click()
    WebDriverWait(browser, 10).until(lambda b: "REMOTE:PATH" in message())
    check("an on-the-fly remote is refused on the page with the reason", "source.remote" in message(), message())
    check("and the saved list did not change", settings()["settings"]["source"][2]["remote"] == "dav:Photos/Kitchen")

def with_sources(work):
    """A config with two photo sources (docs/sources.md) and the status files their sync left
    (as deploy/photokiosk-sync writes them): one synced under its quota, one whose login fails.
    The page must show both; returns the --config arguments."""
    state = os.path.join(work, "state", "photokiosk")
    for name in ("family", "nas"):
        os.makedirs(os.path.join(state, "sources", name), exist_ok=True)
    os.makedirs(os.path.join(state, "source-status"), exist_ok=True)
    with open(os.path.join(state, "source-status", "family.toml"), "w") as f:
        f.write('last_sync = "2026-12-01T08:00:00Z"\nlast_attempt = "2026-12-01T08:00:00Z"\nphotos = 5\n'
                'failures = 0\nquota = "3 older photos left out to stay under 50 MB"\n')
    with open(os.path.join(state, "source-status", "nas.toml"), "w") as f:
        f.write('last_attempt = "2026-12-01T09:00:00Z"\nphotos = 0\nfailures = 2\n'
                'error = "the server refused the login (user, password or key in rclone.conf)"\n')
    config = os.path.join(work, "config.toml")
    with open(config, "w") as f:
        f.write('[[source]]\nname = "family"\nremote = "nextcloud:Photos/Frame"\nquota_mb = 50\n'
                '[[source]]\nname = "nas"\nremote = "nas:photos"\n')
    return ("--config", config)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--photos", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    samples = sorted(f for f in os.listdir(args.photos) if f.lower().endswith((".jpg", ".jpeg", ".png")))
    work, library = scratch_library("photokiosk-remote-page-", args.photos, samples[:3])
    upload_source = os.path.join(work, "from-the-phone.jpg")
    shutil.copy(os.path.join(args.photos, samples[3]), upload_source)
    kiosk = Kiosk(args.binary, library, work, args.out, "800x480", with_sources(work))
    base, token = kiosk.base, kiosk.token
    browser = None
    try:
        for _ in range(300):
            try:
                status, body = call(base, "GET", "/api/status", token)
                if status == 200 and json.loads(body)["library_size"] == 3:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        check("the headless kiosk serves the API", status == 200, body.decode()[:120])

        options = webdriver.ChromeOptions()
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
            options.add_argument(flag)
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0},
                                                              "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile"})
        browser = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        browser.get(base + "/")
        token_field = WebDriverWait(browser, 20).until(lambda b: b.find_element(By.NAME, "token"))
        browser.save_screenshot(os.path.join(args.out, "1-login.png"))
        check("without a session the page asks for the token", token_field.is_displayed())
        token_field.send_keys("not-the-token-at-all")
        token_field.submit()
        WebDriverWait(browser, 20).until(lambda b: "not right" in b.page_source)
        check("a wrong token is refused on the page", True)
        browser.find_element(By.NAME, "token").send_keys(token)
        browser.find_element(By.NAME, "token").submit()
        WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "photos").find_elements(By.TAG_NAME, "li"))
        WebDriverWait(browser, 20).until(lambda b: b.execute_script("return document.getElementById('screen').naturalWidth") > 0)
        shown = browser.execute_script("const i = document.getElementById('screen'); return [i.naturalWidth, i.naturalHeight]")
        check("logged in: the live screen image shows", shown == [800, 480], f"{shown}")
        items = len(browser.find_elements(By.CSS_SELECTOR, "#photos li"))
        check("the photo list shows the library", items == 3, f"{items} rows")
        status_text = browser.find_element(By.ID, "status").text
        check("the status line reads the kiosk", "grid" in status_text and "3 photos" in status_text, status_text)
        sources = browser.find_element(By.ID, "sources").text
        check("the page shows each source's last sync, photo count and quota",
              "family: synced 2026-12-01T08:00:00Z, 5 photos (3 older photos left out to stay under 50 MB)" in sources, sources)
        check("and why a source fails", "nas: failing (2×): the server refused the login" in sources, sources)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        check("nothing wider than the phone", width <= 390, f"scrollWidth {width}")
        browser.save_screenshot(os.path.join(args.out, "2-page.png"))

        browser.find_element(By.ID, "slideshow").click()
        WebDriverWait(browser, 10).until(lambda b: "slideshow" in b.find_element(By.ID, "status").text)
        check("the Slideshow button starts the slideshow", json.loads(call(base, "GET", "/api/status", token)[1])["slideshow"])
        browser.find_element(By.ID, "slideshow").click()
        WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "status").text.startswith("grid"))

        started = time.monotonic()
        browser.find_element(By.ID, "files").send_keys(upload_source)
        arrived = None
        while time.monotonic() - started < 10:
            if json.loads(call(base, "GET", "/api/status", token)[1])["library_size"] == 4:
                arrived = time.monotonic() - started
                break
            time.sleep(0.05)
        check("the uploaded photo reaches the kiosk's grid within 2 s", arrived is not None and arrived <= 2.0,
              f"{arrived:.2f} s" if arrived is not None else "not within 10 s")
        WebDriverWait(browser, 10).until(lambda b: "saved as from-the-phone.jpg" in b.find_element(By.ID, "uploads").text)
        check("the page reports the upload", True, browser.find_element(By.ID, "uploads").text)
        WebDriverWait(browser, 10).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#photos li")) == 4)
        check("the photo list shows it, with Delete", "Delete" in browser.find_element(By.ID, "photos").text)
        check("it is in the library folder", os.path.exists(os.path.join(library, "from-the-phone.jpg")))
        # Drag and drop: a PNG (the kiosk's own screen, fetched by the page) dropped on the drop area.
        browser.execute_script("""
            fetch('/api/screen.png', {credentials: 'same-origin'}).then(r => r.blob()).then(blob => {
              const transfer = new DataTransfer();
              transfer.items.add(new File([blob], 'dropped.png', {type: 'image/png'}));
              document.getElementById('drop').dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
            });""")
        WebDriverWait(browser, 10).until(lambda b: "saved as dropped.png" in b.find_element(By.ID, "uploads").text)
        check("a photo dropped on the drop area is uploaded", os.path.exists(os.path.join(library, "dropped.png")))
        time.sleep(1)   # the grid draws the new thumbnails
        status, png = call(base, "GET", "/api/screen.png", token)
        with open(os.path.join(args.out, "4-kiosk-screen.png"), "wb") as f:
            f.write(png)
        browser.find_element(By.ID, "refresh").click()
        time.sleep(1)
        browser.save_screenshot(os.path.join(args.out, "3-page-after-upload.png"))
        browser.out = args.out
        check_settings(browser, base, token, os.path.join(work, "state", "photokiosk"))

        status, body = call(base, "GET", "/api/status")
        check("no token: 401 with a JSON error", status == 401 and "error" in json.loads(body), body.decode())
        boundary = "b0undary"
        form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"../../notes.jpg\"\r\n"
                f"Content-Type: image/jpeg\r\n\r\nnot a photo\r\n--{boundary}--\r\n").encode()
        status, body = call(base, "POST", "/api/photos", token, form, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        check("a text file named .jpg: 415 with a JSON error", status == 415 and "not a photo" in json.loads(body)["error"], body.decode())
        json_type = {"Content-Type": "application/json"}
        status, body = call(base, "DELETE", "/api/photos/..%2Fphotos", token, None, json_type)
        check("a delete outside the upload folder: JSON error", status in (400, 404) and "error" in json.loads(body), body.decode())
        # Cross-site requests (issue 31): a change needs its JSON type and, when named, this origin.
        status, body = call(base, "POST", "/api/slideshow", token, b'{"on": false}', {"Content-Type": "text/plain"})
        check("a change sent as text/plain: 403", status == 403 and "application/json" in json.loads(body)["error"], body.decode())
        status, body = call(base, "POST", "/api/slideshow", token, b'{"on": false}', {**json_type, "Origin": "http://evil.example"})
        check("a change from another origin: 403", status == 403 and "evil.example" in json.loads(body)["error"], body.decode())
        status, body = call(base, "GET", "/api/status%00.png", token)
        check("a NUL in the path: 400", status == 400, body.decode())
    finally:
        if browser:
            browser.quit()
        check("SIGTERM ends the headless kiosk with status 0", kiosk.end("remote page"))
    failed = checks.count(False)
    print(f"remote page: {len(checks) - failed} of {len(checks)} checks passed; screenshots in {args.out}")
    sys.exit(1 if failed else 0)

main()
