// The build's precompression (scripts/precompress.ts): brotli and gzip copies beside the compressible
// files of the output, decoding to the same bytes, none for images or where a copy would not be smaller.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from '../scripts/precompress.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dist(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  dirs.push(dir);
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  return dir;
}

const script = Array.from({ length: 400 }, (_, i) => `export function f${i}(x) { return x * ${i} + ${i % 7}; }`).join('\n');
const page = `<!doctype html><html><head><title>Tabula</title></head><body>${'<p>a game</p>'.repeat(50)}</body></html>`;

describe('precompress', () => {
  it('writes brotli and gzip copies that decode to each compressible file, in subdirectories too', () => {
    const dir = dist({ 'index.html': page, 'assets/app-1a2b.js': script, 'assets/app-1a2b.css': 'body { margin: 0; } '.repeat(40) });
    const written = precompress(dir);
    expect(written.map((w) => w.file).sort()).toEqual(['assets/app-1a2b.css', 'assets/app-1a2b.js', 'index.html']);
    for (const file of ['index.html', 'assets/app-1a2b.js', 'assets/app-1a2b.css']) {
      const plain = readFileSync(join(dir, file));
      const br = readFileSync(join(dir, `${file}.br`));
      const gz = readFileSync(join(dir, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(plain), `${file}.br`).toBe(true);
      expect(gunzipSync(gz).equals(plain), `${file}.gz`).toBe(true);
      expect(br.length).toBeLessThan(plain.length);
      expect(gz.length).toBeLessThan(plain.length);
      const entry = written.find((w) => w.file === file);
      expect(entry).toEqual({ file, size: plain.length, br: br.length, gz: gz.length });
    }
    // Brotli at quality 11 beats gzip on a script.
    const js = written.find((w) => w.file === 'assets/app-1a2b.js');
    expect(js?.br).toBeLessThan(js?.gz ?? 0);
  });

  it('leaves images alone and writes no copy that is not smaller than its file', () => {
    const png = Buffer.alloc(4000, 7);
    const dir = dist({ 'logo.png': png, 'font.woff2': Buffer.alloc(3000, 1), 'a.txt': 'x' });
    const written = precompress(dir);
    expect(readdirSync(dir).sort()).toEqual(['a.txt', 'font.woff2', 'logo.png']);
    // The one-byte text file was considered, but no copy of it is smaller.
    expect(written).toEqual([{ file: 'a.txt', size: 1, br: null, gz: null }]);
  });

  it('does not compress its own copies when run again', () => {
    const dir = dist({ 'index.html': page });
    precompress(dir);
    const again = precompress(dir);
    expect(again.map((w) => w.file)).toEqual(['index.html']);
    expect(existsSync(join(dir, 'index.html.br.gz'))).toBe(false);
    expect(existsSync(join(dir, 'index.html.gz.br'))).toBe(false);
  });
});
