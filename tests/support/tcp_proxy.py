"""A loopback TCP forwarder that a test can cut and restore: a database outage.

Worker processes connect to the proxy instead of the database server, while
the test process talks to the server directly, so the test can take the
database away from the workers only. :meth:`TcpProxy.stop` closes the
listening socket (new connections are refused, as while a server restarts)
and resets every live connection (a query in flight fails, as when the server
dies); :meth:`TcpProxy.start` listens again on the same port.

One thread moves the bytes of every connection with :mod:`selectors`; the
connections of a database client are few and small, so it never has to keep
up with much.
"""

from __future__ import annotations

import selectors
import socket
import struct
import threading


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset (linger 0): the peer's next read fails at once
    and no TIME_WAIT keeps the port."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class TcpProxy:
    """Forward ``127.0.0.1:port`` to ``target_host:target_port`` while started."""

    def __init__(self, target_host: str, target_port: int, port: int = 0):
        self.target = (target_host, target_port)
        self.port = port
        self.connections_made = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._listener: socket.socket | None = None
        self._stopping = threading.Event()
        self._wake_r, self._wake_w = socket.socketpair()
        self._peers: dict[socket.socket, socket.socket] = {}

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> TcpProxy:
        """Listen (again) on ``self.port``, or on a free port the first time."""
        with self._lock:
            if self._thread is not None:
                return self
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(64)
            listener.setblocking(False)
            self.port = listener.getsockname()[1]
            self._listener = listener
            self._stopping.clear()
            self._thread = threading.Thread(
                target=self._serve, name=f"tcp-proxy-{self.port}", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Refuse new connections and reset every live one; returns once done."""
        with self._lock:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            self._stopping.set()
            self._wake_w.send(b"x")
            thread.join()

    def close(self) -> None:
        self.stop()
        self._wake_r.close()
        self._wake_w.close()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _serve(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._listener, selectors.EVENT_READ, "accept")
        selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        try:
            while not self._stopping.is_set():
                for key, _ in selector.select():
                    if key.data == "accept":
                        self._accept(selector)
                    elif key.data == "wake":
                        self._wake_r.recv(64)
                    else:
                        self._pump(selector, key.fileobj)
        finally:
            for sock in list(self._peers):
                _reset(sock)
            self._peers.clear()
            self._listener.close()
            selector.close()

    def _accept(self, selector: selectors.BaseSelector) -> None:
        try:
            client, _ = self._listener.accept()
        except BlockingIOError:
            return
        try:
            server = socket.create_connection(self.target, timeout=5)
        except OSError:
            _reset(client)  # the server itself is away: the client sees a reset
            return
        self.connections_made += 1
        for sock in (client, server):
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            selector.register(sock, selectors.EVENT_READ, "pump")
        self._peers[client], self._peers[server] = server, client

    def _pump(self, selector: selectors.BaseSelector, sock: socket.socket) -> None:
        peer = self._peers.get(sock)
        if peer is None:
            return
        try:
            data = sock.recv(65536)
            if data:
                # Replies are small; a peer that stops reading for 10 s is
                # treated as gone rather than stalling every other connection.
                peer.settimeout(10)
                peer.sendall(data)
                peer.setblocking(False)
                return
        except OSError:
            pass
        # One side closed or failed: close both, as a server process would.
        for end in (sock, peer):
            selector.unregister(end)
            self._peers.pop(end, None)
            end.close()
