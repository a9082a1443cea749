// The registry mirror this project is developed against serves only some platforms' builds of
// packages that ship one build per platform (msgpackr-extract, unrs-resolver), so npm leaves
// the others out of package-lock.json and `npm ci` then refuses the lock as out of sync.
// This adds the missing optional entries with their os/cpu, read from the package name; npm ci
// skips them on other platforms as it would with a complete lock. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix'];
const CPU = {
  x64: 'x64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (lock.packages[target] || lock.packages[`${path}/${target}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((p) => OS.includes(p));
    const cpu = parts.map((p) => CPU[p]).find(Boolean);
    if (!os || !cpu) continue;
    lock.packages[target] = { version, optional: true, os: [os], cpu: [cpu] };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Added ${added} platform-specific optional entries.`);
