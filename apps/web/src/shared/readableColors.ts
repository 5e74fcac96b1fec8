import { type CSSVariablesResolver, darken, getPrimaryShade, luminance, type MantineTheme } from '@mantine/core';

// WCAG 2 AA (1.4.3): text needs a contrast of 4.5:1 with what it is painted on. Mantine's light palette
// misses it in places: dimmed texts (gray 6 on white, 3.3:1), placeholders (gray 5), light badges
// (teal 9 on teal 1, 4.3:1), and white on the filled shade of most colours (red 6: 3.3:1). Each of those
// colours is darkened here, once for the whole dashboard, just enough to reach the ratio with a margin,
// so every screen — and every screen still to come — stays legible without a per-screen fix.

/** A little above 4.5, so that rounding in the browser's colour mixing never lands below it. */
const TARGET_RATIO = 4.6;

/** The page's background behind the cards (`--sy-page-bg` in layout.css). */
const PAGE_BACKGROUND = '#f8f8fb';

export function contrastRatio(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** `color`, darkened in small steps until it reads at the target ratio on each of `backgrounds`. */
export function readableOn(color: string, backgrounds: string[], ratio = TARGET_RATIO): string {
  for (let step = 0; step <= 20; step += 1) {
    const candidate = step === 0 ? color : darken(color, step * 0.04);
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= ratio)) return candidate;
  }
  return darken(color, 0.8);
}

/** Light colour scheme variables: the readable versions of Mantine's text, badge and button colours. */
export const readableColorsResolver: CSSVariablesResolver = (theme: MantineTheme) => {
  const gray = theme.colors.gray;
  const white = theme.white;
  // Texts sit on cards (white), on the page, and on striped or hovered table rows (gray 0 and 1).
  const surfaces = [white, PAGE_BACKGROUND, gray[0], gray[1]];
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readableOn(gray[6], surfaces),
    '--mantine-color-placeholder': readableOn(gray[5], [white, gray[0]]),
    '--mantine-color-error': 'var(--mantine-color-red-text)',
    '--mantine-color-success': 'var(--mantine-color-teal-text)',
    // Links: the primary colour's readable text shade rather than its raw shade 6.
    '--mantine-color-anchor': `var(--mantine-color-${theme.primaryColor}-text)`,
  };
  const shade = getPrimaryShade(theme, 'light');
  for (const [name, shades] of Object.entries(theme.colors)) {
    // Filled: white text on it (buttons, filled badges); the same colour is the text and outline colour
    // on light surfaces, so it must read on those too.
    const filled = readableOn(shades[shade], surfaces);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.12);
    light[`--mantine-color-${name}-text`] = filled;
    light[`--mantine-color-${name}-outline`] = filled;
    // Light variant: shade 9 on shade 1, and on shade 2 when hovered.
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], [shades[1], shades[2], white]);
  }
  return { variables: {}, light, dark: {} };
};
