// The settings panel of §2.4: choices, defaults, storage, and the <html> attributes the styles read.

export const LAYOUTS = ['vertical', 'horizontal'] as const;
export const LAYOUT_WIDTHS = ['fluid', 'boxed'] as const;
export const SIDEBAR_STYLES = ['dark', 'light', 'compact', 'icon', 'colored'] as const;
export const TOPBAR_STYLES = ['dark', 'light', 'colored'] as const;

export interface LayoutSettings {
  layout: (typeof LAYOUTS)[number];
  width: (typeof LAYOUT_WIDTHS)[number];
  sidebar: (typeof SIDEBAR_STYLES)[number];
  topbar: (typeof TOPBAR_STYLES)[number];
}

export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = {
  layout: 'vertical',
  width: 'fluid',
  sidebar: 'light',
  topbar: 'colored',
};

export const LAYOUT_SETTINGS_STORAGE_KEY = 'switchyard.layout';

function pick<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export function readLayoutSettings(): LayoutSettings {
  let stored: Partial<Record<keyof LayoutSettings, unknown>> = {};
  try {
    stored = JSON.parse(localStorage.getItem(LAYOUT_SETTINGS_STORAGE_KEY) ?? '{}') ?? {};
  } catch {
    // A damaged entry falls back to the defaults.
  }
  return {
    layout: pick(LAYOUTS, stored.layout, DEFAULT_LAYOUT_SETTINGS.layout),
    width: pick(LAYOUT_WIDTHS, stored.width, DEFAULT_LAYOUT_SETTINGS.width),
    sidebar: pick(SIDEBAR_STYLES, stored.sidebar, DEFAULT_LAYOUT_SETTINGS.sidebar),
    topbar: pick(TOPBAR_STYLES, stored.topbar, DEFAULT_LAYOUT_SETTINGS.topbar),
  };
}

export function storeLayoutSettings(settings: LayoutSettings): void {
  localStorage.setItem(LAYOUT_SETTINGS_STORAGE_KEY, JSON.stringify(settings));
}

/** §4 Layout choices: the choice shows as attributes of the page that layout.css reads. */
export function applyLayoutSettings(settings: LayoutSettings, root: HTMLElement = document.documentElement): void {
  root.dataset.layout = settings.layout;
  root.dataset.layoutWidth = settings.width;
  root.dataset.sidebar = settings.sidebar;
  root.dataset.topbar = settings.topbar;
}
