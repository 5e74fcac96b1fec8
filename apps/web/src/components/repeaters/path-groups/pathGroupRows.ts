// The path-group tree of a flow (§3.3, §3.4) as the editor builds it: new rows, duplicates, priorities
// and the header facts (§2.8), kept apart from the components so they read and test on their own.
import {
  ALL_CONDITION_TEXT,
  DEFAULT_DAILY_CAP,
  DEFAULT_POSTBACK_DAILY_CAP,
  DEFAULT_WEIGHT,
  type OptimizeMetric,
  type OptimizeTarget,
  parseConditionText,
  pruneCondition,
  type TApiPath,
  type TTrackerPath,
  withPriorities,
} from '@switchyard/domain';

export type FlowType = 'api' | 'tracker';
export type ApiPath = TApiPath;
export type TrackerPath = TTrackerPath;
export type PathOfferRow = TrackerPath['offers'][number];
export type PathLanderRow = TrackerPath['landers'][number];
export type Path = ApiPath | TrackerPath;

/** A path group as it travels in JSON; `paths` are of the flow's one kind. */
export interface PathGroup<P extends Path = Path> {
  id: string;
  name: string;
  enabled: boolean;
  priority: number;
  condition: string;
  flow_external_id?: string | null;
  paths: P[];
  /** Weights that tune themselves (optional: a group saved before them has none). */
  optimize?: 'off' | 'on';
  optimize_metric?: OptimizeMetric;
  optimize_target?: OptimizeTarget;
  optimize_floor?: number;
  optimize_min_clicks?: number;
  optimize_window_days?: number;
}

let lastRowId = 0;
/**
 * §3.4: a new row's id is a time stamp made by the editor; two rows made in the same millisecond (a group
 * duplicated with its paths) get consecutive ones, so ids stay unique in the flow.
 */
export function newRowId(): string {
  lastRowId = Math.max(Date.now(), lastRowId + 1);
  return String(lastRowId);
}

export function createPathGroup<P extends Path>(): PathGroup<P> {
  return { id: newRowId(), name: '', enabled: true, priority: 0, condition: ALL_CONDITION_TEXT, paths: [] };
}

const pathBase = () => ({
  id: newRowId(),
  name: '',
  enabled: true,
  weight: DEFAULT_WEIGHT,
  daily_cap: DEFAULT_DAILY_CAP,
  postback_daily_cap: DEFAULT_POSTBACK_DAILY_CAP,
  subaff: '',
});

/** An API path on the first offer, enabled as that offer is (§3.4, §4); no offer yet when there is none. */
export function createApiPath(firstOffer?: { value: string; enabled?: boolean }): ApiPath {
  return { ...pathBase(), enabled: firstOffer?.enabled ?? true, offer_external_id: firstOffer?.value ?? '' };
}

export function createTrackerPath(): TrackerPath {
  return { ...pathBase(), offers: [], landers: [], redirect_mode: null };
}

export function createOfferRow(): PathOfferRow {
  return { id: newRowId(), offer_external_id: '', weight: DEFAULT_WEIGHT, enabled: true };
}

export function createLanderRow(): PathLanderRow {
  return { id: newRowId(), lander_external_id: '', weight: DEFAULT_WEIGHT, enabled: true };
}

/** A copy of a path with new ids, down to its offer and lander rows. */
export function duplicatePath<P extends Path>(path: P): P {
  const copy = structuredClone(path);
  copy.id = newRowId();
  if ('offers' in copy) {
    copy.offers = copy.offers.map((row) => ({ ...row, id: newRowId() }));
    copy.landers = copy.landers.map((row) => ({ ...row, id: newRowId() }));
  }
  return copy;
}

/** §4: the copy gets a new id and its paths new ids; it goes last (the repeater appends it). */
export function duplicatePathGroup<P extends Path>(group: PathGroup<P>): PathGroup<P> {
  return { ...structuredClone(group), id: newRowId(), paths: group.paths.map(duplicatePath) };
}

/** The condition as the builder and the server store it: pruned JSON text; unreadable text is left alone. */
export function serializeCondition(condition: unknown): string {
  if (condition === null || condition === undefined || condition === '') return ALL_CONDITION_TEXT;
  const text = typeof condition === 'string' ? condition : JSON.stringify(condition);
  const parsed = parseConditionText(text, Number.POSITIVE_INFINITY);
  return parsed.tree ? JSON.stringify(pruneCondition(parsed.tree)) : text;
}

/**
 * After every change (a drag above all, §4): priority = row index and each condition re-serialised. The
 * builder reports text in this same form, so a group being edited keeps its text as it is.
 */
export function normalizePathGroups<P extends Path>(groups: PathGroup<P>[]): PathGroup<P>[] {
  return withPriorities(groups).map((group) => {
    const condition = serializeCondition(group.condition);
    return condition === group.condition ? group : { ...group, condition };
  });
}

/** What a header needs to know of an offer: API offers carry `enabled`, tracker offers do not. */
export type OfferEnabled = (offerExternalId: string) => boolean | undefined;

/**
 * §2.8: the group has paths and every offer in them is disabled. An API path's offer is disabled when the
 * offer is; a tracker path's offer rows carry their own `enabled`. A group whose paths hold no offer at
 * all gets no notice (there is nothing disabled to point at).
 */
export function allOffersDisabled(group: PathGroup, offerEnabled: OfferEnabled): boolean {
  const flags: boolean[] = [];
  for (const path of group.paths) {
    if ('offers' in path) {
      for (const row of path.offers) flags.push(row.enabled !== false && offerEnabled(row.offer_external_id) !== false);
    } else if (path.offer_external_id) {
      flags.push(offerEnabled(path.offer_external_id) !== false);
    }
  }
  return group.paths.length > 0 && flags.length > 0 && flags.every((enabled) => !enabled);
}

/**
 * §4: a group starts collapsed unless it is new or its key fields are empty. A group's key field is its
 * list of paths (a group without paths routes nowhere); a path's is what it sends to: the offer of an API
 * path, the offer and lander rows of a tracker path.
 */
export function pathGroupStartsExpanded(group: PathGroup, isNew: boolean): boolean {
  return isNew || group.paths.length === 0;
}

export function pathStartsExpanded(path: Path, isNew: boolean): boolean {
  if (isNew) return true;
  if ('offers' in path) return path.offers.length === 0 && path.landers.length === 0;
  return !path.offer_external_id;
}

/** §4: an offer or lander row shows its weight and switch once it names an offer or lander. */
export function routeRowExpanded(externalId: string | null | undefined): boolean {
  return Boolean(externalId);
}

/** The stored value as groups; anything else (nothing loaded yet) is no groups. */
export function readPathGroups<P extends Path>(value: unknown): PathGroup<P>[] {
  return Array.isArray(value) ? (value as PathGroup<P>[]) : [];
}

/** The messages of one row inside a repeater's `fieldErrors`: `2.paths.0.weight` under `2.` → `paths.0.weight`. */
export function errorsUnder(
  fieldErrors: Record<string, string> | undefined,
  prefix: string,
): Record<string, string> | undefined {
  if (!fieldErrors) return undefined;
  const inside = Object.entries(fieldErrors)
    .filter(([path]) => path.startsWith(`${prefix}.`))
    .map(([path, message]) => [path.slice(prefix.length + 1), message] as const);
  return inside.length > 0 ? Object.fromEntries(inside) : undefined;
}
