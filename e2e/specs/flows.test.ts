import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// An operator builds flows from path groups: conditions, order by dragging, weighted paths.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);

interface StoredPath {
  id: string;
  offer_external_id?: string;
  offers?: { id: string; offer_external_id: string; weight: number; enabled: boolean }[];
  landers?: { id: string; lander_external_id: string; weight: number; enabled: boolean }[];
}
interface StoredFlow {
  external_id: string;
  name: string;
  path_groups: { id: string; name: string; priority: number; condition: string; paths: StoredPath[] }[];
}

const inCondition = (variable: string, values: string[]) => ({
  type: 'InCondition',
  data: { Var: variable, Operation: 'IN', Values: values },
});
/** countryCode IN (US, CA) AND NOT (device IN (mobile)), as the builder stores it. */
const NORTH_AMERICA_NOT_MOBILE = {
  type: 'AndCondition',
  data: {
    Conditions: [
      inCondition('countryCode', ['US', 'CA']),
      {
        type: 'NotCondition',
        data: { Condition: { type: 'AndCondition', data: { Conditions: [inCondition('device', ['mobile'])] } } },
      },
    ],
  },
};

async function create<T = { external_id: string }>(path: string, body: unknown): Promise<T> {
  return apiRequest<T>('POST', path, adminToken, body);
}

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/edit\//);
  return decodeURIComponent(page.url().split('/edit/')[1] ?? '');
}

async function choose(page: Page, combobox: Locator, option: string | RegExp) {
  await combobox.click();
  await page.getByRole('option', { name: option }).first().click();
}

const groupNames = (page: Page) =>
  page.getByTestId('path-group-name').evaluateAll((nodes) => nodes.map((node) => node.textContent));

/** Drags a row by its handle with the pointer, in small steps as a hand would. */
async function dragRow(page: Page, handle: Locator, target: Locator) {
  const from = await handle.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('drag: the handle or the target is not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 4, { steps: 2 });
  await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 12 });
  await page.mouse.up();
}

describe('flows from the dashboard', () => {
  it('builds an API flow with a conditional group and a catch-all, reorders them by dragging and reloads the same tree', async () => {
    const offerName = `Flow offer ${run}`;
    const offer = await create('offers', { name: offerName, url: 'https://offers.example/?c={clickid}' });

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto('/admin/flows/create');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`API flow ${run}`);

    // Group 1: countryCode IN (US, CA) AND NOT (device IN (mobile)).
    await page.getByTestId('path_groups-add').click();
    const first = page.getByTestId('path-group').nth(0);
    await first.getByRole('textbox', { name: 'Group name' }).fill('North America');
    const top = first.getByRole('group', { name: 'Condition group, level 1' });
    await top.getByRole('button', { name: 'Add rule' }).first().click();
    const countries = top.getByRole('combobox', { name: 'Values' }).first();
    await countries.click();
    await countries.fill('United States');
    await page.getByRole('option', { name: /\(US\)$/ }).click();
    await countries.fill('Canada');
    await page.getByRole('option', { name: /\(CA\)$/ }).click();
    await top.getByRole('button', { name: 'Add group' }).first().click();
    const nested = first.getByRole('group', { name: 'Condition group, level 2' });
    await nested.getByRole('button', { name: 'Add rule' }).click();
    await choose(page, nested.getByRole('combobox', { name: 'Rule' }), 'Device');
    await choose(page, nested.getByRole('combobox', { name: 'Values' }), 'Mobile');
    await nested.getByRole('button', { name: 'Not' }).click();
    await first.getByRole('button', { name: 'Add path' }).click();
    await choose(page, first.getByRole('combobox', { name: 'Offer' }), offerName);
    await expect
      .poll(() => first.getByTestId('path-group-condition').textContent())
      .toBe('Country is US or CA and not (Device is mobile)');

    // Group 2: the catch-all.
    await page.getByTestId('path_groups-add').click();
    const second = page.getByTestId('path-group').nth(1);
    await second.getByRole('textbox', { name: 'Group name' }).fill('Everyone else');
    await second.getByRole('button', { name: 'Add path' }).click();
    await choose(page, second.getByRole('combobox', { name: 'Offer' }), offerName);
    expect(await second.getByTestId('path-group-condition').textContent()).toBe('Everyone');

    // Closed, the two rows are of a height; the catch-all is dragged above the other.
    await page.getByRole('button', { name: 'Details of North America' }).click();
    await page.getByRole('button', { name: 'Details of Everyone else' }).click();
    await dragRow(page, page.getByRole('button', { name: 'Move row 2' }), page.getByTestId('path-group').nth(0));
    await expect.poll(() => groupNames(page)).toEqual(['Everyone else', 'North America']);

    const id = await save(page);
    await page.reload();
    await expect.poll(() => groupNames(page)).toEqual(['Everyone else', 'North America']);
    const conditions = page.getByTestId('path-group-condition');
    expect(await conditions.allTextContents()).toEqual(['Everyone', 'Country is US or CA and not (Device is mobile)']);

    const stored = await apiRequest<StoredFlow>('GET', `flows/${encodeURIComponent(id)}`, adminToken);
    expect(stored.path_groups.map((group) => [group.name, group.priority])).toEqual([
      ['Everyone else', 0],
      ['North America', 1],
    ]);
    expect(JSON.parse(stored.path_groups[0]?.condition ?? '')).toEqual({ type: 'AllCondition' });
    expect(JSON.parse(stored.path_groups[1]?.condition ?? '')).toEqual(NORTH_AMERICA_NOT_MOBILE);
    for (const group of stored.path_groups) {
      expect(group.paths.map((path) => path.offer_external_id)).toEqual([offer.external_id]);
    }
    await page.close();
  });

  it('builds a tracker flow whose path rotates two landers and two offers', async () => {
    const offers = [
      await create('tracker/offers', { name: `Tracker offer A ${run}`, url: 'https://a.example/?c={clickid}' }),
      await create('tracker/offers', { name: `Tracker offer B ${run}`, url: 'https://b.example/?c={clickid}' }),
    ];
    const landers = [
      await create('tracker/landers', { name: `Lander A ${run}`, url: 'https://lander-a.example/' }),
      await create('tracker/landers', { name: `Lander B ${run}`, url: 'https://lander-b.example/' }),
    ];

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto('/tracker/flows/create');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Tracker flow ${run}`);
    await page.getByTestId('path_groups-add').click();
    const group = page.getByTestId('path-group').first();
    await group.getByRole('button', { name: 'Add path' }).click();
    const path = group.getByTestId('path').first();
    await path.getByRole('textbox', { name: 'Path name' }).fill('Rotation');
    for (const name of [`Tracker offer A ${run}`, `Tracker offer B ${run}`]) {
      await path.getByRole('button', { name: 'Add offer' }).click();
      await choose(page, path.getByTestId('path-offers-row').last().getByRole('combobox', { name: 'Offer' }), name);
    }
    for (const name of [`Lander A ${run}`, `Lander B ${run}`]) {
      await path.getByRole('button', { name: 'Add lander' }).click();
      await choose(page, path.getByTestId('path-landers-row').last().getByRole('combobox', { name: 'Lander' }), name);
    }
    const weights = path.getByTestId('path-landers-row').getByRole('textbox', { name: 'Weight' });
    await weights.last().fill('50');

    const id = await save(page);
    const stored = await apiRequest<StoredFlow>('GET', `tracker/flows/${encodeURIComponent(id)}`, adminToken);
    const [storedPath] = stored.path_groups[0]?.paths ?? [];
    expect(storedPath?.offers?.map((row) => [row.offer_external_id, row.weight, row.enabled])).toEqual(
      offers.map((offer) => [offer.external_id, 100, true]),
    );
    expect(storedPath?.landers?.map((row) => [row.lander_external_id, row.weight, row.enabled])).toEqual([
      [landers[0]?.external_id, 100, true],
      [landers[1]?.external_id, 50, true],
    ]);

    await page.reload();
    // A saved group with paths opens closed (§4); its path reads as one line inside.
    await page.getByRole('button', { name: 'Details of Path group 1' }).click();
    await expect.poll(() => page.getByText('Weight 100 · offers: 2 · landers: 2').count()).toBe(1);
    await page.close();
  });
});
