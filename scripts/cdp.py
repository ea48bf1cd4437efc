"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (standard library only).

Chromium reads commands from file descriptor 3 and writes answers and events to file
descriptor 4, each message a JSON object ended by a NUL byte. A pipe needs no WebSocket
client, no port and no discovery file, and the browser goes when the pipes close.
"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time


class CDPError(RuntimeError):
    """A command the browser answered with an error, or did not answer in time."""


def find_chromium():
    """The Chromium executable: $CHROMIUM, else the first of the usual names on PATH."""
    named = os.environ.get("CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with one page, driven over the pipe."""

    def __init__(self, executable, width=1280, height=800, extra_args=()):
        self.profile = tempfile.mkdtemp(prefix="aviator-chromium-")
        to_browser_read, self._write_fd = os.pipe()
        self._read_fd, from_browser_write = os.pipe()
        args = [
            executable, "--headless=new", "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--mute-audio",
            "--disable-dev-shm-usage", "--no-sandbox", "--hide-scrollbars",
            # Frames at the display's pace even when the machine is loaded.
            "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
            "--disable-backgrounding-occluded-windows",
            f"--window-size={width},{height}", *extra_args, "about:blank",
        ]

        def wire():
            # Moved out of the way first, in case the pipes themselves are 3 or 4.
            reading = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            writing = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._next_id = 0
        self._lock = threading.Lock()
        self._answers = {}
        self._events = []
        self._arrived = threading.Condition(self._lock)
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self.session = None

    # The wire.

    def _read_loop(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self._read_fd, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                with self._arrived:
                    self._answers[None] = "closed"
                    self._arrived.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                with self._arrived:
                    if "id" in message:
                        self._answers[message["id"]] = message
                    else:
                        self._events.append(message)
                    self._arrived.notify_all()

    def send(self, method, params=None, session=True, timeout=60):
        """Sends a command (to the page's session unless session=False) and returns its result."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._write_fd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self._arrived:
            while ident not in self._answers:
                if None in self._answers:
                    raise CDPError(f"the browser went away during {method}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError(f"no answer to {method} in {timeout} s")
                self._arrived.wait(left)
            answer = self._answers.pop(ident)
        if "error" in answer:
            raise CDPError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def events(self, method=None):
        """The events received so far (of one method when given)."""
        with self._lock:
            return [event for event in self._events if method is None or event.get("method") == method]

    # The page.

    def open_page(self):
        """Creates a page and attaches to it; later commands go to it."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        return target

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CDPError(f"evaluation failed: {text}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=30, interval=0.1):
        """Waits until an expression is truthy in the page and returns its value."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = self.evaluate(expression)
            except CDPError:
                last = None
            if last:
                return last
            time.sleep(interval)
        raise CDPError(f"timed out after {timeout} s waiting for: {expression}")

    def navigate(self, url, timeout=60):
        """Loads a URL and waits for its load event."""
        self.send("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'", timeout=timeout)

    def screenshot(self, path):
        """Saves a PNG of the page as it is now."""
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        """Ends the browser and removes its profile."""
        try:
            self.send("Browser.close", session=False, timeout=5)
        except CDPError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._write_fd, self._read_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
