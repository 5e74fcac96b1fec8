import type { LanguageSupport } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { languageOf } from './codeEditor';

const nameOf = async (path: string) => ((await languageOf(path)) as LanguageSupport).language?.name;

describe('the language of a lander file', () => {
  it('follows its extension, in any case', async () => {
    expect(await nameOf('index.html')).toBe('html');
    expect(await nameOf('pages/Offer.HTM')).toBe('html');
    expect(await nameOf('css/site.css')).toBe('css');
    expect(await nameOf('js/app.js')).toBe('javascript');
    expect(await nameOf('js/module.mjs')).toBe('javascript');
    expect(await nameOf('data/strings.json')).toBe('json');
  });

  it('is plain text for SVG, XML, text and files without an extension', async () => {
    for (const path of ['img/logo.svg', 'sitemap.xml', 'robots.txt', 'LICENSE', 'css.d/readme']) {
      expect(await languageOf(path)).toEqual([]);
    }
  });
});
