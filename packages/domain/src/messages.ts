import { ACCOUNT_MESSAGES } from './account-messages.js';

// The validation texts the server sends under `errors[field]`. The dashboard finds each text's key here
// and shows it in the user's language (i18n key `validation.<key>`); API clients read the English.

export const VALIDATION_MESSAGES = {
  required: 'This field is required',
  duplicateRowId: 'Another row of this record has this id',
  tooLong: 'This value is too long',
  invalidEmail: 'Enter a valid email address',
  passwordTooShort: 'The password must be at least 8 characters long',
  emailTaken: 'This email is already in use',
  unknownPermission: 'Unknown permission',
  cannotGrant: 'You cannot grant a permission you do not hold',
  unknownRole: 'Unknown role',
  unknownWorkspace: 'Unknown workspace',
  cannotDeactivateSelf: 'You cannot deactivate your own account',
  invalidValue: 'Invalid value',
  malformedJson: 'The request body is not valid JSON',
  invalidUrl: 'Enter a URL starting with http:// or https://',
  invalidNumber: 'Enter a number',
  wholeNumber: 'Enter a whole number',
  notNegative: 'The value must be 0 or more',
  tooLarge: 'This value is too large',
  invalidCondition: 'The condition is not valid',
  invalidConditionValue: 'The {{field}} rule of the condition has a value that is not valid: "{{value}}"',
  invalidConditionOperation: 'The {{field}} rule of the condition cannot use "{{value}}"',
  conditionTooDeep: 'The condition is nested too deeply',
  conditionTooLarge: 'The condition has too many parts',
  invalidCurrency: 'Unknown currency',
  currencyWithoutRate: 'This currency has no rate: add one under Currency rates first',
  rateOverflows: 'This rate would turn a payout into an amount too large to keep',
  invalidAddress: 'Not an IP address or CIDR range',
  invalidCountry: 'Unknown country',
  invalidTimezone: 'Unknown time zone',
  unknownReference: 'This record does not exist',
  backupChainLoop: 'The backup offer chain leads back to this offer',
  segmentChainLoop: 'The segment would refer to itself',
  duplicateEvent: 'Each postback event can be chosen once',
  tooManyParameters: 'At most 10 parameters',
  nulCharacter: 'This value contains a NUL character, which cannot be stored',
  macroInHost: 'The host of a URL cannot be a macro',
  privateTarget: 'This URL leads to a loopback, private, link-local or multicast address',
} as const;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

export const ERROR_MESSAGES = {
  validation: 'The data you sent is not valid',
  invalidCredentials: 'These credentials do not match our records.',
  unauthenticated: 'Unauthorised',
  forbidden: 'You do not have permission to do this',
  notFound: 'Not found',
  tooManyAttempts: 'Too many failed attempts. Try again in a minute.',
  conflict: 'This record was changed by someone else',
  internal: 'An error occurred',
  unavailable: 'The server cannot keep this event right now. Try again shortly.',
  reportsBusy: 'Reports are busy right now. Try again in a few seconds.',
} as const;

const keyByText = new Map<string, string>(
  [
    ...Object.entries(VALIDATION_MESSAGES).map(([key, text]) => [text, `validation.${key}`] as const),
    ...Object.entries(ERROR_MESSAGES).map(([key, text]) => [text, `errors.${key}`] as const),
    ...Object.entries(ACCOUNT_MESSAGES).map(([key, text]) => [text, `account.messages.${key}`] as const),
  ].map(([text, key]) => [text, key]),
);

/** The i18n key of a text the server sends, or undefined for a text of its own. */
export function messageKey(text: string): string | undefined {
  return keyByText.get(text) ?? messageParts(text)?.key;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Texts with values in them (`{{field}}`): each as a pattern that gives the values back. */
const TEMPLATES = [...keyByText]
  .filter(([text]) => text.includes('{{'))
  .map(([text, key]) => ({
    key,
    names: [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]!),
    pattern: new RegExp(
      `^${text
        .split(/\{\{\w+\}\}/)
        .map(escapeRegExp)
        .join('(.*)')}$`,
      's',
    ),
  }));

/**
 * The key of a text the server sent and the values filled into it, so that the dashboard can say it in
 * the user's language: `The ip rule … not valid: "10.0.0.0/33"` → `validation.invalidConditionValue`
 * with `{ field: 'ip', value: '10.0.0.0/33' }`. Undefined for a text of the server's own.
 */
export function messageParts(text: string): { key: string; values: Record<string, string> } | undefined {
  const key = keyByText.get(text);
  if (key) return { key, values: {} };
  for (const template of TEMPLATES) {
    const match = template.pattern.exec(text);
    if (!match) continue;
    return {
      key: template.key,
      values: Object.fromEntries(template.names.map((name, index) => [name, match[index + 1]!])),
    };
  }
  return undefined;
}

/** Zod-like issues → `{ field: [messages] }`, the first message first. Root issues go under `_`. */
export function fieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || '_';
    const list = errors[field] ?? [];
    errors[field] = list;
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}
