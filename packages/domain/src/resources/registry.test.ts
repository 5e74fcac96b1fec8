import { describe, expect, it } from 'vitest';
import { getResource, RESOURCES } from './index.js';

describe('resource registry', () => {
  it('references name registered resources', () => {
    for (const definition of RESOURCES) {
      for (const reference of definition.references ?? []) {
        expect(() => getResource(reference.resource), `${definition.name}.${reference.field}`).not.toThrow();
      }
    }
  });

  it('rich-text fields are fields of the form', () => {
    const withRichText = RESOURCES.filter((definition) => (definition.richTextFields ?? []).length > 0);
    expect(withRichText.map((definition) => definition.name).sort()).toEqual(['offers', 'tracker-offers']);
    for (const definition of withRichText) {
      const shape = (definition.form as unknown as { shape: Record<string, unknown> }).shape;
      for (const field of definition.richTextFields ?? []) expect(shape).toHaveProperty(field);
    }
  });

  it('segment kinds have a with-chain list (§7.2)', () => {
    expect(getResource('segments').withChainApiPath).toBe('segments-with-chain');
    expect(getResource('tracker-segments').withChainApiPath).toBe('tracker/segments-with-chain');
    expect(RESOURCES.filter((definition) => definition.withChainApiPath)).toHaveLength(2);
  });
});
