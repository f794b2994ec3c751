"""Checks each request against Discord's published OpenAPI description (`spec/openapi.json`).

The spec is loaded once per process; `$ref`s are rewritten to an absolute URI so each route's
request schema can be compiled on its own into a Draft 2020-12 validator, cached per route.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SWITCH = "x-switch"
ANNOTATIONS = {"const", "title", "description", "type", "format", "deprecated"}
SPEC_PATH = Path(__file__).with_name("spec") / "openapi.json"
_SPEC_URI = "urn:discord-openapi"


def _switch(
    validator: Any, spec: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """`x-switch`: validate against the one union branch whose discriminator value matches."""
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not of type 'object'")
        return
    key = spec["key"]
    if key not in instance:
        yield ValidationError(f"{key!r} is a required property")
        return
    branch = spec["cases"].get(json.dumps(instance[key]))
    if branch is None:
        allowed = sorted({json.loads(k) for k in spec["cases"]}, key=str)
        yield ValidationError(f"{instance[key]!r} is not one of {allowed}", path=[key])
        return
    yield from validator.descend(instance, branch)


_Validator = validators.extend(Draft202012Validator, {SWITCH: _switch})


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
        _discriminate(self.doc)
        _inline_refs(self.doc)
        resource = Resource.from_contents(self.doc, default_specification=DRAFT202012)
        self.registry: Registry = Registry().with_resource(_SPEC_URI, resource)
        self._routes: list[tuple[re.Pattern[str], str, int]] = []
        for template in self.doc["paths"]:
            pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            literal_segments = sum(1 for part in template.split("/") if part and "{" not in part)
            self._routes.append((re.compile(f"^{pattern}$"), template, literal_segments))
        # Literal segments beat parameters: `/messages/@original` before `/messages/{message_id}`.
        self._routes.sort(key=lambda r: -r[2])
        self._validators: dict[tuple[str, str], Any] = {}

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

    def validator(self, route: SpecRoute) -> Any:
        """The compiled validator for the route's JSON request body (None when it takes none)."""
        key = (route.template, route.method)
        if key not in self._validators:
            body = self.doc["paths"][route.template][route.method.lower()].get("requestBody")
            schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
            self._validators[key] = None if schema is None else _Validator(schema, registry=self.registry)
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


def _discriminate(doc: dict[str, Any]) -> None:
    """Rewrite unions told apart by a `type` (or `style`) field into `x-switch`, for speed and clear errors.

    `anyOf`/`oneOf` over component or callback schemas makes jsonschema validate the instance
    against every branch (a 16-button message took ~100 ms). When every branch pins the field to
    its own values, "the branch whose value matches must hold" says the same thing, and only that
    branch is evaluated. Unions with overlapping or missing discriminators are left alone.
    """
    schemas = doc["components"]["schemas"]
    prefix = f"{_SPEC_URI}#/components/schemas/"

    def resolve(node: Any) -> Any:
        while (
            isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith(prefix)
        ):
            node = schemas[node["$ref"][len(prefix) :]]
        return node

    def tags(branch: Any, key: str) -> list[Any] | None:
        resolved = resolve(branch)
        prop = (resolved.get("properties") or {}).get(key) if isinstance(resolved, dict) else None
        if not isinstance(prop, dict):
            return None
        if "const" in prop:
            return [prop["const"]]
        return list(prop["enum"]) if isinstance(prop.get("enum"), list) else None

    def discriminator(branches: list[Any]) -> tuple[str, list[list[Any]]] | None:
        for key in ("type", "style"):
            values = [tags(b, key) for b in branches]
            flat = [v for vs in values if vs is not None for v in vs]
            if all(v is not None for v in values) and len(flat) == len(set(flat)):
                return key, values  # type: ignore[return-value]
        return None

    def rewrite(node: dict[str, Any]) -> None:
        for union in ("oneOf", "anyOf"):
            branches = node.get(union)
            if not isinstance(branches, list) or len(branches) < 2:
                continue
            if all(isinstance(b, dict) and "const" in b and set(b) <= ANNOTATIONS for b in branches):
                # An enumeration written as a union of documented constants.
                consts = [b["const"] for b in branches]
                if len({json.dumps(c) for c in consts}) == len(consts):
                    del node[union]
                    node["enum"] = consts
                continue
            found = discriminator(branches)
            if found is None:
                continue
            key, values = found
            cases = {json.dumps(v): branch for vs, branch in zip(values, branches, strict=True) for v in vs}
            del node[union]
            node[SWITCH] = {"key": key, "cases": cases}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            rewrite(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)


def _inline_refs(doc: dict[str, Any]) -> None:
    """Replace each bare `{"$ref": ...components/schemas/X}` by the schema object itself.

    Resolving references through `referencing` costs more than the checks they lead to; sharing
    the target objects (cycles included, since validation follows the instance) avoids it.
    """
    schemas = doc["components"]["schemas"]
    prefix = f"{_SPEC_URI}#/components/schemas/"
    seen: set[int] = set()

    def target(node: Any) -> Any:
        while isinstance(node, dict) and len(node) == 1 and str(node.get("$ref", "")).startswith(prefix):
            node = schemas[node["$ref"][len(prefix) :]]
        return node

    def walk(node: Any) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, dict):
            for key, value in node.items():
                node[key] = target(value)
                walk(node[key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                node[i] = target(value)
                walk(node[i])

    walk(doc)


@cache
def load_spec() -> OpenAPISpec:
    """The spec, parsed once per process (it is a 1.2 MB file)."""
    return OpenAPISpec()
