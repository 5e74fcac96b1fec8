import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase, useSeededApp } from './harness.js';

// The dashboard's files go out compressed, as the build precompressed them (.br and
// .gz beside each file, apps/web/vite.config.ts), and hashed files are cached for a year.

const SCRIPT = `console.log(${JSON.stringify('the main script '.repeat(400))});\n`;
const PAGE = `<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

let webDist = '';

/** A file as the build leaves it: itself, and its brotli and gzip forms beside it. */
async function writeBuilt(file: string, text: string) {
  await writeFile(file, text);
  await writeFile(`${file}.br`, brotliCompressSync(text));
  await writeFile(`${file}.gz`, gzipSync(text));
}

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'switchyard-dist-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeBuilt(path.join(webDist, 'index.html'), PAGE);
  await writeBuilt(path.join(webDist, 'assets', 'index-abc.js'), SCRIPT);
});

afterAll(() => rm(webDist, { recursive: true, force: true }));

const varies = (header: unknown) =>
  String(header ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .includes('accept-encoding');

forEachDatabase('dashboard compression', (db) => {
  const ctx = useSeededApp(db, () => ({ SWITCHYARD_WEB_DIST: webDist }));

  it('sends the main script brotli-compressed to a browser that takes br, cached for a year', async () => {
    const answer = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(varies(answer.headers.vary)).toBe(true);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.headers['cache-control']).toBe(IMMUTABLE);
    expect(answer.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    expect(brotliDecompressSync(answer.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a browser that takes only gzip, and the plain file to one that takes neither', async () => {
    const gzip = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'gzip, deflate' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(varies(gzip.headers.vary)).toBe(true);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain.headers.vary)).toBe(true);
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('sends index.html compressed too, as every page load, and always revalidated', async () => {
    for (const url of ['/', '/index.html', '/admin/offers']) {
      const answer = await ctx.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' },
      });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-encoding'], url).toBe('br');
      expect(varies(answer.headers.vary), url).toBe(true);
      expect(answer.headers['content-type'], url).toMatch(/^text\/html/);
      expect(answer.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(answer.rawPayload).toString(), url).toBe(PAGE);
    }
  });
});
