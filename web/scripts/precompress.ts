// Precompression of the built client (`vite build`, through the plugin in vite.config.ts): beside each
// compressible file of `dist/` it writes a brotli copy (`FILE.br`, quality 11) and a gzip copy
// (`FILE.gz`, level 9), each only when it is smaller than the file. The server (crates/server,
// transport/assets.rs) embeds them and answers a request with the smallest copy its
// `Accept-Encoding` allows, so no request spends CPU on compression. Node's own zlib: no package.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The extensions of the files worth compressing: text (HTML, scripts, styles, data, SVG) and
 * WebAssembly. Images and fonts other than SVG are compressed formats already. */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.map', '.wasm', '.webmanifest']);

/** What `precompress` wrote for one file: its path under the directory and the sizes in bytes. */
export interface Compressed {
  file: string;
  size: number;
  br: number | null;
  gz: number | null;
}

function files(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const rel = under ? `${under}/${name}` : name;
    return statSync(join(dir, rel)).isDirectory() ? files(dir, rel) : [rel];
  });
}

/** The brotli copy of `data` (quality 11, text mode, the size hinted). */
export function brotli(data: Buffer): Buffer {
  return brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

/** The gzip copy of `data` (level 9). */
export function gzip(data: Buffer): Buffer {
  return gzipSync(data, { level: constants.Z_BEST_COMPRESSION });
}

/** Writes `FILE.br` and `FILE.gz` beside every compressible file under `dir` (a copy no smaller than
 * the file is not written). Returns what it wrote, file by file. */
export function precompress(dir: string): Compressed[] {
  const out: Compressed[] = [];
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.has(extname(file).toLowerCase())) continue;
    const data = readFileSync(join(dir, file));
    const entry: Compressed = { file, size: data.length, br: null, gz: null };
    for (const [suffix, compress] of [['br', brotli], ['gz', gzip]] as const) {
      const packed = compress(data);
      if (packed.length >= data.length) continue;
      writeFileSync(join(dir, `${file}.${suffix}`), packed);
      entry[suffix] = packed.length;
    }
    out.push(entry);
  }
  return out;
}
