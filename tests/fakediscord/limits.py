"""Discord's documented limits that the OpenAPI schema does not carry (or carries loosely).

Each check returns a list of `Problem`s (path into the body + Discord's error code and message);
the server turns them into an HTTP 400 `{"code": 50035, "message": "Invalid Form Body", ...}`
and records them as violations.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from .models import EPHEMERAL, IS_COMPONENTS_V2

#: Locale keys Discord accepts in name/description localizations.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_CHOICES = 25
MAX_OPTIONS = 25
MAX_FILES = 10
MAX_GLOBAL_CHAT_COMMANDS = 100
MAX_COMMAND_TOTAL_CHARS = 4000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MESSAGE_FLAGS_ALLOWED = (1 << 2) | EPHEMERAL | (1 << 12) | IS_COMPONENTS_V2


@dataclass(frozen=True)
class Problem:
    """One refused part of a request body."""

    path: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        return f"{'.'.join(map(str, self.path)) or '(body)'}: {self.message} [{self.code}]"


def _too_long(path: tuple, limit: int) -> Problem:
    return Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _strlen(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


# -- messages ---------------------------------------------------------------------------------


def check_message(body: dict[str, Any], *, files: int = 0, v2: bool = False) -> list[Problem]:
    """Content, embed, component, flag and attachment-count limits of a create/edit message body.

    A Components V2 message's tree (`v2=True`) is checked by `components_v2` instead of here.
    """
    problems: list[Problem] = []
    content = body.get("content")
    if _strlen(content) > MAX_CONTENT:
        problems.append(_too_long(("content",), MAX_CONTENT))
    problems += check_embeds(body.get("embeds") or [])
    flags = body.get("flags") or 0
    if isinstance(flags, int) and flags & ~MESSAGE_FLAGS_ALLOWED:
        problems.append(Problem(("flags",), "MESSAGE_FLAGS_INVALID", f"Invalid message flags {flags}."))
    if not v2:
        problems += check_action_rows(body.get("components") or [])
    if files > MAX_FILES or len(body.get("attachments") or []) > MAX_FILES:
        problems.append(Problem(("attachments",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    return problems


def check_embeds(embeds: list[Any]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(Problem(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        path = ("embeds", i)
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            total += _strlen(embed.get(key))
            if _strlen(embed.get(key)) > limit:
                problems.append(_too_long((*path, key), limit))
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            value = (embed.get(key) or {}).get(sub)
            total += _strlen(value)
            if _strlen(value) > limit:
                problems.append(_too_long((*path, key, sub), limit))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(
                Problem((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        for j, fld in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                value = fld.get(key)
                total += _strlen(value)
                if _strlen(value) > limit:
                    problems.append(_too_long((*path, "fields", j, key), limit))
                if key in ("name", "value") and not (isinstance(value, str) and value.strip()):
                    problems.append(
                        Problem((*path, "fields", j, key), "BASE_TYPE_REQUIRED", "This field is required")
                    )
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return problems


def check_action_rows(components: list[Any], *, limit_rows: bool = True) -> list[Problem]:
    """Classic message components: rows of buttons or one select each (at most 5 rows unless
    `limit_rows` is False: a Components V2 message's rows, counted in its 40 components)."""
    problems: list[Problem] = []
    if limit_rows and len(components) > MAX_ACTION_ROWS:
        problems.append(Problem(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    seen: set[str] = set()
    for i, row in enumerate(components):
        path: tuple = ("components", i)
        if not isinstance(row, dict) or row.get("type") != 1:
            problems.append(Problem(path, "UNION_TYPE_CHOICES", "Top-level components must be action rows."))
            continue
        items = row.get("components") or []
        if not items:
            problems.append(
                Problem((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            )
        kinds = {c.get("type") for c in items if isinstance(c, dict)}
        if 2 in kinds and len(kinds) > 1:
            problems.append(
                Problem(
                    (*path, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "Buttons and a select menu share a row.",
                )
            )
        if kinds == {2} and len(items) > MAX_ROW_BUTTONS:
            problems.append(
                Problem((*path, "components"), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            )
        if kinds - {2} and len(items) > 1:
            problems.append(
                Problem(
                    (*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select menu fills its row."
                )
            )
        for j, item in enumerate(items):
            problems += _check_component(item, (*path, "components", j), seen)
    return problems


def _check_component(item: dict[str, Any], path: tuple, seen: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    kind = item.get("type")
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if not isinstance(custom_id, str) or not custom_id:
            problems.append(Problem((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
        elif len(custom_id) > MAX_CUSTOM_ID:
            problems.append(_too_long((*path, "custom_id"), MAX_CUSTOM_ID))
        elif custom_id in seen:
            problems.append(
                Problem(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        else:
            seen.add(custom_id)
    if kind == 2:
        style = item.get("style")
        if style == 5:
            if not item.get("url") or custom_id is not None:
                problems.append(
                    Problem((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A link button needs a url.")
                )
        elif style != 6 and custom_id is None:
            problems.append(
                Problem(
                    (*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required"
                )
            )
        if _strlen(item.get("label")) > MAX_BUTTON_LABEL:
            problems.append(_too_long((*path, "label"), MAX_BUTTON_LABEL))
        if not item.get("label") and not item.get("emoji"):
            problems.append(
                Problem(
                    (*path, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "Label or emoji required"
                )
            )
    elif kind in (3, 5, 6, 7, 8):
        options = item.get("options") or []
        if kind == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            problems.append(
                Problem(
                    (*path, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            )
        values: set[str] = set()
        for k, option in enumerate(options):
            for key in ("label", "value", "description"):
                if _strlen(option.get(key)) > 100:
                    problems.append(_too_long((*path, "options", k, key), 100))
            if option.get("value") in values:
                problems.append(
                    Problem(
                        (*path, "options", k, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Duplicate value",
                    )
                )
            values.add(option.get("value"))
        if _strlen(item.get("placeholder")) > 150:
            problems.append(_too_long((*path, "placeholder"), 150))
        low, high = item.get("min_values", 1), item.get("max_values", 1)
        if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high) or (
            kind == 3 and high > max(len(options), 1)
        ):
            problems.append(Problem((*path, "max_values"), "BASE_TYPE_BAD_INT", "Invalid min/max values."))
    return problems


# -- interaction callbacks --------------------------------------------------------------------


def check_choices(choices: Any, option_type: int | None = None) -> list[Problem]:
    """Autocomplete result choices: at most 25, name 1-100 chars, string value at most 100.

    With the focused option's type known, each value must have that type (3 string, 4 integer,
    10 number).
    """
    problems: list[Problem] = []
    if not isinstance(choices, list):
        return [Problem(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")]
    if len(choices) > MAX_CHOICES:
        problems.append(
            Problem(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        )
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(
                Problem(
                    ("data", "choices", i, "name"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            )
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(_too_long(("data", "choices", i, "value"), 100))
        if option_type is not None and not _value_fits(value, option_type):
            problems.append(
                Problem(
                    ("data", "choices", i, "value"),
                    "APPLICATION_COMMAND_OPTION_CHOICE_TYPE_INVALID",
                    f"Choice value {value!r} does not fit an option of type {option_type}",
                )
            )
        problems += _check_localizations(
            choice.get("name_localizations"), ("data", "choices", i), "name", 100
        )
    return problems


def _value_fits(value: Any, option_type: int) -> bool:
    if option_type == 3:
        return isinstance(value, str)
    if option_type == 4:
        return isinstance(value, int) and not isinstance(value, bool)
    if option_type == 10:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return True


# -- application commands ---------------------------------------------------------------------


def valid_command_name(name: str) -> bool:
    """Discord's `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lowercase where a lowercase exists."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    for ch in name:
        if ch in "-_" or 0x0900 <= ord(ch) <= 0x097F or 0x0E00 <= ord(ch) <= 0x0E7F:
            continue
        if unicodedata.category(ch)[0] not in "LN":
            return False
        if ch.lower() != ch:
            return False
    return True


def _check_name(value: Any, path: tuple, chat_input: bool) -> list[Problem]:
    if chat_input:
        if not valid_command_name(value):
            return [
                Problem(
                    path,
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Command name is invalid: {value!r} (1-32 lowercase letters, digits, - or _)",
                )
            ]
    elif not isinstance(value, str) or not 1 <= len(value) <= 32:
        return [Problem(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")]
    return []


def _check_description(value: Any, path: tuple) -> list[Problem]:
    if not isinstance(value, str) or not 1 <= len(value) <= 100:
        return [Problem(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")]
    return []


def _check_localizations(
    value: Any, path: tuple, key: str, limit: int, *, names: bool = False
) -> list[Problem]:
    problems: list[Problem] = []
    for locale, text in (value or {}).items():
        where = (*path, f"{key}_localizations", locale)
        if locale not in LOCALES:
            problems.append(Problem(where, "LOCALE_INVALID", f"Invalid locale {locale!r}"))
        elif names and not valid_command_name(text):
            problems.append(
                Problem(where, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {text!r}")
            )
        elif not isinstance(text, str) or not 1 <= len(text) <= limit:
            problems.append(
                Problem(where, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {limit} in length.")
            )
    return problems


def check_commands(commands: Any) -> list[Problem]:
    """A bulk-overwrite body: names, descriptions, options, choices, localizations, duplicates."""
    if not isinstance(commands, list):
        return [Problem((), "BASE_TYPE_ARRAY", "Must be an array.")]
    problems: list[Problem] = []
    seen: set[tuple[int, str]] = set()
    chat_count = 0
    for i, command in enumerate(commands):
        kind = command.get("type") or 1
        chat = kind == 1
        chat_count += chat
        if kind == 4:  # PRIMARY_ENTRY_POINT: an Activity's launch command, named like a slash command
            problems += _check_name(command.get("name"), (i, "name"), True)
            problems += _check_description(command.get("description"), (i, "description"))
            if command.get("handler") not in (1, 2):
                problems.append(Problem((i, "handler"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2)."))
            key = (kind, command.get("name"))
            if key in seen or any(k[0] == 4 for k in seen):
                problems.append(
                    Problem((i,), "APPLICATION_COMMANDS_DUPLICATE_NAME", "One entry point at most")
                )
            seen.add(key)
            continue
        problems += _check_name(command.get("name"), (i, "name"), chat)
        problems += _check_localizations(command.get("name_localizations"), (i,), "name", 32, names=chat)
        if chat:
            problems += _check_description(command.get("description"), (i, "description"))
            problems += _check_localizations(
                command.get("description_localizations"), (i,), "description", 100
            )
            problems += _check_options(command.get("options") or [], (i, "options"), depth=0)
            if _command_chars(command) > MAX_COMMAND_TOTAL_CHARS:
                problems.append(
                    Problem((i,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)")
                )
        elif command.get("description"):
            problems.append(
                Problem((i, "description"), "BASE_TYPE_MAX_LENGTH", "Context menu commands take none.")
            )
        key = (kind, command.get("name"))
        if key in seen:
            problems.append(
                Problem(
                    (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command name {key[1]!r}"
                )
            )
        seen.add(key)
    if chat_count > MAX_GLOBAL_CHAT_COMMANDS:
        problems.append(Problem((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer chat input commands."))
    return problems


def _check_options(options: list[Any], path: tuple, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > MAX_OPTIONS:
        problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    names: set[str] = set()
    seen_optional = False
    for i, option in enumerate(options):
        where = (*path, i)
        kind = option.get("type")
        problems += _check_name(option.get("name"), (*where, "name"), True)
        problems += _check_description(option.get("description"), (*where, "description"))
        problems += _check_localizations(option.get("name_localizations"), where, "name", 32, names=True)
        problems += _check_localizations(option.get("description_localizations"), where, "description", 100)
        if option.get("name") in names:
            problems.append(
                Problem((*where, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Duplicate")
            )
        names.add(option.get("name"))
        if kind in (1, 2):
            allowed = 1 if kind == 2 else 2
            if depth >= allowed or (kind == 2 and depth > 0):
                problems.append(
                    Problem((*where, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Bad nesting.")
                )
            inner = option.get("options") or []
            if kind == 2 and any(o.get("type") != 1 for o in inner):
                problems.append(
                    Problem(
                        (*where, "options"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "Groups hold subcommands.",
                    )
                )
            problems += _check_options(inner, (*where, "options"), depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(
                    Problem(
                        (*where, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if choices and option.get("autocomplete"):
            problems.append(
                Problem((*where, "autocomplete"), "AUTOCOMPLETE_CHOICES", "Choices with autocomplete.")
            )
        if len(choices) > MAX_CHOICES:
            problems.append(
                Problem((*where, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        for k, choice in enumerate(choices):
            if not isinstance(choice.get("name"), str) or not 1 <= len(choice["name"]) <= 100:
                problems.append(
                    Problem((*where, "choices", k, "name"), "BASE_TYPE_BAD_LENGTH", "1-100 chars.")
                )
            if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                problems.append(_too_long((*where, "choices", k, "value"), 100))
    return problems


def _command_chars(command: dict[str, Any]) -> int:
    """Characters Discord counts toward the 4000 limit (names, descriptions, choices, longest localizations)."""

    def size(item: dict[str, Any]) -> int:
        total = _strlen(item.get("name")) + _strlen(item.get("description"))
        total += max((len(v) for v in (item.get("name_localizations") or {}).values()), default=0)
        total += max((len(v) for v in (item.get("description_localizations") or {}).values()), default=0)
        for choice in item.get("choices") or []:
            total += _strlen(choice.get("name")) + len(str(choice.get("value", "")))
        return total + sum(size(o) for o in item.get("options") or [])

    return size(command)
