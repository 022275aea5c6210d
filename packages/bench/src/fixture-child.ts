/** A real child process that writes one fixture and exits with its code: `node fixture-child.js NAME`. */
import { FIXTURES } from "./fixture-data.js";

const fixture = FIXTURES.find((f) => f.name === process.argv[2]);
if (!fixture) {
  process.stderr.write(`fixture-child: unknown fixture ${process.argv[2]}\n`);
  process.exit(64);
}
const writeText = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve) =>
    text.length === 0 ? resolve() : stream.write(text, () => resolve()),
  );
await writeText(process.stdout, fixture.stdout());
await writeText(process.stderr, fixture.stderr());
process.exitCode = fixture.exitCode;
