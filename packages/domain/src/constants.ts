// Every number of §9, named once. Both the dashboard and the server import these.

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 40;
/** Largest page the API serves; `limit=0` asks for every record. */
export const MAX_PAGE_SIZE = 1000;

export const NOTIFICATION_TIMEOUT_MS = 5000;
export const NOTIFICATION_VERTICAL_ALIGN = 'top';
export const NOTIFICATION_HORIZONTAL_ALIGN = 'right';
export const NOTIFICATION_STACK_START_PX = 20;
export const NOTIFICATION_STACK_GAP_PX = 10;

export const TAG_MIN_LENGTH = 2;
export const TAG_MAX_LENGTH = 32;
export const BULK_INSERT_MIN_CHUNKS = 2;
export const SCROLLABLE_VALUES_ABOVE = 4;
export const MAX_TRAFFIC_SOURCE_PARAMETERS = 10;
export const CONDITION_MAX_DEPTH = 10;
/**
 * Node levels (every AND, OR, NOT and leaf on one branch) of any condition tree, whatever depth a caller
 * allows. The builder makes at most two per group level (a NOT and its group), so 64 is far above depth 10,
 * and far below the ~700 levels at which recursive readers (zod, pruning, the engine's compiled tests,
 * JSON.stringify) run out of stack.
 */
export const CONDITION_MAX_NESTING = 64;
/**
 * Nodes of one condition tree. The spec sets no number; a tree built by hand has tens, a generated one
 * a few hundred, and each leaf already holds up to 10,000 values. Every click runs each tree it meets,
 * so a tree of 100,000 nodes would be a cost on every click, not a rule.
 */
export const CONDITION_MAX_NODES = 5000;

export const DEFAULT_WEIGHT = 100;
export const DEFAULT_DAILY_CAP = 0;
export const DEFAULT_POSTBACK_DAILY_CAP = 0;
export const DEFAULT_PAYOUT = 0;
export const PAYOUT_MIN = 0;
export const PAYOUT_STEP = 0.01;

export const COPY_FEEDBACK_MS = 1000;
export const SIDEBAR_COLLAPSE_MIN_WIDTH_PX = 992;
export const PAGE_DATA_FETCH_DELAY_MS = 200;
export const PROGRESS_BAR_THROTTLE_MS = 200;
export const PROGRESS_BAR_DURATION_MS = 5000;
export const PROGRESS_BAR_HEIGHT_PX = 2;
export const SCROLL_VISIBILITY_THROTTLE_MS = 100;
export const DRAG_ANIMATION_MS = 200;
export const LINK_PREFETCH_IDLE_MS = 2000;

/** Lookup caches (§9): how long a loaded lookup list counts as fresh. */
export const LOOKUP_STALE_MS = {
  roles: 600_000,
  users: 60_000,
  workspaces: 10_000,
  /** Email weights and timezones are loaded only when empty. */
  once: Number.POSITIVE_INFINITY,
} as const;

export const LANGUAGES = ['en', 'fr', 'es', 'zh', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

export const AUTH_TOKEN_PREFIX = 'Bearer';
export const CURRENT_USER_STORAGE_KEY = 'auth.currentUser';
export const TOKEN_STORAGE_KEY = 'auth.token';

/** Sessions end after this long without use. */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** Failed logins allowed per IP and per account inside one window. */
export const LOGIN_FAILURES_PER_WINDOW = 10;
export const LOGIN_FAILURE_WINDOW_MS = 60_000;
export const PASSWORD_MIN_LENGTH = 8;
