// The postback URL an operator gives an affiliate network, in the parameter names of the
// tracker the network already knows. The tracker reads every format's names at the same keyed path
// (`/{key}/postback`), and Binom's at `/{key}/click.php`.

/** The formats offered, Switchyard's own first. */
export const POSTBACK_FORMATS = ['switchyard', 'keitaro', 'binom', 'voluum', 'redtrack'] as const;
export type PostbackFormat = (typeof POSTBACK_FORMATS)[number];

/** Product names: the same in every language. */
export const POSTBACK_FORMAT_NAMES: Record<PostbackFormat, string> = {
  switchyard: 'Switchyard',
  keitaro: 'Keitaro',
  binom: 'Binom',
  voluum: 'Voluum',
  redtrack: 'RedTrack',
};

/** What a postback carries, as an affiliate network's `postback_params` name them (and the currency). */
type PostbackValue = 'click_id' | 'payout' | 'status' | 'txid' | 'currency';

/** The network's own macro name for each value, written into the URL as `{name}`. */
export type PostbackMacroNames = Partial<Record<PostbackValue, unknown>>;

interface FormatShape {
  /** The last path segment after the key. */
  path: 'postback' | 'click.php';
  /** The tracker's parameter for each value it takes, in the order the tracker documents them. */
  parameters: readonly (readonly [parameter: string, value: PostbackValue])[];
}

const FORMATS: Record<PostbackFormat, FormatShape> = {
  switchyard: {
    path: 'postback',
    parameters: [
      ['clickid', 'click_id'],
      ['payout', 'payout'],
      ['status', 'status'],
      ['txid', 'txid'],
      ['currency', 'currency'],
    ],
  },
  keitaro: {
    path: 'postback',
    parameters: [
      ['subid', 'click_id'],
      ['status', 'status'],
      ['payout', 'payout'],
      ['tid', 'txid'],
    ],
  },
  binom: {
    path: 'click.php',
    parameters: [
      ['cnv_id', 'click_id'],
      ['payout', 'payout'],
      ['cnv_status', 'status'],
    ],
  },
  voluum: {
    path: 'postback',
    parameters: [
      ['cid', 'click_id'],
      ['payout', 'payout'],
      ['txid', 'txid'],
      ['et', 'status'],
    ],
  },
  redtrack: {
    path: 'postback',
    parameters: [
      ['clickid', 'click_id'],
      ['sum', 'payout'],
      ['type', 'status'],
      ['txid', 'txid'],
    ],
  },
};

/** The macro a network gets when its own name is left out (the domain's `postback_params` defaults). */
const DEFAULT_MACROS: Record<PostbackValue, string> = {
  click_id: 'clickid',
  payout: 'payout',
  status: 'status',
  txid: 'txid',
  currency: 'currency',
};

function macroName(names: PostbackMacroNames, value: PostbackValue): string {
  const given = names[value];
  // Left out: the default. Given empty: the network does not send it (the click id it always sends).
  if (given === undefined || given === null) return DEFAULT_MACROS[value];
  const name = String(given).trim();
  return name || (value === 'click_id' ? DEFAULT_MACROS.click_id : '');
}

/**
 * The postback URL for a network in `format`: the record's `postback_url` (`https://host/{key}/postback`,
 * no query), at Binom's `click.php` for Binom, with the format's parameter for each value carrying the
 * network's macro for it (`subid={aff_sub}`). A value whose macro name is empty is left out; the click id
 * never is.
 */
export function postbackUrlFor(format: PostbackFormat, postbackUrl: string, names: PostbackMacroNames): string {
  const shape = FORMATS[format];
  const base = postbackUrl.trim().replace(/\/+$/, '');
  const address = shape.path === 'postback' ? base : base.replace(/\/postback$/, `/${shape.path}`);
  const query = shape.parameters
    .map(([parameter, value]) => {
      const name = macroName(names, value);
      // A name given with its own delimiters (MaxBounty's `#S1#`, `[sub1]`, `%sub1%`) is the network's macro as it is.
      return name ? `${parameter}=${/^[#[%{$].*[#\]%}]$/.test(name) ? name : `{${name}}`}` : '';
    })
    .filter(Boolean)
    .join('&');
  return `${address}?${query}`;
}
