#!/usr/bin/env python3
"""How long one analysis takes on an idle server and beside a live AI game (issue 35, item 4: "an
analysis beside a live AI game finishes within 2x its idle time").

Starts `BIN serve` on a throwaway data directory, imports RECORD (a finished or cut record, e.g. a
263-action Kyo game) ROUNDS times, and alternately analyses it alone and while a Kyo game between a
random human mover (this script, over HTTP) and the server's AI at LEVEL is played as fast as the AI
answers. Prints each analysis's wall time, the AI moves made meanwhile, and the ratio.

Usage: scripts/analysis-beside-ai.py BIN RECORD.json [ROUNDS] [LEVEL]
"""

import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

BIN, RECORD = sys.argv[1], sys.argv[2]
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 2
LEVEL = int(sys.argv[4]) if len(sys.argv) > 4 else 5
PORT = 18557
URL = f"http://127.0.0.1:{PORT}"


def parsed(raw):
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return raw.decode(errors="replace")


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(URL + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, parsed(r.read())
    except urllib.error.HTTPError as e:
        return e.code, parsed(e.read())


def analyse(record):
    status, made = call("POST", "/api/records", {"record": record})
    assert status == 201, made
    gid = made["id"]
    t0 = time.monotonic()
    status, ans = call("POST", f"/api/games/{gid}/analysis")
    assert status in (200, 202), ans
    while True:
        status, ans = call("GET", f"/api/games/{gid}/analysis")
        if ans.get("status") == "done":
            return time.monotonic() - t0
        assert ans.get("status") == "running", ans
        time.sleep(0.2)


def live_ai_game(stop, moves):
    """A human seat playing random legal actions against the AI, until `stop` is set (new games as
    games end)."""
    rng = random.Random(1)
    while not stop.is_set():
        status, g = call("POST", "/api/games", {"game": "kyo", "seats": [{"kind": "human"},
                         {"kind": "ai", "level": LEVEL}], "host_seats": [0]})
        assert status == 201, g
        gid, token = g["id"], g["seats"][0]["token"]
        while not stop.is_set():
            status, snap = call("GET", f"/api/games/{gid}?seat=0&token={token}")
            if snap.get("status") == "over":
                break
            legal = snap.get("legal") or []
            if not legal:
                time.sleep(0.05)  # the AI is thinking
                continue
            moves[0] += 1
            call("POST", f"/api/games/{gid}/action",
                 {"seat": 0, "token": token, "action": rng.choice(legal)["action"]})


def main():
    record = json.load(open(RECORD))
    data = tempfile.mkdtemp()
    server = subprocess.Popen([BIN, "serve", "--addr", f"127.0.0.1:{PORT}", "--data-dir", data,
                               "--http-rate", "100000"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                if call("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        for r in range(1, ROUNDS + 1):
            idle = analyse(record)
            stop, moves = threading.Event(), [0]
            player = threading.Thread(target=live_ai_game, args=(stop, moves))
            player.start()
            time.sleep(2)  # the live game is under way
            busy = analyse(record)
            stop.set()
            player.join()
            print(f"round {r}: alone {idle:.1f} s; beside a live level-{LEVEL} AI game {busy:.1f} s "
                  f"({moves[0]} human moves, each answered by the AI, meanwhile): {busy / idle:.2f}x",
                  flush=True)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data, ignore_errors=True)


main()
