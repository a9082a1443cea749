// The JSON Schemas of every answer, one file per published version, shipped in the partner SDK
// (libs/sdk/schemas/v<version>.json) for strict clients: each bundles every operation's answer
// body schemas, by operationId and status, as `$defs["<operationId>.<status>"]`, with the component
// schemas they use under `$defs` too, so the file is self-contained (docs/partners.md, "Strict
// clients: the answers' JSON Schemas"). What is not JSON Schema 2020-12 (OpenAPI's `discriminator`
// and `example`, `x-` extensions) is left out, so Ajv's strict mode takes the file as it is.
// `check` fails when a committed file is not what `generate` makes of the documents today.
// Usage: node scripts/sdk-schemas.mjs generate|check
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const CONTRACTS = 'openapi';
const OUTPUT = 'libs/sdk/schemas';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const JSON_MEDIA = ['application/json', 'application/problem+json'];
const SCHEMA_REF = '#/components/schemas/';
/** OpenAPI's own keywords in a schema object, not JSON Schema's: Ajv's strict mode refuses them. */
const NOT_JSON_SCHEMA = new Set(['discriminator', 'example', 'xml', 'externalDocs']);

/** Every published document, oldest first: openapi/v<major>.<minor>.<patch>.yaml. */
export function publishedVersions() {
  return readdirSync(CONTRACTS)
    .map((file) => /^v(\d+)\.(\d+)\.(\d+)\.yaml$/.exec(file))
    .filter(Boolean)
    .sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[3] - b[3])
    .map((match) => `${match[1]}.${match[2]}.${match[3]}`);
}

const pointer = (document, ref) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => node?.[key], document);

const resolve = (document, value) => (value && typeof value.$ref === 'string' ? resolve(document, pointer(document, value.$ref)) : value);

/**
 * A schema of the document rewritten for the bundle: component references point into `$defs`
 * (each one used is collected into `used`), other local references are inlined, and OpenAPI's
 * own keywords are dropped.
 */
function rewrite(document, schema, used) {
  if (Array.isArray(schema)) return schema.map((item) => rewrite(document, item, used));
  if (schema === null || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith(SCHEMA_REF)) {
    const { $ref, ...siblings } = schema;
    return rewrite(document, { ...pointer(document, $ref), ...siblings }, used);
  }
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (NOT_JSON_SCHEMA.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref') {
      const name = value.slice(SCHEMA_REF.length);
      used.add(name);
      out.$ref = `#/$defs/${name}`;
    } else if (key === 'properties' || key === '$defs' || key === 'patternProperties' || key === 'dependentSchemas') {
      // Maps of names to schemas: the names are data, never keywords.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, rewrite(document, item, used)]));
    } else if (key === 'examples' || key === 'enum' || key === 'const' || key === 'default' || key === 'required') {
      out[key] = value;
    } else {
      out[key] = rewrite(document, value, used);
    }
  }
  return out;
}

/** The bundle of one version's answers: see the comment at the top. */
export function answerSchemas(document) {
  const version = document.info.version;
  const used = new Set();
  const answers = {};
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const [status, declared] of Object.entries(operation.responses ?? {})) {
        const content = resolve(document, declared).content ?? {};
        const media = JSON_MEDIA.find((type) => content[type]?.schema !== undefined);
        if (media) answers[`${operation.operationId}.${status}`] = rewrite(document, content[media].schema, used);
      }
    }
  }
  // Components used by components: followed until no new name appears.
  const components = {};
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop();
    if (name in components) continue;
    const found = new Set();
    components[name] = rewrite(document, document.components.schemas[name], found);
    for (const next of found) if (!(next in components)) pending.push(next);
  }
  const sorted = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((name) => [name, components[name]]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://schemas.scheduling.example/answers/v${version}.json`,
    title: `Answers of the Business Scheduling API ${version}`,
    description:
      `Generated from openapi/v${version}.yaml by scripts/sdk-schemas.mjs; never edited. The body of the answer of ` +
      `an operation with a status is $defs["<operationId>.<status>"] (e.g. $defs["getMe.200"]); the component ` +
      `schemas are $defs too. Validate an answer against the file of the version in its Api-Version header.`,
    $defs: { ...answers, ...sorted },
  };
}

const render = (bundle) => `${JSON.stringify(bundle, null, 2)}\n`;
const fileOf = (version) => join(OUTPUT, `v${version}.json`);
const readDocument = (version) => parse(readFileSync(join(CONTRACTS, `v${version}.yaml`), 'utf8'));

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv[2];
  if (mode !== 'generate' && mode !== 'check') {
    console.error('Usage: node scripts/sdk-schemas.mjs generate|check');
    process.exit(2);
  }
  const versions = publishedVersions();
  if (mode === 'generate') {
    mkdirSync(OUTPUT, { recursive: true });
    for (const version of versions) writeFileSync(fileOf(version), render(answerSchemas(readDocument(version))));
    console.log(`Generated ${versions.map(fileOf).join(', ')}.`);
  } else {
    const stale = versions.filter((version) => {
      try {
        return readFileSync(fileOf(version), 'utf8') !== render(answerSchemas(readDocument(version)));
      } catch {
        return true;
      }
    });
    const extra = readdirSync(OUTPUT).filter((file) => !versions.some((version) => file === `v${version}.json`));
    for (const version of stale) console.error(`${fileOf(version)} differs from openapi/v${version}.yaml.`);
    for (const file of extra) console.error(`${join(OUTPUT, file)} is no published version's.`);
    if (stale.length > 0 || extra.length > 0) {
      console.error('Run `npm run contract:generate` and commit the result.');
      process.exit(1);
    }
    console.log(`The SDK's answer schemas in ${OUTPUT} are up to date with ${versions.map((v) => `openapi/v${v}.yaml`).join(', ')}.`);
  }
}
