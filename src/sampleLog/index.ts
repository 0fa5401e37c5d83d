/** The sample log: its record format, reading, appending, locking, and which record counts. */
export * from './counted.js';
export * from './countedLogs.js';
export * from './formats.js';
export * from './lock.js';
export * from './read.js';
export * from './schema.js';
export * from './tally.js';
export * from './write.js';
export * from './prune.js';
export * from './resumeIndex.js';
