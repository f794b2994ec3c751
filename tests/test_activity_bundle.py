"""The committed SDK bundle is the one activity-sdk/ pins (scripts/build_activity.sh rebuilds it)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "bot" / "activity" / "static" / "sdk.js"
SDK = "@discord/embedded-app-sdk"


def test_the_bundle_was_built_from_the_locked_sdk():
    lock = json.loads((ROOT / "activity-sdk" / "package-lock.json").read_text(encoding="utf-8"))
    package = json.loads((ROOT / "activity-sdk" / "package.json").read_text(encoding="utf-8"))
    locked = lock["packages"][f"node_modules/{SDK}"]["version"]
    assert package["dependencies"][SDK] == locked  # an exact pin: the bundle never drifts
    head = BUNDLE.read_text(encoding="utf-8").splitlines()[0]
    assert head.startswith(f"/* {SDK} {locked}, bundled by esbuild"), head
    assert lock["packages"][f"node_modules/{SDK}"]["integrity"].startswith("sha512-")


def test_the_bundle_gives_the_page_the_sdk_and_its_mock():
    text = BUNDLE.read_text(encoding="utf-8")
    assert "var BoulangerSDK=" in text
    assert "DiscordSDKMock" in text and "DiscordSDK" in text
