import { describe, expect, it } from 'vitest';
import { ZOptionalMacroUrl } from './fields.js';
import { ZAffiliateNetworkForm } from './resources/affiliate-networks.js';
import { ZTrafficSourceForm } from './resources/traffic-sources.js';
import { AFFILIATE_NETWORK_TEMPLATES, TRAFFIC_SOURCE_TEMPLATES } from './templates.js';

// Templates are form values, so each must parse with its resource's form schema.

const MACRO = /\{([A-Za-z0-9_]+)\}/g;

describe('traffic source templates', () => {
  it('offers at least 8 well-known sources, each once', () => {
    expect(TRAFFIC_SOURCE_TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(new Set(TRAFFIC_SOURCE_TEMPLATES.map((template) => template.key)).size).toBe(
      TRAFFIC_SOURCE_TEMPLATES.length,
    );
    expect(new Set(TRAFFIC_SOURCE_TEMPLATES.map((template) => template.form.name)).size).toBe(
      TRAFFIC_SOURCE_TEMPLATES.length,
    );
  });

  describe.each(TRAFFIC_SOURCE_TEMPLATES.map((template) => [template.form.name, template] as const))(
    '%s',
    (_, template) => {
      it('parses with the traffic-source form schema, unchanged', () => {
        const parsed = ZTrafficSourceForm.safeParse(template.form);
        expect(parsed.error?.issues ?? []).toEqual([]);
        expect(parsed.data?.parameters).toEqual(template.form.parameters);
        expect(parsed.data?.name).toBe(template.form.name);
      });

      it('passes its click id first (var1) with a token of the source', () => {
        const [first] = template.form.parameters ?? [];
        expect(first?.internal_token).toBe('var1');
        expect(first?.ts_token).not.toBe('');
      });

      it('carries its cost parameter in the campaign URL', () => {
        const names = (template.form.parameters ?? []).map((parameter) => parameter.ts_parameter);
        if (template.form.cost_parameter) expect(names).toContain(template.form.cost_parameter);
      });

      it('has a postback URL the postback events take, sending back the click id', () => {
        expect(ZOptionalMacroUrl.safeParse(template.postbackUrl).success).toBe(true);
        if (template.postbackUrl === '') return;
        const macros = [...template.postbackUrl.matchAll(MACRO)].map((match) => match[1]);
        expect(macros).toContain('var1');
        // Only Switchyard's macros: {var1}…{var10} and {payout}.
        for (const macro of macros) expect(macro).toMatch(/^(var([1-9]|10)|payout)$/);
      });
    },
  );
});

describe('affiliate network templates', () => {
  it('offers at least 8 well-known networks, each once', () => {
    expect(AFFILIATE_NETWORK_TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(new Set(AFFILIATE_NETWORK_TEMPLATES.map((template) => template.key)).size).toBe(
      AFFILIATE_NETWORK_TEMPLATES.length,
    );
  });

  describe.each(AFFILIATE_NETWORK_TEMPLATES.map((template) => [template.form.name, template] as const))(
    '%s',
    (_, template) => {
      it('parses with the affiliate-network form schema, unchanged', () => {
        const parsed = ZAffiliateNetworkForm.safeParse(template.form);
        expect(parsed.error?.issues ?? []).toEqual([]);
        expect(parsed.data?.offer_url_params).toBe(template.form.offer_url_params);
        expect(parsed.data?.postback_params).toEqual(template.form.postback_params);
      });

      it('sends the click id in its offer URL parameters and reads it back on postbacks', () => {
        expect(template.form.offer_url_params).toMatch(/^[A-Za-z0-9_]+=\{clickid\}$/);
        const [parameter] = String(template.form.offer_url_params).split('=');
        // A macro given with the network's own delimiters (`#S1#`) names the same parameter.
        const macro = String(template.form.postback_params?.click_id).replace(/^[#[%]|[#\]%]$/g, '');
        expect(macro.toLowerCase()).toBe(parameter?.toLowerCase());
      });
    },
  );
});
