/**
 * Secrets a command line carries in its flags, which the stream rules cannot see because
 * the value stands alone (`mysql -phunter2`, `sshpass -p hunter2 ssh host`, `app
 * --password x`): a label built from argv (or given with `--label`) has the value of every
 * such flag replaced with `[REDACTED:command-flag]` before the ordinary rules run over it.
 *
 * Covered: `--password X`/`--password=X` and the same for `passwd`, `pass`, `pwd`,
 * `token`, `secret`, `api-key`/`apikey`, `access-token`, `auth-token`, `client-secret`,
 * `private-key` (one or two dashes, any case); `-pX` (a value attached to `-p`, as
 * mysql takes it; `mkdir -pv` loses its `v`, an over-redaction kept on purpose);
 * `sshpass -p X`; `-u user:pass` and `--user user:pass` (the user stays). Limits: words
 * are split on whitespace, so a value in quotes that holds spaces is redacted only up to
 * its first space; a secret in a flag of another name is left to the ordinary rules.
 *
 * @category redaction
 * @example
 * ```ts
 * import { redactCommandFlags } from "@spool/transforms/internal";
 * redactCommandFlags("mysql -u root -phunter2 db"); // "mysql -u root -p[REDACTED:command-flag] db"
 * ```
 */

export const COMMAND_FLAG_MARKER = "[REDACTED:command-flag]";

const SECRET_FLAG =
  /^(--?(?:password|passwd|pass|pwd|token|secret|api-?key|access-token|auth-token|client-secret|private-key))(=.*)?$/i;
const USER_FLAG = /^(-u|--user)(=.*)?$/;

/**
 * `label` with the values of secret-bearing flags (`--password`, `--token=…`, `-p…`,
 * `sshpass -p`, a `-u user:pass`) replaced by {@link COMMAND_FLAG_MARKER}: for making a
 * command line fit for a receipt's label or a log.
 *
 * @category redaction
 * @example
 * ```ts
 * import { redactCommandFlags } from "@spool/transforms/internal";
 * redactCommandFlags("deploy --token=abc123 prod"); // "deploy --token=[REDACTED:command-flag] prod"
 * ```
 */
export function redactCommandFlags(label: string): string {
  // Words and the whitespace between them, so the label keeps its spacing.
  const parts = label.split(/(\s+)/);
  let pending: "secret" | "user" | null = null;
  let sshpass = false;
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i]!;
    if (word === "") continue;
    if (pending !== null) {
      parts[i] = pending === "user" ? userValue(word) : COMMAND_FLAG_MARKER;
      pending = null;
      continue;
    }
    parts[i] = redactWord(word, sshpass, (next) => {
      pending = next;
    });
    if (/(^|\/)sshpass$/.test(word)) sshpass = true;
  }
  return parts.join("");
}

function redactWord(
  word: string,
  sshpass: boolean,
  expect: (next: "secret" | "user") => void,
): string {
  const secret = SECRET_FLAG.exec(word);
  if (secret) {
    if (secret[2] === undefined) expect("secret");
    return secret[2] === undefined ? word : `${secret[1]}=${COMMAND_FLAG_MARKER}`;
  }
  const user = USER_FLAG.exec(word);
  if (user) {
    if (user[2] === undefined) expect("user");
    return user[2] === undefined ? word : `${user[1]}=${userValue(user[2].slice(1))}`;
  }
  if (word === "-p") {
    if (sshpass) expect("secret");
    return word;
  }
  if (/^-p[^-]/.test(word)) return `-p${COMMAND_FLAG_MARKER}`;
  return word;
}

/** `user:pass` keeps the user; a value without a colon is a user name and stays. */
function userValue(value: string): string {
  const colon = value.indexOf(":");
  return colon === -1 ? value : `${value.slice(0, colon + 1)}${COMMAND_FLAG_MARKER}`;
}
