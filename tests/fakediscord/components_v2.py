"""Components V2 messages (flag `IS_COMPONENTS_V2`, 1 << 15) checked as Discord checks them.

The OpenAPI schema describes each component's shape; what it does not say, and Discord refuses
with HTTP 400 / 50035 "Invalid Form Body", is checked here:

- with the flag, no `content`, `embeds`, `sticker_ids` or `poll` (MESSAGE_CANNOT_USE_LEGACY_FIELDS_-
  WITH_COMPONENTS_V2); an old message upgraded by an edit must clear its content and embeds;
- the flag is never removed: an edit of a v2 message whose `flags` lack it, or that brings back
  content or embeds (which only a message without the flag can hold), is refused
  (MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG);
- at most 40 components in all, nested ones and accessories counted
  (COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED), at most 4000 characters of text in all;
- which type may stand where (top level; in a container; a section's texts and its accessory);
- a text display 1-4000 characters, a container's accent colour 0-0xFFFFFF, a media gallery
  1-10 items, a section 1-3 texts, a separator's spacing 1 or 2, descriptions at most 1024;
- media (gallery items, thumbnails) point at `attachment://<name>` of a file the message carries
  after the request, or at an https URL; a file component only at an attachment;
- component ids unique within the message.

The buttons and select menus inside are checked by `limits` as in a classic message.
"""

from __future__ import annotations

from typing import Any

from .limits import Problem, check_action_rows
from .models import IS_COMPONENTS_V2, Message

ACTION_ROW, BUTTON = 1, 2
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
#: What may stand at the top level of a v2 message, and inside a container.
TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
MAX_TOTAL_COMPONENTS = 40
MAX_TEXT = 4000
MAX_ACCENT = 0xFFFFFF
MAX_GALLERY_ITEMS = 10
MAX_SECTION_TEXTS = 3
MAX_DESCRIPTION = 1024
ATTACHMENT_SCHEME = "attachment://"
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")


def is_v2(body: dict[str, Any], message: Message | None) -> bool:
    """Whether the message is a v2 one after this request: the body's flags, else the message's."""
    flags = body.get("flags")
    if isinstance(flags, int):
        return bool(flags & IS_COMPONENTS_V2) or bool(message and message.flags & IS_COMPONENTS_V2)
    return bool(message and message.flags & IS_COMPONENTS_V2)


def check_flag(body: dict[str, Any], message: Message | None) -> list[Problem]:
    """Refusals about the flag itself: removed by an edit, or legacy fields beside it."""
    was_v2 = bool(message and message.flags & IS_COMPONENTS_V2)
    flags = body.get("flags")
    legacy = [key for key in LEGACY_FIELDS if body.get(key)]
    dropped = isinstance(flags, int) and not flags & IS_COMPONENTS_V2
    if was_v2 and (dropped or (legacy and flags is None)):
        return [
            Problem(
                ("flags",),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed once set.",
            )
        ]
    if not is_v2(body, message):
        return []
    if message is not None and not was_v2:  # an old message upgraded: its text must go
        legacy += [
            key
            for key, kept in (("content", message.content), ("embeds", message.embeds))
            if key not in body and kept
        ]
    return [
        Problem(
            (key,),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
        for key in dict.fromkeys(legacy)
    ]


class _Walk:
    """One pass over a v2 component tree, gathering problems, the count, text and ids."""

    def __init__(self, attachments: set[str]) -> None:
        self.attachments = attachments
        self.problems: list[Problem] = []
        self.count = 0
        self.text = 0
        self.ids: set[int] = set()

    def refuse(self, path: tuple, code: str, message: str) -> None:
        self.problems.append(Problem(path, code, message))

    def items(self, items: Any, path: tuple, allowed: frozenset[int], where: str) -> None:
        if not isinstance(items, list):
            return
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind not in allowed:
                self.refuse(
                    (*path, i, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {kind} cannot be used {where}.",
                )
                continue
            self.component(item, (*path, i))

    def component(self, item: dict[str, Any], path: tuple) -> None:
        self.count += 1
        self.unique_id(item, path)
        kind = item.get("type")
        if kind == CONTAINER:
            self.container(item, path)
        elif kind == SECTION:
            self.section(item, path)
        elif kind == TEXT_DISPLAY:
            self.text_display(item, path)
        elif kind == MEDIA_GALLERY:
            self.gallery(item, path)
        elif kind in (THUMBNAIL, FILE):
            self.media_item(item, path, "file" if kind == FILE else "media", files_only=kind == FILE)
        elif kind == SEPARATOR:
            if item.get("spacing") not in (None, 1, 2):
                self.refuse((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        elif kind == ACTION_ROW:
            self.action_row(item, path)
        elif kind == BUTTON:
            self.text += len(item.get("label") or "")

    def unique_id(self, item: dict[str, Any], path: tuple) -> None:
        number = item.get("id")
        if number is None:
            return
        if number in self.ids:
            self.refuse((*path, "id"), "COMPONENT_ID_DUPLICATED", "Component ids must be unique.")
        self.ids.add(number)

    def container(self, item: dict[str, Any], path: tuple) -> None:
        accent = item.get("accent_color")
        if accent is not None and not (isinstance(accent, int) and 0 <= accent <= MAX_ACCENT):
            self.refuse((*path, "accent_color"), "NUMBER_TYPE_MAX", f"int value should be <= {MAX_ACCENT}.")
        inner = item.get("components") or []
        if not inner:
            self.refuse((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        self.items(inner, (*path, "components"), IN_CONTAINER, "in a container")

    def section(self, item: dict[str, Any], path: tuple) -> None:
        texts = item.get("components") or []
        if not 1 <= len(texts) <= MAX_SECTION_TEXTS:
            self.refuse(
                (*path, "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SECTION_TEXTS} in length.",
            )
        self.items(texts, (*path, "components"), frozenset({TEXT_DISPLAY}), "in a section")
        accessory = item.get("accessory")
        if not isinstance(accessory, dict):
            self.refuse((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            return
        self.items([accessory], path, frozenset({BUTTON, THUMBNAIL}), "as a section's accessory")

    def text_display(self, item: dict[str, Any], path: tuple) -> None:
        content = item.get("content")
        length = len(content) if isinstance(content, str) else 0
        self.text += length
        if not 1 <= length <= MAX_TEXT:
            self.refuse(
                (*path, "content"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_TEXT} in length."
            )

    def gallery(self, item: dict[str, Any], path: tuple) -> None:
        entries = item.get("items") or []
        if not 1 <= len(entries) <= MAX_GALLERY_ITEMS:
            self.refuse(
                (*path, "items"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_GALLERY_ITEMS} in length.",
            )
        for i, entry in enumerate(entries):
            if isinstance(entry, dict):
                self.media_item(entry, (*path, "items", i), "media", files_only=False)

    def media_item(self, item: dict[str, Any], path: tuple, key: str, *, files_only: bool) -> None:
        description = item.get("description")
        if isinstance(description, str) and not 1 <= len(description) <= MAX_DESCRIPTION:
            self.refuse(
                (*path, "description"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_DESCRIPTION} in length.",
            )
        url = (item.get(key) or {}).get("url") if isinstance(item.get(key), dict) else None
        where = (*path, key, "url")
        if not isinstance(url, str) or not url:
            self.refuse(where, "BASE_TYPE_REQUIRED", "This field is required")
        elif url.startswith(ATTACHMENT_SCHEME):
            if url.removeprefix(ATTACHMENT_SCHEME) not in self.attachments:
                self.refuse(
                    where,
                    "UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND",
                    f"The referenced attachment ({url}) was not found",
                )
        elif files_only:
            self.refuse(
                where, "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED", "File components only support attachment://"
            )
        elif not url.startswith("https://"):
            self.refuse(where, "URL_TYPE_INVALID_URL", "Not a well formed URL.")

    def action_row(self, item: dict[str, Any], path: tuple) -> None:
        for i, inner in enumerate(item.get("components") or []):
            if isinstance(inner, dict):
                self.count += 1
                self.unique_id(inner, (*path, "components", i))
                self.text += len(inner.get("label") or "")


def check_components(components: Any, attachments: set[str]) -> list[Problem]:
    """The v2 tree: placement, limits, media references, total count and text."""
    walk = _Walk(attachments)
    walk.items(components, ("components",), TOP_LEVEL, "at the top level")
    problems = walk.problems
    if walk.count > MAX_TOTAL_COMPONENTS:
        problems.append(
            Problem(
                ("components",),
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"Total number of components cannot exceed {MAX_TOTAL_COMPONENTS}",
            )
        )
    if walk.text > MAX_TEXT:
        problems.append(
            Problem(
                ("components",),
                "MESSAGE_COMPONENTS_V2_TEXT_TOO_LONG",
                f"The total text of a message's components cannot exceed {MAX_TEXT} characters",
            )
        )
    problems += check_action_rows(list(_action_rows(components)), limit_rows=False)
    return problems


def _action_rows(items: Any) -> Any:
    """Every action row of the tree (top level or in a container), for the classic row checks."""
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("type") == ACTION_ROW:
            yield item
        elif isinstance(item, dict) and item.get("type") == CONTAINER:
            yield from _action_rows(item.get("components"))
