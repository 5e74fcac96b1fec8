import type { LanguageSupport } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { languageOf } from './codeEditorSetup';

const nameOf = (path: string) => (languageOf(path) as LanguageSupport).language?.name;

describe('the language of a lander file', () => {
  it('follows its extension, in any case', () => {
    expect(nameOf('index.html')).toBe('html');
    expect(nameOf('pages/Offer.HTM')).toBe('html');
    expect(nameOf('css/site.css')).toBe('css');
    expect(nameOf('js/app.js')).toBe('javascript');
    expect(nameOf('js/module.mjs')).toBe('javascript');
    expect(nameOf('data/strings.json')).toBe('json');
  });

  it('is plain text for SVG, XML, text and files without an extension', () => {
    for (const path of ['img/logo.svg', 'sitemap.xml', 'robots.txt', 'LICENSE', 'css.d/readme']) {
      expect(languageOf(path)).toEqual([]);
    }
  });
});
