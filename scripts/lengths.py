#!/usr/bin/env python3
"""Files and functions that grew too long.

Usage: lengths.py [--max-file N] [--max-function N] [PATH ...]   (default: Sources)

Lists every Swift file with more than --max-file lines (450) and every function,
initializer, deinitializer, subscript and computed property whose body spans more than
--max-function lines (60), counted from the line of its declaration keyword to the line of
its closing brace. Prints `path:line: name (N lines)` for each and exits with status 1 when
it found any, 0 otherwise.

The scan matches braces after blanking comments and string literals (multi-line and raw
strings and interpolations included), which is enough for the code in this repository; it
does not parse Swift.
"""
import argparse
import os
import re
import sys

DECLARATION = re.compile(r"(?<![\w.])(func|init[?!]?|deinit|subscript|var)(?![\w])")
# Words that end a bodiless declaration (a protocol requirement) before any brace is found.
STOPPERS = re.compile(
    r"(?<![\w.])(func|init|deinit|subscript|var|let|case|typealias|associatedtype|struct|class|"
    r"enum|protocol|extension|actor|import)(?![\w])"
)
RAW_STRING = re.compile(r'#+"')
IDENTIFIER = re.compile(r"\s*(`?[\w]+`?|[^\s(<]+)")


def blank(text):
    """The text with comments and string literals replaced by spaces (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)

    def wipe(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    def skip_string(i):
        """Index just past the string literal starting at i (at its opening # or quote)."""
        hashes = 0
        while text[i] == "#":
            hashes += 1
            i += 1
        triple = text.startswith('"""', i)
        i += 3 if triple else 1
        closing = ('"""' if triple else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if text.startswith(escape, i):
                i += len(escape)
                if i < n and text[i] == "(":
                    i = skip_code(i + 1, ")")
                else:
                    i += 1
                continue
            if text.startswith(closing, i):
                return i + len(closing)
            if not triple and text[i] == "\n":
                return i  # unterminated; stop at the line's end
            i += 1
        return n

    def skip_comment(i):
        if text.startswith("//", i):
            end = text.find("\n", i)
            return n if end < 0 else end
        depth, i = 1, i + 2
        while i < n and depth:
            if text.startswith("/*", i):
                depth, i = depth + 1, i + 2
            elif text.startswith("*/", i):
                depth, i = depth - 1, i + 2
            else:
                i += 1
        return i

    def skip_code(i, until):
        """Index just past the `until` that closes code starting at i (an interpolation)."""
        depth = 0
        while i < n:
            c = text[i]
            if c == "/" and text.startswith(("//", "/*"), i):
                i = skip_comment(i)
            elif c == '"' or (c == "#" and RAW_STRING.match(text, i)):
                i = skip_string(i)
            elif c == "(":
                depth, i = depth + 1, i + 1
            elif c == ")":
                if depth == 0 and until == ")":
                    return i + 1
                depth, i = depth - 1, i + 1
            else:
                i += 1
        return n

    while i < n:
        c = text[i]
        if c == "/" and text.startswith(("//", "/*"), i):
            end = skip_comment(i)
            wipe(i, end)
            i = end
        elif c == '"' or (c == "#" and RAW_STRING.match(text, i)):
            end = skip_string(i)
            wipe(i, end)
            i = end
        else:
            i += 1
    return "".join(out)


def body_start(code, start, keyword):
    """Index of the `{` opening the body of the declaration whose keyword ends at start, or None."""
    depth = 0
    i, n = start, len(code)
    while i < n:
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth < 0:
                return None  # the keyword was a label inside a call, not a declaration
        elif depth == 0:
            if c == "{":
                return i
            if c == "}" or c == ";":
                return None
            if keyword == "var":
                if c == "=" or c == "\n":
                    # a stored property or a local variable; a computed one opens its body on
                    # the line it is declared on
                    return None
                if re.match(r"in(?![\w])", code[i:]) and not code[i - 1].isalnum() and code[i - 1] != "_":
                    return None  # `for var x in ...`
            elif c.isalpha() and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_.")):
                if STOPPERS.match(code, i):
                    return None
        i += 1
    return None


def matching_brace(code, i):
    depth = 0
    for k in range(i, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return None


def offenders(path, max_file, max_function):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > max_file:
        yield 1, f"file ({lines} lines)"
    code = blank(text)
    line_starts = [0] + [m.end() for m in re.finditer("\n", code)]

    def line_of(index):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    for match in DECLARATION.finditer(code):
        keyword = match.group(1).rstrip("?!")
        opening = body_start(code, match.end(), keyword)
        if opening is None:
            continue
        closing = matching_brace(code, opening)
        if closing is None:
            continue
        first, last = line_of(match.start()), line_of(closing)
        span = last - first + 1
        if span > max_function:
            named = IDENTIFIER.match(code, match.end()) if keyword in ("func", "var") else None
            name = named.group(1) if named else keyword
            yield first, f"{name} ({span} lines)"


def swift_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for directory, subdirectories, files in os.walk(root):
            subdirectories.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-file", type=int, default=450)
    parser.add_argument("--max-function", type=int, default=60)
    parser.add_argument("paths", nargs="*", default=["Sources"])
    arguments = parser.parse_args()
    found = 0
    for path in swift_files(arguments.paths):
        for line, what in offenders(path, arguments.max_file, arguments.max_function):
            print(f"{path}:{line}: {what}")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
