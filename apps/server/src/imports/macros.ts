// Another tracker's URL macros written as Switchyard's (packages/domain macros.ts). One with no
// equivalent stays as written (the engine leaves an unknown `{name}` alone) and is named by the caller.

export type MacroTranslator = (url: string) => { url: string; unknown: string[] };

/** A translator by `table` (the other tracker's macro name, lower case → Switchyard's). */
export function macroTranslator(table: Readonly<Record<string, string>>): MacroTranslator {
  return (url) => {
    const unknown: string[] = [];
    const translated = url.replace(/\{([A-Za-z0-9_]{1,64})\}/g, (whole, name: string) => {
      const to = table[name.toLowerCase()];
      if (to) return `{${to}}`;
      unknown.push(whole);
      return whole;
    });
    return { url: translated, unknown: [...new Set(unknown)] };
  };
}
