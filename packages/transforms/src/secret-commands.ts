/**
 * Commands whose standard output is a secret itself, by their documented verbs: a secret
 * store's read (`op read`, `pass show`, `vault kv get`, `gcloud secrets versions access`,
 * `aws secretsmanager get-secret-value`, `az keyvault secret show`, macOS's `security
 * find-generic-password -w`), a token printer (`gcloud auth print-access-token`, `aws ecr
 * get-login-password`, `gh auth token`, `kubectl create token`), a value read out of a
 * Kubernetes Secret by a template (`kubectl get secret db -o jsonpath=…`), a credential's
 * environment variable (`printenv DB_PASSWORD`), a Docker or Kubernetes secret mount
 * (`cat /run/secrets/db`), a cluster's bootstrap token (`kubeadm token create`), or a new key
 * (`openssl rand`, `wg genkey`, `rails secret`). A capture of one has
 * its stdout redacted line by line whole (`createLineRedactor`): what such a command
 * prints has no shape the rules could know (`hunter2`), and there is nothing else in it.
 *
 * Read from the command spool runs and its arguments (`spool run -- op read …`), or from a
 * shell's `-c` string that is one command (`bash -lc 'op read …'`, as agents wrap commands);
 * not from a pipeline's (`sh -c "op read … | jq …"`): its output is another command's.
 *
 * @example
 * ```ts
 * import { printsSecret } from "@spool/transforms/internal";
 * printsSecret("op", ["read", "op://Private/db/password"]); // true
 * printsSecret("op", ["item", "list"]); // false
 * ```
 */
import { namesCredential } from "./known-values.js";

/** One command's verbs (consecutive words that are no flags) and what its flags must say. */
interface SecretVerb {
  readonly verbs: readonly string[];
  /** A flag the command prints the secret with (`security … -w`), any of these. */
  readonly flags?: readonly string[];
}

const verb = (words: string, flags?: string): SecretVerb => ({
  verbs: words.split(" "),
  ...(flags === undefined ? {} : { flags: flags.split(" ") }),
});

const SECRET_COMMANDS: ReadonlyMap<string, readonly SecretVerb[]> = new Map([
  // 1Password, pass and gopass, Bitwarden, LastPass, macOS's keychain.
  ["op", [verb("read"), verb("inject"), verb("item get", "--fields --field")]],
  ["pass", [verb("show"), verb("otp")]],
  ["gopass", [verb("show"), verb("cat"), verb("otp")]],
  ["bw", [verb("get password"), verb("get totp"), verb("get notes")]],
  ["lpass", [verb("show", "--password")]],
  ["security", [verb("find-generic-password", "-w"), verb("find-internet-password", "-w")]],
  // Cloud secret stores and token printers.
  [
    "gcloud",
    [
      verb("secrets versions access"),
      verb("auth print-access-token"),
      verb("auth print-identity-token"),
      verb("auth application-default print-access-token"),
    ],
  ],
  [
    "aws",
    [
      verb("secretsmanager get-secret-value"),
      verb("ssm get-parameter", "--with-decryption"),
      verb("ssm get-parameters", "--with-decryption"),
      verb("ssm get-parameters-by-path", "--with-decryption"),
      verb("ecr get-login-password"),
      verb("codeartifact get-authorization-token"),
    ],
  ],
  ["az", [verb("keyvault secret show"), verb("account get-access-token")]],
  ["vault", [verb("read"), verb("kv get"), verb("print token")]],
  ["doppler", [verb("secrets get", "--plain"), verb("secrets download", "--no-file")]],
  ["gh", [verb("auth token")]],
  ["heroku", [verb("auth:token")]],
  ["fly", [verb("auth token")]],
  ["flyctl", [verb("auth token")]],
  // A cluster's bootstrap token (`kubeadm token create`: `abcdef.0123456789abcdef`), Argo
  // CD's first admin password.
  ["kubeadm", [verb("token create"), verb("token generate")]],
  ["argocd", [verb("admin initial-password")]],
  // New keys and passwords: Rails' `secret`, Laravel's `key:generate --show`.
  ["openssl", [verb("rand")]],
  ["wg", [verb("genkey"), verb("genpsk")]],
  ["pwgen", [verb("")]],
  ["rails", [verb("secret")]],
  ["rake", [verb("secret")]],
  ["php", [verb("artisan key:generate", "--show")]],
]);

/** pass's and gopass's verbs besides `show` (a single word that is none is a name to show). */
const PASS_VERBS = new Set(
  "init ls list find search grep insert add edit generate rm remove delete mv rename cp copy git help version setup sync".split(
    " ",
  ),
);
/** A Kubernetes Secret read out by a template (`-o jsonpath=…`, `--output go-template=…`). */
const TEMPLATE_OUTPUT = /^(?:jsonpath|go-template|template)/;
/** Where Docker and Kubernetes mount secrets as files. */
const SECRET_MOUNT = /^\/(?:var\/)?run\/secrets\//;

/**
 * True when `command` with `args` prints a secret as its output (see the file comment).
 *
 * @category redaction
 * @example
 * ```ts
 * import { printsSecret } from "@spool/transforms/internal";
 * printsSecret("/usr/bin/gcloud", ["secrets", "versions", "access", "latest", "--secret=db"]); // true
 * ```
 */
export function printsSecret(command: string, args: readonly string[]): boolean {
  const name = command.slice(command.lastIndexOf("/") + 1).toLowerCase();
  if (SHELLS.has(name)) return shellCommandPrintsSecret(args);
  const words = args.filter((arg) => !arg.startsWith("-"));
  if (name === "kubectl" || name === "oc") return kubernetesSecret(words, args);
  if (name === "printenv") return words.length > 0 && words.every(namesCredential);
  if (name === "cat") return words.length > 0 && words.every((word) => SECRET_MOUNT.test(word));
  if (name.startsWith("docker-credential-")) return words[0] === "get";
  // `pass NAME` shows it, as `pass show NAME` does.
  if ((name === "pass" || name === "gopass") && words.length === 1 && !PASS_VERBS.has(words[0]!))
    return true;
  return (SECRET_COMMANDS.get(name) ?? []).some((entry) => verbMatches(entry, words, args));
}

/** `entry`'s verbs stand in `words` (the arguments that are no flags), and one of its flags in `args`. */
function verbMatches(
  entry: SecretVerb,
  words: readonly string[],
  args: readonly string[],
): boolean {
  return (
    (entry.verbs[0] === "" || holds(words, entry.verbs)) &&
    (entry.flags === undefined ||
      args.some((arg) => entry.flags!.includes(arg) || entry.flags!.includes(arg.split("=")[0]!)))
  );
}

/**
 * Commands that read a secret from their standard input, by the same kind of table: what
 * `echo X | <command>` hands them is one (the `piped-password` rule). Besides these, any
 * command with `--password-stdin`, `sudo -S` (sudo's own password) and `chpasswd` (the
 * part of `user:password` after the colon).
 */
const STDIN_SECRET_COMMANDS: ReadonlyMap<string, readonly SecretVerb[]> = new Map<
  string,
  readonly SecretVerb[]
>([
  ["passwd", [verb("", "--stdin")]],
  ["kinit", [verb("")]],
  ["htpasswd", [verb("", "-i")]],
  ["smbpasswd", [verb("", "-s")]],
  ["gh", [verb("auth login", "--with-token"), verb("secret set")]],
  ["vault", [verb("login", "-")]],
  ...["docker", "podman"].map((name) => [name, [verb("secret create", "-")]] as const),
  ["gcloud", [verb("secrets", "--data-file=-")]],
  ["wrangler", [verb("secret put")]],
  ["vercel", [verb("env add")]],
  ...["pass", "gopass"].map(
    (name) => [name, [verb("insert", "-e --echo -m --multiline")]] as const,
  ),
  ["openssl", [verb("stdin", "-pass -passin -passout")]],
]);

/**
 * What the command `words` (split at blanks, quotes dropped) reads from its standard input:
 * a secret whole, the part after a colon (`chpasswd`'s `user:password`), or nothing known.
 *
 * @example
 * ```ts
 * import { readsSecretFromStdin } from "./secret-commands.js";
 * readsSecretFromStdin(["docker", "login", "-u", "me", "--password-stdin"]); // "whole"
 * readsSecretFromStdin(["base64"]); // null
 * ```
 */
export function readsSecretFromStdin(words: readonly string[]): "whole" | "after-colon" | null {
  const { sudoStdin, rest } = afterSudo(words);
  if (sudoStdin || rest.some((w) => w === "--password-stdin" || w.startsWith("--password-stdin=")))
    return "whole";
  const [command = "", ...args] = rest;
  const name = command.slice(command.lastIndexOf("/") + 1);
  if (name === "chpasswd") return "after-colon";
  const plain = args.filter((arg) => !arg.startsWith("-"));
  return (STDIN_SECRET_COMMANDS.get(name) ?? []).some((entry) => verbMatches(entry, plain, args))
    ? "whole"
    : null;
}

/** The words after `sudo` and its options, and whether sudo reads its own password (`-S`). */
function afterSudo(words: readonly string[]): { sudoStdin: boolean; rest: readonly string[] } {
  if (words[0] !== "sudo") return { sudoStdin: false, rest: words };
  let i = 1;
  let stdin = false;
  while (i < words.length && words[i]!.startsWith("-")) {
    const flag = words[i]!;
    if (flag === "--stdin" || /^-[A-Za-z]*S/.test(flag)) stdin = true;
    // Options that take a word (`-u deploy`, `-g staff`).
    if (/^-[A-Za-z]*[ugCDhpRrTt]$/.test(flag)) i++;
    i++;
  }
  return { sudoStdin: stdin, rest: words.slice(i) };
}

/** Shells whose `-c` string may be one command (`bash -lc 'op read …'`, as agents run them). */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
/** A shell string that joins, redirects or substitutes is no single command's output. */
const SHELL_OPERATOR = /[|;&<>`$()\n]/;

/**
 * `sh -c STRING` (also `-lc`, `-ec` …) whose string is one command without operators: read
 * as that command (its words split at blanks, quotes dropped).
 */
function shellCommandPrintsSecret(args: readonly string[]): boolean {
  const flag = args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg));
  const script = flag < 0 ? undefined : args[flag + 1];
  if (script === undefined || SHELL_OPERATOR.test(script)) return false;
  const [command, ...rest] = script.replace(/["']/g, "").trim().split(/\s+/);
  return command !== undefined && command !== "" && printsSecret(command, rest);
}

/** `kubectl get secret … -o jsonpath=…` (a value, decoded or not) and `kubectl create token`. */
function kubernetesSecret(words: readonly string[], args: readonly string[]): boolean {
  if (holds(words, ["create", "token"])) return true;
  if (!holds(words, ["get", "secret"]) && !holds(words, ["get", "secrets"])) return false;
  return args.some((arg, i) => {
    const output = arg.startsWith("-o")
      ? arg.slice(2).replace(/^=/, "") || (args[i + 1] ?? "")
      : arg.startsWith("--output")
        ? arg.slice(8).replace(/^=/, "") || (args[i + 1] ?? "")
        : "";
    return TEMPLATE_OUTPUT.test(output);
  });
}

/** True when `sequence` stands in `words` as consecutive words. */
function holds(words: readonly string[], sequence: readonly string[]): boolean {
  for (let i = 0; i + sequence.length <= words.length; i++)
    if (sequence.every((word, k) => words[i + k] === word)) return true;
  return false;
}
