"""Prints the first fenced block of a language under a Markdown heading.

usage: readme_blocks.py FILE HEADING LANGUAGE   (LANGUAGE "" for a block without one)

scripts/test/examples.sh builds the README's first program from the README's own text with it.
"""
import re
import sys


def block(text, heading, language):
    section = re.search(r"^#+ %s\n(.*?)(?=^#+ |\Z)" % re.escape(heading), text, re.M | re.S)
    if section is None:
        raise SystemExit("readme_blocks.py: no heading '%s'" % heading)
    lines, inside = [], None  # inside: the language of the open block, or None
    for line in section.group(1).splitlines(keepends=True):
        if line.startswith("```"):
            if inside is None:
                inside = line[3:].strip()
                continue
            if inside == language:
                return "".join(lines)
            inside, lines = None, []
        elif inside is not None:
            lines.append(line)
    raise SystemExit("readme_blocks.py: no ```%s block under '%s'" % (language, heading))

if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.strip())
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(block(f.read(), sys.argv[2], sys.argv[3]))
