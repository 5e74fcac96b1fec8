// NUL (U+0000) in input. PostgreSQL refuses it in text columns, so it must never reach one. What an
// operator typed is refused on its field, never changed silently; what traffic brings (click vars, user
// agents, lead vars, postback parameters) is stripped, since a visitor's odd bytes must not lose a click.
// Both walks use an explicit stack: the input is whatever was sent, however deep.
import { VALIDATION_MESSAGES as M } from './messages.js';

const NUL = '\u0000';
/** Enough to point at the fields to fix, without an answer as long as a hostile body. */
const MAX_NUL_ISSUES = 20;

type Path = (string | number)[];

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  value !== null && typeof value === 'object';

/** Where a value sits: its key and its parent's place, so a path is built only for a value reported. */
interface Place {
  key: string | number;
  parent: Place | undefined;
}

function pathOf(place: Place | undefined): Path {
  const path: Path = [];
  for (let at = place; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** One issue per value (or key) holding a NUL, named by its path as validation errors name fields. */
export function nulCharacterIssues(input: unknown): { path: Path; message: string }[] {
  const issues: { path: Path; message: string }[] = [];
  const stack: { value: unknown; place: Place | undefined }[] = [{ value: input, place: undefined }];
  while (stack.length > 0 && issues.length < MAX_NUL_ISSUES) {
    const { value, place } = stack.pop() as { value: unknown; place: Place | undefined };
    if (typeof value === 'string') {
      if (value.includes(NUL)) issues.push({ path: pathOf(place), message: M.nulCharacter });
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) {
        stack.push({ value: value[index], place: { key: index, parent: place } });
      }
    } else if (isContainer(value)) {
      for (const [key, child] of Object.entries(value).reverse()) {
        const childPlace = { key, parent: place };
        if (key.includes(NUL)) issues.push({ path: pathOf(childPlace), message: M.nulCharacter });
        else stack.push({ value: child, place: childPlace });
      }
    }
  }
  return issues;
}

export function stripNul(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, '') : text;
}

/** Whether any string or key of `input` holds a NUL; allocates nothing per value (it runs on every click). */
function holdsNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes(NUL)) return true;
    } else if (Array.isArray(value)) {
      for (const child of value) stack.push(child);
    } else if (isContainer(value)) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (key.includes(NUL)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** `input` with NUL removed from every string and key; the same value when it holds none. */
export function withoutNul<T>(input: T): T {
  if (!holdsNul(input)) return input;
  if (typeof input === 'string') return stripNul(input) as T;
  if (!isContainer(input)) return input;
  const copyOf = (value: unknown) => (Array.isArray(value) ? [] : {});
  const root = copyOf(input);
  const stack: [Record<string, unknown> | unknown[], object][] = [[input, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop() as [Record<string, unknown> | unknown[], object];
    for (const [key, child] of Object.entries(source)) {
      let value: unknown = child;
      if (typeof child === 'string') value = stripNul(child);
      else if (isContainer(child)) {
        value = copyOf(child);
        stack.push([child, value as object]);
      }
      // Defined, not assigned: a `__proto__` key stays a key.
      Object.defineProperty(target, stripNul(key), { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return root as T;
}
