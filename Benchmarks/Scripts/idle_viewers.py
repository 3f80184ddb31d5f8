"""Opens N idle live connections to a lab document from a process of its own, so that the lab's
memory is measured without its clients'. Prints "ready N" once every connection has had its
snapshot, then holds them until stdin closes. Arguments: PORT DOCUMENT_ID N."""

import base64
import os
import socket
import sys

port, document, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connections = []
for _ in range(count):
    connection = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        (
            f"GET /api/streams/{document}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    received = b""
    while b"\r\n\r\n" not in received or b"snapshot" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            sys.exit(f"connection {len(connections)} closed before its snapshot")
        received += chunk
    if not received.startswith(b"HTTP/1.1 101"):
        sys.exit("the lab did not upgrade: " + received.split(b"\r\n")[0].decode())
    connections.append(connection)
print(f"ready {len(connections)}", flush=True)
sys.stdin.read()
