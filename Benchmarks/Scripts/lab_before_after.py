#!/usr/bin/env python3
"""Two builds of the lab side by side: the same requests against each, in alternating rounds.

Loopback figures on a shared two-core machine move by 15% between runs, so one build's figure
alone says little about another's. This starts each lab in turn (release builds, a new data
folder each), warms it up, and measures, round after round so that both see the same machine:

- GET /api/health, the floor: a route that reads nothing (wrk, 32 connections, 5 s);
- GET /api/streams/{id}, a read of a small document (wrk, the same);
- PUT /api/streams/{id} with If-Match, 200 saves one after another;
- POST /api/run of the same document (wrk, 8 connections, 5 s);
- a recorder's 20 batches of 1,000 events to /api/recordings/{id}/ingest, one after another.

Usage: lab_before_after.py BEFORE AFTER [--rounds N]   (needs wrk)
"""
import argparse, base64, http.client, json, os, re, socket, statistics, subprocess, sys, time, uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Probe"))
import lab_probe
from lab_probe import TOKEN, frame  # the probe's token, and a client's masked text frame


class Lab(lab_probe.Lab):
    """The probe's lab (a new data folder, a free port), with one kept-alive connection and wrk."""

    def __init__(self, binary):
        super().__init__(binary)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def request(self, method, path, body=None, headers=None, keep=False):
        if not keep:
            return super().request(method, path, body=body, headers=headers, timeout=60)
        headers = dict(headers or {}, Authorization=f"Bearer {TOKEN}")
        if body is not None:
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()

    def wrk(self, path, connections, body=None):
        """Requests a second that wrk reaches on `path` (a POST of `body` when given)."""
        arguments = ["wrk", "-t2", f"-c{connections}", "-d5s", "-H", f"Authorization: Bearer {TOKEN}"]
        if body is not None:
            script = os.path.join(self.folder, "post.lua")
            with open(script, "w") as f:
                f.write(f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\n'
                        'wrk.headers["Content-Type"] = "application/json"\n')
            arguments += ["-s", script]
        output = subprocess.run(arguments + [f"http://127.0.0.1:{self.port}{path}"],
                                capture_output=True, text=True, check=True).stdout
        if "Non-2xx" in output:
            sys.exit(f"wrk had answers other than 2xx on {path}:\n{output}")
        return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def document(name):
    delay = [{"operator": "delay", "seconds": 0.1}]
    return json.dumps({"schemaVersion": 1, "name": name, "streams": [
        {"id": "typed", "items": [{"value": "s", "operators": delay}, {"value": "sw", "operators": delay}]}],
        "nodes": [{"id": "shown", "operator": "map", "input": "typed", "expression": "$0 + 1"}]})


class Recorder:
    """A recorder's WebSocket: masked text frames out, the lab's answers read as they come."""

    def __init__(self, port, recording):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=300)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(
            (f"GET /api/recordings/{recording}/ingest?recorder={uuid.uuid4()} HTTP/1.1\r\n"
             f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
             f"Authorization: Bearer {TOKEN}\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.socket.recv(65536)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert b" 101 " in head, head

    def send(self, text):
        self.socket.sendall(frame(text))

    def wait_for(self, marker):
        while marker not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                sys.exit("the lab closed the recorder's socket")
            self.buffer += chunk
        self.buffer = self.buffer.split(marker, 1)[1]


def batch(first, count):
    events = [{"lane": "typed", "subscription": 1, "kind": "value", "value": str(first + i),
               "t": (first + i) * 0.001, "source": "App.swift:12"} for i in range(count)]
    return json.dumps({"type": "events", "first": first, "events": events, "dropped": 0})


SCENARIOS = ["health", "read", "save", "run", "ingest"]


def measure(binary, scenarios):
    lab = Lab(binary)
    try:
        status, _, body = lab.request("POST", "/api/streams", document("Search"))
        assert status == 201, (status, body)
        id = json.loads(body)["id"]
        version = [1]

        def saves(count):
            for _ in range(count):
                status, _, body = lab.request("PUT", f"/api/streams/{id}", document(f"Search {version[0]}"),
                                              headers={"If-Match": f'"{version[0]}"'}, keep=True)
                assert status == 200, (status, body)
                version[0] = json.loads(body)["version"]

        def ingest():
            status, _, body = lab.request("POST", "/api/recordings", json.dumps({"name": "typing"}))
            assert status == 201, (status, body)
            recorder = Recorder(lab.port, json.loads(body)["id"])
            first = [0]

            def batches(count):
                for _ in range(count):
                    recorder.send(batch(first[0], 1_000))
                    first[0] += 1_000
                    recorder.wait_for(f'"next":{first[0]}'.encode())

            batches(5)
            start = time.monotonic()
            batches(20)
            return 20_000 / (time.monotonic() - start)

        def timed_saves():
            start = time.monotonic()
            saves(200)
            return 200 / (time.monotonic() - start)

        saves(20)
        measures = {
            "health": lambda: lab.wrk("/api/health", 32),
            "read": lambda: lab.wrk(f"/api/streams/{id}", 32),
            "save": timed_saves,
            "run": lambda: lab.wrk("/api/run", 8, body=document("Run")),
            "ingest": ingest,
        }
        return {name: measures[name]() for name in scenarios}
    finally:
        lab.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="the scenarios to measure, as health,read,save,run,ingest")
    options = parser.parse_args()
    scenarios = options.only.split(",") if options.only else SCENARIOS
    runs = {"before": [], "after": []}
    for round in range(options.rounds):
        for name in (["before", "after"] if round % 2 == 0 else ["after", "before"]):
            runs[name].append(measure(getattr(options, name), scenarios))
            print(f"round {round + 1}, {name}: " + ", ".join(f"{k} {v:,.0f}" for k, v in runs[name][-1].items()),
                  flush=True)
    names = {"health": "GET /api/health, req/s", "read": "GET /api/streams/{id}, req/s",
             "save": "PUT /api/streams/{id}, saves/s", "run": "POST /api/run, req/s",
             "ingest": "ingest, events/s"}
    print(f"\n| {'median of ' + str(options.rounds) + ' rounds':34} | before | after | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for key, name in ((key, names[key]) for key in scenarios):
        before = statistics.median(r[key] for r in runs["before"])
        after = statistics.median(r[key] for r in runs["after"])
        print(f"| {name:34} | {before:,.0f} | {after:,.0f} | {after / before:.2f}x |")


if __name__ == "__main__":
    main()
