#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read a latency-compare --format=html page as a browser's parser would.

html-check.py check PAGE     the page parses without error (html5lib,
                             strict), each inline SVG parses as XML, nothing
                             refers outside the page, and the policy's script
                             hash is the hash of the page's one script; says
                             what is wrong and exits 1 otherwise
html-check.py rows PAGE ID   the id and class of each body row of table ID
html-check.py text PAGE ID   the text of the element ID (whitespace joined;
                             of a row, its cells joined by " | ")
html-check.py verdicts PAGE  the text of each verdict, without its notes
html-check.py tags PAGE      each element name of the page once, sorted
"""
import base64
import hashlib
import re
import sys
import xml.etree.ElementTree as ET

import html5lib

# Attributes that make a browser fetch or navigate.
REF_ATTRS = {"src", "href", "xlink:href", "action", "formaction", "data",
             "poster", "background", "srcset", "ping", "manifest"}
# Elements that load or embed something whatever their attributes.
LOADERS = {"iframe", "object", "embed", "link", "base", "frame", "img",
           "video", "audio", "source", "portal", "applet", "form"}


def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def attr_name(name):
    if name.startswith("{http://www.w3.org/1999/xlink}"):
        return "xlink:" + local(name)
    return local(name)


def parse(path):
    with open(path, "rb") as f:
        raw = f.read()
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    try:
        doc = parser.parse(raw)
    except html5lib.html5parser.ParseError as e:
        sys.exit("%s: does not parse: %s" % (path, e))
    return raw.decode("utf-8"), doc


def inside_refs(text):
    """url( in style text pointing anywhere but a fragment or data:."""
    bad = []
    for m in re.finditer(r"url\(\s*['\"]?([^'\")]*)", text, re.I):
        if not m.group(1).startswith(("#", "data:")):
            bad.append(m.group(0))
    if re.search(r"@import", text, re.I):
        bad.append("@import")
    return bad


def check(path):
    text, doc = parse(path)
    errors = []
    scripts = []
    for el in doc.iter():
        tag = local(el.tag)
        if tag in LOADERS:
            errors.append("a <%s> element" % tag)
        if tag == "script":
            if el.get("src") is not None:
                errors.append("a script with src")
            scripts.append(el.text or "")
        if tag == "style":
            errors += inside_refs(el.text or "")
        if tag == "meta" and (el.get("http-equiv") or "").lower() == "refresh":
            errors.append("a meta refresh")
        for name, value in el.attrib.items():
            name = attr_name(name)
            if name in REF_ATTRS and not value.startswith(("#", "data:")):
                errors.append("%s=%r on <%s>" % (name, value, tag))
            if name.lower().startswith("on"):
                errors.append("a handler %s on <%s>" % (name, tag))
            if name == "style":
                errors += inside_refs(value)
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    for i, svg in enumerate(svgs):
        try:
            ET.fromstring(svg)
        except ET.ParseError as e:
            errors.append("SVG %d is not XML: %s" % (i, e))
    csp = [el.get("content") for el in doc.iter()
           if local(el.tag) == "meta" and
           (el.get("http-equiv") or "").lower() == "content-security-policy"]
    if len(csp) != 1:
        errors.append("%d Content-Security-Policy metas" % len(csp))
    else:
        for s in scripts:
            h = base64.b64encode(hashlib.sha256(s.encode()).digest())
            if ("'sha256-%s'" % h.decode()) not in csp[0]:
                errors.append("the policy does not name the script's hash "
                              "sha256-%s" % h.decode())
    for e in errors:
        print("%s: %s" % (path, e), file=sys.stderr)
    return 1 if errors else 0


def by_id(doc, ident):
    for el in doc.iter():
        if el.get("id") == ident:
            return el
    sys.exit("no element with id %r" % ident)


def squash(s):
    return " ".join(s.split())


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, path = argv[1], argv[2]
    if cmd == "check":
        return check(path)
    _, doc = parse(path)
    if cmd == "rows":
        table = by_id(doc, argv[3])
        for tbody in table.iter("tbody"):
            for tr in tbody.iter("tr"):
                print(tr.get("id"), tr.get("class"))
    elif cmd == "text":
        el = by_id(doc, argv[3])
        if local(el.tag) == "tr":
            print(" | ".join(squash(" ".join(td.itertext())) for td in el))
        else:
            print(squash(" ".join(el.itertext())))
    elif cmd == "verdicts":
        for li in by_id(doc, "verdict-list").findall("li"):
            print(squash(li.text or ""))
    elif cmd == "tags":
        for t in sorted({local(el.tag) for el in doc.iter()} - {""}):
            print(t)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
