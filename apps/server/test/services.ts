// The services the API tests run on (PostgreSQL, Redis, ClickHouse, chdb) are real. When one is missing,
// its suites say so loudly and are skipped; under CI=true (CI has every one) each is a failing test that
// names what was tried, as a skip would hide that the suite never ran.
import { describe, it } from 'vitest';

export const IN_CI = process.env.CI === 'true';

export interface Service {
  /** What is missing, as the banner and the failing test name it: "Redis is NOT reachable at …". */
  missing: string;
  /** Why, or null when the service is there. */
  problem: string | null;
  /** What its suites test, for the banner: "the Redis tests (shared caps and login limits)". */
  suites: string;
  /** How to get it: "Start Redis or set TEST_REDIS_URL." */
  fix: string;
}

/** Prints the banner once for a missing service; nothing when it is there. */
export function announce(service: Service): void {
  if (service.problem === null) return;
  const rule = '!'.repeat(78);
  console.warn(
    [
      '',
      rule,
      `!!  ${service.missing}`,
      `!!  (${service.problem.split('\n')[0]})`,
      IN_CI
        ? `!!  CI=true: ${service.suites} FAIL. ${service.fix}`
        : `!!  ${service.suites} are SKIPPED. ${service.fix}`,
      rule,
      '',
    ].join('\n'),
  );
}

/** `describe` when the service is there; else a skip, or under CI=true one failing test. */
export function describeNeeding(service: Service, what: string): (title: string, suite: () => void) => void {
  if (service.problem === null) return describe;
  if (!IN_CI) return describe.skip;
  return (title) =>
    describe(title, () => {
      it(`has ${what} to run on`, () => {
        throw new Error(
          `${service.missing} (${service.problem}): CI=true, so this suite fails instead of being skipped`,
        );
      });
    });
}
