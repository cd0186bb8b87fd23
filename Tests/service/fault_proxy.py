"""A fault-injecting HTTP/1.1 proxy on loopback, between `shop --server` and `shop serve`.

It reads each request the client sends on a connection (keep-alive included), asks
`decide(request, connection)` (the request's bytes, the connection's number from 1) what to do
with it, and then:

- "pass": forwards it and returns the server's answer;
- "pass_close": the same, then closes the connection (as a server ending a keep-alive does);
- "drop_before": closes the client's connection without sending the request on (the server
  never sees it);
- "drop_after": forwards it, reads the server's whole answer, and closes the client's connection
  without sending it (the server applied the request; the client never hears so);
- "stall": forwards it, reads the answer, and sends nothing until the client gives up;
- "bad_gateway_after": forwards it, reads the server's answer, and answers 502 Bad Gateway in
  its place (as a proxy whose upstream connection broke after the server applied it).

It runs its asyncio loop on a thread of its own, so tests drive it from plain code.
"""

import asyncio
import threading


class FaultProxy:
    def __init__(self, upstream_host, upstream_port, decide=None):
        self.upstream = (upstream_host, upstream_port)
        self.decide = decide or (lambda request, connection: "pass")
        self.log = []  # (fault, first request line) for each request seen
        self.connections = 0
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._started.wait(10)
        self.url = f"http://127.0.0.1:{self.port}"

    def _run(self):
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._started.set()
        self._loop.run_forever()

    def close(self):
        async def stop():
            self._server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()
        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def faults(self, kind):
        return [line for fault, line in self.log if fault == kind]

    async def _serve(self, reader, writer):
        self.connections += 1
        number = self.connections
        upstream_writer = None
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
            while True:
                request = await read_message(reader, is_request=True)
                if request is None:
                    return
                fault = self.decide(request, number)
                self.log.append((fault, request.split(b"\r\n", 1)[0].decode("latin-1")))
                if fault == "drop_before":
                    return
                upstream_writer.write(request)
                await upstream_writer.drain()
                response = await read_message(upstream_reader, is_request=False)
                if response is None or fault == "drop_after":
                    return
                if fault == "stall":
                    await reader.read()  # until the client closes its end
                    return
                if fault == "bad_gateway_after":
                    page = b"<html><body>502 Bad Gateway</body></html>"
                    response = b"HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\ncontent-length: %d\r\n\r\n%s" % (len(page), page)
                writer.write(response)
                await writer.drain()
                if fault == "pass_close":
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            for stream in (writer, upstream_writer):
                if stream is not None:
                    stream.close()


async def read_message(reader, is_request):
    """One HTTP/1.1 message (head and Content-Length body) as bytes; None at end of stream."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        elif name.strip().lower() == b"transfer-encoding":
            raise ValueError("the fault proxy reads Content-Length bodies only")
    body = await reader.readexactly(length) if length else b""
    return head + body


def header(request, name):
    """The value of header `name` of a request, or None."""
    for line in request.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name.lower().encode():
            return value.strip().decode()
    return None
