/**
 * The node flags of an npm script that runs `node [flags] <script>` (package.json's text), so the
 * bench runs the API and the worker as operators do, and a test holds the image and docker-compose
 * to the same flags.
 */
export function nodeFlagsOf(packageJson: string, npmScript: string, script: string): string[] {
  const { scripts } = JSON.parse(packageJson) as { scripts: Record<string, string> };
  // After the environment it sets (NODE_ENV=${NODE_ENV:-production}): the bench sets its own.
  const command = scripts[npmScript].split(/\s+/).filter((word) => !/^[A-Z_]+=/.test(word));
  if (command[0] !== 'node' || command.at(-1) !== script) throw new Error(`${npmScript} is not "node [flags] ${script}"`);
  return command.slice(1, -1);
}
