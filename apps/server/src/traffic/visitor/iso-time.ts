// Event times as stored: ISO 8601 in UTC with milliseconds (`Date.prototype.toISOString`), for every
// click. The part up to the second is the same for every click in that second, so it is formatted once
// (toISOString formats the whole date each time; bench/README.md).

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** `date.toISOString()`, the same text (and the same RangeError for an invalid date). */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    const full = date.toISOString();
    // Every ISO time ends with `.mmmZ`, whatever the year's width.
    cachedPrefix = full.slice(0, -4);
    cachedSecond = second;
    return full;
  }
  const fraction = ms - second * 1000;
  return `${cachedPrefix}${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}Z`;
}
