// crates/server/build.rs rebuilds the bundle when one of its inputs changes: besides web/ itself, every
// directory outside web/ that the client imports from (the rules, Syba's content files) must be among
// them, or editing such a file would leave a stale client in the server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const web = resolve(__dirname, '..');
const root = resolve(web, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|css|html)$/.test(name) ? [p] : [];
  });
}

/** Every directory outside web/ (relative to the repository root) that a source file imports from,
 * by an `import … from '…'` or an `import.meta.glob('…')`. */
function outsideImports(): Set<string> {
  const out = new Set<string>();
  for (const file of sources(join(web, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const specs = [
      ...[...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]),
      ...[...text.matchAll(/import\.meta\.glob\(\s*'([^']+)'/g)].map((m) => m[1]),
      ...[...text.matchAll(/\bimport\(\s*'([^']+)'/g)].map((m) => m[1]),
    ];
    for (const spec of specs) {
      if (!spec?.startsWith('.')) continue;
      const path = resolve(dirname(file), spec.split('?')[0]);
      const rel = relative(root, path);
      if (rel.startsWith('web/') || rel.startsWith('..')) continue;
      // A glob names files in its directory; a file import, its own directory.
      out.add(dirname(rel.includes('*') ? rel.slice(0, rel.indexOf('*')) + 'x' : rel));
    }
  }
  return out;
}

/** The INPUTS list of crates/server/build.rs. */
function buildInputs(): string[] {
  const text = readFileSync(join(root, 'crates/server/build.rs'), 'utf8');
  const list = /const INPUTS: &\[&str\] = &\[([^\]]*)\]/.exec(text);
  return list ? [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]) : [];
}

describe('the web build inputs', () => {
  it('find the rules and the Syba content files among the client imports', () => {
    const dirs = outsideImports();
    expect(dirs).toContain('docs/rules');
    expect(dirs).toContain('crates/games/syba/data');
  });
  it('are all watched by crates/server/build.rs', () => {
    const inputs = buildInputs();
    expect(inputs).toContain('web/src');
    for (const dir of outsideImports()) {
      expect(inputs.some((i) => dir === i || dir.startsWith(`${i}/`)), `${dir} is imported by the client but not an input of build.rs`).toBe(true);
    }
  });
});
