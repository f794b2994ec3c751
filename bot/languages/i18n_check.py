"""``python -m bot.languages.i18n_check``: what each translation lacks, compared with English.

Lists, per language, the keys missing from its catalogue, keys English no
longer has, placeholders English does not use, and plural entries with the
wrong number of forms. Exits 1 when anything is missing or wrong, so it can
guard a commit; the tests in ``tests/test_i18n.py`` check the same things.
"""

from __future__ import annotations

import string
import sys
from dataclasses import dataclass, field
from functools import cache

from babel.messages.catalog import Catalog

from bot.languages.i18n import DEFAULT_LOCALE, LOCALES_DIR, available_locales, read_catalogue


@dataclass
class Report:
    lang: str
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    bad_placeholders: dict[str, list[str]] = field(default_factory=dict)
    bad_plurals: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.bad_placeholders or self.bad_plurals)


@cache
def catalog(lang: str) -> Catalog:
    found = read_catalogue(lang, LOCALES_DIR)  # the games' own words too
    if found is None:
        raise FileNotFoundError(LOCALES_DIR / f"{lang}.po")
    return found


def messages(lang: str) -> dict[str, tuple[str, ...]]:
    """key → its translated text(s): one for a plain message, one per plural form otherwise."""
    out: dict[str, tuple[str, ...]] = {}
    for m in catalog(lang):
        if not m.id:
            continue
        key = m.id if isinstance(m.id, str) else m.id[0]
        texts = (m.string,) if isinstance(m.string, str) else tuple(m.string or ())
        if any(texts):
            out[key] = texts
    return out


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a ``str.format`` template."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def check(lang: str) -> Report:
    english = messages(DEFAULT_LOCALE)
    own = messages(lang)
    report = Report(lang)
    report.missing = sorted(k for k in english if k not in own or not all(own[k]))
    report.extra = sorted(k for k in own if k not in english)
    nplurals = catalog(lang).num_plurals
    for key, texts in own.items():
        if key not in english:
            continue
        allowed = set().union(*(placeholders(t) for t in english[key]))
        if len(english[key]) > 1:
            allowed.add("n")
            if len(texts) != nplurals:
                report.bad_plurals.append(key)
        unknown = sorted(set().union(*(placeholders(t) for t in texts)) - allowed)
        if unknown:
            report.bad_placeholders[key] = unknown
    return report


def main() -> int:
    langs = [lang for lang in available_locales() if lang != DEFAULT_LOCALE]
    failed = False
    for lang in langs:
        report = check(lang)
        failed |= not report.ok
        status = "ok" if report.ok else "NEEDS WORK"
        print(f"{lang}: {status} ({len(messages(lang))} messages)")
        for key in report.missing:
            print(f"  missing     {key}: {messages(DEFAULT_LOCALE)[key][0]!r}")
        for key, names in report.bad_placeholders.items():
            print(f"  placeholder {key}: {{{'}, {'.join(names)}}} not in English")
        for key in report.bad_plurals:
            print(f"  plural      {key}: needs {catalog(lang).num_plurals} forms")
        for key in report.extra:
            print(f"  unused      {key} (English no longer has it)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
