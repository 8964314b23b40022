"""Checks the interop peer (server.py) with Python clients only, independent of Baton.

    python selftest.py                 # starts server.py on a free port, tests it, stops it
    python selftest.py --port 8000     # tests a server already listening there

Ends with the line `N passed, N failed` and exits non-zero if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parent
CHECKS: list[tuple[str, Callable[[str], Awaitable[None]]]] = []


def check(function: Callable[[str], Awaitable[None]]) -> Callable[[str], Awaitable[None]]:
    CHECKS.append((function.__name__, function))
    return function


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def apq(sha: str) -> dict[str, Any]:
    return {"persistedQuery": {"version": 1, "sha256Hash": sha}}


async def post(base: str, body: Any, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10) as client:
        return await client.post(f"{base}/graphql", json=body, **kwargs)


async def get(base: str, params: dict[str, str], **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10) as client:
        return await client.get(f"{base}/graphql", params=params, **kwargs)


# ---- POST and GET -------------------------------------------------------------------------------


@check
async def post_query(base: str) -> None:
    response = await post(
        base,
        {"query": "query Hi($n: String) { hello(name: $n) }", "variables": {"n": "Baton"}},
        headers={"Accept": "application/graphql-response+json, application/json"},
    )
    expect(response.status_code == 200, f"status {response.status_code}")
    expect(response.headers["content-type"].startswith("application/json"), "JSON content type")
    expect(response.json() == {"data": {"hello": "Hello, Baton!"}}, response.text)


@check
async def get_query(base: str) -> None:
    response = await get(
        base,
        {
            "query": "query Hi($n: String) { hello(name: $n) }",
            "variables": json.dumps({"n": "GET"}),
            "operationName": "Hi",
        },
        headers={"Accept": "application/graphql-response+json, application/json"},
    )
    expect(response.status_code == 200, f"status {response.status_code}")
    expect(response.json() == {"data": {"hello": "Hello, GET!"}}, response.text)


@check
async def get_mutation_is_refused(base: str) -> None:
    response = await get(base, {"query": 'mutation { addMessage(text: "no") { id } }'})
    # strawberry answers 400 in text/plain (GraphQL over HTTP would have 405).
    expect(response.status_code == 400, f"status {response.status_code}: {response.text}")
    expect(response.text == "mutations are not allowed when using GET", response.text)


@check
async def post_mutation_and_field_error(base: str) -> None:
    response = await post(base, {"query": 'mutation { addMessage(text: "hi") { id text } }'})
    message = response.json()["data"]["addMessage"]
    expect(message["text"] == "hi" and message["id"], response.text)
    response = await post(base, {"query": "{ hello alwaysFails }"})
    body = response.json()
    expect(response.status_code == 200, f"status {response.status_code}")
    expect(body["data"] == {"hello": "Hello, world!", "alwaysFails": None}, response.text)
    expect(body["errors"][0]["path"] == ["alwaysFails"], response.text)


@check
async def validation_error(base: str) -> None:
    response = await post(base, {"query": "{ nope }"})
    body = response.json()
    expect(body["data"] is None and "nope" in body["errors"][0]["message"], response.text)


@check
async def authorization_header(base: str) -> None:
    response = await post(
        base, {"query": "{ authorization }"}, headers={"Authorization": "Bearer abc"}
    )
    expect(response.json() == {"data": {"authorization": "Bearer abc"}}, response.text)


# ---- Automatic persisted queries ---------------------------------------------------------------


@check
async def apq_miss_register_hit(base: str) -> None:
    query = 'query Apq { hello(name: "APQ %d") }' % time.monotonic_ns()  # never seen before
    sha = sha256(query)
    expected = {"data": {"hello": query.split('"')[1].join(["Hello, ", "!"])}}

    miss = await post(base, {"extensions": apq(sha)})
    expect(miss.status_code == 200, f"miss status {miss.status_code}")
    expect(
        miss.json()
        == {
            "errors": [
                {"message": "PersistedQueryNotFound", "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}
            ]
        },
        miss.text,
    )
    get_miss = await get(base, {"extensions": json.dumps(apq(sha))})
    expect(get_miss.json()["errors"][0]["message"] == "PersistedQueryNotFound", get_miss.text)

    register = await post(base, {"query": query, "extensions": apq(sha)})
    expect(register.json() == expected, register.text)

    hit_get = await get(base, {"extensions": json.dumps(apq(sha)), "operationName": "Apq"})
    expect(hit_get.json() == expected, hit_get.text)
    hit_post = await post(base, {"extensions": apq(sha)})
    expect(hit_post.json() == expected, hit_post.text)


@check
async def apq_register_by_get(base: str) -> None:
    query = "{ hello(name: \"GET %d\") }" % time.monotonic_ns()
    sha = sha256(query)
    register = await get(base, {"query": query, "extensions": json.dumps(apq(sha))})
    expect("data" in register.json(), register.text)
    hit = await get(base, {"extensions": json.dumps(apq(sha))})
    expect(hit.json() == register.json(), hit.text)


@check
async def apq_hash_mismatch(base: str) -> None:
    response = await post(base, {"query": "{ hello }", "extensions": apq("0" * 64)})
    expect(response.status_code == 400, f"status {response.status_code}")
    expect(response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST", response.text)


# ---- Uploads (GraphQL multipart request spec) --------------------------------------------------


async def post_multipart(base: str, operations: Any, file_map: Any, files: dict[str, tuple[str, bytes, str]]) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30) as client:
        return await client.post(
            f"{base}/graphql",
            data={"operations": json.dumps(operations), "map": json.dumps(file_map)},
            files=files,
        )


FILE_FIELDS = "filename mimetype size sha256"


@check
async def single_upload(base: str) -> None:
    content = os.urandom(3_000_000)
    response = await post_multipart(
        base,
        {"query": f"mutation ($file: Upload!) {{ singleUpload(file: $file) {{ {FILE_FIELDS} }} }}",
         "variables": {"file": None}},
        {"0": ["variables.file"]},
        {"0": ("a.bin", content, "application/octet-stream")},
    )
    expect(
        response.json()
        == {"data": {"singleUpload": {
            "filename": "a.bin", "mimetype": "application/octet-stream",
            "size": len(content), "sha256": hashlib.sha256(content).hexdigest()}}},
        response.text,
    )


@check
async def multiple_upload_and_several_variables(base: str) -> None:
    one, two = b"first file\n", b"second file\n"
    response = await post_multipart(
        base,
        {"query": f"mutation ($files: [Upload!]!) {{ multipleUpload(files: $files) {{ {FILE_FIELDS} }} }}",
         "variables": {"files": [None, None]}},
        {"0": ["variables.files.0"], "1": ["variables.files.1"]},
        {"0": ("one.txt", one, "text/plain"), "1": ("two.txt", two, "text/plain")},
    )
    files = response.json()["data"]["multipleUpload"]
    expect([f["sha256"] for f in files] == [hashlib.sha256(b).hexdigest() for b in (one, two)], response.text)
    expect([f["filename"] for f in files] == ["one.txt", "two.txt"], response.text)

    response = await post_multipart(
        base,
        {"query": "mutation ($a: Upload!, $b: Upload!) { a: singleUpload(file: $a) { sha256 } "
                  "b: singleUpload(file: $b) { sha256 } }",
         "variables": {"a": None, "b": None}},
        {"x": ["variables.a"], "y": ["variables.b"]},
        {"x": ("a.txt", one, "text/plain"), "y": ("b.txt", two, "text/plain")},
    )
    data = response.json()["data"]
    expect(data["a"]["sha256"] == hashlib.sha256(one).hexdigest(), response.text)
    expect(data["b"]["sha256"] == hashlib.sha256(two).hexdigest(), response.text)


# ---- Incremental delivery over multipart/mixed ------------------------------------------------


def split_multipart(content_type: str, body: bytes) -> list[dict[str, Any]]:
    boundary = re.search(r'boundary="?([^";]+)"?', content_type).group(1)  # type: ignore[union-attr]
    delimiter = b"\r\n--" + boundary.encode()
    body = b"\r\n" + body
    expect(body.startswith(delimiter), "body starts with the boundary")
    end = body.index(delimiter + b"--")
    parts = []
    for raw in body[len(delimiter):end].split(delimiter):
        headers, _, payload = raw.partition(b"\r\n\r\n")
        expect(b"application/json" in headers.lower(), f"part headers {headers!r}")
        parts.append(json.loads(payload))
    return parts


def node(result: Any, path: list[Any]) -> Any:
    for key in path:
        result = result[key]
    return result


def merge(target: dict[str, Any], data: dict[str, Any]) -> None:
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


def merge_draft(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Applies the current draft's format: pending ids, incremental by id, completed ids."""
    result = parts[0]["data"]
    pending = {p["id"]: p for p in parts[0].get("pending", [])}
    expect(parts[0]["hasNext"] is True, "initial hasNext")
    done: set[str] = set()
    for part in parts[1:]:
        for p in part.get("pending") or []:
            pending[p["id"]] = p
        for entry in part.get("incremental") or []:
            path = pending[entry["id"]]["path"]
            if "items" in entry:
                node(result, path).extend(entry["items"])
            else:
                merge(node(result, path + entry.get("subPath", [])), entry["data"])
        for entry in part.get("completed") or []:
            expect("errors" not in entry, f"completed with errors: {entry}")
            done.add(entry["id"])
    expect(done == set(pending), f"every pending id completes: {done} vs {set(pending)}")
    expect(parts[-1]["hasNext"] is False and all(p["hasNext"] for p in parts[:-1]), "hasNext")
    return result


def merge_2022(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Applies Apollo's deferSpec=20220824 format: incremental entries with absolute paths."""
    result = parts[0]["data"]
    expect(set(parts[0]) <= {"data", "errors", "extensions", "hasNext"}, f"initial keys {parts[0]}")
    for part in parts[1:]:
        expect(set(part) <= {"incremental", "extensions", "hasNext"}, f"subsequent keys {part}")
        for entry in part.get("incremental") or []:
            if "items" in entry:
                *list_path, index = entry["path"]
                items = node(result, list_path)
                expect(index == len(items), f"stream index {index} after {len(items)} items")
                items.extend(entry["items"])
            else:
                merge(node(result, entry["path"]), entry["data"])
    expect(parts[-1]["hasNext"] is False and all(p["hasNext"] for p in parts[:-1]), "hasNext")
    return result


INCREMENTAL_QUERY = """
query Hero {
  hero {
    id name
    ...Bio @defer(label: "bio")
    friends(delayMs: 50) @stream(initialCount: 1) { id name }
  }
}
fragment Bio on Character { biography(delayMs: 1500) }
"""
PLAIN_QUERY = (INCREMENTAL_QUERY.replace(' @defer(label: "bio")', "")
               .replace(" @stream(initialCount: 1)", "").replace("1500", "0").replace("50", "0"))


async def incremental(base: str, accept: str) -> tuple[str, list[dict[str, Any]], float]:
    """Content type, parts, and seconds from the request until the first part arrived."""
    started = time.monotonic()
    first_part_after = -1.0
    body = b""
    async with httpx.AsyncClient(timeout=10) as client:
        async with client.stream(
            "POST", f"{base}/graphql", json={"query": INCREMENTAL_QUERY}, headers={"Accept": accept}
        ) as response:
            expect(response.status_code == 200, f"status {response.status_code}")
            async for chunk in response.aiter_bytes():
                body += chunk
                if first_part_after < 0 and b'"data"' in body:
                    first_part_after = time.monotonic() - started
            return response.headers["content-type"], split_multipart(response.headers["content-type"], body), first_part_after


@check
async def defer_and_stream_draft_format(base: str) -> None:
    content_type, parts, first = await incremental(
        base, "multipart/mixed;incrementalSpec=v0.2, application/json"
    )
    expect(content_type == 'multipart/mixed; boundary="-"', content_type)
    expect(first < 1.0, f"the initial part is streamed before the deferred one ({first:.2f}s)")
    expect(parts[0]["pending"] == [
        {"id": "0", "path": ["hero"], "label": "bio"}, {"id": "1", "path": ["hero", "friends"]}
    ], json.dumps(parts[0]))
    expect(parts[0]["data"]["hero"]["friends"] == [{"id": "1002", "name": "Han Solo"}], json.dumps(parts[0]))
    plain = (await post(base, {"query": PLAIN_QUERY})).json()["data"]
    merged = merge_draft(parts)
    expect(merged == plain, f"merged {merged} vs {plain}")


@check
async def defer_and_stream_apollo_2022_format(base: str) -> None:
    content_type, parts, first = await incremental(
        base, "multipart/mixed;deferSpec=20220824, application/json"
    )
    expect(content_type == 'multipart/mixed; boundary="-"; deferSpec=20220824', content_type)
    expect(first < 1.0, f"the initial part is streamed before the deferred one ({first:.2f}s)")
    expect(parts[-1]["incremental"] == [{
        "data": {"biography": "Luke Skywalker is a hero of the Rebellion."},
        "path": ["hero"], "label": "bio"}], json.dumps(parts[-1]))
    expect({"items": [{"id": "1003", "name": "Leia Organa"}], "path": ["hero", "friends", 1]}
           in parts[1]["incremental"], json.dumps(parts[1]))
    plain = (await post(base, {"query": PLAIN_QUERY})).json()["data"]
    merged = merge_2022(parts)
    expect(merged == plain, f"merged {merged} vs {plain}")


@check
async def deferred_errors_both_formats(base: str) -> None:
    query = ("{ hero { id ...Broken @defer(label: \"broken\") } ... @defer { alwaysFails } } "
             "fragment Broken on Character { brokenBiography(delayMs: 50) }")
    async with httpx.AsyncClient(timeout=10) as client:
        draft = await client.post(f"{base}/graphql", json={"query": query},
                                  headers={"Accept": "multipart/mixed, application/json"})
        apollo = await client.post(f"{base}/graphql", json={"query": query},
                                   headers={"Accept": "multipart/mixed;deferSpec=20220824"})
    parts = split_multipart(draft.headers["content-type"], draft.content)
    pending = {p["label"] if "label" in p else "root": p["id"] for p in parts[0]["pending"]}
    completed = {c["id"]: c for part in parts[1:] for c in part.get("completed", [])}
    expect(completed[pending["broken"]]["errors"][0]["path"] == ["hero", "brokenBiography"],
           draft.text)
    entries = [e for part in parts[1:] for e in part.get("incremental", [])]
    expect(any(e["data"] == {"alwaysFails": None} and e["errors"][0]["path"] == ["alwaysFails"]
               for e in entries), draft.text)

    parts = split_multipart(apollo.headers["content-type"], apollo.content)
    entries = [e for part in parts[1:] for e in part.get("incremental", [])]
    expect({"data": None, "path": ["hero"], "label": "broken"}.items()
           <= next(e for e in entries if e.get("label") == "broken").items(), apollo.text)
    expect(any(e["path"] == [] and e["data"] == {"alwaysFails": None} and e["errors"]
               for e in entries), apollo.text)


# ---- WebSockets --------------------------------------------------------------------------------


async def receive(ws: Any, skip_ka: bool = True) -> dict[str, Any]:
    """The next message, past graphql-ws keep-alives (`ka`) unless `skip_ka` is false."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if not (skip_ka and message == {"type": "ka"}):
            return message


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/graphql"


@check
async def graphql_transport_ws(base: str) -> None:
    async with websockets.connect(ws_url(base), subprotocols=["graphql-transport-ws"]) as ws:
        expect(ws.subprotocol == "graphql-transport-ws", f"subprotocol {ws.subprotocol}")
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authToken": "t0ken"}}))
        ack = await receive(ws)
        expect(ack == {"type": "connection_ack", "payload": {"server": "baton-interop-strawberry"}}, str(ack))
        await ws.send(json.dumps({"type": "ping"}))
        expect(await receive(ws) == {"type": "pong"}, "pong")

        await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                  "payload": {"query": "subscription { count(to: 3) }"}}))
        messages = [await receive(ws) for _ in range(4)]
        expect(messages == [
            {"id": "1", "type": "next", "payload": {"data": {"count": n}}} for n in (1, 2, 3)
        ] + [{"id": "1", "type": "complete"}], str(messages))

        await ws.send(json.dumps({"id": "2", "type": "subscribe",
                                  "payload": {"query": "{ authorization }"}}))
        expect(await receive(ws) == {"id": "2", "type": "next",
                                     "payload": {"data": {"authorization": "t0ken"}}}, "query over ws")
        expect(await receive(ws) == {"id": "2", "type": "complete"}, "query complete")

        # Cancelling: complete from the client stops a long subscription.
        await ws.send(json.dumps({"id": "3", "type": "subscribe",
                                  "payload": {"query": "subscription { count(to: 1000, delayMs: 20) }"}}))
        expect((await receive(ws))["payload"] == {"data": {"count": 1}}, "first of many")
        await ws.send(json.dumps({"id": "3", "type": "complete"}))
        await ws.send(json.dumps({"type": "ping"}))
        while (message := await receive(ws)) != {"type": "pong"}:
            expect(message["id"] == "3" and message["type"] == "next", str(message))

        # Persisted queries over the WebSocket.
        query = "subscription { count(to: 2) }"
        sha = sha256(query + " ")  # a document of its own, so it is not yet registered
        await ws.send(json.dumps({"id": "4", "type": "subscribe", "payload": {"extensions": apq(sha)}}))
        expect(await receive(ws) == {"id": "4", "type": "error", "payload": [
            {"message": "PersistedQueryNotFound", "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}
        ]}, "APQ miss over ws")
        await ws.send(json.dumps({"id": "5", "type": "subscribe",
                                  "payload": {"query": query + " ", "extensions": apq(sha)}}))
        expect([(await receive(ws))["type"] for _ in range(3)] == ["next", "next", "complete"], "register")
        await ws.send(json.dumps({"id": "6", "type": "subscribe", "payload": {"extensions": apq(sha)}}))
        expect([(await receive(ws)).get("payload") for _ in range(3)]
               == [{"data": {"count": 1}}, {"data": {"count": 2}}, None], "APQ hit over ws")


@check
async def graphql_transport_ws_rejects_connection(base: str) -> None:
    async with websockets.connect(ws_url(base), subprotocols=["graphql-transport-ws"]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authToken": "reject"}}))
        try:
            await receive(ws)
            raise AssertionError("expected the connection to close")
        except websockets.ConnectionClosed as closed:
            expect(closed.rcvd is not None and closed.rcvd.code == 4403, f"close {closed.rcvd}")


@check
async def graphql_ws_legacy(base: str) -> None:
    async with websockets.connect(ws_url(base), subprotocols=["graphql-ws"]) as ws:
        expect(ws.subprotocol == "graphql-ws", f"subprotocol {ws.subprotocol}")
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authToken": "legacy"}}))
        ack = await receive(ws)
        expect(ack == {"type": "connection_ack", "payload": {"server": "baton-interop-strawberry"}}, str(ack))
        expect(await receive(ws, skip_ka=False) == {"type": "ka"}, "keep-alive after the ack")

        await ws.send(json.dumps({"id": "1", "type": "start",
                                  "payload": {"query": "subscription { count(to: 3) }"}}))
        messages = [await receive(ws) for _ in range(4)]
        expect(messages == [
            {"id": "1", "type": "data", "payload": {"data": {"count": n}}} for n in (1, 2, 3)
        ] + [{"id": "1", "type": "complete"}], str(messages))

        await ws.send(json.dumps({"id": "2", "type": "start",
                                  "payload": {"query": "subscription { authorization }"}}))
        expect(await receive(ws) == {"id": "2", "type": "data",
                                     "payload": {"data": {"authorization": "legacy"}}}, "auth")
        expect(await receive(ws) == {"id": "2", "type": "complete"}, "complete")

        # Queries and mutations too, as subscriptions-transport-ws servers ran them.
        await ws.send(json.dumps({"id": "q", "type": "start", "payload": {"query": "{ hello }"}}))
        expect([await receive(ws) for _ in range(2)] == [
            {"id": "q", "type": "data", "payload": {"data": {"hello": "Hello, world!"}}},
            {"id": "q", "type": "complete"}], "query over graphql-ws")

        await ws.send(json.dumps({"id": "3", "type": "start",
                                  "payload": {"query": "subscription { count(to: 1000, delayMs: 20) }"}}))
        expect((await receive(ws))["payload"] == {"data": {"count": 1}}, "first of many")
        await ws.send(json.dumps({"id": "3", "type": "stop"}))
        while (message := await receive(ws))["type"] != "complete":
            expect(message["type"] == "data", str(message))

        sha = sha256("subscription { count(to: 1) }  ")
        await ws.send(json.dumps({"id": "4", "type": "start", "payload": {"extensions": apq(sha)}}))
        expect(await receive(ws) == {"id": "4", "type": "error", "payload": {
            "message": "PersistedQueryNotFound", "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}},
            "APQ miss over legacy ws")

        await ws.send(json.dumps({"type": "connection_terminate"}))
        try:
            await receive(ws)
            raise AssertionError("expected the connection to close")
        except websockets.ConnectionClosed:
            pass


# ---- Running -----------------------------------------------------------------------------------


def start_server(extra: list[str]) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, str(HERE / "server.py"), "--port", "0", *extra],
        stdout=subprocess.PIPE, text=True,
    )
    line = process.stdout.readline() if process.stdout else ""
    match = re.fullmatch(r"LISTENING (\d+)\n", line)
    if not match:
        process.kill()
        raise SystemExit(f"server.py did not print 'LISTENING <port>' (printed {line!r})")
    return process, f"http://127.0.0.1:{match.group(1)}"


async def apq_not_found_status_404(base: str) -> None:
    miss = await post(base, {"extensions": apq("1" * 64)})
    expect(miss.status_code == 404, f"status {miss.status_code}")
    expect(miss.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND", miss.text)


async def run_all(base: str, router_base: str | None) -> int:
    checks = list(CHECKS)
    if router_base is not None:
        checks.append(("apq_not_found_status_404", lambda _: apq_not_found_status_404(router_base)))
    passed = failed = 0
    for name, function in checks:
        try:
            await asyncio.wait_for(function(base), 20)
            passed += 1
            print(f"ok   {name}")
        except Exception:  # noqa: BLE001
            failed += 1
            print(f"FAIL {name}\n{traceback.format_exc()}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, help="test a server already on this port")
    args = parser.parse_args()
    if args.port:
        sys.exit(asyncio.run(run_all(f"http://127.0.0.1:{args.port}", None)))
    server, base = start_server([])
    router, router_base = start_server(["--apq-not-found-status", "404"])
    try:
        code = asyncio.run(run_all(base, router_base))
    finally:
        for process in (server, router):
            process.terminate()
            process.wait(10)
    sys.exit(code)


if __name__ == "__main__":
    main()
