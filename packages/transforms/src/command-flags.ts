/**
 * Secrets a command line carries in its flags, where the value stands alone (`mysql
 * -phunter2`, `docker login -p hunter2`, `openssl … -passin pass:hunter2`): a label built
 * from argv (or given with `--label`) keeps every word of its shape, and the value of each
 * credential flag becomes `[REDACTED:command-flag]`, before the ordinary rules run over
 * it. The word scan ({@link secretIn}) is also the stream rule `command-flag`'s
 * (`rules/command-line.ts`), for command lines written into the output.
 *
 * Covered, for any command: `--password X`/`--password=X` and the same for `passwd`,
 * `pass`, `pwd`, `token`, `secret`, `api-key`/`apikey`, `access-token`, `auth-token`,
 * `client-secret`, `private-key`, `passphrase`, `http-password`, `ftp-password`,
 * `proxy-password`, curl's `oauth2-bearer` (one or two dashes, any case); `-u user:pass`, `--user user:pass` and
 * `--proxy-user` (the user stays); a word `pass:X` (OpenSSL's password argument).
 *
 * Covered for the commands that take them (by the command word's base name, from that
 * word on): `-pX` attached (mysql, mysqldump, mysqladmin, mariadb, 7z, unrar: `-p` alone
 * prompts, and the word after it is not a password); `-p X` (sshpass, psexec, mongo and
 * its tools, twine, rdesktop, `vsce`'s and `ovsx`'s `publish` (also `--pat`), the login
 * testers hydra, medusa, netexec/nxc, crackmapexec,
 * evil-winrm and smbmap, and after `login`: docker, podman, nerdctl, buildah, skopeo,
 * `helm registry`, `crane auth`, az, oras, OpenShift's `oc`, Cloud Foundry's `cf`); `-a X` (redis-cli); `-w X`
 * (the ldap tools); `-P X` (sqlcmd, bcp, zip, unzip); `-k X` and the raw key `-K X`
 * (openssl); `-storepass X`, `-keypass X` and their `src`/`dest` forms (keytool,
 * jarsigner); `-U user%pass` (smbclient, rpcclient); the password of `htpasswd -b`;
 * `-N X` and `-P X` (ssh-keygen); `-P X` and `--pw X` (the Mosquitto clients); `/p:X`
 * (FreeRDP); `/pass:X` (cmdkey); `/RP X` (schtasks); `-String X` (PowerShell's
 * `ConvertTo-SecureString`); Windows' `net use [device] \\host\share X` (the word after
 * the share, `*` prompts) and `net user NAME X` (its second word);
 * `--from-literal=KEY=X` (`kubectl create secret`); `--body X`, `-b X` (`gh secret set`);
 * `--value X` after `secret` (`az keyvault secret set`); `--secret-string X` after
 * `create-secret`, `put-secret-value` or `update-secret` (`aws secretsmanager`) and
 * `--value X` after `put-parameter` (`aws ssm`: any parameter's value, not only a
 * `SecureString`'s, since the type may come after it);
 * Oracle's `user/X@db` (sqlplus, expdp, impdp, dgmgrl: up to the `@`); sshpass's `-pX`;
 * `rabbitmqctl add_user NAME X` (and `change_password`, `authenticate_user`); MinIO's
 * `mc alias set NAME URL ACCESS X` (and `mc config host add`); `wandb login X`; `rclone
 * obscure X`; `vault login X` and `vault operator unseal X` (26 characters or more, not
 * `K=V`); `wpa_passphrase SSID X` (8 or more); HTTPie's and xh's `-a user:X`, `--auth user:X`.
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
  /^(--?(?:password|passwd|pass|pwd|token|secret|api-?key|access-token|auth-token|client-secret|private-key|passphrase|http-password|ftp-password|proxy-password|oauth2-bearer))(=.*)?$/i;
/**
 * OpenSSL's password argument (`-pass`, `-passin`): `pass:X` is the password itself;
 * `env:`, `file:`, `fd:` and `stdin` only say where it is.
 */
export const OPENSSL_PASSWORD_ARGUMENT = /^(?:(?:pass|env|file|fd):|stdin$)/;
const USER_FLAG = /^(-u|--user|--proxy-user)(=.*)?$/;

/** What a listed command takes a secret in (see the file comment). */
interface CommandSecrets {
  /** Flags whose next word is a secret. */
  readonly next?: readonly string[];
  /** A flag whose value, attached (`-pX`), is a secret. */
  readonly attached?: string;
  /** A flag whose next word is `user%password` (smbclient). */
  readonly userPercent?: string;
  /** Flags whose next word, or `=` value, is `user:password` (HTTPie's `-a`, `--auth`). */
  readonly userColon?: readonly string[];
  /** The flags count only after this word (`docker login -p`; `docker run -p` publishes a port). */
  readonly after?: string;
  /** The word that stands first, before `after` (Helm's `helm registry login`). */
  readonly group?: string;
  /**
   * Once the word `after` was read, the value of `flag=KEY=VALUE` is a secret (`kubectl
   * create secret generic x --from-literal=api=X`; a configmap's literals are not).
   */
  readonly keyValue?: { readonly after: string; readonly flag: string };
  /** Oracle's `user/password[@db]`: the password in the first such word (sqlplus, Data Pump). */
  readonly slashLogin?: boolean;
  /**
   * After one of `verbs` (no verbs: after the command's name), the positional word at
   * `index` (0 the first after the verb, flags not counted) is a secret (`rabbitmqctl
   * add_user NAME X`, `wpa_passphrase SSID X`); with `pairs`, a `K=V` word is no
   * positional (`vault login -method=userpass username=me`: an auth method's parameters);
   * a word shorter than `min` is none (prose: `run vault login to sign in`).
   */
  readonly verbPositional?: {
    readonly verbs: readonly string[];
    readonly index: number;
    readonly pairs?: boolean;
    readonly min?: number;
  };
  /**
   * After one of `verbs`, the first positional word names a setting: where one of `keys`
   * matches it, the positional at that key's place (1: the word after the name) is a
   * secret (`aws configure set aws_secret_access_key X`, `npm config set
   * //registry.npmjs.org/:_authToken X`, `poetry config http-basic.repo user X`); a name
   * written `NAME=VALUE` holds it.
   */
  readonly configKey?: {
    readonly verbs: readonly string[];
    readonly keys: readonly (readonly [RegExp, number])[];
  };
  /**
   * After a verb of this map (a word anywhere after the command's name), the next word of
   * each of its flags is a secret: a new secret's value in a cloud's secret store (`az
   * keyvault secret set --value X`, `aws secretsmanager create-secret --secret-string X`).
   */
  readonly verbFlags?: ReadonlyMap<string, readonly string[]>;
}

/** npm's, pnpm's and Yarn's registry credentials (`//host/:_authToken`, Yarn's `npmAuthToken`). */
const NPM_CONFIG: CommandSecrets = {
  configKey: {
    verbs: ["set"],
    keys: [[/(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)$/, 1]],
  },
};

const MYSQL: CommandSecrets = { attached: "-p" };
const DASH_P: CommandSecrets = { next: ["-p", "--password"] };
const LOGIN_P: CommandSecrets = { ...DASH_P, after: "login" };
/** The value a new secret or parameter is given in Azure's and AWS's stores (`verbFlags`). */
const AZ_SECRET: ReadonlyMap<string, readonly string[]> = new Map([["secret", ["--value"]]]);
const AWS_STORES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...["create-secret", "put-secret-value", "update-secret"].map(
    (verb) => [verb, ["--secret-string"]] as const,
  ),
  ["put-parameter", ["--value"]],
]);
const CAPITAL_P: CommandSecrets = { next: ["-P"] };
const LDAP: CommandSecrets = { next: ["-w"] };
/** The JDK's keystore passwords (`-new`: keytool's new password for `-storepasswd`). */
const JAVA_KEYSTORE: CommandSecrets = {
  next: [
    "-storepass",
    "-keypass",
    "-srcstorepass",
    "-deststorepass",
    "-srckeypass",
    "-destkeypass",
    "-new",
  ],
};

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
  ...["docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "oc", "cf"].map(
    (name) => [name, LOGIN_P] as const,
  ),
  ["helm", { ...LOGIN_P, group: "registry" }],
  // go-containerregistry's `crane auth login`.
  ["crane", { ...LOGIN_P, group: "auth" }],
  ["az", { ...LOGIN_P, verbFlags: AZ_SECRET }],
  // sshpass takes its password attached too (`-pX`).
  ["sshpass", { ...DASH_P, attached: "-p" }],
  ...[
    // Login testers: THC Hydra, Medusa, NetExec (and CrackMapExec before it), Evil-WinRM,
    // SMBMap (`-P FILE` is a list of passwords, a file's name).
    "hydra",
    "medusa",
    "netexec",
    "nxc",
    "crackmapexec",
    "cme",
    "evil-winrm",
    "smbmap",
    "psexec",
    "psexec64",
    "mongo",
    "mongosh",
    "mongodump",
    "mongorestore",
    "mongoexport",
    "mongoimport",
    "twine",
    "rdesktop",
  ].map((name) => [name, DASH_P] as const),
  // The VS Code Marketplace's and Open VSX's publishers: a personal access token.
  ...["vsce", "ovsx"].map((name) => [name, { next: ["-p", "--pat"], after: "publish" }] as const),
  ["redis-cli", { next: ["-a", "--pass"] }],
  ...["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd"].map(
    (name) => [name, LDAP] as const,
  ),
  ...["sqlcmd", "bcp", "zip", "unzip"].map((name) => [name, CAPITAL_P] as const),
  ["openssl", { next: ["-k", "-K"] }],
  ...["keytool", "jarsigner"].map((name) => [name, JAVA_KEYSTORE] as const),
  ...["smbclient", "rpcclient"].map((name) => [name, { userPercent: "-U" }] as const),
  ["htpasswd", {}],
  // ssh-keygen's new and old passphrases; the Mosquitto clients' password.
  ["ssh-keygen", { next: ["-N", "-P"] }],
  ...["mosquitto_pub", "mosquitto_sub", "mosquitto_rr"].map(
    (name) => [name, { next: ["-P", "--pw"] }] as const,
  ),
  // Windows-style: FreeRDP's `/p:X`, cmdkey's `/pass:X`, schtasks' `/RP X`.
  ...["xfreerdp", "xfreerdp3", "wlfreerdp", "sdl-freerdp"].map(
    (name) => [name, { attached: "/p:" }] as const,
  ),
  ["cmdkey", { attached: "/pass:" }],
  ["schtasks", { next: ["/RP", "/rp"] }],
  // PowerShell's plain text made a secure string (`ConvertTo-SecureString -String X
  // -AsPlainText`).
  ["convertto-securestring", { next: ["-String", "-string"] }],
  ["net", {}],
  // MinIO's client: an alias's access key, then its secret key (`mc alias set NAME URL
  // ACCESS SECRET`; before it, `mc config host add NAME URL ACCESS SECRET`).
  ["mc", { verbPositional: { verbs: ["set", "add"], index: 3 } }],
  // Weights & Biases' API key (`wandb login [--relogin] KEY`) and rclone's password to
  // obscure (`rclone obscure PASSWORD`).
  ["wandb", { verbPositional: { verbs: ["login"], index: 0 } }],
  ["rclone", { verbPositional: { verbs: ["obscure"], index: 0 } }],
  // A Vault token given to `vault login` (a method's `K=V` parameters are no token; a
  // token's shortest form, `s.` and 24 characters, has 26) and an unseal key to `vault
  // operator unseal` (base64 of 32 bytes), a Wi-Fi passphrase to `wpa_passphrase SSID
  // PASSPHRASE` (WPA's passphrases have 8 to 63 characters).
  ["vault", { verbPositional: { verbs: ["login", "unseal"], index: 0, pairs: true, min: 26 } }],
  ["wpa_passphrase", { verbPositional: { verbs: [], index: 1, min: 8 } }],
  // HTTPie and xh: `-a user:password`, `--auth user:password`.
  ...["http", "https", "xh", "xhs"].map((name) => [name, { userColon: ["-a", "--auth"] }] as const),
  // RabbitMQ's user commands: the password after the user's name.
  [
    "rabbitmqctl",
    { verbPositional: { verbs: ["add_user", "change_password", "authenticate_user"], index: 1 } },
  ],
  // A new secret's value on the command line: Kubernetes' literals, GitHub CLI's body.
  ["kubectl", { keyValue: { after: "secret", flag: "--from-literal=" } }],
  ["gh", { after: "secret", next: ["--body", "-b"] }],
  // Settings that hold a credential: AWS's keys, a registry's token, Poetry's and Composer's
  // repository credentials, a .NET project's user secrets (every one), crates.io's token.
  [
    "aws",
    {
      configKey: {
        verbs: ["set"],
        keys: [[/(?:^|\.)aws_(?:secret_access_key|session_token)$/, 1]],
      },
      verbFlags: AWS_STORES,
    },
  ],
  ...["npm", "pnpm", "yarn"].map((name) => [name, NPM_CONFIG] as const),
  [
    "poetry",
    {
      configKey: {
        verbs: ["config"],
        keys: [
          [/^pypi-token\./, 1],
          [/^http-basic\./, 2],
        ],
      },
    },
  ],
  [
    "composer",
    {
      configKey: {
        verbs: ["config"],
        keys: [
          [/^(?:github-oauth|gitlab-oauth|gitlab-token|bitbucket-oauth|bearer)\./, 1],
          [/^http-basic\./, 2],
        ],
      },
    },
  ],
  ["dotnet", { after: "user-secrets", configKey: { verbs: ["set"], keys: [[/^/, 1]] } }],
  ["cargo", { verbPositional: { verbs: ["login"], index: 0, min: 16 } }],
  ...["sqlplus", "expdp", "impdp", "dgmgrl"].map((name) => [name, { slashLogin: true }] as const),
]);

/** The commands of the table, by name (lowercase, as `commandOf` reads them). */
export const COMMAND_NAMES: readonly string[] = [...COMMANDS.keys()];

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

/** The state of one pass over a command line's words (see {@link secretIn}). */
export interface CommandScan {
  command: { readonly name: string; readonly secrets: CommandSecrets } | null;
  /** Whether the command's `after` word (if it has one) has been seen. */
  armed: boolean;
  pending: Pending;
  /** htpasswd: in `-b` mode, positionals seen and the password's place among them. */
  htpasswd: { batch: boolean; positionals: number; password: number } | null;
  /** Oracle's `user/password` may still come (see `slashLogin`). */
  slashLogin: boolean;
  /** Windows' `net`: its verb once read, and what the words after it said so far. */
  net: { verb: string | null; positionals: number; share: boolean } | null;
  /** The command's `keyValue.after` word was read. */
  keyValues: boolean;
  /** Positional words read since one of the command's `verbPositional` verbs, or -1. */
  afterVerb: number;
  /** The positional (counted as `afterVerb`) holding the setting's secret (`configKey`), or -1. */
  settingAt: number;
  /** Where the secret {@link secretIn} found last ends in its word (`user/pw@db`), or -1: its end. */
  stop: number;
  /** The flags whose next word is a secret since the command's `verbFlags` verb, or null. */
  verbFlags: readonly string[] | null;
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
  const scan = newCommandScan();
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i]!;
    if (word === "") continue;
    const at = secretIn(word, scan);
    if (at < 0) continue;
    const [start, end] = secretSpan(word, at, scan.stop);
    parts[i] = `${word.slice(0, start)}${COMMAND_FLAG_MARKER}${word.slice(end)}`;
  }
  return parts.join("");
}

/**
 * The secret that starts at `at` in `word` ({@link secretIn}), as `[start, end)`: without
 * the quotes around it (`-storepass 'X'` keeps its quotes), or the closing quote of a word
 * quoted whole (`--user 'me:X'`).
 */
export function secretSpan(word: string, at: number, stop = -1): readonly [number, number] {
  if (stop > at) return [at, stop];
  const end = word.length - 1;
  const quote = word.charCodeAt(end);
  if ((quote !== 0x22 && quote !== 0x27) || end - at < 1) return [at, word.length];
  if (word.charCodeAt(at) === quote) return end - at > 1 ? [at + 1, end] : [at, word.length];
  return word.lastIndexOf(word.charAt(end), at - 1) >= 0 ? [at, end] : [at, word.length];
}

/**
 * True when a flag's value found in output (`span` of `word`, from {@link secretSpan}) is
 * documentation's placeholder, not a secret: one character (`--body X`), no letter or digit
 * (`...`, `***`, `"",`), a credential's name in capitals (`net user NAME PASSWORD`,
 * `--token API_TOKEN`), a format's conversion or a batch file's variable (`sshpass -p
 * '%s'`, `-p %PASS%`), or a shell's variable (`-p "$DOCKER_PASSWORD"`, `${{ secrets.PW }}`;
 * `'$ecret'` in single quotes is a literal). A label redacts these too.
 */
export function placeholderValue(word: string, [start, end]: readonly [number, number]): boolean {
  // Prose's punctuation after it (`sshpass -pX, rabbitmqctl …`) is no part of the value.
  const value = word.slice(start, end).replace(/(?<=.)[,.;:)]+$/, "");
  // A shell's variable, bare or in double quotes (in single quotes `$` is a literal byte).
  if (SHELL_VARIABLE.test(value) && word.charCodeAt(start - 1) !== 0x27) return true;
  return NO_SECRET.test(value);
}

/**
 * A shell's or a CI's variable standing for the value: `$PW`, `${PW}`, `${{ secrets.PW }}`,
 * PowerShell's `$env:PW`.
 */
const SHELL_VARIABLE = /^\$(?:(?:env:)?[A-Za-z_]\w*|\{[A-Za-z_]\w*\}|\{\{[^}]*\}\})$/;

const NO_SECRET =
  /^(?:[\s\S]|[^A-Za-z0-9]*|[A-Z_]*(?:PASSWORD|PASSWD|PASSPHRASE|PASS|PWD|TOKEN|SECRET|KEY)S?[A-Z_]*|(["']?)(?:%[-+ #0]*\d*[sdvqxX]|%[A-Za-z_]\w*%)\1)$/u;

/** An auth method's parameter (`username=me`); base64's padding (`…c=`) is no `=` of one. */
const PARAMETER = /^[A-Za-z_][\w.-]*=(?!=*$)/;

/** A scan before the first word of a command line. */
export function newCommandScan(): CommandScan {
  return {
    command: null,
    armed: false,
    pending: null,
    htpasswd: null,
    net: null,
    keyValues: false,
    afterVerb: -1,
    settingAt: -1,
    slashLogin: false,
    stop: -1,
    verbFlags: null,
  };
}

/** The word a command's flags count after (`login` for `docker`), if it has one. */
export function commandArmingWord(scan: CommandScan): string | undefined {
  const secrets = scan.command?.secrets;
  // A command whose verbs also hold secrets is read on past another first word.
  return secrets?.verbFlags === undefined ? (secrets?.group ?? secrets?.after) : undefined;
}

/**
 * Where the secret in `word`, the next word of a command line, starts (0: the whole word;
 * `word.length` for an empty value), or -1 when it holds none; `scan` carries what the
 * words before it said (a command named, a flag whose value comes next). Shared by labels
 * ({@link redactCommandFlags}) and the stream rule `command-flag`.
 */
export function secretIn(word: string, scan: CommandScan): number {
  const pending = scan.pending;
  scan.pending = null;
  scan.stop = -1;
  if (pending === "secret") {
    // An empty quoted value holds no secret (`ssh-keygen -N ""`: no passphrase).
    if (word === '""' || word === "''") return -1;
    if (!OPENSSL_PASSWORD_ARGUMENT.test(word)) return 0;
    return word.startsWith("pass:") ? 5 : -1;
  }
  if (pending === "user") return userSecret(word, ":");
  if (pending === "user-percent") return userSecret(word, "%");
  const command = commandOf(word);
  if (command !== null) {
    scan.command = command;
    scan.armed = command.secrets.after === undefined;
    scan.htpasswd =
      command.name === "htpasswd" ? { batch: false, positionals: 0, password: 2 } : null;
    scan.net = command.name === "net" ? { verb: null, positionals: 0, share: false } : null;
    scan.keyValues = false;
    scan.afterVerb = command.secrets.verbPositional?.verbs.length === 0 ? 0 : -1;
    scan.settingAt = -1;
    scan.slashLogin = command.secrets.slashLogin === true;
    scan.verbFlags = null;
    return -1;
  }
  const generic = genericFlag(word, scan);
  return generic === -1 ? commandFlag(word, scan) : generic;
}

/** The flags every command is read for; -1 when `word` is none of them or holds no value. */
function genericFlag(word: string, scan: CommandScan): number {
  const secret = SECRET_FLAG.exec(word);
  if (secret) {
    if (secret[2] === undefined) scan.pending = "secret";
    return secret[2] === undefined ? -1 : secret[1]!.length + 1;
  }
  const user = USER_FLAG.exec(word);
  if (user) {
    if (user[2] === undefined) {
      scan.pending = "user";
      return -1;
    }
    const at = userSecret(user[2].slice(1), ":");
    return at < 0 ? -1 : user[1]!.length + 1 + at;
  }
  if (word.startsWith("pass:") && word.length > 5) return 5;
  return -1;
}

/** The flags of the current command (see the table); -1 when `word` is none of them. */
function commandFlag(word: string, scan: CommandScan): number {
  const secrets = scan.command?.secrets;
  if (secrets === undefined) return -1;
  const verbFlags = secrets.verbFlags?.get(word);
  if (verbFlags !== undefined) scan.verbFlags = verbFlags;
  else if (scan.verbFlags?.includes(word) === true) {
    scan.pending = "secret";
    return -1;
  }
  if (!scan.armed) {
    if (word === secrets.after) scan.armed = true;
    return -1;
  }
  if (secrets.next?.includes(word)) {
    scan.pending = "secret";
    return -1;
  }
  if (secrets.userPercent === word) {
    scan.pending = "user-percent";
    return -1;
  }
  if (secrets.userColon !== undefined) return userColon(word, secrets.userColon, scan);
  const attached = secrets.attached;
  if (attached !== undefined && word.length > attached.length && word.startsWith(attached))
    return attached.length;
  const keyValue = secrets.keyValue;
  if (keyValue !== undefined) {
    if (word === keyValue.after) scan.keyValues = true;
    const equals = word.indexOf("=", keyValue.flag.length);
    if (scan.keyValues && word.startsWith(keyValue.flag) && equals > 0) return equals + 1;
  }
  if (secrets.verbPositional !== undefined)
    return verbPositional(word, secrets.verbPositional, scan);
  if (secrets.configKey !== undefined) return configWord(word, secrets.configKey, scan);
  if (scan.net !== null) return netWord(word, scan.net);
  if (scan.slashLogin) return slashLogin(word, scan);
  return scan.htpasswd === null ? -1 : htpasswdWord(word, scan.htpasswd);
}

/** The word at the verb's secret place (see `verbPositional`): 0, else -1. */
function verbPositional(
  word: string,
  rule: NonNullable<CommandSecrets["verbPositional"]>,
  scan: CommandScan,
): number {
  if (word.startsWith("-") || (rule.pairs === true && PARAMETER.test(word))) return -1;
  if (scan.afterVerb < 0) {
    if (rule.verbs.includes(word)) scan.afterVerb = 0;
    return -1;
  }
  return scan.afterVerb++ === rule.index && word.length >= (rule.min ?? 0) ? 0 : -1;
}

const LOWERCASE_WORDS = /^["']?[a-z]+(?:[_-][a-z]+)*["']?$/;

/** A setting's name or value after the command's verb (see `configKey`): 0 for its secret, else -1. */
function configWord(
  word: string,
  rule: NonNullable<CommandSecrets["configKey"]>,
  scan: CommandScan,
): number {
  if (word.startsWith("-")) return -1;
  if (scan.afterVerb < 0) {
    if (rule.verbs.includes(word)) scan.afterVerb = 0;
    return -1;
  }
  const at = scan.afterVerb++;
  // A value of lowercase words is documentation's (`aws configure set
  // aws_secret_access_key default_secret_key`): tokens and keys have digits.
  if (at > 0) return at === scan.settingAt && !LOWERCASE_WORDS.test(word) ? 0 : -1;
  const equals = word.indexOf("=");
  const name = equals < 0 ? word : word.slice(0, equals);
  scan.settingAt = rule.keys.find(([key]) => key.test(name))?.[1] ?? -1;
  // `npm config set //host/:_authToken=X`: the value in the name's word (none after it).
  if (equals < 0 || scan.settingAt !== 1) return -1;
  scan.settingAt = -1;
  return equals < word.length - 1 ? equals + 1 : -1;
}

/** A `user:password` flag's word (see `userColon`): the password's offset, else -1. */
function userColon(word: string, flags: readonly string[], scan: CommandScan): number {
  if (flags.includes(word)) {
    scan.pending = "user";
    return -1;
  }
  const equals = word.indexOf("=");
  if (equals < 0 || !flags.includes(word.slice(0, equals))) return -1;
  const at = userSecret(word.slice(equals + 1), ":");
  return at < 0 ? -1 : equals + 1 + at;
}

/**
 * `net use [device] \\host\share PASSWORD [/user:NAME]`: the word after the share (`*`
 * prompts for it); `net user NAME PASSWORD [/add]`: the word after the name. Flags (`/…`)
 * are no positionals.
 */
function netWord(word: string, net: NonNullable<CommandScan["net"]>): number {
  if (net.verb === null) {
    net.verb = word.toLowerCase();
    return -1;
  }
  // A flag, a prompt (`*`), an empty password (`""`).
  if (word.startsWith("/") || word === "*" || word === '""') return -1;
  if (net.verb === "use") {
    const password = net.share;
    net.share = word.startsWith("\\\\");
    return password ? 0 : -1;
  }
  return net.verb === "user" && net.positionals++ === 1 ? 0 : -1;
}

/**
 * Oracle's `user/password[@connect]` (`sqlplus scott/tiger@orcl`, `expdp system/pw@db …`):
 * the password in the first word of that form (flags and `@script` aside), up to its
 * last `@`; `/ as sysdba` and `user@db` (a prompt) hold none.
 */
function slashLogin(word: string, scan: CommandScan): number {
  const login = SLASH_LOGIN.exec(word);
  if (login === null) return -1;
  scan.slashLogin = false;
  const at = login[1]!.length + 1;
  const connect = word.lastIndexOf("@");
  let stop = connect > at ? connect : word.length;
  // `"scott/tiger"@orcl`: the quote around the login stays.
  if (word.startsWith('"') && word.charCodeAt(stop - 1) === 0x22) stop--;
  scan.stop = stop;
  return at;
}

/** `user/password` and an optional `@connect`: a user name without `/`, `=` or `@`. */
const SLASH_LOGIN = /^([A-Za-z0-9_$#."]+)\/[^/@\s]/;

/**
 * `htpasswd -b[flags] FILE USER PASSWORD` (`-n`: no FILE): the password is the third
 * positional (the second with `-n`); `-C` takes a number.
 */
function htpasswdWord(word: string, h: NonNullable<CommandScan["htpasswd"]>): number {
  if (word.startsWith("-") && word.length > 1) {
    if (word.includes("b")) h.batch = true;
    if (word.includes("n")) h.password = 1;
    if (word.endsWith("C")) h.positionals--; // its number is not a positional
    return -1;
  }
  const at = h.positionals++;
  return h.batch && at === h.password ? 0 : -1;
}

/** `user<sep>pass`: the password after the separator; a value without one is a user name (-1). */
function userSecret(value: string, sep: ":" | "%"): number {
  const at = value.indexOf(sep);
  // `-u redis://:pass@host:6379` is a URL, whose password the URL's rule reads (the host stays).
  if (at === -1 || value.startsWith("//", at + 1)) return -1;
  return at + 1;
}
