"""Opens N live connections to a lab document that never read what the lab sends: each has a
receive buffer of 4 KB, asks again and again for the snapshot it never reads, and reads nothing
after the upgrade's answer. Prints "ready N" once every connection is upgraded, then holds them
until stdin closes. Arguments: PORT DOCUMENT_ID N."""

import base64
import os
import socket
import sys


def frame(text):
    payload = text.encode()
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


port, document, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
resume = frame('{"type":"resume","version":0}')
connections = []
for _ in range(count):
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        (
            f"GET /api/streams/{document}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = connection.recv(129)
    if not head.startswith(b"HTTP/1.1 101"):
        sys.exit("the lab did not upgrade: " + head.split(b"\r\n")[0].decode())
    connection.setblocking(False)
    for _ in range(50):
        try:
            connection.send(resume)
        except BlockingIOError:
            break
    connections.append(connection)
print(f"ready {len(connections)}", flush=True)
sys.stdin.read()
