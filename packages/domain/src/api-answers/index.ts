export * from './accounts.js';
export * from './common.js';
export * from './events.js';
export * from './lander-files.js';
export * from './operations.js';
export * from './optimization.js';
export * from './reports.js';
export * from './simulate.js';
