import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import { seed } from '../../utils/seed.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/**
 * Creations at once never pass the limit of 10 active keys per mode (docs/design-record.md#d28):
 * each counts and inserts in a transaction that waits for the business's other creations.
 */
let context: TestContext;

beforeAll(async () => {
  context = await startTestContext({ app: 'admin' });
});
afterAll(async () => {
  await context.close();
});

const TRIALS = 4;
const AT_ONCE = 4;

describe.each([
  ['live', false],
  ['test', true],
] as const)('creations of %s keys at once, at 9 keys', (mode, test) => {
  it(`make exactly the tenth, and refuse the others with KEY_LIMIT (${TRIALS} trials)`, async () => {
    const keys = context.app.get(ApiKeysService);
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const business = await seed({ plan: 'SOLO', keys: [] });
      const create = (name: string) =>
        keys.create({ businessSlug: business.slug, memberEmail: business.ownerEmail!, name, scopes: ['services.read'], test });
      for (let i = 0; i < 9; i += 1) await create(`Key ${i}`);

      const outcomes = await Promise.allSettled(Array.from({ length: AT_ONCE }, (_, i) => create(`At once ${i}`)));
      const made = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [(outcome.reason as DomainError).code ?? String(outcome.reason)] : [],
      );
      expect({ trial, made: made.length, refused }).toEqual({ trial, made: 1, refused: Array(AT_ONCE - 1).fill('KEY_LIMIT') });
      const active = (await keys.list(business.slug)).keys.filter((key) => key.mode === mode);
      expect({ trial, active: active.length }).toEqual({ trial, active: 10 });
    }
  });
});
