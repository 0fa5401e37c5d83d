// Writes schema/config.schema.json from the zod config schema (src/config/jsonSchema.ts).
// npm run schema; test/config/jsonSchema.test.ts fails while the committed file is not current.
import { writeFileSync } from 'node:fs';
import { configSchema } from '../src/checks/registry.js';
import { configJsonSchema } from '../src/config/jsonSchema.js';

writeFileSync(
  new URL('../schema/config.schema.json', import.meta.url),
  `${JSON.stringify(configJsonSchema(configSchema()), null, 2)}\n`,
);
