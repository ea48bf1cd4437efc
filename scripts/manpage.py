#!/usr/bin/env python3
"""Writes the aviator-adsb(1) manual page (man(7) roff) from the binary's own command metadata.

The argument parser describes every command, option, default and help text as JSON
(`aviator-adsb --experimental-dump-help`); this script lays that out as a manual page, so the
page says exactly what `--help` says and never drifts from it. Hidden options stay hidden.

usage: manpage.py BINARY [--sysconfdir /etc] > aviator-adsb.1
"""
import argparse
import json
import subprocess
import sys


def roff(text):
    """Text as roff: backslashes escaped, no line taken for a request, paragraphs kept."""
    lines = []
    for line in text.replace("\\", "\\e").split("\n"):
        line = line.strip()
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line if line else ".PP")
    return "\n".join(lines)


def flag(name):
    """An option's name as the reader types it, with real minus signs."""
    dashes = {"long": "--", "short": "-", "longWithSingleDash": "-"}[name["kind"]]
    return "\\fB" + (dashes + name["name"]).replace("-", "\\-") + "\\fR"


def is_builtin(argument):
    """The parser's own -h/--help and --version, listed once for the whole program."""
    return any(n["name"] in ("help", "version") for n in argument.get("names") or [])


def argument_entry(argument):
    """One option or argument: its names and value, then its help, default and values."""
    value = argument.get("valueName") or ""
    if argument["kind"] == "positional":
        head = "\\fI" + value + "\\fR"
    else:
        head = ", ".join(flag(n) for n in argument.get("names") or [])
        if argument["kind"] == "option":
            head += " \\fI" + value + "\\fR"
    if argument.get("isRepeating"):
        head += " ..."
    body = [argument.get("abstract") or ""]
    if argument.get("discussion"):
        body.append(argument["discussion"])
    if argument.get("defaultValue") not in (None, ""):
        body.append("Default: " + argument["defaultValue"] + ".")
    return ".TP\n" + head + "\n" + roff(" ".join(part for part in body if part))


def arguments(command, keep_builtins):
    """The visible arguments of a command, each option group under its own title; a flag and
    its inversion (--x, --no-x: two entries with one help text) become one entry."""
    out, title, previous = [], None, None
    for argument in command.get("arguments") or []:
        if not argument.get("shouldDisplay", True) or (is_builtin(argument) and not keep_builtins):
            continue
        if (previous and argument["kind"] == previous["kind"] == "flag"
                and argument.get("abstract") == previous.get("abstract")):
            previous["names"] = (previous.get("names") or []) + (argument.get("names") or [])
            out[-1] = argument_entry(previous)
            continue
        previous = dict(argument)
        if argument.get("sectionTitle") != title:
            title = argument.get("sectionTitle")
            if title:
                out.append(".PP\n\\fI" + roff(title) + "\\fR")
        out.append(argument_entry(previous))
    return out


def visible(commands):
    """The subcommands a reader needs: not hidden ones, nor the parser's own `help`."""
    return [c for c in commands or [] if c.get("shouldDisplay", True) and c["commandName"] != "help"]


def command_section(command, path):
    """A subcommand: its synopsis, what it does, and its options."""
    name = " ".join(path)
    out = [".SS \"" + name + "\"", roff(command.get("abstract") or "")]
    if command.get("discussion"):
        out += [".PP", roff(command["discussion"])]
    out += arguments(command, keep_builtins=False)
    for sub in visible(command.get("subcommands")):
        out += command_section(sub, path + [sub["commandName"]])
    return out


def page(info, version, sysconfdir):
    """The whole page."""
    root = info["command"]
    name = root["commandName"]
    default = root.get("defaultSubcommand")
    subcommands = visible(root.get("subcommands"))
    out = [
        '.TH "' + name.upper() + '" 1 "" "' + version + '" "User Commands"',
        ".SH NAME",
        name + " \\- " + roff(root.get("abstract") or ""),
        ".SH SYNOPSIS",
        ".B " + name,
        "[\\fIcommand\\fR] [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
    ]
    if root.get("discussion"):
        out.append(roff(root["discussion"]))
    out += [".PP", "Commands:"]
    for command in subcommands:
        suffix = " (the default)" if command["commandName"] == default else ""
        out += [".TP", "\\fB" + command["commandName"] + "\\fR" + suffix, roff(command.get("abstract") or "")]
    out += [".SH OPTIONS"] + arguments(root, keep_builtins=True)
    out.append(".SH COMMANDS")
    for command in subcommands:
        out += command_section(command, [name, command["commandName"]])
    out += [
        ".SH FILES",
        ".TP", roff(sysconfdir + "/default/aviator-adsb"),
        "The options of the aviator\\-adsb service.",
        ".TP", "/run/aviator-adsb/radar.sock",
        "The service's radar feed, open to the aviator\\-adsb group.",
        ".TP", "/run/aviator-adsb/aircraft.json",
        "The service's aircraft.json, receiver.json and stats.json.",
        ".TP", "/var/lib/aviator-adsb",
        "The service's state: the self\\-signed certificate and its key.",
        ".SH SEE ALSO",
        ".BR systemctl (1),",
        ".BR systemd.exec (5)",
    ]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--sysconfdir", default="/etc")
    options = parser.parse_args()
    dump = subprocess.run([options.binary, "--experimental-dump-help"], capture_output=True, text=True, check=True)
    version = subprocess.run([options.binary, "--version"], capture_output=True, text=True, check=True)
    sys.stdout.write(page(json.loads(dump.stdout), version.stdout.strip(), options.sysconfdir))


if __name__ == "__main__":
    main()
