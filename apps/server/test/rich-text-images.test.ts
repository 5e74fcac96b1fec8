import { getResource, RESOURCES, type ResourceName } from '@switchyard/domain';
import { expect, it } from 'vitest';
import { createRecord, minimalBody, recordId } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login, useSeededApp } from './harness.js';

// A remote image in rich text is a tracking pixel on whoever opens the record. Only `data:`
// images and the dashboard's own stay; the rest are dropped on save, and the save answer says which.

const PUBLIC_URL = 'https://track.example.com';
const REMOTE = 'https://tracker.example/p.gif';
const DATA_IMAGE = 'data:image/png;base64,iVBORw0KGgo=';
const RELATIVE = '/uploads/x.png';
const OWN_ABSOLUTE = `${PUBLIC_URL}/uploads/y.png`;

const DESCRIPTION =
  `<p>Read me<img src="${REMOTE}"></p><p><img src="${DATA_IMAGE}" alt="inline">` +
  `<img src="${RELATIVE}"><img src="${OWN_ABSOLUTE}"><img src="//pixel.example/q.gif"></p>`;
const KEPT =
  `<p>Read me</p><p><img src="${DATA_IMAGE}" alt="inline" />` +
  `<img src="${RELATIVE}" /><img src="${OWN_ABSOLUTE}" /></p>`;

/** Every kind with rich text, from the registry, so a new rich-text field is covered too. */
const RICH_TEXT_KINDS = RESOURCES.filter((definition) => (definition.richTextFields ?? []).length > 0);

forEachDatabase('remote images in rich text', (db) => {
  const ctx = useSeededApp(db, () => ({ SWITCHYARD_PUBLIC_URL: PUBLIC_URL }));

  async function stored(name: ResourceName, id: string) {
    const answer = await ctx.app.inject({
      method: 'GET',
      url: `/api/${getResource(name).apiPath}/${id}`,
      headers: bearer(ctx.adminToken),
    });
    expect(answer.statusCode).toBe(200);
    return answer.json<Record<string, unknown>>();
  }

  it('covers at least offers and tracker offers', () => {
    expect(RICH_TEXT_KINDS.map((definition) => definition.name)).toEqual(
      expect.arrayContaining(['offers', 'tracker-offers']),
    );
  });

  for (const definition of RICH_TEXT_KINDS) {
    for (const field of definition.richTextFields ?? []) {
      it(`${definition.name}.${field}: drops remote images on create, keeps data: and own ones, says so`, async () => {
        const created = await createRecord(ctx.app, ctx.adminToken, definition.name, { [field]: DESCRIPTION });
        expect(created[field]).toBe(KEPT);
        // Protocol-relative URLs are removed by the sanitizer's schemes before the image check sees them.
        expect(created.notices).toEqual([{ code: 'remote_images_removed', field, images: [REMOTE] }]);
        const record = await stored(definition.name, recordId(definition, created));
        expect(record[field]).toBe(KEPT);
        expect(record).not.toHaveProperty('notices');
      });

      it(`${definition.name}.${field}: drops them on update too, and says nothing when none was dropped`, async () => {
        const body = await minimalBody(ctx.app, ctx.adminToken, definition.name);
        const created = await createRecord(ctx.app, ctx.adminToken, definition.name, {
          ...body,
          [field]: '<p>Plain</p>',
        });
        expect(created).not.toHaveProperty('notices');
        const id = recordId(definition, created);
        const url = `/api/${definition.apiPath}/${id}`;
        const payload = { ...body, [field]: `<p>Pixel <img src="http://tracker.example/a.gif"> here</p>` };
        const updated = await ctx.app.inject({ method: 'PUT', url, headers: bearer(ctx.adminToken), payload });
        expect(updated.statusCode, updated.body).toBe(200);
        expect(updated.json()[field]).toBe('<p>Pixel  here</p>');
        expect(updated.json().notices).toEqual([
          { code: 'remote_images_removed', field, images: ['http://tracker.example/a.gif'] },
        ]);
        expect((await stored(definition.name, id))[field]).toBe('<p>Pixel  here</p>');
      });
    }
  }
});

forEachDatabase('remote images in rich text without a public URL', (db) => {
  it('keeps relative images and drops every absolute one, having no origin to call its own', async () => {
    const app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const created = await createRecord(app, token, 'offers', { description: DESCRIPTION });
    expect(created.description).toBe(
      `<p>Read me</p><p><img src="${DATA_IMAGE}" alt="inline" /><img src="${RELATIVE}" /></p>`,
    );
    expect(created.notices).toEqual([
      { code: 'remote_images_removed', field: 'description', images: [REMOTE, OWN_ABSOLUTE] },
    ]);
  });
});
