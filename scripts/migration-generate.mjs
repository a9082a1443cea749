// Writes a new migration with what the entities need beyond the existing migrations.
// Review it before committing: expression indexes and extensions are written by hand.
import { writeFileSync } from 'node:fs';
import { pendingSchemaChanges, withScratchDatabase } from './schema-diff.mjs';

const name = process.argv[2];
if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
  console.error('usage: npm run migration:generate -- PascalCaseName');
  process.exit(2);
}
const diff = await withScratchDatabase(pendingSchemaChanges);
if (diff.upQueries.length === 0) {
  console.log('No changes: nothing written.');
  process.exit(0);
}
const timestamp = Date.now();
const className = `${name}${timestamp}`;
const literal = (sql) => '`' + sql.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${') + '`';
const line = (q) => `    await queryRunner.query(${literal(q.query)}${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`;
const file = `libs/database/src/migrations/${timestamp}-${name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}.ts`;
writeFileSync(
  file,
  `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${diff.upQueries.map(line).join('\n')}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${[...diff.downQueries].reverse().map(line).join('\n')}
  }
}
`,
);
console.log(`Wrote ${file}. Add ${className} to libs/database/src/migrations.ts.`);
