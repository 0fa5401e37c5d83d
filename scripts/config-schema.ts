// Writes schema/config.schema.json from the zod config schema (src/config/jsonSchema.ts), and
// model-gate.yml, every setting documented, from that schema (src/config/documented.ts).
// npm run schema; test/config/jsonSchema.test.ts fails while either file is not current.
import { writeFileSync } from 'node:fs';
import { CHECKS } from '../src/checks/builtIn.js';
import { configSchema } from '../src/config/schema.js';
import { documentedConfig, REPOSITORY_CONFIG, type SchemaNode } from '../src/config/documented.js';
import { configJsonSchema } from '../src/config/jsonSchema.js';

const schema = configJsonSchema(configSchema(CHECKS));
writeFileSync(
  new URL('../schema/config.schema.json', import.meta.url),
  `${JSON.stringify(schema, null, 2)}\n`,
);
writeFileSync(
  new URL('../model-gate.yml', import.meta.url),
  documentedConfig(schema as SchemaNode, REPOSITORY_CONFIG),
);
