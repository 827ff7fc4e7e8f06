#!/usr/bin/env python3
"""Every relative link and image in the documentation resolves (`make test`, a `check` line).

Checks README.md, ARCHITECTURE.md, BENCHMARKS.md and docs/*.md: each [text](target) and
![alt](target) that is not a web address must name a file or folder of the checkout, and a
#fragment must be a heading of that page (GitHub's anchor rules). Code blocks and code spans
are skipped. README.md stays a README (issue 30: at most 200 lines; the rest lives in docs/).
`--self-test` checks that a broken link, a broken image and a broken anchor are
each found, and that good ones pass.
"""
import os
import re
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
README_MAX_LINES = 200
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')


def without_code(text):
    """The text with fenced code blocks and code spans blanked (links there are examples)."""
    out, fenced = [], False
    for line in text.split('\n'):
        if line.lstrip().startswith('```'):
            fenced = not fenced
            out.append('')
            continue
        out.append('' if fenced else re.sub(r'`[^`]*`', '', line))
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading)   # a link in a heading keeps its text
    text = text.replace('`', '').strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def anchors(path):
    found, seen = set(), {}
    fenced = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.lstrip().startswith('```'):
                fenced = not fenced
            if fenced:
                continue
            m = HEADING.match(line.rstrip('\n'))
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f'{base}-{n}')
    return found


def problems(root, pages):
    found = []
    for page in pages:
        path = os.path.join(root, page)
        with open(path, encoding='utf-8') as f:
            lines = without_code(f.read())
        for number, line in enumerate(lines, 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):   # http:, https:, mailto:
                    continue
                file_part, _, fragment = target.partition('#')
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                where = f'{page}:{number}: {target}'
                if not os.path.exists(resolved):
                    found.append(f'{where}: {os.path.relpath(resolved, root)} does not exist')
                elif fragment and resolved.endswith('.md') and fragment not in anchors(resolved):
                    found.append(f'{where}: no heading #{fragment} in {os.path.relpath(resolved, root)}')
    return found


def documentation_pages(root):
    pages = [p for p in ('README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md') if os.path.exists(os.path.join(root, p))]
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        pages += sorted('docs/' + name for name in os.listdir(docs) if name.endswith('.md'))
    return pages


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs', 'screenshots'))
        open(os.path.join(root, 'docs', 'screenshots', 'a.png'), 'wb').close()
        with open(os.path.join(root, 'docs', 'page.md'), 'w') as f:
            f.write('# Page\n\n## Setting up the frame\n\n## `[remote]` (API)\n')
        good = ('# R\n[p](docs/page.md) [s](docs/page.md#setting-up-the-frame) [r](docs/page.md#remote-api)\n'
                '![a](docs/screenshots/a.png) [web](https://example.org/x) [here](#r)\n'
                '`[not a link](missing.md)`\n```\n[example](missing.md)\n```\n')
        with open(os.path.join(root, 'README.md'), 'w') as f:
            f.write(good)
        ok = problems(root, documentation_pages(root)) == []
        for bad, what in [('[x](docs/missing.md)', 'missing page'), ('![x](docs/screenshots/b.png)', 'missing image'),
                          ('[x](docs/page.md#no-such-heading)', 'missing anchor'), ('[x](#nowhere)', 'missing own anchor')]:
            with open(os.path.join(root, 'README.md'), 'w') as f:
                f.write(good + bad + '\n')
            found = problems(root, documentation_pages(root))
            if len(found) != 1:
                print(f'self-test: a {what} gave {found}', file=sys.stderr)
                ok = False
    print('check-doc-links self-test: ' + ('ok' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    pages = documentation_pages(root)
    found = problems(root, pages)
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        readme_lines = len(f.read().splitlines())
    if readme_lines > README_MAX_LINES:
        found.append(f'README.md: {readme_lines} lines, more than {README_MAX_LINES}: move detail to a page under docs/')
    for line in found:
        print(line, file=sys.stderr)
    print(f'check-doc-links: {len(pages)} pages, README.md {readme_lines} lines, '
          + (f'{len(found)} problems' if found else 'every link resolves'))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
