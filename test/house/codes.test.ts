import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/shared/codes.js';
import { docsPages } from '../tools/doc-pages.js';
import { generateErrorsDoc, ownerTitle, readCodeGroups } from '../tools/errors-doc.js';

/**
 * One registry of codes (src/shared/codes.ts): every error and warning code written anywhere in src/ or display/ is
 * registered, and has a row in docs/reference/errors.md, which test/tools/errors-doc.ts generates from the registry
 * (`npm run docs:errors`); every registered code is written somewhere (no dead codes). A code is found where a
 * program can emit it: in a string or a template literal, not in a comment or a name.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ERRORS_DOC = path.join(ROOT, 'docs/reference/errors.md');
const REGISTRY = path.join(ROOT, 'src/shared/codes.ts');
const CODE = /(?<![A-Za-z0-9_])[EW]_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])/g;

/** The codes in the string and template literals of one TypeScript source. */
function codeLiterals(file: string, source: string): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      for (const m of node.text.matchAll(CODE)) found.add(m[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false));
  return found;
}

/**
 * The lists of codes written out in one TypeScript source: an array of two or more code literals (`['E_A', 'E_B']`,
 * `new Set([...])` too), or a `*_CODES` constant with any. A part takes its set from the registry instead
 * (`CodeIn<'api'>`, `codesIn('api')`); one code at its use site is no list.
 */
function codeLists(file: string, source: string): string[] {
  const found: string[] = [];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const isCode = (e: ts.Node): boolean => ts.isStringLiteralLike(e) && /^[EW]_[A-Z0-9_]*[A-Z0-9]$/.test(e.text);
  const where = (n: ts.Node): string => `${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node) && node.elements.filter(isCode).length >= 2) {
      found.push(`${where(node)}: ${node.getText(sf).replace(/\s+/g, ' ').slice(0, 80)}`);
      return;
    } else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      /_CODES$/.test(node.name.text) &&
      node.initializer !== undefined
    ) {
      let hasCode = false;
      const look = (n: ts.Node): void => {
        hasCode ||= isCode(n);
        ts.forEachChild(n, look);
      };
      look(node.initializer);
      if (hasCode) return void found.push(`${where(node)}: ${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => f !== REGISTRY);
}

/** Code → the files (relative to the root) that write it. */
function codesInTree(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const file of [...sources(path.join(ROOT, 'src')), ...sources(path.join(ROOT, 'display'))]) {
    for (const code of codeLiterals(file, readFileSync(file, 'utf8'))) {
      where.set(code, [...(where.get(code) ?? []), path.relative(ROOT, file)]);
    }
  }
  return where;
}

let scanned: Map<string, string[]> | undefined;
/** The tree is read once for both directions (about 2 s for ~300 files). */
const tree = (): Map<string, string[]> => (scanned ??= codesInTree());
const registered = new Set(Object.keys(CODES));

describe('the registry of codes', () => {
  it('finds codes in strings and template literals, not in comments or names', () => {
    const found = codeLiterals(
      'x.ts',
      [
        "// W_IN_A_COMMENT, 'W_QUOTED_IN_A_COMMENT'",
        '/** E_IN_A_DOC_COMMENT */',
        'const a = { code: \'W_SINGLE\' }, b = "E_DOUBLE";',
        'const c = `E_PLAIN_TEMPLATE`, d = `W_HEAD: ${a} E_MIDDLE ${b} W_TAIL`;',
        'const e = constants.R_OK | constants.W_OK, E_NAME = 1, f = "MY_E_SUFFIX ERR_TLS_X E_lower W_";',
      ].join('\n'),
    );
    expect([...found].sort()).toEqual(['E_DOUBLE', 'E_MIDDLE', 'E_PLAIN_TEMPLATE', 'W_HEAD', 'W_SINGLE', 'W_TAIL']);
  });

  it('each entry is of its kind (E_ an error, W_ a warning) and says in one line what happened', () => {
    for (const [code, entry] of Object.entries(CODES)) {
      expect(entry.kind, code).toBe(code.startsWith('E_') ? 'error' : 'warning');
      expect(code, code).toMatch(/^[EW]_[A-Z0-9_]+$/);
      expect(entry.meaning.trim(), code).not.toBe('');
      expect(entry.meaning, code).not.toMatch(/\n/);
    }
  });

  it('holds every code written in src/ and display/', () => {
    const unregistered = [...tree()]
      .filter(([code]) => !registered.has(code))
      .map(([code, files]) => `${code} (${files.join(', ')})`);
    expect(unregistered).toEqual([]);
  });

  it('holds no code that nothing writes', () => {
    const used = tree();
    expect([...registered].filter((code) => !used.has(code))).toEqual([]);
  });

  it('finds a list of codes written out: an array of two or more, or a *_CODES constant', () => {
    const found = codeLists(
      'x.ts',
      [
        "export const API_ERROR_CODES = ['E_ONE', 'E_TWO'] as const;",
        "const known = new Set(['W_ONE', 'W_TWO', 'other']);",
        "const ONE_CODES = { first: 'E_ONE' };",
        // Not lists: one code at its use site, a list of other codes, a type.
        "log.warn({ code: 'W_ONE' }); const e = ['E_ONE', 'x']; const NOT_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND'];",
        "type T = 'E_ONE' | 'E_TWO';",
      ].join('\n'),
    );
    expect(found.map((f) => f.split(':')[0])).toEqual(['1', '2', '3']);
  });

  it('is the only place a list of codes is written: src/ and display/ take their sets from it', () => {
    const lists = [...sources(path.join(ROOT, 'src')), ...sources(path.join(ROOT, 'display'))].flatMap((file) =>
      codeLists(file, readFileSync(file, 'utf8')).map((l) => `${path.relative(ROOT, file)}:${l}`),
    );
    expect(lists).toEqual([]);
  });

  it('docs/reference/errors.md groups the codes as codes.ts does: a comment line of its own starts a group', () => {
    const source = [
      'export const CODES = {',
      '  // First (src/a)',
      "  E_ONE: { kind: 'error', meaning: 'one' }, // a note, not a group",
      "  W_TWO: { kind: 'warning', meaning: \"it's two\" },",
      '',
      '  // Second (src/b)',
      "  E_THREE: { kind: 'error', meaning: 'three' },",
      '} as const satisfies Record<string, CodeEntry>;',
    ].join('\n');
    expect(readCodeGroups(source)).toEqual([
      {
        title: 'First (src/a)',
        codes: [
          { code: 'E_ONE', kind: 'error', meaning: 'one' },
          { code: 'W_TWO', kind: 'warning', meaning: "it's two" },
        ],
      },
      { title: 'Second (src/b)', codes: [{ code: 'E_THREE', kind: 'error', meaning: 'three' }] },
    ]);
    // The owners' page names no folder of the code.
    expect(ownerTitle('First (src/a)')).toBe('First');
    expect(ownerTitle("A panel on the Pi's header (src/epd; the controller models in display/)")).toBe(
      "A panel on the Pi's header",
    );
    expect(ownerTitle('Exit codes (0 to 4)')).toBe('Exit codes (0 to 4)');
    const groups = readCodeGroups(readFileSync(REGISTRY, 'utf8'));
    expect(groups.flatMap((g) => g.codes.map((c) => c.code))).toEqual(Object.keys(CODES));
    for (const c of groups.flatMap((g) => g.codes)) {
      const { kind, meaning } = CODES[c.code as keyof typeof CODES];
      expect(c, c.code).toEqual({ code: c.code, kind, meaning });
    }
  });

  it('every code has a row in docs/reference/errors.md, and it names no code that is not registered', () => {
    const doc = readFileSync(ERRORS_DOC, 'utf8');
    expect([...registered].filter((code) => !doc.includes(`| \`${code}\` |`))).toEqual([]);
    expect([...new Set(doc.match(CODE))].filter((code) => !registered.has(code))).toEqual([]);
  });

  it('docs/reference/errors.md is what `npm run docs:errors` writes from the registry', () => {
    expect(readFileSync(ERRORS_DOC, 'utf8'), 'docs/reference/errors.md is out of date: run `npm run docs:errors`').toBe(
      generateErrorsDoc(ROOT),
    );
  });

  it('the README and the other docs pages name no code that is not registered', () => {
    const pages = ['README.md', 'CHANGELOG.md', ...docsPages(ROOT)];
    const unknown = pages.flatMap((page) =>
      [...new Set(readFileSync(path.join(ROOT, page), 'utf8').match(CODE))]
        .filter((code) => !registered.has(code))
        .map((code) => `${code} (${page})`),
    );
    expect(unknown).toEqual([]);
  });
});
