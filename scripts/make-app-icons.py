#!/usr/bin/env python3
"""Draws the web app's icons: Sources/Web/App/icon-192.png, icon-512.png and icon.svg.

A green scope on a dark square: rings, a cross, a sweep with its fading trail and two blips,
inside the middle 80% so the icon survives a maskable crop. Standard library only: every
pixel is worked out from distances (anti-aliased over one pixel) and written as a PNG with
zlib. Run it again after changing the drawing; the output is the same on every machine.
"""

import math
import os
import struct
import sys
import zlib

APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Web", "App")

BACKGROUND = (2, 13, 5)
FACE = (6, 42, 18)
GREEN = (57, 255, 122)
BLIP = (125, 255, 166)

# The drawing in units of the icon's side.
RADIUS = 0.36
RINGS = (0.12, 0.24, 0.36)
LINE = 0.012
SWEEP_DEG = 50  # where the sweep points, clockwise from up
TRAIL_DEG = 80
BLIPS = ((0.17, -0.12, 0.028), (-0.09, 0.15, 0.022))


def coverage(distance, half_width, pixel):
    """How much of a pixel a line of half_width covers at this distance from its middle."""
    return max(0.0, min(1.0, (half_width - abs(distance)) / pixel + 0.5))


def mix(under, over, alpha):
    return tuple(u + (o - u) * alpha for u, o in zip(under, over))


def pixel_colour(u, v, pixel):
    """The colour at (u, v), the icon's centre at (0, 0), in icon units."""
    r = math.hypot(u, v)
    colour = BACKGROUND
    colour = mix(colour, FACE, coverage(r - RADIUS / 2, RADIUS / 2, pixel))
    inside = coverage(r - RADIUS / 2, RADIUS / 2, pixel)
    if inside > 0:
        # The sweep's trail: brightest at the line, fading anticlockwise.
        angle = math.degrees(math.atan2(u, -v)) % 360
        behind = (SWEEP_DEG - angle) % 360
        if behind < TRAIL_DEG:
            colour = mix(colour, GREEN, inside * 0.45 * (1 - behind / TRAIL_DEG))
        # The cross.
        colour = mix(colour, GREEN, inside * 0.35 * max(coverage(u, LINE / 3, pixel), coverage(v, LINE / 3, pixel)))
        # The sweep line.
        direction = (math.sin(math.radians(SWEEP_DEG)), -math.cos(math.radians(SWEEP_DEG)))
        along = u * direction[0] + v * direction[1]
        across = u * direction[1] - v * direction[0]
        if along > 0:
            colour = mix(colour, GREEN, inside * coverage(across, LINE / 2, pixel))
    for ring in RINGS:
        colour = mix(colour, GREEN, coverage(r - ring, LINE / 2 if ring < RADIUS else LINE, pixel))
    for x, y, size in BLIPS:
        distance = math.hypot(u - x, v - y)
        glow = max(0.0, 1 - distance / (size * 2.2)) ** 2 * 0.5
        colour = mix(colour, BLIP, max(glow, coverage(distance - size / 2, size / 2, pixel)))
    return tuple(int(round(c)) for c in colour)


def png(side):
    rows = []
    pixel = 1 / side
    for y in range(side):
        row = bytearray([0])  # filter: none
        for x in range(side):
            row.extend(pixel_colour((x + 0.5) / side - 0.5, (y + 0.5) / side - 0.5, pixel))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
            + chunk(b"IEND", b""))


def svg():
    hexa = lambda c: "#%02x%02x%02x" % c
    s = 512
    point = lambda degrees, r: (s / 2 + r * s * math.sin(math.radians(degrees)), s / 2 - r * s * math.cos(math.radians(degrees)))
    tip = point(SWEEP_DEG, RADIUS)
    tail = point(SWEEP_DEG - TRAIL_DEG, RADIUS)
    rings = "".join(
        f'<circle cx="256" cy="256" r="{ring * s:.1f}" fill="none" stroke="{hexa(GREEN)}" '
        f'stroke-width="{(LINE if ring < RADIUS else 2 * LINE) * s:.1f}"/>' for ring in RINGS)
    blips = "".join(f'<circle cx="{256 + x * s:.1f}" cy="{256 + y * s:.1f}" r="{size / 2 * s:.1f}" fill="{hexa(BLIP)}"/>'
                    for x, y, size in BLIPS)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {s} {s}">'
        f'<rect width="{s}" height="{s}" fill="{hexa(BACKGROUND)}"/>'
        f'<circle cx="256" cy="256" r="{RADIUS * s:.1f}" fill="{hexa(FACE)}"/>'
        f'<path d="M256 256L{tail[0]:.1f} {tail[1]:.1f}A{RADIUS * s:.1f} {RADIUS * s:.1f} 0 0 1 {tip[0]:.1f} {tip[1]:.1f}Z" '
        f'fill="{hexa(GREEN)}" fill-opacity="0.3"/>'
        f'<path d="M{256 - RADIUS * s:.1f} 256H{256 + RADIUS * s:.1f}M256 {256 - RADIUS * s:.1f}V{256 + RADIUS * s:.1f}" '
        f'stroke="{hexa(GREEN)}" stroke-opacity="0.35" stroke-width="{LINE * s / 1.5:.1f}"/>'
        f'<path d="M256 256L{tip[0]:.1f} {tip[1]:.1f}" stroke="{hexa(GREEN)}" stroke-width="{LINE * s:.1f}"/>'
        f"{rings}{blips}</svg>\n"
    )


def main():
    for side in (192, 512):
        with open(os.path.join(APP, f"icon-{side}.png"), "wb") as file:
            file.write(png(side))
    with open(os.path.join(APP, "icon.svg"), "w", encoding="utf-8") as file:
        file.write(svg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
