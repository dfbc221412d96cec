#!/usr/bin/python3
"""FreeType's hinted 1-bit rendering of a TrueType font: the reference test/render/small-text-reader.sys.test.ts and
the gallery hold our rasteriser against (test/gallery/small-text-compare.ts runs it). Pillow's fontmode "1" loads
glyphs with FT_LOAD_TARGET_MONO, so the font's own TrueType instructions fit it to the pixel grid, as a hinted
1-bit FreeType build draws it. Debian's python3-pil (.ci/setup --tests).

stdin: {"font": path, "size": px, "lines": [text, ...]}; stdout: {"freetype": version, "lines": [{"width",
"height", "baseline", "rows": ["0110...", ...]}, ...]}, one bitmap a line, the baseline `baseline` rows from the top.
"""
import json
import sys

from PIL import Image, ImageDraw, ImageFont, features


def render(font, text):
    ascent, descent = font.getmetrics()
    width = max(1, int(font.getlength(text) * 1.25) + 8)
    height = ascent + descent + 2
    img = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # mono: hinted for a 1-bit target, not anti-aliased and thresholded
    draw.text((1, 1 + ascent), text, fill=1, font=font, anchor="ls")
    px = img.load()
    rows = ["".join("1" if px[x, y] else "0" for x in range(width)) for y in range(height)]
    return {"width": width, "height": height, "baseline": 1 + ascent, "rows": rows}


def main():
    job = json.load(sys.stdin)
    font = ImageFont.truetype(job["font"], int(job["size"]), layout_engine=ImageFont.Layout.BASIC)
    out = {"freetype": features.version("freetype2"), "lines": [render(font, t) for t in job["lines"]]}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
