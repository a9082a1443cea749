// CI gate: fails when the entities and the migrations describe different schemas.
import { pendingSchemaChanges, withScratchDatabase } from './schema-diff.mjs';

const diff = await withScratchDatabase(pendingSchemaChanges);
if (diff.upQueries.length > 0) {
  console.error('Entities and migrations diverge. Missing from the migrations:');
  for (const q of diff.upQueries) console.error(`  ${q.query};`);
  console.error('Run `npm run migration:generate -- <Name>` and review the new file.');
  process.exit(1);
}
console.log('Migrations match the entities.');
