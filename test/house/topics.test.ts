import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One place spells the MQTT topics: src/mqtt/topics.ts (its header lists them all). Elsewhere in src/ a topic is
 * asked of it (`topics.state(id)`, `pairTarget(topics, t)`), never built: no string joins the base topic or the
 * discovery prefix (`${topics.base}/…`, `prefix + '/device/'`), and no literal holds a level of ours
 * (`'/refresh'`, `` `/${id}/pair` ``, `'/device/'`). The simulator (display/) is a device on the wire and names the
 * topics it subscribes to as a device's owner would: it is not checked.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOPICS = path.join(ROOT, 'src/mqtt/topics.ts');

/** What a topic is built from: the topics' own roots (`topics.base`) and the config keys they come from. */
const TOPICS_ROOTS = /^(base|prefix|nodePrefix)$/;
const CONFIG_ROOTS = /^(baseTopic|base_topic|discoveryPrefix|discovery_prefix)$/;
/** A level of our topics, as a literal would hold it next to a slash. */
const TOPIC_LEVEL =
  /(^|\/)(status|state|image|diagnostics|refresh|pair|devices?|availability|config)(\/|$)|\/\+\/|^\+\//;

/** Why each topic built in one TypeScript source is one (empty: none). */
function builtTopics(file: string, source: string): string[] {
  const found: string[] = [];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const line = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  // `topics.base`, `this.topics.prefix`, `o.mqttTopics.nodePrefix`; `cfg.base_topic`, `baseTopic`. (A `base` of its
  // own is an HTTP base URL as often as a topic: a topic built from one is caught by its levels below.)
  const namesRoot = (e: ts.Node): boolean => {
    if (ts.isPropertyAccessExpression(e)) {
      if (CONFIG_ROOTS.test(e.name.text)) return true;
      const owner = e.expression;
      const ownerName = ts.isIdentifier(owner)
        ? owner.text
        : ts.isPropertyAccessExpression(owner)
          ? owner.name.text
          : '';
      return TOPICS_ROOTS.test(e.name.text) && /topics$/i.test(ownerName);
    }
    return ts.isIdentifier(e) && CONFIG_ROOTS.test(e.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      const texts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
      if (node.templateSpans.some((s) => namesRoot(s.expression)) && texts.some((t) => t.includes('/')))
        found.push(`${line(node)}: a template joins a topic root: ${node.getText(sf)}`);
      // A level with a slash on either side of an interpolation: `/${id}/pair`, `${x}/refresh`.
      else if (texts.some((t) => t.includes('/') && TOPIC_LEVEL.test(t)) && texts.some((t) => /\/$|^\//.test(t)))
        found.push(`${line(node)}: a template spells a topic level: ${node.getText(sf)}`);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const sides = [node.left, node.right];
      if (sides.some(namesRoot) && sides.some((s) => ts.isStringLiteralLike(s) && s.text.includes('/')))
        found.push(`${line(node)}: a concatenation joins a topic root: ${node.getText(sf)}`);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      // A topic level with a slash: '/refresh', '/device/'; a path of a file or a URL is no topic.
      if (/^\/(refresh|pair|diagnostics|availability|devices?)(\/|$)/.test(node.text) || /\/\+\//.test(node.text))
        found.push(`${line(node)}: a literal spells a topic level: ${node.getText(sf)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the MQTT topics', () => {
  it('finds a topic built from the base or the prefix, or spelt by its levels', () => {
    const found = builtTopics(
      'x.ts',
      [
        'const a = `${topics.base}/${id}/device`;',
        "const b = topics.prefix + '/status';",
        'const c = `${cfg.base_topic}/+/pair`;',
        "const d = x.endsWith('/refresh');",
        'const e = `${head}/${id}/availability`;',
        // Not topics: a file, an HTTP path, a URL, a message.
        "const f = path.join(dir, 'state.json'), g = '/healthz', h = `${url}/imgupload`, i = 'state: ok';",
        'const j = `/displays/${id}/frame.png`, k = `${dir}/${name}.json`;',
      ].join('\n'),
    );
    expect(found.map((f) => f.split(':')[0])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('are built in src/mqtt/topics.ts only', () => {
    const built = sources(path.join(ROOT, 'src'))
      .filter((f) => f !== TOPICS)
      .flatMap((f) => builtTopics(f, readFileSync(f, 'utf8')).map((w) => `${path.relative(ROOT, f)}:${w}`));
    expect(built).toEqual([]);
  });

  it('topics.ts itself is found building them (the check reads what it means to)', () => {
    expect(builtTopics(TOPICS, readFileSync(TOPICS, 'utf8')).length).toBeGreaterThan(10);
  });
});
