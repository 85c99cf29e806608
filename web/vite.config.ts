import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress.ts';

/** After a build, a brotli and a gzip copy beside each compressible file of the output
 * (scripts/precompress.ts), which the server sends to browsers that accept them. */
function precompressed(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tabula-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const written = precompress(outDir);
      const kb = (n: number | null) => (n === null ? '-' : `${(n / 1000).toFixed(1)} kB`);
      for (const w of written) this.info(`${w.file}: ${kb(w.size)}, br ${kb(w.br)}, gzip ${kb(w.gz)}`);
    },
  };
}

// The server embeds `dist/` and serves it at `/`; API and WebSocket calls go to the same origin.
export default defineConfig({
  base: '/',
  plugins: [precompressed()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npm run dev` against a running `tabula serve` on 8080; the rules files live outside web/.
    fs: { allow: ['..'] },
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
      '/healthz': 'http://127.0.0.1:8080',
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
  },
});
