import { readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { packageRoot } from '../../src/shared/package-root.js';
import { docsPages } from './doc-pages.js';

/**
 * docs/reference/errors.md, generated from the registry of codes (src/shared/codes.ts): every code with its kind and
 * meaning, in the groups and the order codes.ts keeps them (a `// comment` line above a code starts a group; the
 * folders it names in brackets are for contributors and left out of the owners' page), and for each code the docs
 * page that says more, where a page has a table row for it. Run: `npm run docs:errors`.
 * test/house/codes.test.ts fails when the page is not what this writes.
 */

export interface RegisteredCode {
  code: string;
  kind: string;
  meaning: string;
}

export interface CodeGroup {
  title: string;
  codes: RegisteredCode[];
}

/** The page, from docs/. */
const ERRORS_DOC = 'reference/errors.md';

/** The groups of codes.ts's `CODES`, read from its source (the comments are the groups, so the types alone cannot say). */
export function readCodeGroups(source: string, file = 'codes.ts'): CodeGroup[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  let literal: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'CODES' &&
      node.initializer
    ) {
      let init: ts.Expression = node.initializer;
      while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init) || ts.isParenthesizedExpression(init))
        init = init.expression;
      if (ts.isObjectLiteralExpression(init)) literal = init;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!literal) throw new Error(`${file}: no \`export const CODES = { … }\``);
  const groups: CodeGroup[] = [];
  for (const prop of literal.properties) {
    if (!ts.isPropertyAssignment(prop) || !ts.isObjectLiteralExpression(prop.initializer)) {
      throw new Error(`${file}: an entry of CODES that is not \`CODE: { kind, meaning }\`: ${prop.getText(sf)}`);
    }
    const code = prop.name.getText(sf).replace(/^['"]|['"]$/g, '');
    const comments = ts.getLeadingCommentRanges(source, prop.getFullStart()) ?? [];
    // A group's title is a `//` comment on a line of its own; a note after the previous entry on its line is not.
    const ownLine = (pos: number): boolean => /^[ \t]*$/.test(source.slice(source.lastIndexOf('\n', pos - 1) + 1, pos));
    const titles = comments
      .filter((c) => ownLine(c.pos))
      .map((c) => source.slice(c.pos, c.end))
      .filter((c) => c.startsWith('//'));
    const title = titles
      .at(-1)
      ?.replace(/^\/\/\s*/, '')
      .trim();
    if (title) groups.push({ title, codes: [] });
    const field = (name: string): string => {
      const p = (prop.initializer as ts.ObjectLiteralExpression).properties.find(
        (q): q is ts.PropertyAssignment => ts.isPropertyAssignment(q) && q.name.getText(sf) === name,
      );
      if (!p || !ts.isStringLiteralLike(p.initializer)) throw new Error(`${file}: ${code} has no string \`${name}\``);
      return p.initializer.text;
    };
    const group = groups.at(-1) ?? groups[groups.push({ title: 'Codes', codes: [] }) - 1]!;
    group.codes.push({ code, kind: field('kind'), meaning: field('meaning') });
  }
  return groups;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), spaces as `-`. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The headings of a Markdown text (outside fenced code), each with its text and its anchor as GitHub makes it. */
export function markdownHeadings(text: string): { level: number; text: string; line: number; anchor: string }[] {
  const seen = new Map<string, number>();
  const out: { level: number; text: string; line: number; anchor: string }[] = [];
  let fence: string | undefined;
  for (const [i, line] of text.split('\n').entries()) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const plain = h[2]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = headingSlug(plain);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ level: h[1]!.length, text: plain, line: i, anchor: n === 0 ? base : `${base}-${n}` });
  }
  return out;
}

/** The order pages are searched in for a code's row: the owners' reference, then their guides, then the rest. */
function searchOrder(page: string): number {
  return page.startsWith('reference/') ? 0 : page.startsWith('guides/') ? 1 : 2;
}

/**
 * For each code, the first docs page with a table row for it (reference/, then guides/, then contributing/, each in
 * file-name order), as a path from docs/, and the heading above that row.
 */
export function whereDocumented(root: string): Map<string, { file: string; anchor: string; heading: string }> {
  const where = new Map<string, { file: string; anchor: string; heading: string }>();
  const files = docsPages(root)
    .map((p) => p.slice('docs/'.length))
    .filter((f) => f !== ERRORS_DOC)
    .sort((a, b) => searchOrder(a) - searchOrder(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const file of files) {
    const text = readFileSync(join(root, 'docs', file), 'utf8');
    const headings = markdownHeadings(text);
    for (const [i, line] of text.split('\n').entries()) {
      const row = /^\s*\|\s*`([EW]_[A-Z0-9_]+)`\s*\|/.exec(line);
      if (!row || where.has(row[1]!)) continue;
      const above = headings.filter((h) => h.line < i).at(-1);
      if (above) where.set(row[1]!, { file, anchor: above.anchor, heading: above.text });
    }
  }
  return where;
}

/** A group's title as the owners read it: without the folders of the code it names in brackets ("(src/api)"). */
export function ownerTitle(title: string): string {
  return title.replace(/\s*\([^()]*\b(?:src|display)\/[^()]*\)\s*$/, '');
}

/** A meaning as a table cell: `|` escaped, and `<…>` outside code spans kept from being read as HTML. */
function cell(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('')
    .replace(/\|/g, '\\|');
}

const INTRO = `# Errors and warnings

<!-- Generated from the registry of codes by \`npm run docs:errors\`: do not edit by hand. -->

Every error (\`E_…\`) and warning (\`W_…\`) code that the daemon, its commands and the firmware simulator write: in the
log (a failure as \`err.code\`, a warning as \`code\`), on the status page, in \`state.json\`, \`/healthz\` and the Home
Assistant diagnostics. A code's spelling is a contract: it is never renamed, only added. An **error** is a failure
(logged as \`err\`); a **warning** means the daemon goes on (logged as \`code\`). Under systemd,

\`\`\`sh
journalctl -u outfit-display -o cat | jq -r 'select(.level == "warn" or .level == "error") | .err.code // .code'
\`\`\`

names every problem. "More" links to the page that says when each happens and what the daemon then does.

## Exit codes

| exit code | means |
|---|---|
| \`0\` | ok |
| \`1\` | the job failed |
| \`2\` | bad usage or config (systemd does not restart the daemon: fix the config) |
| \`3\` | the service rejected the API key (not restarted either: fix the key) |
| \`4\` | the credit budget is used up |
`;

/** docs/reference/errors.md as it must be. */
export function errorsMarkdown(
  groups: readonly CodeGroup[],
  documented: ReadonlyMap<string, { file: string; anchor: string; heading: string }>,
): string {
  const parts = [INTRO];
  for (const group of groups) {
    parts.push(`\n## ${ownerTitle(group.title)}\n\n| code | kind | meaning | more |\n|---|---|---|---|\n`);
    for (const c of group.codes) {
      const at = documented.get(c.code);
      const link = posix.relative(posix.dirname(ERRORS_DOC), at?.file ?? '');
      const more = at ? `[${cell(at.heading)}](${link}#${at.anchor})` : '';
      parts.push(`| \`${c.code}\` | ${c.kind} | ${cell(c.meaning)} | ${more} |\n`);
    }
  }
  return parts.join('');
}

/** docs/reference/errors.md as the registry and the other docs pages of the tree at `root` make it. */
export function generateErrorsDoc(root = packageRoot()): string {
  const registry = join(root, 'src', 'shared', 'codes.ts');
  return errorsMarkdown(readCodeGroups(readFileSync(registry, 'utf8'), registry), whereDocumented(root));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = packageRoot();
  const file = join(root, 'docs', ERRORS_DOC);
  writeFileSync(file, generateErrorsDoc(root));
  process.stdout.write(`wrote ${file}\n`);
}
