import { describe, expect, it } from 'vitest';
import { type Destination, destinationThen, destinationToday, sameDestination } from './destination';
import { CLICK, TODAY } from './inspectionFixtures';

const to = (pathGroup: string | null, lander: string | null, offer: string | null): Destination => ({
  pathGroup: pathGroup === null ? null : { id: pathGroup, name: pathGroup },
  lander: lander === null ? null : { id: lander, name: lander },
  offer: offer === null ? null : { id: offer, name: offer },
  reason: 'matched',
});

describe('where an inspected event went, and would go today', () => {
  it.each([
    ['the same group, lander and offer', to('g', 'l', 'o'), to('g', 'l', 'o'), true],
    ['another offer', to('g', null, 'o'), to('g', null, 'o2'), false],
    ['a lander now before the same offer', to('g', null, 'o'), to('g', 'l', 'o'), false],
    ['another group to the same offer', to('g', null, 'o'), to('g2', null, 'o'), false],
    ['refused then and today', to(null, null, null), to(null, null, null), true],
    ['refused then, routed today', to(null, null, null), to('g', null, 'o'), false],
  ])('%s', (_case, then, today, same) => {
    expect(sameDestination(then, today)).toBe(same);
  });

  it("names the records as stored, and the group as today's flow names it", () => {
    expect(destinationThen(CLICK.click, TODAY)).toEqual({
      pathGroup: { id: 'g-us', name: 'US visitors' },
      lander: null,
      offer: { id: 'off-us', name: 'Shoes US' },
      reason: 'backup_offer',
    });
    expect(destinationToday(TODAY)?.offer).toEqual({ id: 'off-de', name: 'Dating DE' });
    expect(destinationToday(null)).toBeNull();
  });

  it('shows a record deleted since, or a group no longer in the flow, as its id', () => {
    const deleted = { ...CLICK.click, offer: { ...CLICK.click.offer!, name: null }, path_group_id: 'g-gone' };
    expect(destinationThen(deleted, TODAY)).toMatchObject({
      pathGroup: { id: 'g-gone', name: 'g-gone' },
      offer: { id: 'off-us', name: 'off-us' },
    });
  });
});
