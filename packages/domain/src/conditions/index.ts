export * from './bulk-insert.js';
export * from './convert.js';
export * from './describe.js';
export * from './evaluate.js';
export * from './fields.js';
export * from './measure.js';
export * from './regions.js';

// The regions' data for REGIONS and findRegion (left out of the dashboard's first download: region-data.ts).
import './region-data.js';

export * from './schema.js';
export * from './summary.js';
export * from './trace-marks.js';
export * from './types.js';
export * from './value-checks.js';
export * from './visitor-values.js';
