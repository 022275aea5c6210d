/**
 * Secrets a command line carries in its flags, which the stream rules cannot see because
 * the value stands alone (`mysql -phunter2`, `docker login -p hunter2`, `openssl …
 * -passin pass:hunter2`): a label built from argv (or given with `--label`) keeps every
 * word of its shape, and the value of each credential flag becomes
 * `[REDACTED:command-flag]`, before the ordinary rules run over it.
 *
 * Covered, for any command: `--password X`/`--password=X` and the same for `passwd`,
 * `pass`, `pwd`, `token`, `secret`, `api-key`/`apikey`, `access-token`, `auth-token`,
 * `client-secret`, `private-key`, `passphrase`, `http-password`, `ftp-password`,
 * `proxy-password` (one or two dashes, any case); `-u user:pass`, `--user user:pass` and
 * `--proxy-user` (the user stays); a word `pass:X` (OpenSSL's password argument).
 *
 * Covered for the commands that take them (by the command word's base name, from that
 * word on): `-pX` attached (mysql, mysqldump, mysqladmin, mariadb, 7z, unrar: `-p` alone
 * prompts, and the word after it is not a password); `-p X` (sshpass, psexec, mongo and
 * its tools, and after `login`: docker, podman, nerdctl, buildah, skopeo, helm, az, oras); `-a X` (redis-cli); `-w X`
 * (the ldap tools); `-P X` (sqlcmd, bcp, zip, unzip); `-k X` (openssl); `-U user%pass`
 * (smbclient); the password of `htpasswd -b`.
 *
 * Limits: words are split on whitespace, so a value in quotes that holds spaces is
 * redacted only up to its first space; a secret in a flag of another name, or of a
 * command not listed, is left to the ordinary rules.
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
  /^(--?(?:password|passwd|pass|pwd|token|secret|api-?key|access-token|auth-token|client-secret|private-key|passphrase|http-password|ftp-password|proxy-password))(=.*)?$/i;
const USER_FLAG = /^(-u|--user|--proxy-user)(=.*)?$/;

/** What a listed command takes a secret in (see the file comment). */
interface CommandSecrets {
  /** Flags whose next word is a secret. */
  readonly next?: readonly string[];
  /** A flag whose value, attached (`-pX`), is a secret. */
  readonly attached?: string;
  /** A flag whose next word is `user%password` (smbclient). */
  readonly userPercent?: string;
  /** The flags count only after this word (`docker login -p`; `docker run -p` publishes a port). */
  readonly after?: string;
}

const MYSQL: CommandSecrets = { attached: "-p" };
const DASH_P: CommandSecrets = { next: ["-p", "--password"] };
const LOGIN_P: CommandSecrets = { ...DASH_P, after: "login" };
const CAPITAL_P: CommandSecrets = { next: ["-P"] };
const LDAP: CommandSecrets = { next: ["-w"] };

const COMMANDS: ReadonlyMap<string, CommandSecrets> = new Map([
  ...[
    "mysql",
    "mysqldump",
    "mysqladmin",
    "mysqlimport",
    "mysqlshow",
    "mariadb",
    "mariadb-dump",
  ].map((name) => [name, MYSQL] as const),
  ...["7z", "7za", "7zz", "7zr", "unrar", "rar"].map((name) => [name, MYSQL] as const),
  ...["docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "az", "oras"].map(
    (name) => [name, LOGIN_P] as const,
  ),
  ...[
    "sshpass",
    "psexec",
    "psexec64",
    "mongo",
    "mongosh",
    "mongodump",
    "mongorestore",
    "mongoexport",
    "mongoimport",
  ].map((name) => [name, DASH_P] as const),
  ["redis-cli", { next: ["-a", "--pass"] }],
  ...["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd"].map(
    (name) => [name, LDAP] as const,
  ),
  ...["sqlcmd", "bcp", "zip", "unzip"].map((name) => [name, CAPITAL_P] as const),
  ["openssl", { next: ["-k"] }],
  ["smbclient", { userPercent: "-U" }],
  ["htpasswd", {}],
]);

/** The table's entry for a word that names a command (`/usr/bin/mysql`, `PsExec.exe`), else null. */
function commandOf(
  word: string,
): { readonly name: string; readonly secrets: CommandSecrets } | null {
  const name = word
    .slice(word.lastIndexOf("/") + 1)
    .toLowerCase()
    .replace(/\.exe$/, "");
  const secrets = COMMANDS.get(name);
  return secrets === undefined ? null : { name, secrets };
}

/** What the word after the current one is. */
type Pending = "secret" | "user" | "user-percent" | null;

/** The state of one pass over a label's words. */
interface Scan {
  command: { readonly name: string; readonly secrets: CommandSecrets } | null;
  /** Whether the command's `after` word (if it has one) has been seen. */
  armed: boolean;
  pending: Pending;
  /** htpasswd: in `-b` mode, positionals seen and the password's place among them. */
  htpasswd: { batch: boolean; positionals: number; password: number } | null;
}

/**
 * `label` with the values of secret-bearing flags (`--password`, `--token=…`, `mysql -p…`,
 * `docker login -p X`, `-passin pass:X`, a `-u user:pass`) replaced by
 * {@link COMMAND_FLAG_MARKER}, every other word and space kept: for making a command line
 * fit for a receipt's label or a log.
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
  const scan: Scan = { command: null, armed: false, pending: null, htpasswd: null };
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i]!;
    if (word !== "") parts[i] = redactWord(word, scan);
  }
  return parts.join("");
}

function redactWord(word: string, scan: Scan): string {
  const pending = scan.pending;
  scan.pending = null;
  if (pending === "secret") return COMMAND_FLAG_MARKER;
  if (pending === "user") return userValue(word, ":");
  if (pending === "user-percent") return userValue(word, "%");
  const command = commandOf(word);
  if (command !== null) {
    scan.command = command;
    scan.armed = command.secrets.after === undefined;
    scan.htpasswd =
      command.name === "htpasswd" ? { batch: false, positionals: 0, password: 2 } : null;
    return word;
  }
  return genericFlag(word, scan) ?? commandFlag(word, scan) ?? word;
}

/** The flags every command is read for; null when `word` is none of them. */
function genericFlag(word: string, scan: Scan): string | null {
  const secret = SECRET_FLAG.exec(word);
  if (secret) {
    if (secret[2] === undefined) scan.pending = "secret";
    return secret[2] === undefined ? word : `${secret[1]}=${COMMAND_FLAG_MARKER}`;
  }
  const user = USER_FLAG.exec(word);
  if (user) {
    if (user[2] === undefined) scan.pending = "user";
    return user[2] === undefined ? word : `${user[1]}=${userValue(user[2].slice(1), ":")}`;
  }
  if (word.startsWith("pass:") && word.length > 5) return `pass:${COMMAND_FLAG_MARKER}`;
  return null;
}

/** The flags of the current command (see the table); null when `word` is none of them. */
function commandFlag(word: string, scan: Scan): string | null {
  const secrets = scan.command?.secrets;
  if (secrets === undefined) return null;
  if (!scan.armed) {
    if (word === secrets.after) scan.armed = true;
    return null;
  }
  if (secrets.next?.includes(word)) {
    scan.pending = "secret";
    return word;
  }
  if (secrets.userPercent === word) {
    scan.pending = "user-percent";
    return word;
  }
  const attached = secrets.attached;
  if (attached !== undefined && word.length > attached.length && word.startsWith(attached))
    return `${attached}${COMMAND_FLAG_MARKER}`;
  return scan.htpasswd === null ? null : htpasswdWord(word, scan.htpasswd);
}

/**
 * `htpasswd -b[flags] FILE USER PASSWORD` (`-n`: no FILE): the password is the third
 * positional (the second with `-n`); `-C` takes a number.
 */
function htpasswdWord(word: string, h: NonNullable<Scan["htpasswd"]>): string | null {
  if (word.startsWith("-") && word.length > 1) {
    if (word.includes("b")) h.batch = true;
    if (word.includes("n")) h.password = 1;
    if (word.endsWith("C")) h.positionals--; // its number is not a positional
    return null;
  }
  const at = h.positionals++;
  return h.batch && at === h.password ? COMMAND_FLAG_MARKER : null;
}

/** `user<sep>pass` keeps the user; a value without the separator is a user name and stays. */
function userValue(value: string, sep: ":" | "%"): string {
  const at = value.indexOf(sep);
  return at === -1 ? value : `${value.slice(0, at + 1)}${COMMAND_FLAG_MARKER}`;
}
