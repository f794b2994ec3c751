"""``python -m bot.running.probe URL``: exit 0 when URL answers 200, 1 otherwise (compose's health
check; the image has no curl). Only the standard library: it starts in a fraction of a second."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

TIMEOUT = 4.0


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bot.running.probe http://127.0.0.1:9100/readyz", file=sys.stderr)
        return 2
    try:
        with urllib.request.urlopen(argv[0], timeout=TIMEOUT) as response:
            print(response.read(200).decode(errors="replace").strip())
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as exc:
        print(f"{exc.code}: {exc.read(200).decode(errors='replace').strip()}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"no answer: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
