"""The fixture's report renders in headless Chromium (Debian `chromium`) to a
screenshot that is not blank: many colours, and a fair share of non-white
pixels in the charts' part of the page. The browser runs with the network
cut off (every host name fails to resolve), so nothing can be fetched.
Bounded: Chromium gets 120 s (ctest label `browser`, TIMEOUT in
tests/CMakeLists.txt)."""

import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

from report_fixture import WORK_DIR, write_report


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("chromium not found: scripts/setup.sh --test installs Debian's `chromium`")


def screenshot(html, png, height):
    profile = tempfile.mkdtemp(prefix="report-chromium-")
    try:
        command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                   "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                   "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}",
                   f"--window-size=1280,{height}", f"--screenshot={png}",
                   "file://" + os.path.abspath(html)]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if run.returncode != 0 or not os.path.exists(png):
            sys.exit(f"chromium failed ({run.returncode}):\n{run.stderr[-3000:]}")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main():
    html, _, _ = write_report("report_browser")
    png = os.path.join(WORK_DIR, "report_browser.png")
    if os.path.exists(png):
        os.remove(png)
    screenshot(html, png, 3000)
    image = Image.open(png).convert("RGB")
    width, height = image.size
    pixels = list(image.getdata())
    non_white = sum(1 for p in pixels if sum(p) < 720) / len(pixels)
    colours = len(set(pixels))
    print(f"screenshot {width}×{height}: {100 * non_white:.1f} % non-white, {colours} colours")
    if colours < 50 or non_white < 0.03:
        sys.exit(f"the screenshot looks blank ({png})")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
