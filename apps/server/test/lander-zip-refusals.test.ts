import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import { makeZip, type ZipEntry } from './fixtures/zip.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, expectError, forEachDatabase, login } from './harness.js';

// A lander's ZIP that is hostile (zip-slip, absolute paths, symlinks, bombs) or not a
// static site (PHP, other types, too many files, too big) is refused with 400 naming the file, and the
// lander keeps the files it had. Limits of 5 files and 200,000 bytes. On SQLite and PostgreSQL.

forEachDatabase('hosted lander ZIPs refused', (db) => {
  let app: FastifyInstance;
  let token: string;
  let landerId: string;

  const upload = (zip: Buffer) =>
    app.inject({
      method: 'POST',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: { ...bearer(token), 'content-type': 'application/zip' },
      payload: zip,
    });
  const list = async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: { path: string; sha256: string }[] }>();
  };

  beforeAll(async () => {
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_LANDER_MAX_FILES: '5',
        SWITCHYARD_LANDER_MAX_BYTES: '200000',
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const lander = await createRecord(app, token, 'tracker-landers', { url: 'https://old-lander.example/' });
    landerId = String(lander.external_id);
    const first = await upload(
      makeZip([
        { name: 'index.html', data: '<a href="{offer}">Go</a>' },
        { name: 'css/site.css', data: 'body { color: #123456 }' },
      ]),
    );
    expect(first.statusCode, first.body).toBe(200);
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('refuses a hostile or unusable ZIP, naming the file, and keeps the old files', () => {
    const cases: [string, ZipEntry[], RegExp][] = [
      [
        'zip-slip',
        [
          { name: 'index.html', data: 'x' },
          { name: '../../evil.html', data: 'x' },
        ],
        /evil\.html.*"\.\."/,
      ],
      [
        'an absolute path',
        [{ name: '/etc/cron.d/evil.html', data: 'x' }],
        /\/etc\/cron\.d\/evil\.html: an absolute path/,
      ],
      [
        'a symlink',
        [
          { name: 'index.html', data: 'x' },
          { name: 'link.html', data: '/etc/passwd', unixMode: 0o120777 },
        ],
        /link\.html: a symbolic link/,
      ],
      [
        'PHP',
        [
          { name: 'index.html', data: 'x' },
          { name: 'send.php', data: '<?php' },
        ],
        /send\.php: PHP landers are refused\. PHP is never executed here/,
      ],
      [
        'a file that is also a folder',
        [
          { name: 'a.txt', data: 'x' },
          { name: 'a.txt/b.txt', data: 'x' },
        ],
        /a\.txt: a file and a folder/,
      ],
      ['another file type', [{ name: 'run.sh', data: '#!/bin/sh' }], /run\.sh: not a static file type/],
      [
        'too many files',
        Array.from({ length: 6 }, (_, index) => ({ name: `f${index}.txt`, data: 'x' })),
        /f5\.txt: a lander holds at most 5 files/,
      ],
      [
        'too many folders',
        Array.from({ length: 111 }, (_, index) => ({ name: `d${index}/`, data: '' })),
        /d110\/: the ZIP holds more than 110 entries/,
      ],
      [
        'too big, as declared',
        [{ name: 'big.txt', data: 'x'.repeat(200_001) }],
        /big\.txt: the lander would unpack to more than 200000 bytes/,
      ],
      [
        // A bomb that lies: it declares 100 bytes and inflates to 1 MB; counted while inflating.
        'a bomb with a lying header',
        [{ name: 'bomb.txt', data: Buffer.alloc(1_000_000), declaredSize: 100 }],
        /bomb\.txt: inflates past the size it declares/,
      ],
    ];
    it.each(cases)('%s', async (_title, entries, message) => {
      const before = await list();
      const response = await upload(makeZip(entries));
      const error = expectError(response, 400);
      expect(error.errors?.file?.join(' ')).toMatch(message);
      const after = await list();
      expect(after).toEqual(before);
      const page = await app.inject({ method: 'GET', url: `/l/${landerId}/css/site.css` });
      expect(page.body).toBe('body { color: #123456 }');
    });

    it('a JSON body instead of the ZIP', async () => {
      const response = await app.inject({
        method: 'POST',
        url: `/api/tracker/landers/${landerId}/files`,
        headers: bearer(token),
        payload: { file: 'lander.zip' },
      });
      expect(expectError(response, 400).errors?.file?.[0]).toMatch(/application\/zip/);
    });

    it('a body that is not a ZIP', async () => {
      const error = expectError(await upload(Buffer.from('not a zip at all')), 400);
      expect(error.errors?.file?.[0]).toMatch(/not a readable ZIP/);
    });
  });
});
