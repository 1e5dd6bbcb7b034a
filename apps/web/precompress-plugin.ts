/**
 * Vite plugin: after every build, writes brotli (.br) and gzip (.gz) siblings of the text files in the output
 * folder, which the console server sends by Accept-Encoding (apps/server/src/http/web-app.ts). A plugin rather
 * than a step in `npm run build`, so every `vite build` (also e2e's builds into another folder) is served the
 * same way. No dependency: node:zlib, brotli at its best quality (the cost is paid once, at build time).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its extra headers and file look-up cost. */
export const MIN_PRECOMPRESS_BYTES = 1024;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Writes file.br and file.gz beside every compressible file of `dir`; answers how many files were compressed. */
export async function precompressDir(dir: string): Promise<number> {
  const files = (await listFiles(dir)).filter((f) => COMPRESSIBLE.test(f));
  let count = 0;
  // zlib's async calls run on libuv's thread pool, so the files compress in parallel.
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(file);
      if (source.length < MIN_PRECOMPRESS_BYTES) return;
      const [br, gzipped] = await Promise.all([
        brotli(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
        gz(source, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      // A copy that is not smaller is not written: the server then sends the original.
      if (br.length < source.length) await writeFile(`${file}.br`, br);
      if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
      count += 1;
    }),
  );
  return count;
}

export function precompressPlugin(): Plugin {
  let outDir = '';
  let log: (message: string) => void = () => {};
  return {
    name: 'rpc-console:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      log = (message) => config.logger.info(message);
    },
    async closeBundle() {
      const count = await precompressDir(outDir);
      log(`precompressed ${count} files (brotli and gzip)`);
    },
  };
}
