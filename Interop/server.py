"""Baton's interop peer: a small GraphQL server built on strawberry-graphql (PyPI).

Nobody on the Baton project wrote strawberry, graphql-core or uvicorn; this file only declares a
schema and fills the one gap strawberry leaves (Apollo's automatic persisted queries), plus an
optional translation of incremental delivery into Apollo's `deferSpec=20220824` format.

    python server.py [--port 0] [--apq-not-found-status 200|404]

Listens on 127.0.0.1 and prints one line `LISTENING <port>` on stdout once it accepts
connections. Everything is served on one path, `/graphql` (also `/`): POST, GET, multipart
uploads, `@defer`/`@stream` over `multipart/mixed`, and WebSockets speaking graphql-transport-ws
and the legacy graphql-ws (subscriptions-transport-ws) protocols. See README.md for wire formats.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import hashlib
import logging
import os
import socket
import sys
import threading
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import strawberry
import uvicorn
from graphql import GraphQLError
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.file_uploads import Upload
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.http.streaming import MultipartTransport
from strawberry.schema.config import StrawberryConfig
from strawberry.subscriptions import (
    GRAPHQL_SSE_PROTOCOL,
    GRAPHQL_TRANSPORT_WS_PROTOCOL,
    GRAPHQL_WS_PROTOCOL,
    MULTIPART_SUBSCRIPTION_PROTOCOL,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler
from strawberry.types import ExecutionResult, Info
from strawberry.types.execution import PreExecutionError
from strawberry.types.unset import UNSET

# ---------------------------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------------------------

HEROES: dict[str, dict[str, Any]] = {
    "1000": {"name": "Luke Skywalker", "friends": ["1002", "1003", "2000", "2001"]},
    "1002": {"name": "Han Solo", "friends": ["1000", "1003", "2001"]},
    "1003": {"name": "Leia Organa", "friends": ["1000", "1002", "2000", "2001"]},
    "2000": {"name": "C-3PO", "friends": ["1000", "1002", "1003", "2001"]},
    "2001": {"name": "R2-D2", "friends": ["1000", "1002", "1003"]},
}


@strawberry.type(description="A character with friends; `biography` is slow (for @defer).")
class Character:
    id: strawberry.ID
    name: str

    @strawberry.field(description="Friends one by one, `delayMs` apart (for @stream).")
    async def friends(self, delay_ms: int = 20) -> list[Character]:
        async def one_by_one() -> AsyncGenerator[Character, None]:
            for friend_id in HEROES[str(self.id)]["friends"]:
                await asyncio.sleep(delay_ms / 1000)
                yield character(friend_id)

        return one_by_one()  # type: ignore[return-value]

    @strawberry.field(description="Answers after `delayMs` milliseconds (for @defer).")
    async def biography(self, delay_ms: int = 200) -> str:
        await asyncio.sleep(delay_ms / 1000)
        return f"{self.name} is a hero of the Rebellion."

    @strawberry.field(
        description="Always fails; being non-null, its error nulls the enclosing object or "
        "fails the deferred fragment that holds it."
    )
    async def broken_biography(self, delay_ms: int = 0) -> str:
        await asyncio.sleep(delay_ms / 1000)
        raise ValueError(f"no biography for {self.name}")


def character(character_id: str) -> Character:
    return Character(id=strawberry.ID(character_id), name=HEROES[character_id]["name"])


@strawberry.type
class Message:
    id: strawberry.ID
    text: str


MESSAGES: list[Message] = []

# How many subscription resolvers are running: a test sees a cancelled subscription stop here.
ACTIVE_SUBSCRIPTIONS = 0


@strawberry.type(description="What the server received for one uploaded file.")
class UploadedFile:
    filename: str
    mimetype: str
    size: int
    sha256: str


async def describe(file: Upload) -> UploadedFile:
    # strawberry hands over starlette's UploadFile (spooled to disk); hash it a chunk at a time.
    digest, size = hashlib.sha256(), 0
    while chunk := await file.read(1 << 20):  # type: ignore[attr-defined]
        digest.update(chunk)
        size += len(chunk)
    return UploadedFile(
        filename=file.filename or "",  # type: ignore[attr-defined]
        mimetype=file.content_type or "",  # type: ignore[attr-defined]
        size=size,
        sha256=digest.hexdigest(),
    )


def authorization_of(info: Info) -> str | None:
    """The `Authorization` header over HTTP, or `connection_init`'s `authToken` over WebSocket."""
    params = info.context.get("connection_params")
    if isinstance(params, Mapping):
        token = params.get("authToken")
        return token if isinstance(token, str) else None
    request = info.context.get("request")
    headers = getattr(request, "headers", None)
    return headers.get("authorization") if headers is not None else None


@strawberry.type
class Query:
    @strawberry.field
    def hello(self, name: str | None = None) -> str:
        return f"Hello, {name or 'world'}!"

    @strawberry.field
    def hero(self, id: strawberry.ID = strawberry.ID("1000")) -> Character | None:
        return character(str(id)) if str(id) in HEROES else None

    @strawberry.field
    def messages(self) -> list[Message]:
        return list(MESSAGES)

    @strawberry.field(description="How many `count`/`countThenFail` subscriptions are running.")
    def active_subscriptions(self) -> int:
        return ACTIVE_SUBSCRIPTIONS

    @strawberry.field(description="Always fails with a field error; the response keeps `data`.")
    def always_fails(self) -> str | None:
        raise ValueError("alwaysFails failed, as it always does")

    @strawberry.field(
        description="The request's Authorization header (HTTP), or connection_init's authToken "
        "(WebSocket)."
    )
    def authorization(self, info: Info) -> str | None:
        return authorization_of(info)


@strawberry.type
class Mutation:
    @strawberry.mutation
    def add_message(self, text: str) -> Message:
        message = Message(id=strawberry.ID(str(len(MESSAGES) + 1)), text=text)
        MESSAGES.append(message)
        return message

    @strawberry.mutation
    async def single_upload(self, file: Upload) -> UploadedFile:
        return await describe(file)

    @strawberry.mutation
    async def multiple_upload(self, files: list[Upload]) -> list[UploadedFile]:
        return [await describe(file) for file in files]


@strawberry.type
class Subscription:
    @strawberry.subscription(description="Counts 1, 2, … `to`, `delayMs` apart.")
    async def count(self, to: int, delay_ms: int = 50) -> AsyncGenerator[int, None]:
        global ACTIVE_SUBSCRIPTIONS
        ACTIVE_SUBSCRIPTIONS += 1
        try:
            for value in range(1, to + 1):
                yield value
                if value < to:
                    await asyncio.sleep(delay_ms / 1000)
        finally:
            ACTIVE_SUBSCRIPTIONS -= 1

    @strawberry.subscription(description="Counts 1, 2, … `to`, then fails with an error.")
    async def count_then_fail(self, to: int) -> AsyncGenerator[int, None]:
        global ACTIVE_SUBSCRIPTIONS
        ACTIVE_SUBSCRIPTIONS += 1
        try:
            for value in range(1, to + 1):
                yield value
            raise ValueError(f"countThenFail failed after {to}")
        finally:
            ACTIVE_SUBSCRIPTIONS -= 1

    @strawberry.subscription(description="One value, the connection's authorization.")
    async def authorization(self, info: Info) -> AsyncGenerator[str | None, None]:
        yield authorization_of(info)


schema = strawberry.Schema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    config=StrawberryConfig(enable_experimental_incremental_execution=True),
)

# ---------------------------------------------------------------------------------------------
# Automatic persisted queries (Apollo's protocol; strawberry has none built in)
# ---------------------------------------------------------------------------------------------

APQ_CODES = {"PERSISTED_QUERY_NOT_FOUND", "PERSISTED_QUERY_NOT_SUPPORTED", "BAD_REQUEST"}


class PersistedQueryError(Exception):
    """An APQ failure: the GraphQL error to send, and the HTTP status it goes with."""

    def __init__(self, message: str, code: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status

    def graphql_error(self) -> GraphQLError:
        return GraphQLError(self.message, extensions={"code": self.code})


class PersistedQueryStore:
    """Documents by their sha256, registered by the requests that send both hash and document."""

    def __init__(self, not_found_status: int) -> None:
        self.documents: dict[str, str] = {}
        self.not_found_status = not_found_status

    def resolve(self, query: str | None, extensions: object) -> str | None:
        """The document to execute, or `PersistedQueryError` as Apollo Server answers it."""
        if not isinstance(extensions, Mapping) or "persistedQuery" not in extensions:
            return query
        persisted = extensions["persistedQuery"]
        if not isinstance(persisted, Mapping) or persisted.get("version") != 1:
            raise PersistedQueryError(
                "Unsupported persisted query version", "BAD_REQUEST", 400
            )
        sha = persisted.get("sha256Hash")
        if not isinstance(sha, str) or not sha:
            raise PersistedQueryError("Missing persisted query sha256Hash", "BAD_REQUEST", 400)
        if query is None:
            stored = self.documents.get(sha.lower())
            if stored is None:
                raise PersistedQueryError(
                    "PersistedQueryNotFound", "PERSISTED_QUERY_NOT_FOUND", self.not_found_status
                )
            return stored
        if hashlib.sha256(query.encode()).hexdigest() != sha.lower():
            raise PersistedQueryError("provided sha does not match query", "BAD_REQUEST", 400)
        self.documents[sha.lower()] = query
        return query


PERSISTED_QUERIES = PersistedQueryStore(not_found_status=200)

# ---------------------------------------------------------------------------------------------
# Apollo's deferSpec=20220824 incremental format, translated from graphql-core's current one
# ---------------------------------------------------------------------------------------------

ACCEPT_HEADER: contextvars.ContextVar[str] = contextvars.ContextVar("accept", default="")


def wants_defer_spec_20220824(accept: str) -> bool:
    return "multipart/mixed" in accept and "deferspec=20220824" in accept.lower().replace(" ", "")


class DeferSpec20220824Translator:
    """Rewrites the draft format (`pending`/`incremental`/`completed` with ids) into Apollo's
    `deferSpec=20220824` one (`incremental` entries with absolute `path`s, no ids), keeping the
    merged result so a streamed item's path gets its list index."""

    def __init__(self) -> None:
        self.pending: dict[str, dict[str, Any]] = {}
        self.result: Any = None

    def _register(self, payload: Mapping[str, Any]) -> None:
        for entry in payload.get("pending") or ():
            self.pending[str(entry["id"])] = entry

    def _node(self, path: list[Any]) -> Any:
        node = self.result
        for key in path:
            node = node[key]
        return node

    def _merge(self, target: Any, data: Any) -> None:
        for key, value in data.items():
            if isinstance(value, dict) and isinstance(target.get(key), dict):
                self._merge(target[key], value)
            else:
                target[key] = value

    def translate(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        if "data" in payload:  # the initial payload
            self.result = payload.get("data")
            self._register(payload)
            initial = {key: payload[key] for key in ("data", "errors") if key in payload}
            if payload.get("extensions"):
                initial["extensions"] = payload["extensions"]
            initial["hasNext"] = payload.get("hasNext", False)
            return initial

        self._register(payload)
        incremental: list[dict[str, Any]] = []
        for entry in payload.get("incremental") or ():
            pending = self.pending[str(entry["id"])]
            path = list(pending["path"])
            translated: dict[str, Any]
            if "items" in entry:
                items_list = self._node(path)
                translated = {"items": entry["items"], "path": path + [len(items_list)]}
                items_list.extend(entry["items"])
            else:
                path += list(entry.get("subPath") or ())
                translated = {"data": entry["data"], "path": path}
                if self.result is not None:
                    self._merge(self._node(path), entry["data"])
            if pending.get("label") is not None:
                translated["label"] = pending["label"]
            if entry.get("errors"):
                translated["errors"] = entry["errors"]
            incremental.append(translated)
        for entry in payload.get("completed") or ():
            pending = self.pending.pop(str(entry["id"]), None)
            if pending is not None and entry.get("errors"):
                # A fragment or stream that failed as a whole: null data, or null items at the
                # next index, with its errors.
                path = list(pending["path"])
                target = self._node(path) if self.result is not None else None
                failed: dict[str, Any] = (
                    {"items": None, "path": path + [len(target)]}
                    if isinstance(target, list)
                    else {"data": None, "path": path}
                )
                if pending.get("label") is not None:
                    failed["label"] = pending["label"]
                failed["errors"] = entry["errors"]
                incremental.append(failed)
        subsequent: dict[str, Any] = {}
        if incremental:
            subsequent["incremental"] = incremental
        if payload.get("extensions"):
            subsequent["extensions"] = payload["extensions"]
        subsequent["hasNext"] = payload.get("hasNext", False)
        return subsequent


class IncrementalMultipartTransport(MultipartTransport):
    """strawberry's multipart transport; in Apollo's format when the request's Accept asks."""

    def __init__(self) -> None:
        super().__init__()
        self.defer_spec_20220824 = wants_defer_spec_20220824(ACCEPT_HEADER.get())

    @property
    def headers(self) -> Mapping[str, str]:
        if self.defer_spec_20220824:
            return {
                "Content-Type": f'multipart/mixed; boundary="{self.separator}"; deferSpec=20220824'
            }
        return super().headers

    def stream(self, data: Any, encode_json: Any) -> Any:
        if not self.defer_spec_20220824:
            return super().stream(data, encode_json)

        async def translated() -> AsyncGenerator[object, None]:
            translator = DeferSpec20220824Translator()
            async for payload in data():
                yield translator.translate(payload)

        return super().stream(translated, encode_json)


# ---------------------------------------------------------------------------------------------
# WebSocket handlers: resolve persisted queries before strawberry reads `payload.query`
# ---------------------------------------------------------------------------------------------


class TransportWSHandler(BaseGraphQLTransportWSHandler):
    async def handle_subscribe(self, message: Any) -> None:
        payload = message.get("payload") or {}
        try:
            payload["query"] = PERSISTED_QUERIES.resolve(
                payload.get("query"), payload.get("extensions")
            )
        except PersistedQueryError as error:
            if not self.connection_acknowledged:
                await self.websocket.close(code=4401, reason="Unauthorized")
                return
            await self.send_message(
                {"id": message["id"], "type": "error", "payload": [error.graphql_error().formatted]}
            )
            return
        await super().handle_subscribe(message)


class AnyOperationOverLegacyWS:
    """The schema as the legacy handler sees it: strawberry's graphql-ws handler runs only
    subscriptions; subscriptions-transport-ws servers ran queries and mutations too (one `data`,
    then `complete`), and so does this peer. Incremental delivery is refused there, as strawberry
    refuses it over graphql-transport-ws."""

    def __init__(self, schema: Any) -> None:
        self._schema = schema

    def __getattr__(self, name: str) -> Any:
        return getattr(self._schema, name)

    async def subscribe(self, **kwargs: Any) -> AsyncGenerator[Any, None]:
        results = await self._schema.stream(**kwargs)

        async def plain_results() -> AsyncGenerator[Any, None]:
            async with contextlib.aclosing(results):
                async for result in results:
                    if not isinstance(result, ExecutionResult):
                        yield PreExecutionError(data=None, errors=[GraphQLError(
                            "Incremental delivery is not supported over graphql-ws")])
                        return
                    yield result

        return plain_results()


class LegacyWSHandler(BaseGraphQLWSHandler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.schema = AnyOperationOverLegacyWS(self.schema)  # type: ignore[assignment]

    async def handle_start(self, message: Any) -> None:
        payload = message.get("payload") or {}
        try:
            payload["query"] = PERSISTED_QUERIES.resolve(
                payload.get("query"), payload.get("extensions")
            )
        except PersistedQueryError as error:
            await self.send_message(
                {"id": message["id"], "type": "error", "payload": error.graphql_error().formatted}
            )
            return
        await super().handle_start(message)


# ---------------------------------------------------------------------------------------------
# The view
# ---------------------------------------------------------------------------------------------


class InteropGraphQL(GraphQL):
    multipart_transport_class = IncrementalMultipartTransport
    graphql_transport_ws_handler_class = TransportWSHandler
    graphql_ws_handler_class = LegacyWSHandler

    def should_render_graphql_ide(self, request: Any) -> bool:
        return False  # a GET without `query` is an APQ hit, not a browser

    async def on_ws_connect(self, context: Any) -> Any:
        params = context.get("connection_params")
        if isinstance(params, Mapping) and params.get("authToken") == "reject":
            raise ConnectionRejectionError({"reason": "authToken 'reject' is rejected"})
        return {"server": "baton-interop-strawberry"}

    async def run(self, request: Any, context: Any = UNSET, root_value: Any = UNSET) -> Any:
        if not self.is_websocket_request(request):
            ACCEPT_HEADER.set(request.headers.get("accept", ""))
            # As connection_init's `authToken: "reject"` is refused over WebSocket (4403).
            if request.headers.get("authorization") == "reject":
                return JSONResponse(
                    {"errors": [{"message": "Authorization 'reject' is refused"}]}, status_code=401
                )
        return await super().run(request, context=context, root_value=root_value)

    async def execute_operation(
        self,
        request: Any,
        request_adapter: Any,
        request_data: GraphQLRequestData | list[GraphQLRequestData],
        context: Any,
        root_value: Any,
        sub_response: Any,
    ) -> Any:
        if isinstance(request_data, GraphQLRequestData):
            try:
                request_data.query = PERSISTED_QUERIES.resolve(
                    request_data.query, request_data.extensions
                )
            except PersistedQueryError as error:
                sub_response.status_code = error.status
                if error.status == 200:
                    sub_response.headers["cache-control"] = "private, no-cache, must-revalidate"
                return ExecutionResult(data=None, errors=[error.graphql_error()])
        return await super().execute_operation(
            request, request_adapter, request_data, context, root_value, sub_response
        )

    async def process_result(self, request: Any, result: Any) -> GraphQLHTTPResponse:
        response = await super().process_result(request, result)
        errors = result.errors or []
        if result.data is None and errors and all(
            (error.extensions or {}).get("code") in APQ_CODES for error in errors
        ):
            response.pop("data", None)  # as Apollo Server: a request error has no `data`
        return response


def make_app(keep_alive_interval: float = 1.0) -> Starlette:
    # strawberry as shipped: no `allowed_origins`, so a WebSocket handshake is accepted without
    # an Origin or from the server's own origin, and refused (403) from any other. Subscriptions
    # over HTTP are strawberry's own too, switched on by naming their protocols: Apollo's
    # multipart protocol (`Accept: multipart/mixed;subscriptionSpec="1.0"`) and GraphQL over
    # Server-Sent Events, distinct connections mode (`Accept: text/event-stream`).
    view = InteropGraphQL(
        schema,
        graphql_ide=None,
        subscription_protocols=(
            GRAPHQL_TRANSPORT_WS_PROTOCOL,
            GRAPHQL_WS_PROTOCOL,
            MULTIPART_SUBSCRIPTION_PROTOCOL,
            GRAPHQL_SSE_PROTOCOL,
        ),
        multipart_uploads_enabled=True,
        keep_alive=keep_alive_interval > 0,  # legacy graphql-ws `ka` messages
        keep_alive_interval=keep_alive_interval,
    )
    return Starlette(
        routes=[
            Route("/graphql", view, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", view),
            Route("/", view, methods=["GET", "POST"]),
            WebSocketRoute("/", view),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument(
        "--apq-not-found-status",
        type=int,
        choices=(200, 404),
        default=200,
        help="HTTP status of PersistedQueryNotFound: 200 as Apollo Server, 404 as Apollo Router",
    )
    parser.add_argument(
        "--keep-alive-interval",
        type=float,
        default=1.0,
        help="seconds between graphql-ws `ka` messages (the first follows connection_ack); 0: none",
    )
    parser.add_argument(
        "--exit-with-stdin",
        action="store_true",
        help="exit when stdin reaches end of file (give it a pipe: the server then dies with the "
        "process that started it)",
    )
    parser.add_argument("--print-schema", action="store_true", help="print the SDL and exit")
    parser.add_argument("--verbose", action="store_true", help="log resolver errors to stderr")
    args = parser.parse_args()
    if not args.verbose:
        logging.getLogger("strawberry.execution").setLevel(logging.CRITICAL)
    if args.print_schema:
        print(schema.as_str())
        return
    PERSISTED_QUERIES.not_found_status = args.apq_not_found_status
    if args.exit_with_stdin:

        def exit_at_end_of_stdin() -> None:
            while sys.stdin.buffer.read(4096):
                pass
            os._exit(0)

        threading.Thread(target=exit_at_end_of_stdin, daemon=True).start()

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]

    config = uvicorn.Config(
        make_app(args.keep_alive_interval), log_level="warning", ws="websockets-sansio", lifespan="off", access_log=False
    )
    server = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                await task
                return
            await asyncio.sleep(0.01)
        print(f"LISTENING {port}", flush=True)
        await task

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
