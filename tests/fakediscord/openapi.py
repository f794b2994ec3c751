"""Checks each request against Discord's published OpenAPI description (`spec/openapi.json`).

The spec is loaded once per process; `$ref`s are rewritten to an absolute URI so each route's
request schema can be compiled on its own into a Draft 2020-12 validator, cached per route.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("spec") / "openapi.json"
_SPEC_URI = "urn:discord-openapi"


@dataclass(frozen=True)
class SpecRoute:
    """One documented route: its path template (`/channels/{channel_id}/messages`) and method."""

    template: str
    method: str
    params: dict[str, str]


class OpenAPISpec:
    """Route matching and request-body validation against Discord's OpenAPI spec."""

    def __init__(self, path: Path = SPEC_PATH) -> None:
        text = path.read_text(encoding="utf-8")
        # Make every local reference absolute so a route's schema can stand alone.
        text = text.replace('"$ref": "#/', f'"$ref": "{_SPEC_URI}#/')
        self.doc: dict[str, Any] = json.loads(text)
        _loosen(self.doc)
        resource = Resource.from_contents(self.doc, default_specification=DRAFT202012)
        self.registry: Registry = Registry().with_resource(_SPEC_URI, resource)
        self._routes: list[tuple[re.Pattern[str], str, int]] = []
        for template in self.doc["paths"]:
            pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            literal_segments = sum(1 for part in template.split("/") if part and "{" not in part)
            self._routes.append((re.compile(f"^{pattern}$"), template, literal_segments))
        # Literal segments beat parameters: `/messages/@original` before `/messages/{message_id}`.
        self._routes.sort(key=lambda r: -r[2])
        self._validators: dict[tuple[str, str], Draft202012Validator | None] = {}

    def match(self, method: str, path: str) -> SpecRoute | None:
        """The documented route for `method path` (path relative to /api/v10), or None."""
        method = method.lower()
        for pattern, template, _ in self._routes:
            m = pattern.match(path)
            if m and method in self.doc["paths"][template]:
                return SpecRoute(template, method.upper(), m.groupdict())
        return None

    def path_known(self, path: str) -> bool:
        """Whether some method is documented for this path."""
        return any(pattern.match(path) for pattern, _, _ in self._routes)

    def body_required(self, route: SpecRoute) -> bool:
        body = self.doc["paths"][route.template][route.method.lower()].get("requestBody")
        return bool(body and body.get("required"))

    def validator(self, route: SpecRoute) -> Draft202012Validator | None:
        """The compiled validator for the route's JSON request body (None when it takes none)."""
        key = (route.template, route.method)
        if key not in self._validators:
            body = self.doc["paths"][route.template][route.method.lower()].get("requestBody")
            schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
            self._validators[key] = (
                None if schema is None else Draft202012Validator(schema, registry=self.registry)
            )
        return self._validators[key]

    def validate(self, route: SpecRoute, body: Any) -> list[str]:
        """Readable schema errors for `body` on `route` (empty when it conforms)."""
        validator = self.validator(route)
        if validator is None:
            return []
        errors = []
        for error in validator.iter_errors(body):
            errors.append(_deepest(error))
        return errors


def _deepest(error: Any) -> str:
    """The specific failure inside anyOf/oneOf unions, following the branch whose `type` matches."""
    best = error
    while best.context:
        branches: dict[Any, list[Any]] = {}
        for sub in best.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        matching = [errs for errs in branches.values() if not any(_ruled_out(e) for e in errs)]
        if not matching:
            break
        best = min(matching, key=len)[0]
    where = "/".join(str(p) for p in best.absolute_path) or "(body)"
    if best.validator in ("maxLength", "minLength", "maxItems", "minItems", "maximum", "minimum", "pattern"):
        return f"{where}: {best.validator} {best.validator_value}"
    return f"{where}: {best.message[:160]}"


def _ruled_out(error: Any) -> bool:
    """A union branch that does not apply: its `type` discriminator or its JSON type differs."""
    path = list(error.relative_path)
    return (error.validator in ("enum", "const") and path == ["type"]) or (
        error.validator == "type" and not path
    )


def _loosen(doc: dict[str, Any]) -> None:
    """Accept what the live API accepts (and discord.py 2.7.1 sends) where the file is stricter.

    - Snowflakes as JSON integers (discord.py sends attachment ids as the integer index).
    - `default_member_permissions` as a digit string (Discord documents it as a string; the file
      types it as an integer).
    """
    schemas = doc["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict) and isinstance(props.get("default_member_permissions"), dict):
                original = props["default_member_permissions"]
                props["default_member_permissions"] = {
                    "anyOf": [original, {"type": "string", "pattern": "^[0-9]{1,20}$"}]
                }
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)


@cache
def load_spec() -> OpenAPISpec:
    """The spec, parsed once per process (it is a 1.2 MB file)."""
    return OpenAPISpec()
