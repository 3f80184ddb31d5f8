"""A hostile probe of the built `tributary lab`, as someone who can reach its port would try it:
absurd numbers, unbudgeted runs beside a health check, viewers that never read, forged Host and
Origin headers, half-sent and endless requests, and a stale push from the CLI. Every check
runs against the real binary on a loopback port and stops by itself.

Usage: lab_probe.py PATH_TO_TRIBUTARY
"""

import base64
import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

TOKEN = "probe-token-0123456789abcdef"
failures = []
passes = 0


def check(name, condition, detail=""):
    global passes
    if condition:
        passes += 1
        print(f"  ok   {name}")
    else:
        failures.append(name)
        print(f"  FAIL {name} {detail}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    def __init__(self, binary, descriptors=None):
        self.folder = tempfile.mkdtemp(prefix="lab-probe-")
        self.port = free_port()
        env = dict(os.environ, XDG_DATA_HOME=self.folder, XDG_CACHE_HOME=self.folder)
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))) \
            if descriptors else None
        self.process = subprocess.Popen(
            [binary, "lab", "--port", str(self.port), "--token", TOKEN],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True, preexec_fn=limit)
        line = ""
        while "?token=" not in line:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the lab did not start")
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def request(self, method, path, body=None, headers=None, token=True, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = dict(headers or {})
        if token:
            headers["Authorization"] = f"Bearer {TOKEN}"
        if body is not None and "Content-Type" not in headers:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), data

    def alive(self):
        return self.process.poll() is None and self.request("GET", "/api/health", token=False)[0] == 200

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def raw(port, data, wait=5.0):
    """Sends bytes as they are and reads until the server closes or `wait` passes."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(data)
    s.settimeout(wait)
    received = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return received, True
            received += chunk
    except socket.timeout:
        return received, False
    finally:
        s.close()


def upgrade(port, path, host=None, extra=""):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"{extra}\r\n").encode())
    return s


def frame(text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    else:
        header += bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_close(s):
    """What a WebSocket sends until the lab ends it, and where its close frame starts (-1 if none
    came). The close frame is the last thing the lab sends, so it is found from the end, where a
    byte 0x88 inside a frame before it cannot be taken for it."""
    answer = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    at = answer.rfind(b"\x88")
    while at >= 0:
        if at + 1 < len(answer) and at + 2 + answer[at + 1] == len(answer):
            return answer, at
        at = answer.rfind(b"\x88", 0, at)
    return answer, -1


def big_document(kilobytes):
    items = [{"value": "x" * 1000} for _ in range(kilobytes)]
    return json.dumps({"schemaVersion": 1, "name": "Big", "streams": [{"id": "s", "items": items}]})


def wide_zip(inputs, values):
    return json.dumps({"schemaVersion": 1,
                       "streams": [{"id": "n", "items": [{"value": v} for v in range(values)]}],
                       "nodes": [{"id": "z", "operator": "zip", "inputs": ["n"] * inputs}]})


def probe(binary):
    lab = Lab(binary)
    try:
        print("absurd numbers")
        for width in ["9223372036854775807", "-1", "0", "99999", "abc"]:
            status = lab.request("GET", f"/img?url=http%3A%2F%2Fexample.org%2Fa.jpg&w={width}")[0]
            check(f"/img w={width} is 400", status == 400, status)
        check("the lab is alive", lab.alive())
        status = lab.request("GET", "/api/streams?limit=99999999999999999999")[0]
        check("a huge limit is 400", status == 400, status)

        print("no token, foreign pages, wrong bodies")
        check("/api/run without a token is 401", lab.request("POST", "/api/run", "{}", token=False)[0] == 401)
        check("a text/plain run is 415",
              lab.request("POST", "/api/run", "{}", headers={"Content-Type": "text/plain"})[0] == 415)
        check("a run from another origin is 403",
              lab.request("POST", "/api/run", "{}", headers={"Origin": "https://evil.example"})[0] == 403)
        check("the news socket without a token is refused",
              not upgrade(lab.port, "/api/news/live").recv(200).startswith(b"HTTP/1.1 101"))
        status = lab.request("POST", "/api/streams", "x" * (2 << 20))[0]
        check("a 2 MiB body is 413", status == 413, status)

        print("forged names")
        received, _ = raw(lab.port, b"GET /api/health HTTP/1.1\r\nHost: rebind.attacker.example\r\n"
                                    b"Connection: close\r\n\r\n")
        check("a rebinding Host is 421", received.startswith(b"HTTP/1.1 421"), received[:40])
        answer = upgrade(lab.port, "/api/news/live", host="rebind.attacker.example",
                         extra=f"Authorization: Bearer {TOKEN}\r\n").recv(200)
        check("the news socket at a rebinding name is refused", not answer.startswith(b"HTTP/1.1 101"), answer[:40])

        print("unbudgeted runs beside a health check")
        results = []

        def heavy():
            try:
                results.append(lab.request("POST", "/api/run", wide_zip(2000, 400), timeout=60)[0])
            except Exception as error:
                results.append(str(error))
        threads = [threading.Thread(target=heavy) for _ in range(8)]
        for thread in threads:
            thread.start()
        time.sleep(0.3)
        started = time.monotonic()
        health = lab.request("GET", "/api/health", token=False)[0]
        took = time.monotonic() - started
        for thread in threads:
            thread.join()
        check("health answers during eight heavy runs", health == 200 and took < 1.0, f"{health} in {took:.2f}s")
        check("heavy runs are cut off (422) or refused (503)",
              all(r in (422, 503) for r in results), results)

        print("viewers that never read")
        status, _, body = lab.request("POST", "/api/streams", big_document(900))
        document = json.loads(body)["id"]
        before = lab.rss_mb()
        hoarders = []
        for _ in range(4):
            s = upgrade(lab.port, f"/api/streams/{document}/live")
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            for _ in range(300):
                try:
                    s.send(frame('{"type":"resume","version":0}'))
                except OSError:
                    break
            hoarders.append(s)
        time.sleep(2)
        after = lab.rss_mb()
        check("four hoarding viewers of a 900 KB document cost under 150 MB", after - before < 150,
              f"{before:.0f} MB -> {after:.0f} MB")
        check("the lab is alive", lab.alive())
        for s in hoarders:
            s.close()
        s = upgrade(lab.port, f"/api/streams/{document}/live")
        s.settimeout(1)
        for _ in range(40):
            s.send(frame('{"type":"resume","version":0}'))
        received = b""
        ends = time.monotonic() + 3
        while time.monotonic() < ends:
            try:
                chunk = s.recv(1 << 20)
            except socket.timeout:
                continue
            if not chunk:
                break
            received += chunk
        s.close()
        snapshots = received.count(b'"type":"snapshot"')
        check("a viewer asking 40 times at once for a 900 KB document is sent it twice at most", snapshots <= 2,
              f"{snapshots} snapshots")

        print("heads that cannot be read")
        big = b"X-Big: " + b"a" * 90_000 + b"\r\n"
        answer, closed = raw(lab.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + big + b"\r\n")
        check("a 90 KB head is answered 431 and closed", closed and answer.startswith(b"HTTP/1.1 431"), answer[:40])
        answer, closed = raw(lab.port, b"GET /api/streams/x/live HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Upgrade: websocket\r\nConnection: Upgrade\r\n" + big + b"\r\n")
        check("a 90 KB WebSocket head is answered 431 and closed", closed and answer.startswith(b"HTTP/1.1 431"),
              answer[:40])
        answer, closed = raw(lab.port, b"\x16\x03\x01 not HTTP\r\n\r\n")
        check("bytes that are not HTTP are answered 400 and closed", closed and answer.startswith(b"HTTP/1.1 400"),
              answer[:40])
        answer, closed = raw(lab.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                             b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE\x01\r\n\r\n")
        statuses = [part[:3] for part in answer.split(b"HTTP/1.1 ")[1:]]
        check("requests before unreadable bytes are answered, then 400", closed and statuses == [b"200", b"200", b"400"],
              statuses)
        answer, closed = raw(lab.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Length: 9223372036854775807\r\n\r\n" + b"x" * 10_000)
        check("a body nobody reads is answered and its connection closed",
              closed and answer.startswith(b"HTTP/1.1 200") and b"connection: close" in answer.lower(), answer[:40])
        answer, closed = raw(lab.port, b"GET /api/streams/x/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                             b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nContent-Length: 5\r\n\r\nhello")
        check("a WebSocket upgrade with a body is answered 400 and closed",
              closed and answer.startswith(b"HTTP/1.1 400"), answer[:40])
        answer, closed = raw(lab.port, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n"
                             b"Upgrade: h2c\r\n\r\n")
        check("an h2c upgrade is answered over HTTP/1.1", closed and answer.startswith(b"HTTP/1.1 200"), answer[:40])
        started = time.monotonic()
        crowd = []
        head = (b"POST /api/streams HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 2\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n{}")
        for _ in range(500):
            s = socket.create_connection(("127.0.0.1", lab.port))
            s.setblocking(False)
            try:
                s.send(head)
            except OSError:
                pass
            crowd.append(s)
        check("the lab answers while 500 unauthenticated 70 KB heads arrive", lab.alive(),
              f"{time.monotonic() - started:.1f} s")
        for s in crowd:
            s.close()

        print("half-sent and endless requests, and clients that never read")
        halves = []
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", lab.port))
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            halves.append(s)
        check("the lab answers while 200 half-sent requests wait", lab.alive())
        readers = []
        for _ in range(20):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", lab.port))
            s.sendall(b"GET /app/streams.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 200)
            readers.append(s)
        time.sleep(17)
        cut = 0
        for s in readers:
            s.settimeout(5)
            received = 0
            try:
                while True:
                    chunk = s.recv(1 << 20)
                    if not chunk:
                        break
                    received += len(chunk)
            except (socket.timeout, ConnectionResetError):
                pass
            cut += received < 200 * 40_000
            s.close()
        check("clients that read none of their answers are cut off after the write timeout", cut == 20, f"{cut} of 20")
        closed = 0
        for s in halves:
            s.settimeout(0.5)
            try:
                closed += s.recv(1) == b""
            except (socket.timeout, ConnectionResetError):
                closed += 0 if isinstance(sys.exc_info()[1], socket.timeout) else 1
            s.close()
        check("half-sent requests are closed after the idle timeout", closed == 200, f"{closed} of 200")
        s = socket.create_connection(("127.0.0.1", lab.port))
        s.sendall(f"POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        refused = False
        try:
            for _ in range(3000):
                s.sendall(b"400\r\n" + b"x" * 1024 + b"\r\n")
        except OSError:
            refused = True
        s.settimeout(5)
        try:
            answer = s.recv(200)
        except (socket.timeout, ConnectionResetError):
            answer = b""
        check("an endless body is cut off", refused or answer.startswith(b"HTTP/1.1 413") or answer == b"",
              answer[:40])
        s.close()
        check("the lab is alive", lab.alive())
        # Thousands of requests pipelined on a few connections by clients that read no answer.
        pipelined = []
        for _ in range(20):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", lab.port))
            try:
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 10_000)
            except OSError:
                pass
            pipelined.append(s)
        time.sleep(2)
        started = time.monotonic()
        health = lab.request("GET", "/api/health", token=False)[0]
        took = time.monotonic() - started
        check("health answers while 20 clients pipeline 10,000 requests each and read none",
              health == 200 and took < 1.0, f"{health} in {took:.2f}s")
        for s in pipelined:
            s.close()
        # A save based on the largest version there is: a conflict, not an overflow.
        status, _, body = lab.request("POST", "/api/streams", big_document(1))
        created = json.loads(body)["id"] if status == 201 else None
        status, _, body = lab.request("PUT", f"/api/streams/{created}", big_document(1),
                                      headers={"If-Match": '"9223372036854775807"'})
        check("a save based on version 2^63-1 is a conflict", status == 412, (status, body[:120]))
        check("the lab is alive", lab.alive())

        print("budgets before parsing")
        chain = json.dumps({"schemaVersion": 1, "streams": [{"id": "a", "items": [{"value": 1}]}],
                            "nodes": [{"id": f"n{i}", "operator": "combineLatest",
                                       "inputs": ["a" if i == 0 else f"n{i - 1}"]} for i in range(180)]})
        status, _, body = lab.request("POST", "/api/streams", body=chain)
        check("a long chain of one-input combineLatests is refused as too deep", status == 422 and b"too deep" in body,
              (status, body[:200]))
        chain = json.dumps({"schemaVersion": 1, "streams": [{"id": "a", "items": [{"value": 1}]}],
                            "nodes": [{"id": f"n{i}", "operator": "combineLatest",
                                       "inputs": ["a" if i == 0 else f"n{i - 1}"]} for i in range(60)]})
        status, _, body = lab.request("POST", "/api/streams", body=chain)
        deep = json.loads(body).get("id") if status == 201 else None
        check("a chain of 60 is stored", deep is not None, (status, body[:200]))
        if deep:
            status, _, body = lab.request("GET", f"/api/streams/{deep}/diagram.svg", token=False)
            check("its diagram is drawn for anyone, its values cut at 32 nested lists",
                  status == 200 and b"more than 32 lists" in body, (status, body[:200]))
            check("the lab is alive after drawing it", lab.alive())
        nested = "[" * 3000 + "]" * 3000
        status, _, body = lab.request("POST", "/api/streams", body=json.dumps(
            {"schemaVersion": 1, "streams": [{"id": "a", "items": [{"value": 1}]}]})[:-1] + f', "x": {nested}}}')
        check("JSON nested thousands deep is refused before it is parsed", status == 400 and b"tooDeep" in body,
              (status, body[:120]))
        status, _, body = lab.request("POST", "/api/run", body=json.dumps(
            {"schemaVersion": 1, "streams": [{"id": "a", "items": [{"value": 1e308}]}],
             "nodes": [{"id": "m", "operator": "map", "input": "a", "expression": "$0 * 10"}]}))
        check("a result past a number's range is a failure, not an empty answer",
              status == 200 and body != b"{}" and b"Overflow" in body, (status, body[:200]))
        s = upgrade(lab.port, f"/api/streams/{document}/live")
        s.settimeout(5)
        head = s.recv(4096)
        s.sendall(bytes([0x81, 0x80 | 127]) + (4 << 20).to_bytes(8, "big") + os.urandom(4) + b"x" * 1000)
        answer, at = read_close(s)
        check("an anonymous viewer's 4 MiB frame is refused from its header with 1009",
              head.startswith(b"HTTP/1.1 101") and at >= 0 and answer[at + 2:at + 4] == b"\x03\xf1", answer[-40:])
        s.close()
        s = upgrade(lab.port, f"/api/streams/{document}/live")
        s.settimeout(5)
        s.recv(4096)
        s.sendall(bytes([0x81, 0x05]) + b"hello")
        answer, at = read_close(s)
        check("an unmasked frame is closed with 1002", at >= 0 and answer[at + 2:at + 4] == b"\x03\xea", answer[-40:])
        s.close()
        before = lab.rss_mb()
        held = []
        for _ in range(500):
            s = upgrade(lab.port, "/api/streams/AAAAAAAAAAAAAAAAAAAAAA/live")
            s.settimeout(5)
            try:
                s.recv(4096)
                s.sendall(bytes([0x81, 0x80 | 126]) + (4000).to_bytes(2, "big") + os.urandom(4) + b"y" * 3000)
            except OSError:
                pass
            held.append(s)
        grown = lab.rss_mb() - before
        check("500 half-sent frames on a missing document hold little memory", grown < 200, f"{grown:.0f} MB")
        for s in held:
            s.close()
        check("the lab is alive", lab.alive())

        print("floods of tiny frames")
        pings = bytes([0x89, 0x80]) + os.urandom(4)
        flooders = []
        for _ in range(4):
            s = upgrade(lab.port, f"/api/streams/{document}/live")
            s.settimeout(10)
            s.recv(4096)
            try:
                s.sendall(pings * 20_000)
            except OSError:
                pass
            flooders.append(s)
        codes = []
        for s in flooders:
            answer, at = read_close(s)
            codes.append(answer[at + 2:at + 4] if at >= 0 else b"")
            s.close()
        check("four anonymous viewers pinging at full speed are closed with 1008", codes == [b"\x03\xf0"] * 4, codes)
        started = time.monotonic()
        check("the lab answers at once after them", lab.alive() and time.monotonic() - started < 2)
        s = upgrade(lab.port, f"/api/streams/{document}/live")
        s.settimeout(10)
        s.recv(4096)
        empty = bytes([0x01, 0x80]) + os.urandom(4) + (bytes([0x00, 0x80]) + os.urandom(4)) * 10_000
        try:
            s.sendall(empty)
        except OSError:
            pass
        answer, at = read_close(s)
        check("a message of 10,000 empty fragments is closed with 1009", at >= 0 and answer[at + 2:at + 4] == b"\x03\xf1",
              answer[-40:])
        s.close()

        print("sockets that come and go")
        before = lab.rss_mb()
        for _ in range(8000):
            s = upgrade(lab.port, "/api/pulse")
            s.settimeout(5)
            try:
                s.recv(4096)
                s.sendall(bytes([0x88, 0x82]) + b"\x01\x02\x03\x04" + bytes([0x03 ^ 1, 0xE8 ^ 2]))
                while s.recv(4096):
                    pass
            except OSError:
                pass
            s.close()
        grown = lab.rss_mb() - before
        # Each had kept about 5 KB for good: 8,000 took 40 MB.
        check("8,000 WebSockets opened and closed leave the lab's memory where it was", grown < 25, f"{grown:.0f} MB")

        print("refusals that say why")
        answer, closed = raw(lab.port, (f"GET /api/recordings/AAAAAAAAAAAAAAAAAAAAAA/live HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode())
        check("an anonymous recording socket is answered 401 with a JSON reason",
              answer.startswith(b"HTTP/1.1 401") and b'"unauthorized"' in answer, answer[:60])
        answer, closed = raw(lab.port, b"POST /api/streams HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\n"
                             b"Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n")
        check("a wrong token asking to continue is answered 401, never 100", answer.startswith(b"HTTP/1.1 401"), answer[:40])
        answer, _ = raw(lab.port, b"GET /api/health HTTP/1.1\r\nHost: localhost:99999\r\n\r\n")
        check("a Host with port 99999 is misdirected", answer.startswith(b"HTTP/1.1 421"), answer[:40])
        answer, _ = raw(lab.port, (b"GET /api/streams?cursor=" + base64.urlsafe_b64encode(b"nan|AAAAAAAAAAAAAAAAAAAAAA")
                                  + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN.encode()
                                  + b"\r\nConnection: close\r\n\r\n"))
        check("a list cursor at time nan is refused", answer.startswith(b"HTTP/1.1 400"), answer[:40])

        print("a lab under systemd's 1,024 descriptors")
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
        small = Lab(binary, descriptors=1024)
        try:
            idle = []
            for _ in range(1100):
                try:
                    idle.append(socket.create_connection(("127.0.0.1", small.port), timeout=5))
                except OSError:
                    break
            turned_away = 0
            for s in idle[-150:]:
                s.settimeout(5)
                try:
                    if s.recv(64).startswith(b"HTTP/1.1 503"):
                        turned_away += 1
                except (socket.timeout, ConnectionResetError):
                    pass
            check("1,100 idle connections: those past the limit are answered 503", len(idle) == 1100 and turned_away >= 100,
                  f"{len(idle)} connected, {turned_away} of the last 150 turned away")
            for s in idle:
                s.close()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not small.alive():
                time.sleep(0.2)
            check("once they close, the lab answers", small.alive())
        finally:
            small.stop()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

        print("a stale push")
        env = dict(os.environ, TRIBUTARY_LAB_URL=f"http://127.0.0.1:{lab.port}", TRIBUTARY_LAB_TOKEN=TOKEN)
        mine = os.path.join(lab.folder, "mine.json")
        theirs = os.path.join(lab.folder, "theirs.json")
        for path in (mine, theirs):
            subprocess.run([binary, "streams", "pull", document, "--output", path], env=env, check=True,
                           capture_output=True)
        # Someone else saves first.
        subprocess.run([binary, "streams", "push", theirs, "--id", document], env=env, check=True,
                       capture_output=True)
        stale = subprocess.run([binary, "streams", "push", mine, "--id", document], env=env,
                               capture_output=True, text=True)
        check("a push based on an old version fails", stale.returncode != 0, stale.stdout)
        check("it names both versions", "version 2" in stale.stderr and "version 1" in stale.stderr, stale.stderr)
        check("the lab is alive at the end", lab.alive())
    finally:
        lab.stop()
    print(f"probe: {passes} passed, {len(failures)} failed")
    return not failures


if __name__ == "__main__":
    sys.exit(0 if probe(sys.argv[1]) else 1)
