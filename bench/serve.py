"""The dashboard under load: page clients and video viewers while the tracker follows the demo.

Starts ``azulcam serve --demo`` in a process of its own (the demo game rendered at 10 frames a
second, through reader, tracker and engine), then, from this process, opens ``--pages`` clients of
the live updates (``/events``, as a dashboard page listens) and ``--viewers`` of the camera view
(``/stream.mjpg``) for ``--seconds``, with ``/api/state`` asked ``--state-rate`` times a second.
Prints how late each update reached the clients (from when the server sent it; both processes on
this machine's clock), the frames each viewer got a second, how long ``/api/state`` took (median,
95th percentile), and how the tracker kept up (``/api/health``: processing over the video's time,
and how far behind its clock the newest frame was, sampled each second).

    python bench/serve.py [--pages 20] [--viewers 5] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def page(url: str, until: float, lags: list[float], counts: list[int]) -> None:
    """One dashboard page's live updates: the lag of each (now minus the server's ``at``)."""
    async with httpx.AsyncClient(timeout=None) as client, client.stream("GET", f"{url}/events") as reply:
        event = None
        async for line in reply.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "update":
                lags.append(time.time() - json.loads(line[6:])["at"])
                counts.append(1)
            if time.monotonic() > until:
                return


async def viewer(url: str, until: float, frames: list[int]) -> None:
    """One camera-view client: the JPEG frames it got."""
    got = 0
    async with httpx.AsyncClient(timeout=None) as client, client.stream("GET", f"{url}/stream.mjpg") as reply:
        async for chunk in reply.aiter_bytes():
            got += chunk.count(b"--frame")
            if time.monotonic() > until:
                break
    frames.append(got)


async def states(url: str, until: float, rate: float, times: list[float]) -> None:
    """``/api/state`` asked ``rate`` times a second (pages loading, scripts polling): each answer's time."""
    async with httpx.AsyncClient(timeout=10) as client:
        while time.monotonic() < until:
            began = time.perf_counter()
            reply = await client.get(f"{url}/api/state")
            reply.raise_for_status()
            times.append(time.perf_counter() - began)
            await asyncio.sleep(max(0.0, 1.0 / rate - (time.perf_counter() - began)))


async def behind(url: str, until: float, samples: list[float]) -> None:
    """How far behind its clock the newest frame is, once a second (``/api/health``)."""
    async with httpx.AsyncClient(timeout=10) as client:
        while time.monotonic() < until:
            samples.append((await client.get(f"{url}/api/health")).json()["behind_s"])
            await asyncio.sleep(1.0)


async def load(url: str, pages: int, viewers: int, seconds: float, rate: float) -> dict[str, list]:
    until = time.monotonic() + seconds
    out: dict[str, list] = {"lags": [], "counts": [], "frames": [], "states": [], "behind": []}
    tasks = ([page(url, until, out["lags"], out["counts"]) for _ in range(pages)]
             + [viewer(url, until, out["frames"]) for _ in range(viewers)]
             + [states(url, until, rate, out["states"]), behind(url, until, out["behind"])])
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), seconds + 30)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--state-rate", type=float, default=10.0, help="/api/state requests a second, all pages together")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "azulcam", "serve", "--demo", "--port", str(port), "--data", data],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{url}/api/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            got = asyncio.run(load(url, args.pages, args.viewers, args.seconds, args.state_rate))
            lags, frames, times = got["lags"], got["frames"], sorted(got["states"])
            health = httpx.get(f"{url}/api/health").json()
            state = httpx.get(f"{url}/api/state").json()
        finally:
            server.terminate()
            server.wait()
    lags.sort()
    print(f"{args.pages} pages, {args.viewers} camera viewers, {args.seconds:.0f} s of the demo game "
          f"({state['events']} record events committed)")
    if lags:
        print(f"updates received: {len(lags)} ({len(lags) / max(args.pages, 1):.0f} a page); lag from the server's "
              f"send: median {statistics.median(lags) * 1000:.0f} ms, 95th percentile {lags[int(0.95 * (len(lags) - 1))] * 1000:.0f} "
              f"ms, max {lags[-1] * 1000:.0f} ms; within 200 ms: {sum(x <= 0.2 for x in lags)} of {len(lags)}")
    if frames:
        print(f"camera view: {statistics.median(frames) / args.seconds:.1f} frames a second a viewer (median; min "
              f"{min(frames) / args.seconds:.1f})")
    if times:
        print(f"/api/state: {len(times)} answers, median {statistics.median(times) * 1000:.1f} ms, 95th percentile "
              f"{times[int(0.95 * (len(times) - 1))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
    print(f"tracker: processing {health['processing_ratio']} of the video's time, newest frame {health['behind_s']} s "
          f"behind its clock at the end (at most {max(got['behind'], default=0.0):.2f} s, sampled each second), "
          f"{health['frames']} frames, {health['reads']} read")


if __name__ == "__main__":
    main()
