"""A deadline on every request's head: a client that sends it slowly enough never to finish is cut off.

uvicorn's h11 protocol has no timeout while it reads a request line and headers: its keep-alive timer runs
only between requests, and stops at the first byte of the next. A client that sends a header a byte at a
time, forever (slowloris), would hold its connection, and a few hundred of them every connection the
server can take. :class:`HeadDeadline` gives each request's head :data:`HEAD_TIMEOUT_S` seconds from the
moment the connection opens or the previous response ends, however many bytes arrive meanwhile, then
closes the connection. A body has its own deadline (the server's ``BODY_TIMEOUT_S``); a browser sends a
head in one packet.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: the seconds a request's line and headers may take to arrive
HEAD_TIMEOUT_S = 10.0


class HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol (``uvicorn.Config(http=HeadDeadline)``) with a deadline on each request's
    head."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:   # the head is in (h11 reads the body or is done)
            self._stop_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():   # the next request's head
            self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT_S, self._head_too_slow)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()
