export * from './bulk-insert.js';
export * from './convert.js';
export * from './describe.js';
export * from './evaluate.js';
export * from './fields.js';
export * from './measure.js';
export * from './schema.js';
export * from './types.js';
