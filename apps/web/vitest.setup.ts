// jest-dom's matchers (toBeVisible, toBeInTheDocument, toHaveTextContent, …) on vitest's expect, so a test
// asserts what a person sees rather than that a query returned something (a getBy… query throws first).
import '@testing-library/jest-dom/vitest';
import { LANGUAGES } from '@switchyard/domain';
// jsdom lacks the browser APIs Mantine relies on; these stubs stand in for them in component tests.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import i18n, { loadScreenTexts } from './src/i18n';

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList,
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
Object.defineProperty(window, 'scrollTo', { writable: true, value: () => {} });
// CodeMirror measures text through ranges, which jsdom lays out nowhere: no boxes, as for elements.
if (!Range.prototype.getClientRects) {
  Range.prototype.getClientRects = () =>
    ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

// The dashboard fetches its texts by namespace (i18n/index.ts); components under test find them all here,
// in every language (tests read other languages' texts with getFixedT).
await loadScreenTexts();
await i18n.loadLanguages([...LANGUAGES]);
