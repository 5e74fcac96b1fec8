import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, readableColorsResolver } from './readableColors';
import { theme } from './theme';

// The light colour scheme's text colours read at WCAG AA's 4.5:1 on what they are
// painted on, for every colour of the theme.

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const { light } = readableColorsResolver(merged);
const gray = merged.colors.gray;
const surfaces = ['#ffffff', '#f8f8fb', gray[0], gray[1]];

describe('readable colours', () => {
  it('darkens dimmed texts and placeholders until they read on cards, the page and table rows', () => {
    for (const surface of surfaces)
      expect(contrastRatio(light['--mantine-color-dimmed'] ?? '', surface)).toBeGreaterThan(4.5);
    expect(contrastRatio(gray[6], '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio(light['--mantine-color-placeholder'] ?? '', '#ffffff')).toBeGreaterThan(4.5);
  });

  it.each(Object.keys(merged.colors))('makes %s readable as text, behind white text and in light badges', (name) => {
    const shades = merged.colors[name] ?? [];
    const filled = light[`--mantine-color-${name}-filled`] ?? '';
    for (const surface of surfaces) expect(contrastRatio(filled, surface)).toBeGreaterThan(4.5);
    expect(light[`--mantine-color-${name}-text`]).toBe(filled);
    const lightColor = light[`--mantine-color-${name}-light-color`] ?? '';
    expect(contrastRatio(lightColor, shades[1] ?? '')).toBeGreaterThan(4.5);
    expect(contrastRatio(lightColor, shades[2] ?? '')).toBeGreaterThan(4.5);
  });
});
