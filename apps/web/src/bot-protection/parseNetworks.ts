import { MAX_ASN } from '@switchyard/domain';

export interface Network {
  asn: number;
  name: string;
}

export interface ParsedNetworks {
  networks: Network[];
  /** 1-based numbers of the lines that name no network, to point the operator at them. */
  unreadLines: number[];
}

// `AS16509 Amazon`, `as16509, Amazon`, `16509;Amazon`, `16509<TAB>Amazon` or a bare `16509`: what lists
// copied from a spreadsheet, a CSV or a provider's page look like.
const LINE = /^(?:AS)?\s*(\d{1,10})\s*(?:[,;\t]\s*|\s+|$)(.*)$/i;

/** The networks of pasted text, one a line; blank lines are skipped, unreadable ones counted. */
export function parseNetworks(text: string): ParsedNetworks {
  const networks: Network[] = [];
  const unreadLines: number[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const match = LINE.exec(line);
    const asn = match ? Number(match[1]) : Number.NaN;
    if (!match || asn > MAX_ASN) {
      unreadLines.push(index + 1);
      return;
    }
    // A CSV's quotes around the name are not part of it.
    const name = (match[2] ?? '')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    networks.push({ asn, name });
  });
  return { networks, unreadLines };
}
