// The report's sources: which backend answers (choose.ts), the interface each implements (source.ts),
// and the one place they are put together (wiring.ts).
export { chooseSource, pagedOrder, type SourceCapabilities, type SourceChoice } from './choose.js';
export type { ReportSource, SourceName, TableRead } from './source.js';
export { type ReportSources, reportSources, type SourceOptions } from './wiring.js';
