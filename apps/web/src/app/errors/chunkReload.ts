// §2.2, §8: a page part that fails to load (usually after a new deploy) forces one full reload.

const CHUNK_ERROR_PATTERNS = [
  /^Loading chunk/,
  /Loading CSS chunk/,
  /Failed to fetch dynamically imported module/,
  /Importing a module script failed/,
  /error loading dynamically imported module/,
];

export const CHUNK_RELOAD_STORAGE_KEY = 'switchyard.chunkReloadAt';
/** A second failure this soon after a reload shows the error page instead of reloading forever. */
const RELOAD_GUARD_MS = 10_000;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message));
}

/** Reloads the page unless it was just reloaded for the same reason; true when a reload was started. */
export function reloadOnce(now = Date.now(), reload: () => void = () => window.location.reload()): boolean {
  const last = Number(sessionStorage.getItem(CHUNK_RELOAD_STORAGE_KEY) ?? 0);
  if (now - last < RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(now));
  reload();
  return true;
}
