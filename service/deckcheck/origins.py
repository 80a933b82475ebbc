"""The origins whose pages may call the API from a browser (DECKCHECK_CORS_ORIGINS), read strictly.

A browser sends its page's origin in the `Origin` header as `scheme://host[:port]` (RFC 6454 §6.2, the WHATWG URL
standard's serialisation of an origin): scheme and host in lower case, no default port, no path, no trailing `/`.
The CORS layer compares that text with each allowed origin as it stands, so an origin written any other way allows
no page at all, silently. Here each is read as an origin: what can mean one origin only is written as browsers
send it (`HTTPS://Decks.Example:443/` is `https://decks.example`), and anything else (a path, no scheme, a
wildcard, another separator, `*` beside origins) is refused, naming the origin and why, so start-up stops.
"""

from __future__ import annotations

import ipaddress
import json
import re

ANY = "*"  # alone: a page of any origin
_DEFAULT_PORTS = {"http": 80, "https": 443}  # the schemes of web pages, and the port each leaves unsaid
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_MAX_HOST = 253


def parse_origins(value: object) -> tuple[str, ...]:
    """The origins `value` gives (a JSON list, origins separated by commas, or a sequence of them), each as a
    browser sends it and each once; `*` alone for any, nothing for none. ValueError naming every origin that is
    not one, and why."""
    found: list[str] = []
    problems: list[str] = []
    for item in _items(value):
        try:
            found.append(origin(item))
        except ValueError as exc:
            problems.append(str(exc))
    if ANY in found and len(found) > 1:
        problems.append("'*' allows every origin, so it is given alone: drop it, or give it without the others")
    if problems:
        raise ValueError("; ".join(problems))
    return tuple(dict.fromkeys(found))


def _items(value: object) -> list[str]:
    """The origins as written, blanks around each dropped and empty ones (a trailing comma) left out."""
    listed: object = value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("[", "{")):
            try:
                listed = json.loads(text)
            except ValueError:
                listed = None
            if not isinstance(listed, list):
                raise ValueError("not a JSON list of origins")
        elif text[:1] in ('"', "'"):
            raise ValueError(
                f"{text} is quoted: give the origins bare, separated by commas, or as a JSON list in brackets"
            )
        else:
            listed = text.split(",")
    if not isinstance(listed, list | tuple):
        listed = [listed]
    strings = [item.strip() for item in listed if isinstance(item, str)]
    if len(strings) != len(listed):
        raise ValueError('each origin is a string, such as "https://decks.example"')
    return [item for item in strings if item]


def origin(text: str) -> str:
    """`text` as the origin a browser sends (or `*`); ValueError saying why it is none."""
    if text == ANY:
        return ANY
    if text == "null":
        raise ValueError(
            "'null' is the origin of every sandboxed frame and local file: allowing it allows them all (give '*')"
        )
    if "*" in text:
        raise ValueError(f"{text!r} holds a wildcard, which matches no origin: list each origin, or give '*' alone")
    if ";" in text or re.search(r"\s", text):
        raise ValueError(f"{text!r}: origins are separated by commas")
    scheme, separator, rest = text.partition("://")
    scheme = scheme.lower()
    if not separator:
        if text.partition(":")[0].lower() in _DEFAULT_PORTS:
            raise ValueError(f"{text!r}: the scheme is followed by ://")
        raise ValueError(f"{text!r} has no scheme: an origin begins https:// or http:// (https://{text}?)")
    if scheme not in _DEFAULT_PORTS:
        raise ValueError(f"{text!r}: the pages allowed here are http:// or https:// pages (give '*' for others)")
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    tail = rest[len(authority) :]
    if "@" in authority:
        raise ValueError(f"{text!r}: an origin has no user name or password")
    host, port = _host_and_port(text, authority)
    found = f"{scheme}://{host}" + ("" if port in (None, _DEFAULT_PORTS[scheme]) else f":{port}")
    if tail not in ("", "/"):  # a lone / is the page at the root, whose origin this is
        raise ValueError(f"{text!r} is a page: an origin is scheme://host[:port] and no more (this page's: {found})")
    return found


def _host_and_port(text: str, authority: str) -> tuple[str, int | None]:
    """The host as a browser writes it (lower case, an IPv6 address shortened, in brackets) and the port given."""
    if authority.startswith("["):
        inside, bracket, after = authority[1:].partition("]")
        try:
            host = f"[{ipaddress.IPv6Address(inside).compressed}]"
        except ValueError:
            raise ValueError(f"{text!r}: not an IPv6 address in brackets") from None
        if not bracket or after[:1] not in ("", ":"):
            raise ValueError(f"{text!r}: not an IPv6 address in brackets")
        port = after[1:] if after else None
    elif authority.count(":") > 1:
        raise ValueError(f"{text!r}: an IPv6 address is written in brackets, as http://[::1]:8000")
    else:
        name, colon, port = authority.partition(":")
        host = _name(text, name)
        port = port if colon else None
    if port is None:
        return host, None
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535):
        raise ValueError(f"{text!r}: the port is a number from 1 to 65535")
    return host, int(port)


def _name(text: str, name: str) -> str:
    if not name:
        raise ValueError(f"{text!r} names no host")
    if not name.isascii():
        raise ValueError(f"{text!r}: browsers send a host in ASCII; write an international name in its xn-- form")
    host = name.lower()
    labels = host.split(".")
    if labels[-1].isdigit():  # browsers read such a host as an IPv4 address
        try:
            return str(ipaddress.IPv4Address(host))
        except ValueError:
            raise ValueError(f"{text!r}: not an IPv4 address") from None
    if len(host) > _MAX_HOST or not all(_LABEL.fullmatch(label) for label in labels):
        raise ValueError(f"{text!r}: not a host name")
    return host
