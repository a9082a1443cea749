// The checks of `npm run contract:compat` that Optic's breaking-change rules leave out (docs/design-record.md#d13):
// a 1.2.0 response may gain no field and no enum value (its schemas are closed, and partners'
// generated clients are strict), the notices of `webhooks:` (which Optic does not diff) may not
// change at all, and no request of an earlier version may be narrowed in any way (a bound, a
// format, a pattern, an enum value, a required property or parameter, a closed object, a type:
// contract-compat-requests.mjs finds them, Optic missing most) but for the exceptions listed here.
import { requestNarrowings } from './contract-compat-requests.mjs';

/**
 * The request rules a version narrows on purpose: the only exceptions to "a request an earlier
 * version accepted is accepted now" (docs/design-record.md#d13). Each names the version that
 * narrows, where (the JSON pointers, in that version's document, of the schemas that narrow: every
 * operation using one is covered, and nothing else), what narrowed (`keyword` and its new value
 * `to`) and why. Any other narrowing fails the gate; an entry no narrowing uses fails its test.
 */
export const ALLOWED_NARROWINGS = [
  {
    version: '1.3.0',
    at: [
      '#/components/schemas/CreateClientRequest/properties/name',
      '#/components/schemas/CreateClientRequest/properties/guardianName',
      '#/components/schemas/NewClientForAppointment/properties/name',
    ],
    keyword: 'pattern',
    to: '^[^\\x00-\\x1F\\x7F]*$',
    reason:
      'Single-line text (names) refuses control characters: a lone CR in a name reached the SUMMARY and CN lines of ' +
      'calendar invitations and the headers of e-mails, where it starts a new line of its own (docs/design-record.md#hardening).',
  },
  {
    version: '1.3.0',
    at: ['#/components/schemas/CancelAppointmentRequest/properties/reason'],
    keyword: 'pattern',
    to: '^[^\\x00-\\x08\\x0B-\\x1F\\x7F]*$',
    reason: 'Multi-line text (a cancellation reason) keeps line feeds and tabs only, for the same reason.',
  },
  {
    version: '1.4.0',
    at: ['#/components/parameters/Cursor/schema'],
    keyword: 'minLength',
    to: 1,
    reason:
      'Stated in 1.4.0, refused before too: an empty cursor was never one this service issued, so it answered 400 ' +
      'CURSOR_INVALID and still does (docs/design-record.md#d23, "The document tells the whole truth").',
  },
  {
    version: '1.4.0',
    at: ['#/components/schemas/WebhookUrl'],
    keyword: 'format',
    to: 'uri',
    reason:
      'Stated in 1.4.0, refused before too: a webhook address that is not an absolute URI was refused with 400 ' +
      'WEBHOOK_URL_REFUSED and is now 400 VALIDATION_FAILED naming /url (docs/design-record.md#d23).',
  },
];

/**
 * Request rules a later version relaxes in a way the check cannot prove (a pattern that accepts
 * more): each `to` accepts every string `from` accepted, so a request accepted then is accepted
 * now. Matched like ALLOWED_NARROWINGS, and on `from` too.
 */
export const ALLOWED_RELAXATIONS = [
  {
    version: '1.4.0',
    at: [
      '#/components/schemas/CreateClientRequest/properties/phone',
      '#/components/schemas/NewClientForAppointment/properties/phone',
      '#/components/parameters/ClientPhoneFilter/schema',
    ],
    keyword: 'pattern',
    from: '^\\+[0-9][0-9 ().-]{5,30}$',
    to: '^\\+?[0-9][0-9 ().-]{5,30}$',
    reason: "A client phone may be written in the business's national form: the leading + is optional (docs/design-record.md#d23).",
  },
];

/** Where a narrowing is: the operation, the parameter or body, and the JSON pointer inside it. */
export const narrowingLocation = (narrowing) => `${narrowing.operation} ${narrowing.part}${narrowing.path ? ` ${narrowing.path}` : ''}`;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The listed exception that allows `narrowing`, made by `version`, if any. */
function exceptionFor(narrowing, version) {
  return [...ALLOWED_NARROWINGS, ...ALLOWED_RELAXATIONS].find(
    (entry) =>
      entry.version === version &&
      entry.at.includes(narrowing.at) &&
      entry.keyword === narrowing.keyword &&
      same(entry.to, narrowing.to) &&
      (!('from' in entry) || same(entry.from, narrowing.from)),
  );
}

/**
 * Every narrowing of a request of `frozen` by `current`, split into those a listed exception
 * allows (with it) and the refused ones, each refusal a line naming the version pair, the
 * operation, the parameter or body and JSON pointer, what narrowed and where the document says so.
 */
export function requestCompatibility(frozen, current) {
  const pair = `${frozen.info?.version ?? 'earlier'} → ${current.info?.version ?? 'later'}`;
  const allowed = [];
  const refused = [];
  for (const narrowing of requestNarrowings(frozen, current)) {
    const exception = exceptionFor(narrowing, current.info?.version);
    if (exception) allowed.push({ narrowing, exception });
    else refused.push(`${pair} ${narrowingLocation(narrowing)}: ${narrowing.what}${narrowing.at ? ` (${narrowing.at})` : ''}`);
  }
  return { allowed, refused };
}

/** Keywords that describe a schema without constraining it: changing them breaks nobody. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', '$comment', 'externalDocs', 'deprecated']);

const resolveRef = (document, ref) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => node?.[key], document);

/** The schema with every local $ref replaced by what it names and the prose keywords dropped. */
export function structural(document, node, seen = new Set()) {
  if (Array.isArray(node)) return node.map((item) => structural(document, item, seen));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return { $ref: node.$ref };
    return structural(document, resolveRef(document, node.$ref), new Set([...seen, node.$ref]));
  }
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (PROSE.has(key)) continue;
    out[key] = key === 'properties' ? structuralProperties(document, value, seen) : structural(document, value, seen);
  }
  return out;
}

function structuralProperties(document, properties, seen) {
  return Object.fromEntries(Object.entries(properties ?? {}).map(([name, schema]) => [name, structural(document, schema, seen)]));
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(document) {
  const out = new Map();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) if (item[method]) out.set(`${method.toUpperCase()} ${path}`, item[method]);
  }
  return out;
}

/**
 * Where two structural schemas differ, as JSON paths with what changed. An enum may grow, and a
 * pattern change, only where `mayGrow(path)` says so (under an operation marked x-scope-list-grows,
 * GET /me, which shows the key as it is: the scopes it holds, and its prefix, which for a test key
 * is rk_test_, docs/design-record.md#d19).
 */
export function differences(before, after, path = '', mayGrow = () => false) {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (Array.isArray(before) || Array.isArray(after) || !before || !after || typeof before !== 'object' || typeof after !== 'object') {
    return [`${path || '/'}: ${JSON.stringify(before)} became ${JSON.stringify(after)}`];
  }
  const found = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const here = `${path}/${key}`;
    if (!(key in after)) found.push(`${here}: removed`);
    else if (!(key in before)) found.push(`${here}: added`);
    else if (key === 'enum' && Array.isArray(before.enum) && Array.isArray(after.enum) && mayGrow(here)) {
      const lost = before.enum.filter((value) => !after.enum.includes(value));
      if (lost.length > 0) found.push(`${here}: lost ${JSON.stringify(lost)}`);
    } else if (key === 'pattern' && typeof before.pattern === 'string' && typeof after.pattern === 'string' && mayGrow(here)) {
      // The widened pattern must still accept what the old one described (its example prefix).
      if (!new RegExp(after.pattern).test('rk_live_AbC1'))
        found.push(`${here}: ${JSON.stringify(before.pattern)} became ${JSON.stringify(after.pattern)}`);
    } else found.push(...differences(before[key], after[key], here, mayGrow));
  }
  return found;
}

/**
 * Every way `current` answers an operation of `frozen` or sends one of its notices differently
 * than `frozen` describes, and every request rule it narrows. With `responses: false` (from 1.4.0
 * on, whose answers are shaped for each caller's pinned version, docs/design-record.md#d22) only
 * the requests are compared: an answer may grow, since a caller pinned to an older version never
 * sees the growth.
 */
export function compatibilityProblems(frozen, current, { responses = true } = {}) {
  const problems = [];
  const now = operations(current);
  for (const [name, before] of operations(frozen)) {
    const after = now.get(name);
    if (!after) {
      problems.push(`${name}: removed`);
      continue;
    }
    if (!responses) continue;
    const mayGrow = (path) =>
      after['x-scope-list-grows'] === true && (/\/properties\/scopes\//.test(path) || path.endsWith('/properties/prefix/pattern'));
    for (const [status, response] of Object.entries(before.responses ?? {})) {
      const then = structural(frozen, response);
      const nowResponse = after.responses?.[status];
      if (!nowResponse) {
        problems.push(`${name} ${status}: no longer documented`);
        continue;
      }
      const later = structural(current, nowResponse);
      for (const [type, media] of Object.entries(then.content ?? {})) {
        const laterMedia = later.content?.[type];
        if (!laterMedia) problems.push(`${name} ${status} ${type}: no longer answered`);
        else problems.push(...differences(media.schema, laterMedia.schema, '', mayGrow).map((d) => `${name} ${status} ${type}${d}`));
      }
    }
  }
  problems.push(...requestCompatibility(frozen, current).refused);
  const laterWebhooks = current.webhooks ?? {};
  for (const [type, item] of Object.entries(frozen.webhooks ?? {})) {
    const later = laterWebhooks[type];
    if (!later) {
      problems.push(`notice ${type}: removed`);
      continue;
    }
    if (!responses) continue;
    problems.push(
      ...differences(structural(frozen, item.post?.requestBody), structural(current, later.post?.requestBody)).map(
        (d) => `notice ${type}${d}`,
      ),
    );
  }
  return problems;
}
