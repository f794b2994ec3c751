"""The HTTP side of the fake: routing, body parsing, OpenAPI checks, rate-limit headers.

`HttpApi` is mixed into `FakeDiscord`; route handlers themselves live in `rest.py`.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import rest
from .gateway import handle_gateway
from .openapi import SpecRoute

log = logging.getLogger(__name__)


@dataclass
class Violation:
    """A request the real Discord would refuse (or a rule the bot broke, like the 3 s deadline)."""

    method: str
    path: str
    reason: str
    status: int = 400
    body: Any = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}: {self.reason}"


@dataclass
class RequestRecord:
    """One REST request the bot made, with the documented route it matched and the answer."""

    method: str
    path: str
    route: str | None
    body: Any
    status: int = 0
    files: int = 0
    at: float = field(default_factory=time.monotonic)


class HttpApi:
    """Request plumbing shared by every REST route (mixed into FakeDiscord)."""

    bearer_checks: int

    def _headers(self, route: SpecRoute | None, path: str) -> dict[str, str]:
        bucket = f"{route.template if route else path}".encode().hex()[:32]
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "user",
        }

    def _json(self, data: Any, status: int, headers: dict[str, str]) -> web.Response:
        if data is None and status < 300:
            return web.Response(status=204, headers=headers)
        return web.Response(
            status=status,
            body=json.dumps(data).encode(),
            headers={**headers, "Content-Type": "application/json"},
        )

    async def _handle_api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        route = self.spec.match(method, path)
        record = RequestRecord(method, path, route.template if route else None, None)
        self.requests.append(record)
        headers = self._headers(route, path)
        forced = self._forced(method, path)
        if forced is not None and forced.get("status"):
            record.status = forced["status"]
            return self._json({"message": "500: Internal Server Error", "code": 0}, forced["status"], headers)
        if forced is not None:
            record.status = 429
            retry = forced["retry"]
            headers.update(
                {
                    "Via": "1.1 google",
                    "Retry-After": f"{retry}",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{retry}",
                }
            )
            return self._json(
                {"message": "You are being rate limited.", "retry_after": retry, "global": False},
                429,
                headers,
            )
        refusal = self._refusal(method, path)
        if refusal is not None:
            record.status = refusal["status"]
            body = {"message": refusal["message"], "code": refusal["code"]}
            return self._json(body, refusal["status"], headers)
        if route is None:
            status = 405 if self.spec.path_known(path) else 404
            self.violation(method, path, "no such route in Discord's API (OpenAPI spec)", status)
            record.status = status
            return self._json({"message": f"{status}: Not Found", "code": 0}, status, headers)
        try:
            body, files = await self._read_body(request)
        except ValueError as exc:
            self.violation(method, path, f"unreadable body: {exc}")
            record.status = 400
            return self._json(
                {"message": "The request body contains invalid JSON.", "code": 50109}, 400, headers
            )
        record.body, record.files = body, len(files)
        status, data = await self._dispatch(request, route, body, files)
        failed = self._failing_after(method, path) if status < 300 else None
        if failed is not None:  # applied, but the answer is an error
            status, data = failed, {"message": f"{failed}: Internal Server Error (after applying)", "code": 0}
        record.status = 204 if data is None and status < 300 else status  # what was sent
        return self._json(data, status, headers)

    async def _dispatch(
        self, request: web.Request, route: SpecRoute, body: Any, files: list
    ) -> tuple[int, Any]:
        method, path = request.method, request.path
        token_route = route.template.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer ") and route.template == "/users/@me" and method == "GET":
            self.bearer_checks += 1  # an Activity asking whose access token it has (oauth.py)
            user = self.bearer_user(authorization)
            if user is None:
                return 401, {"message": "401: Unauthorized", "code": 0}
            return 200, {**user.payload(), "locale": user.locale}
        if not token_route and request.headers.get("Authorization") != f"Bot {self.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}
        if body is None and self.spec.body_required(route):
            self.violation(method, path, "a request body is required")
            return 400, {
                "message": "Invalid Form Body",
                "code": 50035,
                "errors": {"_errors": [{"code": "BASE_TYPE_REQUIRED"}]},
            }
        if body is not None:
            problems = self.spec.validate(route, body)
            if problems:
                self.violation(method, path, "OpenAPI schema: " + "; ".join(problems[:5]), 400, body)
                errors = {"_errors": [{"code": "OPENAPI_SCHEMA", "message": p} for p in problems[:10]]}
                return 400, {"message": "Invalid Form Body", "code": 50035, "errors": errors}
        handler = rest.HANDLERS.get((route.method, route.template))
        if handler is None:
            self.violation(
                method,
                path,
                f"route {route.method} {route.template} exists but the fake does not emulate it",
                501,
            )
            return 404, {"message": "404: Not Found (not emulated by the fake)", "code": 0}
        try:
            return 200, await handler(self, request, route.params, body if body is not None else {}, files)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            # A body the schema let through but the fake cannot use: say so instead of a bare 500.
            log.exception("fake Discord could not handle %s %s", method, path)
            self.violation(method, path, f"the fake could not handle this request: {exc!r}", 500, body)
            return 500, {"message": "500: Internal Server Error (fake)", "code": 0}
        except rest.DiscordError as error:
            if error.record:
                detail = getattr(error, "details", "")
                self.violation(
                    method,
                    path,
                    f"{error.code} {error.message}" + (f": {detail}" if detail else ""),
                    error.status,
                    body,
                )
            return error.status, error.body()

    async def _read_body(self, request: web.Request) -> tuple[Any, list[rest.Upload]]:
        if not request.can_read_body:
            return None, []
        ctype = request.content_type
        if ctype == "multipart/form-data":
            return _parse_multipart(await request.read(), request.headers.get("Content-Type", ""))
        raw = await request.read()
        if not raw:
            return None, []
        if ctype != "application/json":
            raise ValueError(f"Content-Type {ctype!r}")
        return json.loads(raw), []

    def _forced(self, method: str, path: str) -> dict[str, Any] | None:
        for rule in self._forced_429:
            if rule["left"] > 0 and rule["re"].search(path) and rule["method"] in (None, method):
                rule["left"] -= 1
                return rule
        return None

    def _refusal(self, method: str, path: str) -> dict[str, Any] | None:
        for rule in self._refusals:
            left = rule["left"]
            if (left is None or left > 0) and rule["re"].search(path) and rule["method"] in (None, method):
                if left is not None:
                    rule["left"] = left - 1
                return rule
        return None

    async def _handle_gateway(self, request: web.Request) -> web.WebSocketResponse:
        return await handle_gateway(self, request)

    async def _handle_attachment(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )


_DISPOSITION = re.compile(r'\bname="([^"]*)"(?:; filename="([^"]*)")?')


def _parse_multipart(raw: bytes, content_type: str) -> tuple[Any, list[rest.Upload]]:
    """`payload_json` and `files[n]` parts of a multipart body (aiohttp's reader is slow here)."""
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if match is None:
        raise ValueError("multipart body without a boundary")
    delimiter = b"--" + match.group(1).encode()
    body: Any = None
    files: list[rest.Upload] = []
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            raise ValueError("malformed multipart part")
        data = data.removesuffix(b"\r\n")
        disposition = next(
            (
                line
                for line in head.decode("utf-8", "replace").split("\r\n")
                if line.lower().startswith("content-disposition")
            ),
            "",
        )
        found = _DISPOSITION.search(disposition)
        name = found.group(1) if found else ""
        if name == "payload_json":
            body = json.loads(data)
        elif index := re.fullmatch(r"files\[(\d+)\]", name):
            files.append(
                rest.Upload(int(index.group(1)), (found.group(2) if found else None) or "file", data)
            )
        else:
            raise ValueError(f"unexpected multipart field {name!r}")
    return body, files
