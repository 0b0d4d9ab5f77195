"""The live feeds: the game's events as Server-Sent Events, and the camera view (a snapshot, MJPEG)."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from ..deps import Live
from ..problems import refusal

#: Seconds between two looks at the newest frame: a viewer is sent each new one.
MJPEG_PERIOD = 0.05
#: Seconds after which the same frame is sent again: a viewer that opens once the source has
#: ended (or while the table is still) has a picture, and OBS keeps its source alive.
MJPEG_REPEAT = 1.0
#: Seconds between two SSE keep-alive comments, so that proxies and browsers keep the line open.
KEEPALIVE = 15.0

router = APIRouter()


@router.get("/events")
async def events(request: Request, live: Live) -> StreamingResponse:
    """``state`` once, then ``update`` (``{"event": STREAM EVENT, "state": STATE, "at": SENT}``) for each event."""
    queue = live.broadcaster.subscribe()

    async def stream():  # noqa: ANN202
        try:
            yield f"event: state\ndata: {json.dumps(live.snapshot())}\n\n"
            while True:
                try:
                    message = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": keep-alive\n\n"
                    continue
                yield f"event: update\ndata: {json.dumps(message)}\n\n"
        finally:
            live.broadcaster.unsubscribe(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@router.get("/snapshot.jpg")
def snapshot(live: Live) -> Response:
    _, jpeg = live.jpeg()
    if jpeg is None:
        raise refusal(503, "http.no_frame")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/stream.mjpg")
async def stream_mjpg(request: Request, live: Live) -> StreamingResponse:
    """The camera view as MJPEG. Each part ends with the next boundary, so that a browser shows
    it at once rather than when the next frame comes; the newest frame is sent again every
    :data:`MJPEG_REPEAT` seconds."""
    async def frames():  # noqa: ANN202
        last, sent_at = -2, 0.0
        loop = asyncio.get_running_loop()
        yield b"--frame\r\n"
        while not await request.is_disconnected():
            index, jpeg = await asyncio.to_thread(live.jpeg)
            now = loop.time()
            if jpeg is not None and (index != last or now - sent_at >= MJPEG_REPEAT):
                last, sent_at = index, now
                yield (b"Content-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg
                       + b"\r\n--frame\r\n")
            await asyncio.sleep(MJPEG_PERIOD)

    return StreamingResponse(frames(), media_type="multipart/x-mixed-replace; boundary=frame",
                             headers={"Cache-Control": "no-store"})
