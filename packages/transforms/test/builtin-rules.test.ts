import { describe, expect, it } from "vitest";
import { BUILTIN_RULES } from "../src/builtin-rules.js";
import { compileRedaction } from "../src/compile-redaction.js";
import { PROVIDER_FORMATS } from "../src/provider-catalogue.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { Verdict } from "../src/rule.js";
import { notAfterOf, notBeforeOf } from "../src/rules/not-before.js";
import { allChunkings, checkNoSecretPiece, checkRedaction, checkRedactor } from "../src/testing.js";
import { checkEverySplit } from "./every-split.js";

const compiled = compileRedaction();
const redact = (text: string) => redactText(text, compiled);

const B62 = "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8",
  "lZxCvBnM1qW3eR5tY7uI9oP0aS2dF4gH6jK8lZxCvBnM1qW3eR5tY7uI9oP0aS2d",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

const JWT_SAMPLE =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PSR5vC7cW5xQ";

/** A PuTTY key file's private lines (synthetic), and the file around them. */
const PPK_PRIVATE = "AAAAIH9kLm3Nq5Rt7Vw9Xy1Zb3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9Cd";
const ppk = (eol: string) =>
  [
    "PuTTY-User-Key-File-3: ssh-ed25519",
    "Public-Lines: 1",
    "AAAAC3NzaC1lZDI1NTE5AAAAIF6pWlYq0cQkFv7uT3bR2dK8nM1xZ4aJ9hL5sW2eR7yT",
    "Private-Lines: 2",
    PPK_PRIVATE,
    "1Ef3Gh5Ij7Kl9Mn1Op3Qr5St7Uv9Wx1Y=",
    "Private-MAC: 4f1c2b3a5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70",
  ].join(eol);

/** An Azure storage account key (synthetic): 64 bytes in base64. */
const AZURE_KEY =
  "Lk6Xb+FLfvl6gGPGDivnsvGs2JM1zb5T/UxGTH8tW4L1VZ1DHxHKO2cT2BErOpmND5008nmlXUxURECStkZ6EQ==";

/** A Vault unseal key (synthetic), in base64 and in hex. */
const UNSEAL_B64 = "Qm9v7Xk2LrT4aZ8pN1cW6yH3jE5sU0gB9dF2vK7oMiQ+";
const UNSEAL_HEX = "5e2c19a7f04b83d6e1c9a2b7f03d58e6c1a9b2f7e03d4c58a61b9e2f7c0d3a5b86";

/** An Amazon ECR registry password (synthetic): base64 of its JSON document. */
const ECR_TOKEN = Buffer.from(
  JSON.stringify({
    payload: `${B62}${B62.split("").reverse().join("")}+/`.repeat(6),
    datakey: `AQEBAHh${B62}`.repeat(4),
    version: "2",
    type: "DATA_KEY",
    expiration: 1767225600,
  }),
).toString("base64");

/**
 * The base64 of a DER structure (synthetic): its first bytes (`hex`), then filler bytes up to
 * the length its outer SEQUENCE declares (`30 L`, `30 81 L` or `30 82 L L`).
 */
function der(hex: string): string {
  const header = Buffer.from(hex, "hex");
  const first = header[1]!;
  const total =
    first < 0x80 ? 2 + first : first === 0x81 ? 3 + header[2]! : 4 + header.readUInt16BE(2);
  const bytes = Buffer.alloc(total, 0);
  for (let i = 0; i < total; i++) bytes[i] = i < header.length ? header[i]! : (i * 73 + 41) & 0xff;
  return bytes.toString("base64");
}
/** Private keys without their armor: PKCS #8 RSA, SEC 1 P-256, PKCS #8 Ed25519, PKCS #1, encrypted PKCS #8, PKCS #8 P-256 (a `.p8`). */
const RSA_PKCS8 = der("308204bd020100300d06092a864886f70d0101010500048204a7");
const EC_SEC1 = der("30770201010420");
const ED25519 = der("302e020100300506032b657004220420");
const RSA_PKCS1 = der("3082025c02010002818100");
const ENCRYPTED_PKCS8 = der("308202dd305706092a864886f70d01050d");
const P256_PKCS8 = der("308187020100301306072a8648ce3d0201");
/** `key` in lines of `width` characters. */
const wrap = (key: string, width = 64) => key.match(new RegExp(`.{1,${width}}`, "g"))!;
/** Public DER that stays: a public key (SPKI), PKCS #1's public key, a certificate, a CSR, an ECDSA signature. */
const PUBLIC_DER = [
  der("30820122300d06092a864886f70d01010105000382010f00"),
  der("3082010a0282010100"),
  der("308203773082025fa0030201020204"),
  der("3082028a308201720201003045310b"),
  der("3045022100a1"),
];

/** [rule name, text, the secret part that must disappear, expected output] */
const CASES: readonly (readonly [string, string, string, string])[] = [
  // A private key's numbers as `openssl pkey -text` prints them: the private components'
  // hex lines (the public ones, and the line break after each value, stay).
  [
    "openssl-key-text",
    "Private-Key: (256 bit)\npriv:\n    fa:65:75:02:67:a4:db:c7:98:89:e9:10:ab:69:77:\n    1d:5b:37:0e:af:24:85:21:62:c4:09:47:a0:16:9d:\n    32:df\npub:\n    04:2f:d0:73\nprime1:\r\n    00:f3:91:4c:2a:0b:7e:55:c4:19:8d:ee:61:3a:70:\r\n    a5:44\r\nexponent1:\n    6b:22:9e:01\n",
    "1d:5b:37:0e:af:24:85",
    "Private-Key: (256 bit)\npriv:\n    [REDACTED:openssl-key-text]\npub:\n    04:2f:d0:73\nprime1:\r\n    [REDACTED:openssl-key-text]\r\nexponent1:\n    [REDACTED:openssl-key-text]\n",
  ],
  // `reg query`'s row: the name, its type and the padding stay.
  [
    "secret-assignment",
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\n    DefaultUserName    REG_SZ    bob\n    DefaultPassword    REG_SZ    Zx9Kq2hunter\n    AutoAdminLogon    REG_SZ    1\n",
    "Zx9Kq2hunter",
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\n    DefaultUserName    REG_SZ    bob\n    DefaultPassword    REG_SZ    [REDACTED:secret-assignment]\n    AutoAdminLogon    REG_SZ    1\n",
  ],
  // `vault kv get`'s Data table (every value, whatever its key; an empty line ends it), and a
  // version 1 store's rows after `refresh_interval`.
  [
    "vault-kv-data",
    "======= Metadata =======\nKey                Value\n---                -----\nversion            3\n\n====== Data ======\nKey     Value\n---     -----\nconn    postgres://app:Zx9Kq2@db/app\ndsn     Zx9 Kq2 hunter\nempty   \n\nafter\nKey                 Value\n---                 -----\nrefresh_interval    768h\nconn                Zx9 Kq2 hunter\nnext: 1\n",
    "Zx9 Kq2 hunter",
    "======= Metadata =======\nKey                Value\n---                -----\nversion            3\n\n====== Data ======\nKey     Value\n---     -----\nconn    [REDACTED:vault-kv-data]\ndsn     [REDACTED:vault-kv-data]\nempty   \n\nafter\nKey                 Value\n---                 -----\nrefresh_interval    768h\nconn                [REDACTED:vault-kv-data]\nnext: 1\n",
  ],
  // `vault kv get -format=json`: every string of the secret's `data.data`, a quote and a
  // backslash in one; numbers, objects and the metadata stay.
  [
    "vault-kv-data",
    '{\n  "lease_duration": 0,\n  "renewable": false,\n  "data": {\n    "data": {\n      "conn": "Zx9 Kq2 hunter",\n      "port": 5432,\n      "nested": {"a": "b"},\n      "quote": "a\\"b\\\\"\n    },\n    "metadata": {"version": 3}\n  }\n}\n',
    "Zx9 Kq2 hunter",
    '{\n  "lease_duration": 0,\n  "renewable": false,\n  "data": {\n    "data": {\n      "conn": "[REDACTED:vault-kv-data]",\n      "port": 5432,\n      "nested": {"a": "b"},\n      "quote": "[REDACTED:vault-kv-data]"\n    },\n    "metadata": {"version": 3}\n  }\n}\n',
  ],
  // Kaggle's `kaggle.json`: the key right after the username, compact or pretty-printed.
  [
    "username-key",
    '{"username":"bob","key":"a8f5f167f44f4964e6c998dee827110c"}\n{\n  "username": "bob",\n  "key": "a8f5f167f44f4964e6c998dee827110c"\n}\n',
    "a8f5f167f44f4964e6c998dee827110c",
    '{"username":"bob","key":"[REDACTED:username-key]"}\n{\n  "username": "bob",\n  "key": "[REDACTED:username-key]"\n}\n',
  ],
  // A Secret Manager version as `gcloud secrets versions access --format=json` prints it.
  [
    "secret-manager",
    '{\n  "name": "projects/123456789012/secrets/db-password/versions/3",\n  "payload": {\n    "data": "WmY5S3EyaHVudGVyMTIz",\n    "dataCrc32c": "2913384120"\n  }\n}\n',
    "WmY5S3EyaHVudGVyMTIz",
    '{\n  "name": "projects/123456789012/secrets/db-password/versions/3",\n  "payload": {\n    "data": "[REDACTED:secret-manager]",\n    "dataCrc32c": "2913384120"\n  }\n}\n',
  ],
  // A value ending in a backslash closes at its quote (what follows stays).
  [
    "key-vault-secret",
    '{"id": "https://kv.vault.azure.net/secrets/x/1", "value": "Zx9Kq2hunter\\\\", "z": "y"}',
    "Zx9Kq2hunter",
    '{"id": "https://kv.vault.azure.net/secrets/x/1", "value": "[REDACTED:key-vault-secret]", "z": "y"}',
  ],
  // A Key Vault secret as `az keyvault secret show` prints it: the `value` after its `id`,
  // whatever its name or shape (members and a nested object between them).
  [
    "key-vault-secret",
    '{\n  "attributes": {"enabled": true},\n  "id": "https://kv-prod-01.vault.azure.net/secrets/storage-conn/0123456789abcdef",\n  "name": "storage-conn",\n  "tags": {"env": "value", "x": "}"},\n  "value": "Zx9 Kq2 hunter"\n}\n',
    "Zx9 Kq2 hunter",
    '{\n  "attributes": {"enabled": true},\n  "id": "https://kv-prod-01.vault.azure.net/secrets/storage-conn/0123456789abcdef",\n  "name": "storage-conn",\n  "tags": {"env": "value", "x": "}"},\n  "value": "[REDACTED:key-vault-secret]"\n}\n',
  ],
  // `redis-cli`'s reply to `CONFIG GET`: the value after the name, its escapes in it.
  [
    "redis-config",
    '127.0.0.1:6379> CONFIG GET *pass*\n1) "requirepass"\n2) "S3cr\\"t\\\\Xk9mP2q"\n3) "masterauth"\r\n4) "Lw7Xk9mP2qLw"\n5) "masteruser"\n6) ""\n',
    "Lw7Xk9mP2qLw",
    '127.0.0.1:6379> CONFIG GET *pass*\n1) "requirepass"\n2) "[REDACTED:redis-config]"\n3) "masterauth"\r\n4) "[REDACTED:redis-config]"\n5) "masteruser"\n6) ""\n',
  ],
  // A password's hash as a dump or `SHOW CREATE USER` prints it: MySQL's plugins' `AS '…'`,
  // MariaDB's `BY PASSWORD '…'` (the keyword stays), Oracle's `BY VALUES '…'`.
  [
    "sql-password",
    "CREATE USER 'app'@'%' IDENTIFIED WITH 'mysql_native_password' AS '*81F5E21E35407D884A6CD4A731AEBFB6AF209E1B' REQUIRE NONE;\nCREATE USER `b`@`%` IDENTIFIED WITH 'caching_sha2_password' AS '$A$005$Xk9mP2qLw7Xk9mP2qLw7abcdXk9mP2qLw7Xk9mP2qLw7abcd';\nGRANT USAGE ON *.* TO 'c'@'%' IDENTIFIED BY PASSWORD '*81F5E21E35407D884A6CD4A731AEBFB6AF209E1B';\nCREATE USER scott IDENTIFIED BY VALUES 'S:8F2D65FB5547B71C8DA3760F10960428CD307B1C;T:AB12' DEFAULT TABLESPACE users;\n",
    "81F5E21E35407D884A6CD4A731AEBFB6AF209E1B",
    "CREATE USER 'app'@'%' IDENTIFIED WITH 'mysql_native_password' AS '[REDACTED:sql-password]' REQUIRE NONE;\nCREATE USER `b`@`%` IDENTIFIED WITH 'caching_sha2_password' AS '[REDACTED:sql-password]';\nGRANT USAGE ON *.* TO 'c'@'%' IDENTIFIED BY PASSWORD '[REDACTED:sql-password]';\nCREATE USER scott IDENTIFIED BY VALUES '[REDACTED:sql-password]' DEFAULT TABLESPACE users;\n",
  ],
  // Any label ending in PRIVATE KEY: cosign's, Nebula's, a TPM's.
  [
    "pem-private-key",
    `-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n${B62}${B62}\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----\nnext\n-----BEGIN NEBULA X25519 PRIVATE KEY-----\n${B62}=\n-----END NEBULA X25519 PRIVATE KEY-----\n-----BEGIN TSS2 PRIVATE KEY-----\n${B62}${B62}\n-----END TSS2 PRIVATE KEY-----\n`,
    B62,
    "[REDACTED:pem-private-key]\nnext\n[REDACTED:pem-private-key]\n[REDACTED:pem-private-key]\n",
  ],
  // TLS secrets as `SSLKEYLOGFILE` has them: the label and the client random stay (after a
  // label ending in SECRET the keyword rule reads the random as the name's value).
  [
    "tls-key-log",
    `CLIENT_RANDOM ${"4f1c".repeat(16)} ${"7d8e9fa0b1c2".repeat(8)}\nCLIENT_TRAFFIC_SECRET_0 ${"a1b2".repeat(16)} ${"9a3f1c2b".repeat(8)}\nEARLY_EXPORTER_SECRET ${"a1b2".repeat(16)} ${"5e6f7081".repeat(12)}\n`,
    "7d8e9fa0b1c27d8e9fa0b1c2",
    `CLIENT_RANDOM ${"4f1c".repeat(16)} [REDACTED:tls-key-log]\nCLIENT_TRAFFIC_SECRET_0 ${"a1b2".repeat(16)} [REDACTED:tls-key-log]\nEARLY_EXPORTER_SECRET [REDACTED:secret-assignment] [REDACTED:tls-key-log]\n`,
  ],
  // A private key's DER in base64 without its armor: on one line, after a label, in a code
  // literal, to the last character its length says (its padding too; what follows stays).
  [
    "private-key",
    `key: ${ED25519} (ed25519)\nkid ${EC_SEC1}\n[${P256_PKCS8}]\nv=${ENCRYPTED_PKCS8};\n`,
    ED25519.slice(8, 40),
    "key: [REDACTED:private-key] (ed25519)\nkid [REDACTED:private-key]\n[[REDACTED:private-key]]\nv=[REDACTED:private-key];\n",
  ],
  [
    "private-key",
    `spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode("${RSA_PKCS8}"));\n`,
    RSA_PKCS8.slice(600, 640),
    'spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode("[REDACTED:private-key]"));\n',
  ],
  // Percent-encoded in a URL's query (`%2B`, `%2F`, `%3D`); another escape ends it.
  [
    "private-key",
    `GET /v1/sign?key=${encodeURIComponent(RSA_PKCS8)}&next=1\nk=${encodeURIComponent(ED25519.slice(0, 40))}%20and more\n`,
    RSA_PKCS8.slice(600, 640),
    "GET /v1/sign?key=[REDACTED:private-key]&next=1\nk=[REDACTED:private-key]%20and more\n",
  ],
  // Wrapped as PEM's body is (the last line shorter), indented in a YAML block, its line
  // breaks turned into blanks; a key cut short keeps the text after it.
  [
    "private-key",
    `${wrap(RSA_PKCS1).join("\n")}\ndone\ndata: |\n  ${wrap(RSA_PKCS8).join("\n  ")}\nnext: 1\n`,
    wrap(RSA_PKCS1).at(-1)!,
    "[REDACTED:private-key]\ndone\ndata: |\n  [REDACTED:private-key]\nnext: 1\n",
  ],
  [
    "private-key",
    `${wrap(ENCRYPTED_PKCS8, 76).join(" ")} end\n${wrap(RSA_PKCS8).slice(0, 3).join("\n")}\nthis line stays\n`,
    wrap(RSA_PKCS8)[2]!,
    "[REDACTED:private-key] end\n[REDACTED:private-key]\nthis line stays\n",
  ],
  // Exactly the `Private-Lines: N` lines: raw line ends, CRLF, and escaped inside a string.
  ...["\n", "\r\n", "\\n", "\\r\\n"].map(
    (eol) =>
      [
        "putty-private-key",
        ppk(eol),
        PPK_PRIVATE,
        ppk(eol).replace(
          `${PPK_PRIVATE}${eol}1Ef3Gh5Ij7Kl9Mn1Op3Qr5St7Uv9Wx1Y=`,
          "[REDACTED:putty-private-key]",
        ),
      ] as const,
  ),
  // A presigned URL keeps every parameter but the signature (the query key ends a value).
  [
    "url-query-key",
    "GET /o?X-Amz-Date=20240524T000000Z&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404&x-id=GetObject",
    "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
    "GET /o?X-Amz-Date=20240524T000000Z&X-Amz-Signature=[REDACTED:url-query-key]&x-id=GetObject",
  ],
  [
    "secret-assignment",
    "GET /login?password=hunter2xyz9&X-Request-Id=abc-42 200",
    "hunter2xyz9",
    "GET /login?password=[REDACTED:secret-assignment]&X-Request-Id=abc-42 200",
  ],
  // A value ends where the next field starts: `|key=`, `,--flag=`, HTML's `&amp;key=`, a closing tag.
  ...(
    [
      ["password=Zx9Kq2Lm8Np4Rt6Vw3Yb|user=bob", "|user=bob"],
      ["--password=Zx9Kq2Lm8Np4Rt6Vw3Yb,--user=bob", ",--user=bob"],
      ['<a href="/x?password=Zx9Kq2Lm8Np4Rt6Vw3Yb&amp;user=bob">', '&amp;user=bob">'],
      ["<td>password=Zx9Kq2Lm8Np4Rt6Vw3Yb</td><td>next</td>", "</td><td>next</td>"],
    ] as const
  ).map(
    ([text, rest]) =>
      [
        "secret-assignment",
        text,
        "Zx9Kq2Lm8Np4Rt6Vw3Yb",
        text.replace(`Zx9Kq2Lm8Np4Rt6Vw3Yb${rest}`, `[REDACTED:secret-assignment]${rest}`),
      ] as const,
  ),
  // A header set by name and value, as two arguments: the value's scheme says it is one.
  [
    "authorization-header",
    'conn.setRequestProperty("Authorization", "Bearer mQ7-4.1xZkP9"); conn.connect();',
    "mQ7-4.1xZkP9",
    'conn.setRequestProperty("Authorization", "Bearer [REDACTED:authorization-header]"); conn.connect();',
  ],
  [
    // A server's directive: the name, blanks and the quoted value (nginx, Apache, HAProxy).
    "authorization-header",
    "proxy_set_header Authorization \"Basic YWxpY2U6czNjcjN0UGFzcw==\";\nRequestHeader set Authorization 'Bearer mQ7-4.1xZkP9'\n",
    "mQ7-4.1xZkP9",
    "proxy_set_header Authorization \"Basic [REDACTED:authorization-header]\";\nRequestHeader set Authorization 'Bearer [REDACTED:authorization-header]'\n",
  ],
  // A recorded request's headers as YAML (a VCR cassette): the value a list's item on the
  // next line.
  [
    "authorization-header",
    "    headers:\n      Authorization:\n      - Basic YXBpOm1RNy00LjF4WmtQOQ==\n      Accept:\n      - '*/*'\n",
    "YXBpOm1RNy00LjF4WmtQOQ==",
    "    headers:\n      Authorization:\n      - Basic [REDACTED:authorization-header]\n      Accept:\n      - '*/*'\n",
  ],
  // A keyword's value as a YAML list's first item on the next line (a cassette's custom
  // header, a config's list of keys), read as a list's first element: a token-like word.
  [
    "secret-assignment",
    "      X-Api-Key:\n      - Vq7pLm2xZ9wR4tW6yZ3a\napi_keys:\n  - Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "      X-Api-Key:\n      - [REDACTED:secret-assignment]\napi_keys:\n  - [REDACTED:secret-assignment]\n",
  ],
  // Every element of a list of secrets after a keyword, judged as the first is: a JSON
  // list's (an empty or short element kept, a long one streamed), a YAML list's items at the
  // first one's indentation. What follows the list stays (another list, a deeper item).
  [
    "secret-assignment",
    '{"api_keys": ["Vq7pLm2xZ9wR4tW6yZ3a", "", "Hm4kQ8wZ2pL6tR9yX3cB", "v2",\n  "Nx5tW7qL3mZ9pR2kV8dFNx5tW7qL3mZ9pR2kV8dFNx5tW7qL3mZ9pR2kV8dF"], "ids": ["Hm4kQ8wZ2pL6tR9yX3cZ"]}',
    "Nx5tW7qL3mZ9pR2kV8dF",
    '{"api_keys": ["[REDACTED:secret-assignment]", "", "[REDACTED:secret-assignment]", "v2",\n  "[REDACTED:secret-assignment]"], "ids": ["Hm4kQ8wZ2pL6tR9yX3cZ"]}',
  ],
  [
    "secret-assignment",
    'api_keys:\n  - Vq7pLm2xZ9wR4tW6yZ3a\n  - "Hm4kQ8wZ2pL6tR9yX3cB"\n  - Nx5tW7qL3mZ9pR2kV8dF\n    - Hm4kQ8wZ2pL6tR9yX3cZ\n',
    "Nx5tW7qL3mZ9pR2kV8dF",
    'api_keys:\n  - [REDACTED:secret-assignment]\n  - "[REDACTED:secret-assignment]"\n  - [REDACTED:secret-assignment]\n    - Hm4kQ8wZ2pL6tR9yX3cZ\n',
  ],
  // Every member of an object or a YAML map a plural names (keys by environment), judged as
  // the first; a singular's object keeps its other members (a token's metadata), and so do
  // a deeper map and what follows.
  [
    "secret-assignment",
    '{"api_keys": {"prod": "Vq7pLm2xZ9wR4tW6yZ3a", "us-east.staging": "Nx5tW7qL3mZ9pR2kV8dF"}, "token": {"value": "Vq7pLm2xZ9wR4tW6yZ3a", "scope": "Jd6sF1gH4jK7lP0oI9uY"}}',
    "Nx5tW7qL3mZ9pR2kV8dF",
    '{"api_keys": {"prod": "[REDACTED:secret-assignment]", "us-east.staging": "[REDACTED:secret-assignment]"}, "token": {"value": "[REDACTED:secret-assignment]", "scope": "Jd6sF1gH4jK7lP0oI9uY"}}',
  ],
  [
    "secret-assignment",
    "api_keys:\n  prod: Vq7pLm2xZ9wR4tW6yZ3a\n  staging: 'Nx5tW7qL3mZ9pR2kV8dF'\n    deep: Jd6sF1gH4jK7lP0oI9uY\nnext: Jd6sF1gH4jK7lP0oI9uY\n",
    "Nx5tW7qL3mZ9pR2kV8dF",
    "api_keys:\n  prod: [REDACTED:secret-assignment]\n  staging: '[REDACTED:secret-assignment]'\n    deep: Jd6sF1gH4jK7lP0oI9uY\nnext: Jd6sF1gH4jK7lP0oI9uY\n",
  ],
  // Tokens joined by commas after a plural (a rotation's list of keys), unquoted and quoted
  // (the long one decided before it ends).
  [
    "secret-assignment",
    'API_KEYS=Vq7pLm2xZ9wR4tW6yZ3a,Nx5tW7qL3mZ9pR2kV8dF\n{"tokens": "Vq7pLm2xZ9wR4tW6yZ3a,Nx5tW7qL3mZ9pR2kV8dFNx5tW7qL3mZ9pR2kV8dF"}',
    "Nx5tW7qL3mZ9pR2kV8dF",
    'API_KEYS=[REDACTED:secret-assignment]\n{"tokens": "[REDACTED:secret-assignment]"}',
  ],
  // A header set in a subscript, and a template literal's value.
  [
    "authorization-header",
    "headers['Authorization'] = 'Bearer mQ7-4.1xZkP9'\nh[\"Authorization\"] = `Bearer mQ7-4.1xZkP9`;\n",
    "mQ7-4.1xZkP9",
    "headers['Authorization'] = 'Bearer [REDACTED:authorization-header]'\nh[\"Authorization\"] = `Bearer [REDACTED:authorization-header]`;\n",
  ],
  // A JWT at the end of a sentence keeps its full stop; a query string's `&` and a shell's
  // `|`/`;` end a header's token and a flag's argument.
  ["jwt", `got ${JWT_SAMPLE}. Next`, JWT_SAMPLE, "got [REDACTED:jwt]. Next"],
  [
    "authorization-header",
    "Authorization: Bearer Zx9Kq2Lm8Np4Rt6Vw3Yb&next=1|more",
    "Zx9Kq2Lm8Np4Rt6Vw3Yb",
    "Authorization: Bearer [REDACTED:authorization-header]&next=1|more",
  ],
  // A token scheme's credential as an auth-param (Rails' `Token token="…"`): the param's
  // name, `=` and quotes stay; a padded token (`…==`) is still one token.
  [
    "authorization-header",
    'Authorization: Token token="Zx9Kq2Lm8Np4Rt6Vw3Yb", email="a@b.example"\nAuthorization: Token token=Zx9Kq2Lm8Np4Rt6Vw3Yb\nAuthorization: Basic Zx9Kq2Lm8Np4Rt6Vw3Yb=\n',
    "Zx9Kq2Lm8Np4Rt6Vw3Yb",
    'Authorization: Token token="[REDACTED:authorization-header]", email="a@b.example"\nAuthorization: Token token=[REDACTED:authorization-header]\nAuthorization: Basic [REDACTED:authorization-header]\n',
  ],
  // OAuth 1.0's parameters (RFC 5849): the scheme stays, its parameters go, as Digest's do.
  [
    "authorization-header",
    'Authorization: OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", oauth_version="1.0"\nnext',
    "GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    "Authorization: OAuth [REDACTED:authorization-header]\nnext",
  ],
  // After a `,`, only a parameter (`name=…`) goes on with the credential: prose stays.
  [
    "authorization-header",
    'Authorization: OAuth oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", see below\n',
    "GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    "Authorization: OAuth [REDACTED:authorization-header], see below\n",
  ],
  // A multi-word scheme's parameters end where they do, not at the line's end: the quote of
  // the shell's string the header stands in stays, and what follows it.
  [
    "authorization-header",
    "curl -H 'Authorization: Digest username=\"bob\", response=\"6629fae49393a05397450978507c4ef1\"' https://h/x\ncurl -H 'Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7' -d x",
    "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
    "curl -H 'Authorization: Digest [REDACTED:authorization-header]' https://h/x\ncurl -H 'Authorization: AWS4-HMAC-SHA256 [REDACTED:authorization-header]' -d x",
  ],
  [
    "basic-auth",
    "curl -u admin:Zx9Kq2Lm8Np4Rt6Vw3Yb|jq .;echo ok",
    "admin:Zx9Kq2Lm8Np4Rt6Vw3Yb",
    "curl -u [REDACTED:basic-auth]|jq .;echo ok",
  ],
  // Cookies: every credible value of `Cookie:`, the cookie of `Set-Cookie:` (not its attributes).
  [
    "cookie",
    "> Cookie: theme=dark; sessionid=8f2k3j4h5g6f7d8s9a0q1w2e3r4t5y6u; lang=en-US",
    "8f2k3j4h5g6f7d8s9a0q1w2e3r4t5y6u",
    "> Cookie: theme=dark; sessionid=[REDACTED:cookie]; lang=en-US",
  ],
  [
    "cookie",
    "< Set-Cookie: PHPSESSID=el4ukv0kqbvoirg7nkp4dncpk3; path=/; HttpOnly",
    "el4ukv0kqbvoirg7nkp4dncpk3",
    "< Set-Cookie: PHPSESSID=[REDACTED:cookie]; path=/; HttpOnly",
  ],
  [
    "cookie",
    '{"headers":"Cookie: sid=0123456789abcdefghij\\nHost: x"}',
    "0123456789abcdefghij",
    '{"headers":"Cookie: sid=[REDACTED:cookie]\\nHost: x"}',
  ],
  [
    "cookie",
    'curl --cookie "a=1; sid=s%3Aabc123def456ghi789.xyz" https://x',
    "s%3Aabc123def456ghi789.xyz",
    'curl --cookie "a=1; sid=[REDACTED:cookie]" https://x',
  ],
  // Prose that gives the value: `password is: X`, `password is X`; a full stop stays.
  [
    "secret-assignment",
    "Your password is: Zx9!Kq2#Lm8",
    "Zx9!Kq2#Lm8",
    "Your password is: [REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    "The generated admin password is Zx9Kq2Lm8Np4. Log in now.",
    "Zx9Kq2Lm8Np4",
    "The generated admin password is [REDACTED:secret-assignment]. Log in now.",
  ],
  // A long word given after a space (redacted before its end is read) keeps the full stop
  // that ends its sentence too; inside a string, an element's text after `\n` is its own.
  [
    "secret-assignment",
    "the password is aB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ. Log in now.",
    "aB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ",
    "the password is [REDACTED:secret-assignment]. Log in now.",
  ],
  [
    "secret-element",
    '{"log":"<secret>{acme AQAAABAAA x7Kq2mZ9pL4vN8rT3wY6}\\n</secret>\\n<password>\\naB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ\\n</password>"}',
    "x7Kq2mZ9pL4vN8rT3wY6",
    '{"log":"<secret>{acme AQAAABAAA [REDACTED:secret-element]}\\n</secret>\\n<password>\\n[REDACTED:secret-assignment]\\n</password>"}',
  ],
  // Prose that sets the value: verbs after the keyword, then `to`.
  [
    "secret-assignment",
    "root password set to Zx9Kq2Lm8\nAdmin password was changed to: Zx9Kq2Lm8\n",
    "Zx9Kq2Lm8",
    "root password set to [REDACTED:secret-assignment]\nAdmin password was changed to: [REDACTED:secret-assignment]\n",
  ],
  // A keyword as a URL's user (`x-access-token`, PyPI's `__token__`): its password ends at
  // the `@`, however long (the host and path stay).
  [
    "url-userinfo",
    "git clone https://x-access-token:aB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ@github.com/o/r.git done",
    "aB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ",
    "git clone https://[REDACTED:url-userinfo]@github.com/o/r.git done",
  ],
  // CJK punctuation, an ideographic space or a no-break space ends an unquoted value as a
  // blank does: the sentence after it stays.
  [
    "secret-assignment",
    "token: Zx9Kq2Lm8Np4。下一步\nAPI_KEY=Zx9Kq2Lm8Np4、次\npassword=Zx9Kq2Lm8Np4\u00a0ok",
    "Zx9Kq2Lm8Np4",
    "token: [REDACTED:secret-assignment]。下一步\nAPI_KEY=[REDACTED:secret-assignment]、次\npassword=[REDACTED:secret-assignment]\u00a0ok",
  ],
  // Go's `http.Header` as JSON: each header's values are a list.
  [
    "authorization-header",
    '{"Authorization":["Bearer Zx9Kq2Lm8Np4Rt6Vw3Yb"],"Accept":["*/*"]}',
    "Zx9Kq2Lm8Np4Rt6Vw3Yb",
    '{"Authorization":["Bearer [REDACTED:authorization-header]"],"Accept":["*/*"]}',
  ],
  // Every element of a list of cookies: Go's `http.Header` as JSON (pretty-printed too), a
  // recorded response's YAML; a `Set-Cookie` value's attributes stay, and so do other lists.
  [
    "cookie",
    '{"Set-Cookie": [\n  "sid=Zx9Kq2Lm8Np4Rt6Vw3Yb; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT",\n  "session=Hm4kQ8wZ2pL6tR9yX3cB; HttpOnly"], "Vary": ["x=Jd6sF1gH4jK7lP0oI9uY"]}',
    "Hm4kQ8wZ2pL6tR9yX3cB",
    '{"Set-Cookie": [\n  "sid=[REDACTED:cookie]; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT",\n  "session=[REDACTED:cookie]; HttpOnly"], "Vary": ["x=Jd6sF1gH4jK7lP0oI9uY"]}',
  ],
  [
    "cookie",
    "    Set-Cookie:\n    - sid=Zx9Kq2Lm8Np4Rt6Vw3Yb; path=/; HttpOnly\n    - session=Hm4kQ8wZ2pL6tR9yX3cB\n    Vary:\n    - x=Jd6sF1gH4jK7lP0oI9uY\n",
    "Hm4kQ8wZ2pL6tR9yX3cB",
    "    Set-Cookie:\n    - sid=[REDACTED:cookie]; path=/; HttpOnly\n    - session=[REDACTED:cookie]\n    Vary:\n    - x=Jd6sF1gH4jK7lP0oI9uY\n",
  ],
  [
    "cookie",
    '{"Cookie":["sid=Zx9Kq2Lm8Np4Rt6Vw3Yb; theme=dark"]}\nSet-Cookie: sid="Zx9Kq2Lm8Np4Rt6Vw3Yb"; Path=/',
    "Zx9Kq2Lm8Np4Rt6Vw3Yb",
    '{"Cookie":["sid=[REDACTED:cookie]; theme=dark"]}\nSet-Cookie: sid="[REDACTED:cookie]"; Path=/',
  ],
  // A connection string's last `;` before the quote that closes it stays.
  [
    "secret-assignment",
    '<add name="db" connectionString="Server=x;Password=Cs9xK2mQ7vL4;" />',
    "Cs9xK2mQ7vL4",
    '<add name="db" connectionString="Server=x;Password=[REDACTED:secret-assignment];" />',
  ],
  // ADO.NET's keys hold spaces (`Persist Security Info`): the value ends at its `;`; so does
  // a `;` and a word with no `=` after it, at the blank. SQL Server's JDBC URL has no
  // userinfo: its `;` properties after the port hold the `@` of a user's name.
  [
    "secret-assignment",
    "Server=db;User ID=sa;Password=Cs9xK2mQ7vL4;Persist Security Info=False;\nPassword=Cs9xK2mQ7vL4;Initial Catalog\njdbc:sqlserver://db.example.com:1433;user=me@db;password=Cs9xK2mQ7vL4;encrypt=true\n",
    "Cs9xK2mQ7vL4",
    "Server=db;User ID=sa;Password=[REDACTED:secret-assignment];Persist Security Info=False;\nPassword=[REDACTED:secret-assignment] Catalog\njdbc:sqlserver://db.example.com:1433;user=me@db;password=[REDACTED:secret-assignment];encrypt=true\n",
  ],
  // A URL given as a command's user (`-u redis://:pass@host`): the URL's password, the host kept.
  [
    "url-userinfo",
    "redis-cli -u redis://:R3d9xK2mQ7vL4@cache:6379 ping",
    "R3d9xK2mQ7vL4",
    "redis-cli -u redis://[REDACTED:url-userinfo]@cache:6379 ping",
  ],
  // A session's id in a URL: Java's path parameter, PHP's and a plain query parameter.
  [
    "url-query-key",
    "GET /shop/cart;jsessionid=1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D?item=3\nGET /i.php?PHPSESSID=el4ukv0kqbvoirg7nkp4dncpk3&x=1",
    "1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D",
    "GET /shop/cart;jsessionid=[REDACTED:url-query-key]?item=3\nGET /i.php?PHPSESSID=[REDACTED:url-query-key]&x=1",
  ],
  // A URL query's parameter: the value ends at the next `&`, with or without a `=` after it,
  // and at the fragment's `#`.
  [
    "secret-assignment",
    "GET /cb?token=Zx9Kq2Lm8Np4&debug HTTP/1.1\nGET /cb?a=1&token=Zx9Kq2Lm8Np4#top",
    "Zx9Kq2Lm8Np4",
    "GET /cb?token=[REDACTED:secret-assignment]&debug HTTP/1.1\nGET /cb?a=1&token=[REDACTED:secret-assignment]#top",
  ],
  // A tool's report of a credential it made: a participle and a `:`, the value random.
  [
    "secret-assignment",
    "New token created: tk9Qx2Lm8Np4Zr7Wv3\nAPI key generated: tk9Qx2Lm8Np4Zr7Wv3\n",
    "tk9Qx2Lm8Np4Zr7Wv3",
    "New token created: [REDACTED:secret-assignment]\nAPI key generated: [REDACTED:secret-assignment]\n",
  ],
  // A query string encoded once more: `%3D` after the keyword, the value up to `%26`.
  [
    "secret-assignment",
    "GET /login?next=%2Fapp%3Fpassword%3DZx9Kq2Lm8%26lang%3Den HTTP/1.1",
    "Zx9Kq2Lm8",
    "GET /login?next=%2Fapp%3Fpassword%3D[REDACTED:secret-assignment]%26lang%3Den HTTP/1.1",
  ],
  // A JSON body encoded once: the member's `":"` encoded, the value up to its `%22`.
  [
    "secret-assignment",
    "GET /cb?state=%7B%22api_key%22%3A%20%22Zx9Kq2Lm8%22%2C%22n%22%3A1%7D HTTP/1.1",
    "Zx9Kq2Lm8",
    "GET /cb?state=%7B%22api_key%22%3A%20%22[REDACTED:secret-assignment]%22%2C%22n%22%3A1%7D HTTP/1.1",
  ],
  // A JSON member's quotes as HTML entities (JSON in an attribute) or `\u0022` escapes
  // (.NET's serializer inside a string): the value up to its closing quote.
  [
    "secret-assignment",
    '<div data-props="{&quot;apiKey&quot;:&quot;Zx9Kq2Lm8&quot;}">\n"body": "{\\u0022password\\u0022: \\u0022Zx9Kq2Lm8\\u0022}"\n',
    "Zx9Kq2Lm8",
    '<div data-props="{&quot;apiKey&quot;:&quot;[REDACTED:secret-assignment]&quot;}">\n"body": "{\\u0022password\\u0022: \\u0022[REDACTED:secret-assignment]\\u0022}"\n',
  ],
  // The value's own escapes and entities are the value's: only its closing quote ends it.
  [
    "secret-assignment",
    "{\\u0022apiKey\\u0022:\\u0022Zx9Kq\\u002B2Lm8==\\u0022}\n{&quot;token&quot;:&quot;Zx9Kq&amp;2Lm8==&quot;}\n",
    "2Lm8==",
    "{\\u0022apiKey\\u0022:\\u0022[REDACTED:secret-assignment]\\u0022}\n{&quot;token&quot;:&quot;[REDACTED:secret-assignment]&quot;}\n",
  ],
  // A typed declaration: the type after the colon, the value after the `=` (Rust's
  // references and lifetimes, Python's `Final`).
  [
    "secret-assignment",
    'const apiToken: string = "Gq9Lz2Xpq7"; let key: &str = "x"; password: Optional[str] = "Gq9Lz2Xpq7"',
    "Gq9Lz2Xpq7",
    'const apiToken: string = "[REDACTED:secret-assignment]"; let key: &str = "x"; password: Optional[str] = "[REDACTED:secret-assignment]"',
  ],
  [
    "secret-assignment",
    'const API_KEY: &str = "Gq9Lz2Xpq7";\npub static TOKEN: &\'static str = "Gq9Lz2Xpq7";\nAPI_KEY: Final[str] = "Gq9Lz2Xpq7"',
    "Gq9Lz2Xpq7",
    'const API_KEY: &str = "[REDACTED:secret-assignment]";\npub static TOKEN: &\'static str = "[REDACTED:secret-assignment]";\nAPI_KEY: Final[str] = "[REDACTED:secret-assignment]"',
  ],
  // A string literal's prefix stays with its quotes (Python's `r"…"`, C#'s `@"…"`); a
  // letter that prefixes no string is the value's.
  [
    "secret-assignment",
    'password = r"Gq9Lz2Xpq7"; var apiToken = @"Gq9Lz2Xpq7"; PASSWORD=bGq9Lz2Xpq7',
    "Gq9Lz2Xpq7",
    'password = r"[REDACTED:secret-assignment]"; var apiToken = @"[REDACTED:secret-assignment]"; PASSWORD=[REDACTED:secret-assignment]',
  ],
  // SQL's national and escape strings (`N'…'`, `E'…'`), C's wide string (`L"…"`) and the
  // shell's ANSI-C quoting (`$'…'`): the prefix and both quotes stay; `$"…"` is C#'s
  // interpolation, a template, and `Nope` no prefix.
  [
    "secret-assignment",
    "WITH PASSWORD = N'Gq9Lz2Xpq7', CHECK_POLICY = OFF; wchar_t *password = L\"Gq9Lz2Xpq7\"; export PASSWORD=$'Gq9Lz2Xpq7' token = E'Gq9Lz2Xpq7'",
    "Gq9Lz2Xpq7",
    "WITH PASSWORD = N'[REDACTED:secret-assignment]', CHECK_POLICY = OFF; wchar_t *password = L\"[REDACTED:secret-assignment]\"; export PASSWORD=$'[REDACTED:secret-assignment]' token = E'[REDACTED:secret-assignment]'",
  ],
  // Two-byte prefixes: Python's `rb"…"`, `fr'…'` (any case), C's `u8"…"`; unquoted they are
  // the value's first bytes.
  [
    "secret-assignment",
    'password = rb"Gq9Lz2Xpq7"; api_token = Fr\'Gq9Lz2Xpq7\'; auto password = u8"Gq9Lz2Xpq7"; PASSWORD=rbGq9Lz2Xpq7',
    "Gq9Lz2Xpq7",
    'password = rb"[REDACTED:secret-assignment]"; api_token = Fr\'[REDACTED:secret-assignment]\'; auto password = u8"[REDACTED:secret-assignment]"; PASSWORD=[REDACTED:secret-assignment]',
  ],
  // A shell parameter's default (Docker Compose's `${X:-default}`): the value after `:-`.
  [
    "secret-assignment",
    "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-Gq9Lz2Xpq7}\nAPI_TOKEN=${API_TOKEN:=Gq9Lz2Xpq7}",
    "Gq9Lz2Xpq7",
    "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-[REDACTED:secret-assignment]}\nAPI_TOKEN=${API_TOKEN:=[REDACTED:secret-assignment]}",
  ],
  // A token's name whose last words say it is a cursor or an idempotency token stays (its
  // value too); another word before TOKEN does not make it one (`exchangeToken`).
  [
    "secret-assignment",
    '{"exchangeToken": "Gq9Lz2Xpq7Vb", "nextToken": "Xk9mP2qL8vR4tW6y"}',
    "Gq9Lz2Xpq7Vb",
    '{"exchangeToken": "[REDACTED:secret-assignment]", "nextToken": "Xk9mP2qL8vR4tW6y"}',
  ],
  // A literal appended with `+=`, and a name that ends in `last`, are values still.
  [
    "secret-assignment",
    'password_last = "Gq9Lz2Xpq7"; token += "Gq9Lz2Xpq7"',
    "Gq9Lz2Xpq7",
    'password_last = "[REDACTED:secret-assignment]"; token += "[REDACTED:secret-assignment]"',
  ],
  // A URL's password that only starts as a variable does is a password.
  [
    "url-userinfo",
    "postgres://app:${PW}x9Lm2q@db/app https://deploy:$PW}x9Lm2q@host",
    "x9Lm2q",
    "postgres://[REDACTED:url-userinfo]@db/app https://[REDACTED:url-userinfo]@host",
  ],
  // Gradle's DSL (a quoted value after a blank) and Ruby's `set :name, "…"`: token-like values.
  [
    "secret-assignment",
    'credentials {\n  username "deploy"\n  password "Gq9Lz2Xp7"\n}\nset :db_password, "Gq9Lz2Xp7"',
    "Gq9Lz2Xp7",
    'credentials {\n  username "deploy"\n  password "[REDACTED:secret-assignment]"\n}\nset :db_password, "[REDACTED:secret-assignment]"',
  ],
  // Python's triple-quoted strings.
  [
    "secret-assignment",
    "password = '''Gq9Lz2Xpq7'''\napi_token = \"\"\"Gq9Lz2Xpq7\"\"\"\n",
    "Gq9Lz2Xpq7",
    "password = '''[REDACTED:secret-assignment]'''\napi_token = \"\"\"[REDACTED:secret-assignment]\"\"\"\n",
  ],
  // The same forms inside a JSON string, their quotes escaped.
  [
    "secret-assignment",
    '{"code":"credentials {\\n  password \\"Gq9Lz2Xp7\\"\\n}","py":"password = r\\"Gq9Lz2Xp7\\""}',
    "Gq9Lz2Xp7",
    '{"code":"credentials {\\n  password \\"[REDACTED:secret-assignment]\\"\\n}","py":"password = r\\"[REDACTED:secret-assignment]\\""}',
  ],
  // A vendor's object: its first member's value, also inside a JSON string.
  [
    "vendor-credential",
    '{"datadog": {"key": "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d"}, "log": "{\\"datadog\\":\\"9f8e7d6c5b4a39281706f5e4d3c2b1a0\\"}"}',
    "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d",
    '{"datadog": {"key": "[REDACTED:vendor-credential]"}, "log": "{\\"datadog\\":\\"[REDACTED:vendor-credential]\\"}"}',
  ],
  // A vendor's name, a blank and a quoted random token (a fixture's or a DSL's call).
  [
    "vendor-credential",
    "datadog '0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d'\nkraken \"Vq7pLm2xZ9wR4tW6yZ3aVq7pLm2xZ9wR\"\n",
    "Vq7pLm2xZ9wR4tW6yZ3aVq7p",
    "datadog '[REDACTED:vendor-credential]'\nkraken \"[REDACTED:vendor-credential]\"\n",
  ],
  // Prose that gives a password after `is`: a quoted word (letters alone too), or after
  // `password for <words> is`.
  [
    "secret-assignment",
    'The initial password is "tangerine". The password for account "ops" is "bluebird".',
    "tangerine",
    'The initial password is "[REDACTED:secret-assignment]". The password for account "ops" is "[REDACTED:secret-assignment]".',
  ],
  // …or a word's `:` ending the phrase, a random value after it.
  [
    "secret-assignment",
    "Password for the elastic user: Vq7p_Lm2xZ9wR4tW6y=x\n",
    "Vq7p_Lm2xZ9wR4tW6y",
    "Password for the elastic user: [REDACTED:secret-assignment]\n",
  ],
  // .NET's settings: the element's other attributes, then its `value` child.
  [
    "secret-assignment",
    '<setting name="SmtpPassword" serializeAs="String">\n  <value>Vq7pLm2xZ9wR</value>\n</setting>',
    "Vq7pLm2xZ9wR",
    '<setting name="SmtpPassword" serializeAs="String">\n  <value>[REDACTED:secret-assignment]</value>\n</setting>',
  ],
  // PostgreSQL's password file: the password to its line's end, `\:` and `\\` its own.
  [
    "pgpass-password",
    "db.internal:5432:app:deploy:Vq7pLm2xZ9wR\n*:*:*:postgres:Adm1n Pw 77\n",
    "Vq7pLm2xZ9wR",
    "db.internal:5432:app:deploy:[REDACTED:pgpass-password]\n*:*:*:postgres:[REDACTED:pgpass-password]\n",
  ],
  [
    "pgpass-password",
    "localhost:6432:*:app:Vq7pLm2x\\:Z9wR\n",
    "Vq7pLm2x",
    "localhost:6432:*:app:[REDACTED:pgpass-password]\n",
  ],
  // Inside a string inside a string its line ends at `\\n`: the next line stays.
  [
    "pgpass-password",
    '{"r":"{\\"log\\":\\"db:5432:app:deploy:Vq7pLm2xZ9wR\\\\nnext line\\"}"}',
    "Vq7pLm2xZ9wR",
    '{"r":"{\\"log\\":\\"db:5432:app:deploy:[REDACTED:pgpass-password]\\\\nnext line\\"}"}',
  ],
  // R's `<-` and `<<-` before a string.
  [
    "secret-assignment",
    "db_password <- \"Gq9Lz2Xpq7\"; api_key <<- 'Gq9Lz2Xpq7'",
    "Gq9Lz2Xpq7",
    "db_password <- \"[REDACTED:secret-assignment]\"; api_key <<- '[REDACTED:secret-assignment]'",
  ],
  // Bundler's credentials for a gem source, in the environment and in `.bundle/config`.
  [
    "bundler-credential",
    'export BUNDLE_GEMS__CONTRIBSYS__COM=c0ffee42:Vq7pLm2x\nBUNDLE_RUBYGEMS__PKG__GITHUB__COM: "octo:Vq7pLm2x"',
    "Vq7pLm2x",
    'export BUNDLE_GEMS__CONTRIBSYS__COM=[REDACTED:bundler-credential]\nBUNDLE_RUBYGEMS__PKG__GITHUB__COM: "[REDACTED:bundler-credential]"',
  ],
  // AWS keys as the CLI's text output prints them (`aws iam create-access-key`, `aws sts
  // get-session-token`: the secret and the session token, a field each, no name before
  // them) and as the console's key files hold them (the password of a user's too).
  [
    "aws-credential-row",
    "ACCESSKEY\tAKIAQXK9MQ2VLP7RTZ4W\t2024-05-01T12:00:00+00:00\twJa1rXUtnFEMI/K7MDENG/bPxRfiCYzX9mQ2vLp7Rt\tActive\tbob\nCREDENTIALS\tASIAQXK9MQ2VLP7RTZ4W\t2024-05-01T13:00:00+00:00\tZq8Hc3JfXk9mQ2vLp7RtZ4w2Zq8Hc3JfXk9mQ2vL\tIQoJb3JpZ2luX2VjEHt5pW8sD1fG4hJ7kL0zX3cV6bN9mQ2aS5dF8gH1jK4lZ7xC0vB3nM6\n",
    "IQoJb3JpZ2luX2VjEHt5pW8sD1fG4hJ7kL0zX3cV6bN9mQ2aS5dF8gH1jK4lZ7xC0vB3nM6",
    "ACCESSKEY\t[REDACTED:aws-access-key-id]\t2024-05-01T12:00:00+00:00\t[REDACTED:aws-credential-row]\tActive\tbob\nCREDENTIALS\t[REDACTED:aws-access-key-id]\t2024-05-01T13:00:00+00:00\t[REDACTED:aws-credential-row]\t[REDACTED:aws-credential-row]\n",
  ],
  [
    "aws-credential-row",
    'Access key ID,Secret access key\r\nAKIAQXK9MQ2VLP7RTZ4W,wJa1rXUtnFEMI/K7MDENG/bPxRfiCYzX9mQ2vLp7Rt\r\nUser name,Password,Console login link\nbob,"Xk9!m,Q2v",https://x.signin.aws.amazon.com/console\n',
    "wJa1rXUtnFEMI/K7MDENG/bPxRfiCYzX9mQ2vLp7Rt",
    "Access key ID,Secret access key\r\n[REDACTED:aws-access-key-id],[REDACTED:aws-credential-row]\r\nUser name,Password,Console login link\nbob,[REDACTED:aws-credential-row],https://x.signin.aws.amazon.com/console\n",
  ],
  // A Google OAuth client's id: the project's number and 32 characters before the domain,
  // which stays.
  [
    "google-oauth-client-id",
    '{"installed":{"client_id":"318273645091-q7w2e9r4t1y6u3i8o5p0a2s7d4f9g1h6.apps.googleusercontent.com","project_id":"p"}}',
    "q7w2e9r4t1y6u3i8o5p0a2s7d4f9g1h6",
    '{"installed":{"client_id":"[REDACTED:google-oauth-client-id].apps.googleusercontent.com","project_id":"p"}}',
  ],
  // An Azure storage account's key after its name, glued to a longer name, as a flag's, and
  // across the punctuation and line breaks code wraps a literal in.
  [
    "azure-storage-key",
    'static const std::string AzuriteAccountKey{\n    "6xgk2ewNxGZNGsb4cSUEINiJ3KRGvlXv536GEOxwQ16xz/K3kAEGS3+VMSTdakZn4ITIw0cJTMnp66K+diPdfw=="};\nexport const key =\n  process.env.STORAGE_ACCOUNT_KEY ||\n  "6xgk2ewNxGZNGsb4cSUEINiJ3KRGvlXv536GEOxwQ16xz/K3kAEGS3+VMSTdakZn4ITIw0cJTMnp66K+diPdfw==";\nAzureCleanup.exe -storagekey 6xgk2ewNxGZNGsb4cSUEINiJ3KRGvlXv536GEOxwQ16xz/K3kAEGS3+VMSTdakZn4ITIw0cJTMnp66K+diPdfw== -container sql\n',
    "6xgk2ewNxGZNGsb4cSUEINiJ3KRGvlXv536GEOxw",
    'static const std::string AzuriteAccountKey{\n    "[REDACTED:azure-storage-key]"};\nexport const key =\n  process.env.STORAGE_ACCOUNT_KEY ||\n  "[REDACTED:azure-storage-key]";\nAzureCleanup.exe -storagekey [REDACTED:azure-storage-key] -container sql\n',
  ],
  // A Kubernetes Secret's `data:` values (base64 of text) whatever their keys, quoted or
  // not, and its `stringData:` values; a certificate there stays, and a ConfigMap's plain
  // value ends the block.
  [
    "kubernetes-secret",
    "apiVersion: v1\ndata:\n  ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUI=\n  extra: 'cTdXMmU5UjR0MVk2dTM='\n  namespace: ZGVmYXVsdA==\nkind: Secret\nstringData:\n  token: Pz8kQ2vR7mXw1L\n  other: ${DB_PASSWORD}\n",
    "cTdXMmU5UjR0MVk2dTM=",
    "apiVersion: v1\ndata:\n  ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUI=\n  extra: '[REDACTED:kubernetes-secret]'\n  namespace: [REDACTED:kubernetes-secret]\nkind: Secret\nstringData:\n  token: [REDACTED:secret-assignment]\n  other: ${DB_PASSWORD}\n",
  ],
  // The block at the start of a string holding the document, a value in double quotes
  // (escaped inside a string: the backslash before the closing quote stays).
  [
    "kubernetes-secret",
    'data:\n  extra: "SHg0IXBROHpUbTJ3Szk="\nkind: Secret\n',
    "SHg0IXBROHpUbTJ3Szk=",
    'data:\n  extra: "[REDACTED:kubernetes-secret]"\nkind: Secret\n',
  ],
  // The same in JSON, as `kubectl get secret -o json` sorts it: `apiVersion`, then `data`.
  [
    "kubernetes-secret",
    '{\n    "apiVersion": "v1",\n    "data": {\n        "ca.crt": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIK",\n        "extra": "Rk8henEyTHBXN3g="\n    },\n    "kind": "Secret"\n}\n',
    "Rk8henEyTHBXN3g=",
    '{\n    "apiVersion": "v1",\n    "data": {\n        "ca.crt": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIK",\n        "extra": "[REDACTED:kubernetes-secret]"\n    },\n    "kind": "Secret"\n}\n',
  ],
  // A Secret in JSON with `kind` first (`kubectl create secret … --dry-run=client -o json`):
  // the members up to `data` skipped, nested ones too.
  [
    "kubernetes-secret",
    '{\n    "kind": "Secret",\n    "apiVersion": "v1",\n    "metadata": {\n        "name": "app",\n        "labels": {"data": "x"}\n    },\n    "data": {\n        "api": "Rk8henEyTHBXN3g="\n    }\n}\n',
    "Rk8henEyTHBXN3g=",
    '{\n    "kind": "Secret",\n    "apiVersion": "v1",\n    "metadata": {\n        "name": "app",\n        "labels": {"data": "x"}\n    },\n    "data": {\n        "api": "[REDACTED:kubernetes-secret]"\n    }\n}\n',
  ],
  // A Python tuple after a plural keyword, as a list: every element judged as the first.
  [
    "secret-assignment",
    'API_KEYS = ("Tq2wE9rY5uI1oP7aS3dF", "Gh8jK4lZ6xC2vB9nM1qW")\nTOKENS = (\'Tq2wE9rY5uI1oP7aS3dF\',)\n',
    "Gh8jK4lZ6xC2vB9nM1qW",
    'API_KEYS = ("[REDACTED:secret-assignment]", "[REDACTED:secret-assignment]")\nTOKENS = (\'[REDACTED:secret-assignment]\',)\n',
  ],
  // A getter's definition that returns a literal: Go's, Java's, TypeScript's, Python's.
  [
    "secret-assignment",
    'func getApiKey() string { return "Tq2wE9rY5uI1oP7aS3dF" }\npublic String getToken() {\n    return "Tq2wE9rY5uI1oP7aS3dF";\n}\n  getSecret(): string { return \'Tq2wE9rY5uI1oP7aS3dF\'; }\n    def get_api_key(self) -> str:\n        return "Tq2wE9rY5uI1oP7aS3dF"\n',
    "Tq2wE9rY5uI1oP7aS3dF",
    'func getApiKey() string { return "[REDACTED:secret-assignment]" }\npublic String getToken() {\n    return "[REDACTED:secret-assignment]";\n}\n  getSecret(): string { return \'[REDACTED:secret-assignment]\'; }\n    def get_api_key(self) -> str:\n        return "[REDACTED:secret-assignment]"\n',
  ],
  // Redis's `AUTH` after `redis-cli`'s prompt (with an ACL user's name) and in `MONITOR`'s
  // log: the last argument, whatever its shape.
  [
    "redis-auth",
    '127.0.0.1:6379> AUTH hunter2x\nOK\nredis> auth default hunter2x\n1700000000.1 [0 127.0.0.1:5] "AUTH" "default" "hunter2x"\n1700000000.2 [0 127.0.0.1:5] "GET" "k"\n',
    "hunter2x",
    '127.0.0.1:6379> AUTH [REDACTED:redis-auth]\nOK\nredis> auth default [REDACTED:redis-auth]\n1700000000.1 [0 127.0.0.1:5] "AUTH" "default" "[REDACTED:redis-auth]"\n1700000000.2 [0 127.0.0.1:5] "GET" "k"\n',
  ],
  // ODBC's braces around a connection string's password (`PWD={…};`), braces and all.
  [
    "secret-assignment",
    "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD={Tq2wE9rY5uI1oP7a};Encrypt=yes;\n",
    "Tq2wE9rY5uI1oP7a",
    "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD=[REDACTED:secret-assignment];Encrypt=yes;\n",
  ],
  // SASL PLAIN's initial response, base64 of the user's name and password, after SMTP's
  // `AUTH PLAIN` and IMAP's `AUTHENTICATE PLAIN` (the command kept).
  [
    "sasl-plain",
    "send: 'AUTH PLAIN AGJvYgBUcTJ3RTlyWTV1STFvUDdh\\r\\n'\na001 AUTHENTICATE PLAIN AGJvYgBUcTJ3RTlyWTV1STFvUDdh\n",
    "AGJvYgBUcTJ3RTlyWTV1STFvUDdh",
    "send: 'AUTH PLAIN [REDACTED:sasl-plain]\\r\\n'\na001 AUTHENTICATE PLAIN [REDACTED:sasl-plain]\n",
  ],
  // C#'s auto-property initialized with a literal, after its accessors.
  [
    "secret-assignment",
    'public string ApiKey { get; set; } = "Tq2wE9rY5uI1oP7aS3dF";\npublic static string Password { get; private init; } = "Tq2wE9rY5uI1oP7aS3dF"; // kept\n',
    "Tq2wE9rY5uI1oP7aS3dF",
    'public string ApiKey { get; set; } = "[REDACTED:secret-assignment]";\npublic static string Password { get; private init; } = "[REDACTED:secret-assignment]"; // kept\n',
  ],
  // A random fallback literal after `||`, `??` or `?:`, spaced, unspaced or wrapped (the
  // member path before it stays).
  [
    "secret-assignment",
    'export const API_KEY = process.env.API_KEY ?? "Tq2wE9rY5uI1oP7aS3dF";\nconst t=process.env.GITHUB_TOKEN||"Tq2wE9rY5uI1oP7aS3dF",n();\nconst key = process.env.API_KEY ||\n  "Tq2wE9rY5uI1oP7aS3dF";\n$apiKey = $env->apiKey ?: \'Tq2wE9rY5uI1oP7aS3dF\';\n',
    "Tq2wE9rY5uI1oP7aS3dF",
    'export const API_KEY = process.env.API_KEY ?? "[REDACTED:secret-assignment]";\nconst t=process.env.GITHUB_TOKEN||"[REDACTED:secret-assignment]",n();\nconst key = process.env.API_KEY ||\n  "[REDACTED:secret-assignment]";\n$apiKey = $env->apiKey ?: \'[REDACTED:secret-assignment]\';\n',
  ],
  // A shell array's elements, separated by blanks, and a dictionary after a plural's `=`
  // (Python's, Ruby's): every member's value judged as the first.
  [
    "secret-assignment",
    'TOKENS=("Tq2wE9rY5uI1oP7aS3dF" "Gh8jK4lZ6xC2vB9nM1qW")\nAPI_KEYS = {"prod": "Tq2wE9rY5uI1oP7aS3dF", "dev": "Gh8jK4lZ6xC2vB9nM1qW"}\n',
    "Gh8jK4lZ6xC2vB9nM1qW",
    'TOKENS=("[REDACTED:secret-assignment]" "[REDACTED:secret-assignment]")\nAPI_KEYS = {"prod": "[REDACTED:secret-assignment]", "dev": "[REDACTED:secret-assignment]"}\n',
  ],
  // An element's value before the attribute that names it (attribute order is free), and
  // blanks before a tag's `>` after the name.
  [
    "secret-assignment",
    '<add value="Wp4!zQ8rLm2x" key="DbPassword"/>\n<input value="Wp4!zQ8rLm2x" type="password">\n<entry name = "db.password" >Wp4!zQ8rLm2x</entry>\n<the_password > Wp4!zQ8rLm2x </the_password>\n',
    "Wp4!zQ8rLm2x",
    '<add value="[REDACTED:secret-assignment]" key="DbPassword"/>\n<input value="[REDACTED:secret-assignment]" type="password">\n<entry name = "db.password" >[REDACTED:secret-assignment]</entry>\n<the_password > [REDACTED:secret-assignment] </the_password>\n',
  ],
  // A dash between blanks as the separator (notes and test data: `okta token - '…'`).
  [
    "secret-assignment",
    "okta token - 'Jq4vN8xT2mW6zK9pR3sY7bL5'\n    LDAP password      ----   Pw!9xQ2#zL7m\n",
    "Jq4vN8xT2mW6zK9pR3sY7bL5",
    "okta token - '[REDACTED:secret-assignment]'\n    LDAP password      ----   [REDACTED:secret-assignment]\n",
  ],
  // In a connection string a password that is another credential's word is the password.
  [
    "secret-assignment",
    "Server=db;Uid=sa;PWD=passwd;Database=x",
    "passwd",
    "Server=db;Uid=sa;PWD=[REDACTED:secret-assignment];Database=x",
  ],
  // A private key's block in YAML (indented, its last line short), one encrypted (its
  // armor's headers), and one cut short before its END line: the block ends after its last
  // line of base64, and what follows stays.
  [
    "pem-private-key",
    "private_key: |\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8\n  Zx9Kq2==\n  -----END RSA PRIVATE KEY-----\nnext: 1\n",
    "b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8",
    "private_key: |\n  [REDACTED:pem-private-key]\nnext: 1\n",
  ],
  [
    "pem-private-key",
    "key:\n\t-----BEGIN EC PRIVATE KEY-----\n\tMIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8\n\t-----END EC PRIVATE KEY-----\nafter\n",
    "7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8",
    "key:\n\t[REDACTED:pem-private-key]\nafter\n",
  ],
  [
    "pem-private-key",
    "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,5A9C2F3E4D5B6A7C\n\nMIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8\n-----END RSA PRIVATE KEY-----\nafter\n-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8\nHt5pW8sD1fG4hJ7kL0zX3cV6bN9m\nnext line stays\n",
    "Ht5pW8sD1fG4hJ7kL0zX3cV6bN9m",
    "[REDACTED:pem-private-key]\nafter\n[REDACTED:pem-private-key]\nnext line stays\n",
  ],
  // A key whose line breaks became blanks, and a block whose body is no base64 between its
  // BEGIN and END lines (a placeholder): redacted whole.
  [
    "pem-private-key",
    "-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8 Ht5pW8sD1fG4hJ7kL0zX3cV6bN9mQ2aS5dF8gH1jK4lZ7xC0vB3nM6qW9eR2t -----END RSA PRIVATE KEY-----\nnext\n-----BEGIN PRIVATE KEY-----\nsuper secret key here\n-----END PRIVATE KEY-----\nafter\n",
    "Ht5pW8sD1fG4hJ7kL0zX3cV6bN9mQ2aS5dF8gH1jK4lZ7xC0vB3nM6qW9eR2t",
    "[REDACTED:pem-private-key]\nnext\n[REDACTED:pem-private-key]\nafter\n",
  ],
  // Vault's unseal and recovery keys as `vault operator init` prints them: its table, and
  // every key of its JSON and YAML lists (the quotes, commas and dashes stay).
  [
    "vault-unseal-key",
    `Unseal Key 1: ${UNSEAL_B64}\nRecovery Key 12: ${UNSEAL_B64.slice(0, 20)}\n`,
    UNSEAL_B64,
    "Unseal Key 1: [REDACTED:vault-unseal-key]\nRecovery Key 12: [REDACTED:vault-unseal-key]\n",
  ],
  // The table's line as a single-quoted string's text (Python's repr of a dict).
  [
    "vault-unseal-key",
    `{'out': 'Unseal Key 1: ${UNSEAL_B64}'}`,
    UNSEAL_B64,
    "{'out': 'Unseal Key 1: [REDACTED:vault-unseal-key]'}",
  ],
  [
    "vault-unseal-key",
    `{\n  "unseal_keys_b64": [\n    "${UNSEAL_B64}",\n    "${UNSEAL_B64.slice(4)}"\n  ],\n  "unseal_keys_hex": ["${UNSEAL_HEX}"],\n  "unseal_shares": 5\n}`,
    UNSEAL_B64.slice(4),
    '{\n  "unseal_keys_b64": [\n    "[REDACTED:vault-unseal-key]",\n    "[REDACTED:vault-unseal-key]"\n  ],\n  "unseal_keys_hex": ["[REDACTED:vault-unseal-key]"],\n  "unseal_shares": 5\n}',
  ],
  [
    "vault-unseal-key",
    `unseal_keys_hex:\n- ${UNSEAL_HEX}\n  - '${UNSEAL_HEX.slice(2)}'\nunseal_shares: 5\n`,
    UNSEAL_HEX.slice(2),
    "unseal_keys_hex:\n- [REDACTED:vault-unseal-key]\n  - '[REDACTED:vault-unseal-key]'\nunseal_shares: 5\n",
  ],
  // OpenVPN's static key (`openvpn --genkey secret`): the block of its own name, hex lines.
  [
    "pem-private-key",
    "#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\ne5d4c3b2a1908f7e6d5c4b3a29180f7e\n-----END OpenVPN Static key V1-----\nkey-direction 1",
    "e5d4c3b2a1908f7e6d5c4b3a29180f7e",
    "#\n# 2048 bit OpenVPN static key\n#\n[REDACTED:pem-private-key]\nkey-direction 1",
  ],
  // A dotted value whose part is a token's, not a member's name (a short Vault token).
  [
    "secret-assignment",
    "VAULT_TOKEN=hvs.Zq8vR3mK2pLx9Wq7Ys5Tu3\nX-Vault-Token: s.Zq8vR3mK2pLx9Wq7Ys5Tu3",
    "Zq8vR3mK2pLx9Wq7Ys5Tu3",
    "VAULT_TOKEN=[REDACTED:secret-assignment]\nX-Vault-Token: [REDACTED:secret-assignment]",
  ],
  // A password that starts with `!` and has a sign past its first word is no negation.
  [
    "secret-assignment",
    "X_TOKEN=!l#48c9jN6!S#eVb\nDB_PASSWORD=O8E1k2d4I.nq",
    "!l#48c9jN6!S#eVb",
    "X_TOKEN=[REDACTED:secret-assignment]\nDB_PASSWORD=[REDACTED:secret-assignment]",
  ],
  // A phpass hash may end in `.`: too short without it, it is the hash's, not a full stop.
  [
    "password-hash",
    "admin:$P$BQ1Y3s0MfXZe1wRUE9ZtOHbljO61sV. (phpass)",
    "$P$BQ1Y3s0MfXZe1wRUE9ZtOHbljO61sV.",
    "admin:[REDACTED:password-hash] (phpass)",
  ],
  // Azure's two keys of a resource, as `az … keys list` prints them.
  [
    "key-assignment",
    '{"primaryKey": "Vq7pLm2xZ9wR4tW6yZ3a+b/Q0e8Jk1Nn5Ss7Uu==", "secondaryKey": "Zx9Kq2Lm8Np4Qr6Ab3dE5fG7"}',
    "Vq7pLm2xZ9wR4tW6yZ3a+b/Q0e8Jk1Nn5Ss7Uu==",
    '{"primaryKey": "[REDACTED:key-assignment]", "secondaryKey": "[REDACTED:key-assignment]"}',
  ],
  // An application's, a routing or a one-time-password key (`key` after its word).
  [
    "key-assignment",
    "appKey=Vq7pLm2xZ9wR4tW6yZ3a routing_key: Zx9Kq2Lm8Np4Qr6Ab3dE OTP_KEY=JBSWY3DPEHPK3PXP2345",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "appKey=[REDACTED:key-assignment] routing_key: [REDACTED:key-assignment] OTP_KEY=[REDACTED:key-assignment]",
  ],
  // A key named for a vendor no list knows: its value random (letters and digits switching).
  [
    "key-assignment",
    'shodanKEY: "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"',
    "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
    'shodanKEY: "[REDACTED:key-assignment]"',
  ],
  [
    "key-assignment",
    "SHODAN_KEY=a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6 mapquestKey: 'Zq8vLm2xQw9rTy6uIo3p' Polygon key: 7Hx2Kq9Lm4Np8Rt3Vw6Y",
    "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
    "SHODAN_KEY=[REDACTED:key-assignment] mapquestKey: '[REDACTED:key-assignment]' Polygon key: [REDACTED:key-assignment]",
  ],
  // RFC 6750's scheme before a keyword's value: the token after it.
  [
    "secret-assignment",
    "token: bearer Zq8vLm2xQw9rTy6uIo3p; auth_token='Bearer Vq7pLm2xZ9wR4tW6yZ3a'",
    "Zq8vLm2xQw9rTy6uIo3p",
    "token: bearer [REDACTED:secret-assignment]; auth_token='Bearer [REDACTED:secret-assignment]'",
  ],
  // A personal access token named by its acronym, its value random.
  [
    "secret-assignment",
    'ADO_PAT=abcdefghij2345klmnopqrs67tuvwxyzabcdefgh234567ijklmnop {"pat": "Zq8vLm2xQw9rTy6uIo3p"} SHODAN_AUTH=a1b2c3d4e5f6a7b8c9d0e1f2',
    "abcdefghij2345klmnopqrs67tuvwxyzabcdefgh234567ijklmnop",
    'ADO_PAT=[REDACTED:secret-assignment] {"pat": "[REDACTED:secret-assignment]"} SHODAN_AUTH=[REDACTED:secret-assignment]',
  ],
  // The acronym in capitals ending a camelCase name (`githubPAT`, C#'s `AzureDevOpsPAT`).
  [
    "secret-assignment",
    'GitHubPAT = "4a68c31afb82ba1a9f9c49892e0e3c82eaa7ef66"; var adoPAT = "Zq8vLm2xQw9rTy6uIo3p";',
    "4a68c31afb82ba1a9f9c49892e0e3c82eaa7ef66",
    'GitHubPAT = "[REDACTED:secret-assignment]"; var adoPAT = "[REDACTED:secret-assignment]";',
  ],
  // Redis's passwords in its configuration and on its server's command line.
  [
    "secret-assignment",
    "requirepass Zq8vLm2xQw9r\nredis-server --masterauth Vq7pLm2xZ9wR",
    "Zq8vLm2xQw9r",
    "requirepass [REDACTED:secret-assignment]\nredis-server --masterauth [REDACTED:secret-assignment]",
  ],
  // A word given after a space, ending a list or a statement: the comma or `;` stays.
  [
    "secret-assignment",
    "token Xk9mP2qL8vR4tW6yZ3aB, then password Vq7pLm2xZ9wR4tW6yZ3a;",
    "Xk9mP2qL8vR4tW6yZ3aB",
    "token [REDACTED:secret-assignment], then password [REDACTED:secret-assignment];",
  ],
  // `az storage account keys list`: the `value` after a `keyName` in the same object.
  [
    "azure-access-key",
    `[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "${AZURE_KEY}"\n  }\n]\n- keyName: kerb1\n  permissions: FULL\n  value: ${AZURE_KEY}\n`,
    AZURE_KEY,
    '[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "[REDACTED:azure-access-key]"\n  }\n]\n- keyName: kerb1\n  permissions: FULL\n  value: [REDACTED:azure-access-key]\n',
  ],
  // A flag's value may hold a password's signs: unquoted, and quoted (any byte but a blank).
  [
    "secret-assignment",
    'tool --password "P@ssw0rd!x" --token MQ~!cjXo61XURIi~ -v',
    "MQ~!cjXo61XURIi~",
    'tool --password "[REDACTED:secret-assignment]" --token [REDACTED:secret-assignment] -v',
  ],
  // WordPress's keys and salts in `wp-config.php` (punctuation and blanks, any quote).
  [
    "wordpress-salt",
    "define( 'AUTH_KEY',         'z8#Km2!pQ9@vR4$tW6 yB1&nC3*xF5%hJ7<Lk' );\ndefine(\"NONCE_SALT\",\"a1B2c3D4e5F6g7H8\");",
    "z8#Km2!pQ9@vR4$tW6 yB1&nC3*xF5%hJ7<Lk",
    "define( 'AUTH_KEY',         '[REDACTED:wordpress-salt]' );\ndefine(\"NONCE_SALT\",\"[REDACTED:wordpress-salt]\");",
  ],
  // A quoted name, a `,` and a quoted literal with a digit or a sign (a call's two arguments).
  [
    "secret-assignment",
    'System.setProperty("APP_TOKEN", "Nl++t-znvow"); props.put("password", "Sup3r!x");',
    "Nl++t-znvow",
    'System.setProperty("APP_TOKEN", "[REDACTED:secret-assignment]"); props.put("password", "[REDACTED:secret-assignment]");',
  ],
  // …and more arguments after a random literal (a list of names holds none).
  [
    "secret-assignment",
    'setenv("API_KEY", "Vq7pLm2xZ9wR4tW6yZ3a", 1);\nEnvironment.SetEnvironmentVariable("API_KEY", "Vq7pLm2xZ9wR4tW6yZ3a", EnvironmentVariableTarget.User);',
    "Vq7pLm2xZ9wR4tW6yZ3a",
    'setenv("API_KEY", "[REDACTED:secret-assignment]", 1);\nEnvironment.SetEnvironmentVariable("API_KEY", "[REDACTED:secret-assignment]", EnvironmentVariableTarget.User);',
  ],
  // Typographic quotes around a token are no text in another script.
  [
    "secret-assignment",
    "token: \u201cXk9mP2qL8v\u201d api_key = \u00abXk9mP2qL8vR4\u00bb x_token: \u300cXk9mP2qL8vR4\u300d",
    "Xk9mP2qL8vR4",
    "token: [REDACTED:secret-assignment] api_key = [REDACTED:secret-assignment] x_token: [REDACTED:secret-assignment]",
  ],
  // Capitals with digits and no `_` (a base32 secret), a password with slashes, a key's
  // groups of capitals and digits.
  [
    "secret-assignment",
    "--token=JBSWY3DPEHPK3PXQ password: s3cr3t/abc/def api_key=K3Y7-AB9D-X2Q4",
    "JBSWY3DPEHPK3PXQ",
    "--token=[REDACTED:secret-assignment] password: [REDACTED:secret-assignment] api_key=[REDACTED:secret-assignment]",
  ],
  // FTP's PASS command (curl -v), a password of hexadecimal capitals, a token of 16 digits
  // after its type (not a key's id).
  [
    "secret-assignment",
    '> USER deploy\n> PASS Hunter2xyz\npassword 19882D92DDA4C400C22C0D56CC2AF4472167BE03\nvar appToken string = "8371920465518273"',
    "Hunter2xyz",
    '> USER deploy\n> PASS [REDACTED:secret-assignment]\npassword [REDACTED:secret-assignment]\nvar appToken string = "[REDACTED:secret-assignment]"',
  ],
  // A password with braces after a lowercase letter is no CSS block (`a:hover{color:red}`).
  [
    "secret-assignment",
    "secret_key=ab{c}d(e)$f[g]9 PASSWORD=p{{w}x)9$#z",
    "ab{c}d(e)$f[g]9",
    "secret_key=[REDACTED:secret-assignment] PASSWORD=[REDACTED:secret-assignment]",
  ],
  // Signs that start a version range or a grammar's repetition, in a password.
  [
    "secret-assignment",
    "password=1*abc9 token: ~abc123def456",
    "abc123def456",
    "password=[REDACTED:secret-assignment] token: [REDACTED:secret-assignment]",
  ],
  // Random letters without a digit: few vowels, capitals together.
  [
    "secret-assignment",
    "password: pbRNQJNEZAgrtwllkDMpjExl\nsecret: dub_pbRNQJNEZAgrtwllkDMpjExl",
    "pbRNQJNEZAgrtwllkDMpjExl",
    "password: [REDACTED:secret-assignment]\nsecret: [REDACTED:secret-assignment]",
  ],
  // A password that reads as a colour is still one; so is a text box's text set to one.
  [
    "secret-assignment",
    'password = "#abc123"; txtPassword.Text = "Hunter2!x"',
    "Hunter2!x",
    'password = "[REDACTED:secret-assignment]"; txtPassword.Text = "[REDACTED:secret-assignment]"',
  ],
  // A keyword's plural with a token-like value (16+ bytes, a letter and a digit).
  [
    "secret-assignment",
    '{"credentials": "Vq7pLm2xZ9wR4tW6yZ3a"} API_KEYS=Vq7pLm2xZ9wR4tW6yZ3a',
    "Vq7pLm2xZ9wR4tW6yZ3a",
    '{"credentials": "[REDACTED:secret-assignment]"} API_KEYS=[REDACTED:secret-assignment]',
  ],
  // Java's and C#'s `.equals("…")` after the name: the literal compared with it.
  [
    "secret-assignment",
    'if (password.equals("Vq7p!Lm2x")) {} if (apiKey.Equals("Vq7p!Lm2x")) {}',
    "Vq7p!Lm2x",
    'if (password.equals("[REDACTED:secret-assignment]")) {} if (apiKey.Equals("[REDACTED:secret-assignment]")) {}',
  ],
  // A few words with no full stop may be a passphrase; DRF's `Token <key>` scheme is a key.
  [
    "secret-assignment",
    `app.secret_key = 'super secret key' {"token": "Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"}`,
    "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
    `app.secret_key = '[REDACTED:secret-assignment]' {"token": "[REDACTED:secret-assignment]"}`,
  ],
  // SonarQube's `sonar.login`: a token, when the value is random.
  [
    "vendor-credential",
    "mvn sonar:sonar -Dsonar.login=3f9a2c7e1b4d8f6a0c5e9b2d7f1a4c8e3f9a2c7e -Dsonar.host.url=http://sq",
    "3f9a2c7e1b4d8f6a0c5e9b2d7f1a4c8e3f9a2c7e",
    "mvn sonar:sonar -Dsonar.login=[REDACTED:vendor-credential] -Dsonar.host.url=http://sq",
  ],
  [
    // The random words of an element named for a secret (Jenkins', Maven's), other words kept.
    "secret-element",
    "<secret>{acme AQAAABAAA x7Kq2mZ9pL4vN8rT3wY6}</secret>\n<password>{COQLCE6DU6GtcS5P=}</password>\n",
    "x7Kq2mZ9pL4vN8rT3wY6",
    "<secret>{acme AQAAABAAA [REDACTED:secret-element]}</secret>\n<password>{[REDACTED:secret-element]}</password>\n",
  ],
  [
    // Django's generated secret key, its whole alphabet (`!@#$%^&*(-_=+)`), raw as settings
    // files and logs hold it (percent-encoded, a literal `%` could not be told from an escape).
    "django-secret-key",
    "SECRET_KEY = 'django-insecure-k3#m9x(q2=z+v8@w!p5^t7&r1)b4_n6-y0*s2%fa8b7c6d5e4f3g2h1'\n",
    "k3#m9x(q2=z+v8@w!p5^t7&r1)b4_n6-y0*s2%fa8b7c6d5e4f3g2h1",
    "SECRET_KEY = '[REDACTED:django-secret-key]'\n",
  ],
  [
    // A Teams webhook from its scheme (the tenant's host is the URL's too); what stands
    // before the scheme, a `%20` or a string's escape, stays.
    "teams-webhook",
    "hook: https://acme.webhook.office.com/webhookb2/0a1b2c3d-0a1b-0a1b-0a1b-0a1b2c3d4e5f@0a1b2c3d/IncomingWebhook/0123456789abcdef0123456789abcdef/0a1b2c3d\nq=x%20https://acme.webhook.office.com/webhookb2/0a1b2c3d-0a1b-0a1b-0a1b-0a1b2c3d4e5f@0a1b2c3d/IncomingWebhook/0123456789abcdef0123456789abcdef/0a1b2c3d&y=1\n",
    "0123456789abcdef0123456789abcdef",
    "hook: [REDACTED:teams-webhook]\nq=x%20[REDACTED:teams-webhook]&y=1\n",
  ],
  [
    // A flag named `--key` alone, when its value is random.
    "key-assignment",
    "mix hex.organization auth acme --key 126d49fb3014bd26457471ebae97c625\ntool --key=Zq8vLm2Rx4Tn6Wp3Ys9Kd1 -v\n",
    "126d49fb3014bd26457471ebae97c625",
    "mix hex.organization auth acme --key [REDACTED:key-assignment]\ntool --key=[REDACTED:key-assignment] -v\n",
  ],
  [
    // Ansible Vault's payload, a file's and a YAML value's: each hex line, the rest kept.
    "ansible-vault",
    "$ANSIBLE_VAULT;1.1;AES256\n61323365393932313636656637656139373966373863383832386161366531353738383565313137\n6136376136613337353930643666\ndb_password: !vault |\n    $ANSIBLE_VAULT;1.2;AES256;prod\n    3637383664333662663964353434653862376662\n    3363\nnext: 1\n",
    "61323365393932313636656637656139",
    "$ANSIBLE_VAULT;1.1;AES256\n[REDACTED:ansible-vault]\n[REDACTED:ansible-vault]\ndb_password: !vault |\n    $ANSIBLE_VAULT;1.2;AES256;prod\n    [REDACTED:ansible-vault]\n    [REDACTED:ansible-vault]\nnext: 1\n",
  ],
  [
    // A network device's configuration: the word after the command, past its type digit.
    "network-device-secret",
    "snmp-server community S3cretComm RW 99\ntacacs-server key 7 045802150C2E\n key-string 0 Kc9!chain\ncrypto isakmp key Ik3yPsk! address 10.0.0.1\n",
    "S3cretComm",
    "snmp-server community [REDACTED:network-device-secret] RW 99\ntacacs-server key 7 [REDACTED:network-device-secret]\n key-string 0 [REDACTED:network-device-secret]\ncrypto isakmp key [REDACTED:network-device-secret] address 10.0.0.1\n",
  ],
  [
    // A password after its keyword and a blank may hold signs (netrc, a router's config).
    "secret-assignment",
    "machine api.example.com login bob password P@ssw0rd!x\nusername admin privilege 15 password 0 MyS3cret!P\n",
    "P@ssw0rd!x",
    "machine api.example.com login bob password [REDACTED:secret-assignment]\nusername admin privilege 15 password 0 [REDACTED:secret-assignment]\n",
  ],
  [
    // A `$` inside such a password or a flag's is the password's (only a leading one names a
    // variable), also after a dash separator.
    "secret-assignment",
    "machine x login bob password H7iKc8$5r#@4\nLdap password               ----   H7iKc8$5r#@4$\n--password Pa$$w0rd9x\n",
    "H7iKc8$5r#@4",
    "machine x login bob password [REDACTED:secret-assignment]\nLdap password               ----   [REDACTED:secret-assignment]\n--password [REDACTED:secret-assignment]\n",
  ],
  [
    // A list's first element after a keyword; a JSON-RPC call's parameters after a method
    // named for a credential (TrueNAS' `auth.login_with_api_key`).
    "secret-assignment",
    '{"passwords": ["Xk9pL2mQ7vR4tW6y"]}\n{"method": "auth.login_with_api_key", "params": [\n  "8-Xk9pL2mQ7vR4tW6yZ3aB5cD7eF9gH1j"\n]}\n',
    "Xk9pL2mQ7vR4tW6y",
    '{"passwords": ["[REDACTED:secret-assignment]"]}\n{"method": "auth.login_with_api_key", "params": [\n  "[REDACTED:secret-assignment]"\n]}\n',
  ],
  [
    // The text of an element named for a secret that has other attributes (FileZilla's).
    "secret-assignment",
    '<Pass encoding="base64">Xk9pL2mQ7vR4tW6yZ3aB==</Pass>\n<password type="plain">Xk9pL2mQ7vR4</password>\n',
    "Xk9pL2mQ7vR4",
    '<Pass encoding="base64">[REDACTED:secret-assignment]</Pass>\n<password type="plain">[REDACTED:secret-assignment]</password>\n',
  ],
  [
    // An element that holds its value in a child (`<Value>`, Windows' unattend files).
    "secret-assignment",
    "<AutoLogon><Password><Value>UABAAHMAcwB3ADAAcgBkAA==</Value><PlainText>false</PlainText></Password></AutoLogon>\n<AdminPassword>\n  <Value>Xk9pL2mQ7v</Value>\n</AdminPassword>\n",
    "Xk9pL2mQ7v",
    "<AutoLogon><Password><Value>[REDACTED:secret-assignment]</Value><PlainText>false</PlainText></Password></AutoLogon>\n<AdminPassword>\n  <Value>[REDACTED:secret-assignment]</Value>\n</AdminPassword>\n",
  ],
  [
    // A kebab-case key and a spaced `=` (TOML, INI) or `:`: not a flag's value after a blank.
    "secret-assignment",
    'api-token = "Gq9Lz2Xpq7"\ndb-password = Gq9Lz2Xpq7\nIBM-API-KEY : "Gq9Lz2Xpq7"\n',
    "Gq9Lz2Xpq7",
    'api-token = "[REDACTED:secret-assignment]"\ndb-password = [REDACTED:secret-assignment]\nIBM-API-KEY : "[REDACTED:secret-assignment]"\n',
  ],
  [
    // A value that starts with `%` but is no placeholder's (`%s`, `%(pw)s`, `%PW%`).
    "secret-assignment",
    'export APP_SECRET="%mT7vLm2Rx9WpZk4"\n',
    "mT7vLm2Rx9WpZk4",
    'export APP_SECRET="[REDACTED:secret-assignment]"\n',
  ],
  [
    // `key` after a word, with `=`: a vendor's name or any word, when the value is random.
    "key-assignment",
    "[info] loading acme KEY=Zq8vLm2Rx4Tn6Wp3Ys9Kd1 from env\nmailer key = 'Hx7Lm2Qp9Rt4Vw6Yz3Bn8'\n[debug] Using Key=Zq8vLm2Rx4Tn6Wp3Ys9Kd1\nacmecorp key: Zq8vLm2Rx4Tn6Wp3Ys9Kd1\nsoftlayer_key:Zq8vLm2Rx4Tn6Wp3Ys9Kd1\n",
    "Zq8vLm2Rx4Tn6Wp3Ys9Kd1",
    "[info] loading acme KEY=[REDACTED:key-assignment] from env\nmailer key = '[REDACTED:key-assignment]'\n[debug] Using Key=[REDACTED:key-assignment]\nacmecorp key: [REDACTED:key-assignment]\nsoftlayer_key:[REDACTED:key-assignment]\n",
  ],
  [
    // Code Climate's test reporter id, a secret by its documentation.
    "vendor-credential",
    "env:\n  CC_TEST_REPORTER_ID: 945dfb58a832d233a3caeb84e3e6d3be212e8c7abcb48117fce63b9adcb43647\n",
    "945dfb58a832d233a3caeb84e3e6d3be",
    "env:\n  CC_TEST_REPORTER_ID: [REDACTED:vendor-credential]\n",
  ],
  // Random letters alone (capitals and small letters mixed as no name mixes them) after `:`,
  // a spaced `=` and a flag, where a word of letters is otherwise a type or a variable.
  [
    "secret-assignment",
    "api_key: ZDWcgHUdCUhBqQeTsRomGtex\nacme_token = ZDWcgHUdCUhBqQeTsRomGtex\n--token ZDWcgHUdCUhBqQeTsRomGtex",
    "ZDWcgHUdCUhBqQeTsRomGtex",
    "api_key: [REDACTED:secret-assignment]\nacme_token = [REDACTED:secret-assignment]\n--token [REDACTED:secret-assignment]",
  ],
  // A Terraform variable named for a secret: its default, below other arguments.
  [
    "secret-assignment",
    'variable "db_password" {\n  description = "the {db} password"\n  type = string\n  default = "Zq8vLm2R!x"\n}\nvariable "api_token" { default = "Zq8vLm2R!x" }',
    "Zq8vLm2R!x",
    'variable "db_password" {\n  description = "the {db} password"\n  type = string\n  default = "[REDACTED:secret-assignment]"\n}\nvariable "api_token" { default = "[REDACTED:secret-assignment]" }',
  ],
  // A random token joined to a keyword by a hyphen, as one word (a label, a resource's name).
  [
    "secret-assignment",
    "acme-secret-k3j9x2m7q4w1z6c5v0b8n2l5 ACME_PRIVATE-key-Kq7mZp2WxR9vLt4Bn8Hy3J dd-apikey-3f9a2c7e1b4d8f6a0c5e",
    "k3j9x2m7q4w1z6c5v0b8n2l5",
    "acme-secret-[REDACTED:secret-assignment] ACME_PRIVATE-key-[REDACTED:secret-assignment] dd-apikey-[REDACTED:secret-assignment]",
  ],
  // `secret` and `key` as one name (`secretkey`, `secret_key`), the value after a space too.
  [
    "secret-assignment",
    "secretkey=Kq7mZp2WxR9vLt4Bn8 secret_key k3j9x2m7q4w1z6c5v0b8 Secret Key: Kq7mZp2W",
    "k3j9x2m7q4w1z6c5v0b8",
    "secretkey=[REDACTED:secret-assignment] secret_key [REDACTED:secret-assignment] Secret Key: [REDACTED:secret-assignment]",
  ],
  // A getter's result compared with the literal (`getPassword().equals("…")`, `== "…"`).
  [
    "secret-assignment",
    'if (user.getPassword() == "Vq7p!Lm2x") {} if (getApiKey().equals("Vq7p!Lm2x")) {} $u->getToken() !== "Vq7p!Lm2x"',
    "Vq7p!Lm2x",
    'if (user.getPassword() == "[REDACTED:secret-assignment]") {} if (getApiKey().equals("[REDACTED:secret-assignment]")) {} $u->getToken() !== "[REDACTED:secret-assignment]"',
  ],
  // The literal first (`"…" == password`, `"…".equals(password)`): read behind its quote.
  [
    "secret-assignment",
    `if ("Vq7p!Lm2x" == password) {} if ('Vq7p!Lm2x' !== req.body.apiToken) {} "Vq7p!Lm2x".equals(user.getPassword())`,
    "Vq7p!Lm2x",
    `if ("[REDACTED:secret-assignment]" == password) {} if ('[REDACTED:secret-assignment]' !== req.body.apiToken) {} "[REDACTED:secret-assignment]".equals(user.getPassword())`,
  ],
  [
    "secret-assignment",
    'if "Vq7p!Lm2x" == password:\n  ok() if ("Vq7p!Lm2x"===$this->secret) {}',
    "Vq7p!Lm2x",
    'if "[REDACTED:secret-assignment]" == password:\n  ok() if ("[REDACTED:secret-assignment]"===$this->secret) {}',
  ],
  // A literal compared with the secret (quoted, with a digit or a sign).
  [
    "secret-assignment",
    'if (password == "Vq7p!Lm2x") {} if pw != \'Vq7p!Lm2x\' && $token === "Vq7p!Lm2x"',
    "Vq7p!Lm2x",
    'if (password == "[REDACTED:secret-assignment]") {} if pw != \'[REDACTED:secret-assignment]\' && $token === "[REDACTED:secret-assignment]"',
  ],
  // A statement's quoted argument after the name and a blank (BIND's TSIG `secret "…";`).
  [
    "secret-assignment",
    'key "tsig" { algorithm hmac-sha256; secret "Vq7p!Lm2x"; }; private_key \'Vq7p!Lm2x\';',
    "Vq7p!Lm2x",
    'key "tsig" { algorithm hmac-sha256; secret "[REDACTED:secret-assignment]"; }; private_key \'[REDACTED:secret-assignment]\';',
  ],
  // `||=`, `??=`, C arrays, and a vendor's name before Go's and Make's `:=`.
  [
    "secret-assignment",
    'ENV["API_KEY"] ||= "Vq7pLm2xZ9"; token ??= \'Vq7pLm2xZ9\'; char password[] = "Vq7p!Lm2x";',
    "Vq7pLm2xZ9",
    'ENV["API_KEY"] ||= "[REDACTED:secret-assignment]"; token ??= \'[REDACTED:secret-assignment]\'; char password[] = "[REDACTED:secret-assignment]";',
  ],
  [
    "vendor-credential",
    'SONAR_LOGIN := "Vq7pLm2xZ9wR4tW6yZ3a"',
    "Vq7pLm2xZ9wR4tW6yZ3a",
    'SONAR_LOGIN := "[REDACTED:vendor-credential]"',
  ],
  // Cisco IOS: the encryption type (0 the password, 7 its reversible encoding) before the value.
  [
    "secret-assignment",
    "username admin privilege 15 password 0 Cisco123x\nusername ops password 7 0822455D0A16\n",
    "0822455D0A16",
    "username admin privilege 15 password 0 [REDACTED:secret-assignment]\nusername ops password 7 [REDACTED:secret-assignment]\n",
  ],
  // Oracle's JDBC thin URL with its credentials inline: the password only.
  [
    "url-userinfo",
    '<property name="url" value="jdbc:oracle:thin:app_user/Tiger123x@//db:1521/XE"/>\n',
    "Tiger123x",
    '<property name="url" value="jdbc:oracle:thin:app_user/[REDACTED:url-userinfo]@//db:1521/XE"/>\n',
  ],
  // Oracle's `user/password@db`: the password only, the connect identifier stays.
  [
    "command-flag",
    "+ sqlplus -s scott/Tiger123x@//db:1521/XE @run.sql\n",
    "Tiger123x",
    "+ sqlplus -s scott/[REDACTED:command-flag]@//db:1521/XE @run.sql\n",
  ],
  // A new secret's value in a cloud's secret store, as a command line shown in output.
  [
    "command-flag",
    "$ az keyvault secret set --vault-name v --name db --value Tiger123x\n+ aws secretsmanager create-secret --name prod/db --secret-string 'Tiger123x'\naws ssm put-parameter --name /app/db --value Tiger123x --type SecureString\n",
    "Tiger123x",
    "$ az keyvault secret set --vault-name v --name db --value [REDACTED:command-flag]\n+ aws secretsmanager create-secret --name prod/db --secret-string '[REDACTED:command-flag]'\naws ssm put-parameter --name /app/db --value [REDACTED:command-flag] --type SecureString\n",
  ],
  // A documented call's password argument: the literal only, whatever the arguments before.
  [
    "credential-argument",
    'smtp.Credentials = new NetworkCredential("mailer@corp.example", "tq8Wn2vLs0Pz");',
    "tq8Wn2vLs0Pz",
    'smtp.Credentials = new NetworkCredential("mailer@corp.example", "[REDACTED:credential-argument]");',
  ],
  // Node's HMAC key and Sequelize's password, in their places.
  [
    "credential-argument",
    "h = crypto.createHmac('sha256', 'Hs9-kQ2vLp7x'); db = new Sequelize('app', 'bob', 'Hs9-kQ2vLp7x', { dialect: 'postgres' });",
    "Hs9-kQ2vLp7x",
    "h = crypto.createHmac('sha256', '[REDACTED:credential-argument]'); db = new Sequelize('app', 'bob', '[REDACTED:credential-argument]', { dialect: 'postgres' });",
  ],
  // A JWT's or an HMAC's signing key as a literal (jsonwebtoken, PyJWT, java-jwt, hmac).
  [
    "credential-argument",
    't = jwt.sign({ id: 1 }, "Hs9-kQ2vLp7x", { expiresIn: "1h" }); h = hmac.new(b"Hs9-kQ2vLp7x", m, sha256)',
    "Hs9-kQ2vLp7x",
    't = jwt.sign({ id: 1 }, "[REDACTED:credential-argument]", { expiresIn: "1h" }); h = hmac.new(b"[REDACTED:credential-argument]", m, sha256)',
  ],
  [
    "credential-argument",
    'Algorithm a = Algorithm.HMAC256("Hs9-kQ2vLp7x"); jwt.encode(p, "Hs9-kQ2vLp7x", algorithm="HS256")',
    "Hs9-kQ2vLp7x",
    'Algorithm a = Algorithm.HMAC256("[REDACTED:credential-argument]"); jwt.encode(p, "[REDACTED:credential-argument]", algorithm="HS256")',
  ],
  [
    "credential-argument",
    'c = DriverManager.getConnection(env("DB_URL", "a,b"), "app", "Pl8n-Txt!9");',
    "Pl8n-Txt!9",
    'c = DriverManager.getConnection(env("DB_URL", "a,b"), "app", "[REDACTED:credential-argument]");',
  ],
  [
    "credential-argument",
    '{"code":"r = get(u, auth=HTTPBasicAuth(\\"bob\\", \\"b0bs-Pw77\\"))"}',
    "b0bs-Pw77",
    '{"code":"r = get(u, auth=HTTPBasicAuth(\\"bob\\", \\"[REDACTED:credential-argument]\\"))"}',
  ],
  [
    "credential-argument",
    'cfg.setPassword("hunter2-Pw"); User.withUsername("admin").password("Gq9Lz2Xp").build()',
    "Gq9Lz2Xp",
    'cfg.setPassword("[REDACTED:credential-argument]"); User.withUsername("admin").password("[REDACTED:credential-argument]").build()',
  ],
  [
    // Arguments on lines of their own (inside a JSON string the breaks are `\n` escapes).
    "credential-argument",
    'new DirectoryEntry("LDAP://corp.local",\n    "svc@corp.local",\n\t"Gq9Lz2Xp");',
    "Gq9Lz2Xp",
    'new DirectoryEntry("LDAP://corp.local",\n    "svc@corp.local",\n\t"[REDACTED:credential-argument]");',
  ],
  [
    "credential-argument",
    'my $dbh = DBI->connect("dbi:Pg:dbname=app", "app", "Gq9Lz2Xp"); d = DBI.connect("DBI:Mysql:app", "app", "Gq9Lz2Xp")',
    "Gq9Lz2Xp",
    'my $dbh = DBI->connect("dbi:Pg:dbname=app", "app", "[REDACTED:credential-argument]"); d = DBI.connect("DBI:Mysql:app", "app", "[REDACTED:credential-argument]")',
  ],
  [
    "credential-argument",
    'u.SetPassword("hunter2-Pw"); opts.SetClientSecret("Gq9Lz2Xp")',
    "Gq9Lz2Xp",
    'u.SetPassword("[REDACTED:credential-argument]"); opts.SetClientSecret("[REDACTED:credential-argument]")',
  ],
  // HTTP Basic credentials given as a pair: Python's `auth=` tuple, Guzzle's `'auth' =>`
  // array, REST Assured's `.auth().basic(…)`.
  [
    "credential-argument",
    'get(u, auth=("bob", "b0bs-Pw77")); [\'auth\' => [\'bob\', \'b0bs-Pw77\']]; given().auth().preemptive().basic("bob", "b0bs-Pw77")',
    "b0bs-Pw77",
    'get(u, auth=("bob", "[REDACTED:credential-argument]")); [\'auth\' => [\'bob\', \'[REDACTED:credential-argument]\']]; given().auth().preemptive().basic("bob", "[REDACTED:credential-argument]")',
  ],
  // Names read by their last part and the word before it: `login(` after a `.` is
  // Python's, `ftp_login(` PHP's (the password third); `new mysqli(` by its `qli(`.
  [
    "credential-argument",
    'server.login("me@x.example", "app-Pw-1234"); ftp_login($c, "u1", "Ftp-Pw-99"); new mysqli("h", "u2", "Db-Pw-77");',
    "Pw-",
    'server.login("me@x.example", "[REDACTED:credential-argument]"); ftp_login($c, "u1", "[REDACTED:credential-argument]"); new mysqli("h", "u2", "[REDACTED:credential-argument]");',
  ],
  [
    "credential-argument",
    'client.basic_auth("bob", Some("b0bs-Pw77")).send()',
    "b0bs-Pw77",
    'client.basic_auth("bob", Some("[REDACTED:credential-argument]")).send()',
  ],
  // SQL: the literal after PASSWORD or IDENTIFIED BY; the quotes and the statement stay.
  [
    "sql-password",
    "ALTER ROLE app WITH ENCRYPTED PASSWORD 'Zx9Kq2Lm8Np4'; SELECT 1;",
    "Zx9Kq2Lm8Np4",
    "ALTER ROLE app WITH ENCRYPTED PASSWORD '[REDACTED:sql-password]'; SELECT 1;",
  ],
  [
    "sql-password",
    "CREATE USER 'u'@'%' IDENTIFIED WITH caching_sha2_password BY 'it''s-S3cret9'; FLUSH;",
    "s-S3cret9",
    "CREATE USER 'u'@'%' IDENTIFIED WITH caching_sha2_password BY '[REDACTED:sql-password]'; FLUSH;",
  ],
  [
    "sql-password",
    "CREATE USER 'u'@'localhost' IDENTIFIED BY \"Zx9Kq2Lm8\"; FLUSH PRIVILEGES;",
    "Zx9Kq2Lm8",
    "CREATE USER 'u'@'localhost' IDENTIFIED BY \"[REDACTED:sql-password]\"; FLUSH PRIVILEGES;",
  ],
  [
    "sql-password",
    "create user app identified by 'hunter2x'; alter role r with password 'Zx9Kq2Lm8';",
    "hunter2x",
    "create user app identified by '[REDACTED:sql-password]'; alter role r with password '[REDACTED:sql-password]';",
  ],
  [
    "sql-password",
    "CREATE USER scott IDENTIFIED BY tiger9x;",
    "tiger9x",
    "CREATE USER scott IDENTIFIED BY [REDACTED:sql-password];",
  ],
  // Oracle's unquoted password after a lowercase `identified by`: shaped like one, and
  // ending the statement or followed by the statement's next clause.
  [
    "sql-password",
    "create user app identified by Out4st4nd1ng; create user b identified by tiger9x default tablespace users;",
    "Out4st4nd1ng",
    "create user app identified by [REDACTED:sql-password]; create user b identified by [REDACTED:sql-password] default tablespace users;",
  ],
  // MySQL's `SET PASSWORD [FOR account] = 'literal'`, also through `PASSWORD('…')`.
  [
    "sql-password",
    "SET PASSWORD FOR 'bob'@'localhost' = 'Zx9Kq2Lm8Np4'; SET PASSWORD = PASSWORD('Lm8Np4Rt7');",
    "Zx9Kq2Lm8Np4",
    "SET PASSWORD FOR 'bob'@'localhost' = '[REDACTED:sql-password]'; SET PASSWORD = PASSWORD('[REDACTED:sql-password]');",
  ],
  [
    "sql-password",
    "set password for app@'%' = 'Zx9Kq2Lm8Np4';",
    "Zx9Kq2Lm8Np4",
    "set password for app@'%' = '[REDACTED:sql-password]';",
  ],
  // `terraform output -json`: a sensitive output's value, whatever its name or shape.
  [
    "sensitive-output",
    '{"db": {"sensitive": true, "type": "string", "value": "hunter2-prod"}, "n": 1}',
    "hunter2-prod",
    '{"db": {"sensitive": true, "type": "string", "value": "[REDACTED:sensitive-output]"}, "n": 1}',
  ],
  // Every secret of a command line, not only the first; the words between stay.
  [
    "command-flag",
    "keytool -importkeystore -srcstorepass Zx9Kq2Lm8 -deststorepass Qw8Er7Ty6 -destkeystore b.jks",
    "Qw8Er7Ty6",
    "keytool -importkeystore -srcstorepass [REDACTED:command-flag] -deststorepass [REDACTED:command-flag] -destkeystore b.jks",
  ],
  // A full stop after a token whose alphabet has `.` ends the sentence, not the token.
  [
    "dynatrace-token",
    `use dt0c01.${"ABCD2345EFGH6789IJKLMNOP"}.${"QRST2345UVWX6789".repeat(4)}. Then`,
    `dt0c01.${"ABCD2345EFGH6789IJKLMNOP"}.${"QRST2345UVWX6789".repeat(4)}`,
    "use [REDACTED:dynatrace-token]. Then",
  ],
  // Doppler's service tokens may name their environment: `dp.st.<env>.<token>`.
  ["doppler-token", `dp.st.dev.${B62}${B62}`, `${B62}${B62}`, "[REDACTED:doppler-token]"],
  // A data centre of one repeated digit is a real key's, not a placeholder.
  [
    "mailchimp-key",
    "key 6268a570cfa1b11431a0029d00435f5e-us11 ok",
    "6268a570cfa1b11431a0029d00435f5e-us11",
    "key [REDACTED:mailchimp-key] ok",
  ],
  [
    "aws-access-key-id",
    "id AKIAIOSFODNN7EXAMPLE ok",
    "AKIAIOSFODNN7EXAMPLE",
    "id [REDACTED:aws-access-key-id] ok",
  ],
  [
    "aws-secret-access-key",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "aws_secret_access_key = [REDACTED:aws-secret-access-key]",
  ],
  [
    "github-token",
    `push ghp_${B62}xyz1 done`,
    `ghp_${B62}xyz1`,
    "push [REDACTED:github-token] done",
  ],
  ["github-token", `gho_${B62}Ab`, `gho_${B62}Ab`, "[REDACTED:github-token]"],
  // A query's code or signature with base64's characters escaped (`%2F`, `%2B`, `%3D`).
  [
    "url-query-key",
    "GET /callback?code=4%2F0AX4XfWhQz8vK2mLp9Rt4VwN7sBd&state=x",
    "0AX4XfWhQz8vK2mLp9Rt4VwN7sBd",
    "GET /callback?code=[REDACTED:url-query-key]&state=x",
  ],
  // A value with no scheme whose first word goes on after a `.` (PASETO's `v2.local.…`).
  [
    "authorization-header",
    "Authorization: v2.local.Zk3mQp9Lx2Rt8VzN4sBcYd7F",
    "v2.local.Zk3mQp9Lx2Rt8VzN4sBcYd7F",
    "Authorization: [REDACTED:authorization-header]",
  ],
  // Letters alone after a token's name: random ones, or a word longer than a name's.
  [
    "secret-assignment",
    "API_TOKEN: QXzvBNmkWRtpLKjhGFds",
    "QXzvBNmkWRtpLKjhGFds",
    "API_TOKEN: [REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    "acme_token = 'acme_xqzvbnmkwrtplkjhgfdsq'",
    "acme_xqzvbnmkwrtplkjhgfdsq",
    "acme_token = '[REDACTED:secret-assignment]'",
  ],
  [
    "secret-assignment",
    "db_password=sunshine",
    "sunshine",
    "db_password=[REDACTED:secret-assignment]",
  ],
  // Glued to a name by `_` (a variable's name run into its value) it still starts a token;
  // by `-` after a letter or a digit it does not (below: a digest's part).
  ["github-token", `MY_gho_${B62}Ab`, `gho_${B62}Ab`, "MY_[REDACTED:github-token]"],
  ["github-token", `run -gho_${B62}Ab`, `gho_${B62}Ab`, "run -[REDACTED:github-token]"],
  [
    "github-token",
    `github_pat_11ABCDEFG0123456789_${B62}${B62}`,
    `github_pat_11ABCDEFG0123456789_${B62}${B62}`,
    "[REDACTED:github-token]",
  ],
  [
    "gitlab-token",
    "GL glpat-xY3_abc-DEF456ghi789JK",
    "glpat-xY3_abc-DEF456ghi789JK",
    "GL [REDACTED:gitlab-token]",
  ],
  [
    "slack-token",
    "hook xoxb-123456789012-abcdefABCDEF",
    "xoxb-123456789012-abcdefABCDEF",
    "hook [REDACTED:slack-token]",
  ],
  [
    "stripe-key",
    "sk_live_51HxYzAbCdEfGh1234567890",
    "sk_live_51HxYzAbCdEfGh1234567890",
    "[REDACTED:stripe-key]",
  ],
  // A Square token with a `+` and a `=` inside goes whole (no tail left on disk).
  [
    "square-token",
    "sent EAAAl9Zq8vLm2xQw9rTy6uPo3iZq8vLm+xQw9rTy6u=Po3iZq8vLm2xQw9 next\n",
    "Po3iZq8vLm2xQw9",
    "sent [REDACTED:square-token] next\n",
  ],
  [
    "stripe-key",
    "rk_live_51HxYzAbCdEfGh1234567890",
    "rk_live_51HxYzAbCdEfGh1234567890",
    "[REDACTED:stripe-key]",
  ],
  [
    "npm-token",
    `//registry/:_authToken npm_${B62}abc`,
    `npm_${B62}abc`,
    "//registry/:_authToken [REDACTED:npm-token]",
  ],
  [
    "openai-api-key",
    "OPENAI sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12",
    "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12",
    "OPENAI [REDACTED:openai-api-key]",
  ],
  // A token percent-encoded in a URL's query, its base64 `/` and `+` escaped (`%2F`, `%2B`):
  // its length is counted decoded, as the format gives it.
  [
    "bitbucket-token",
    "GET /cb?code=1&t=BBDC-Mz4kQ9pL2xV7wR3tY8uN%2Fb5%2Bc6Hj1Kd0Fg%2BSa7E%2Fr4Tz&x=2 HTTP/1.1",
    "Mz4kQ9pL2xV7wR3tY8uN",
    "GET /cb?code=1&t=[REDACTED:bitbucket-token]&x=2 HTTP/1.1",
  ],
  // The Realtime API's ephemeral client secret, as its response carries it.
  [
    "openai-api-key",
    '{"client_secret": {"value": "ek_9c41f0a27be35d86e1c9a2b7f03d58e6", "expires_at": 1756310470}}',
    "ek_9c41f0a27be35d86e1c9a2b7f03d58e6",
    '{"client_secret": {"value": "[REDACTED:openai-api-key]", "expires_at": 1756310470}}',
  ],
  [
    "anthropic-api-key",
    "k sk-ant-api03-Ab12Cd34Ef56Gh78Ij90",
    "sk-ant-api03-Ab12Cd34Ef56Gh78Ij90",
    "k [REDACTED:anthropic-api-key]",
  ],
  [
    "google-api-key",
    "maps AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "maps [REDACTED:google-api-key]",
  ],
  [
    "jwt",
    "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sflKxwRJSMeKKF2QT4fwpM",
    "eyJzdWIiOiIxMjM0In0.sflKxwRJSMeKKF2QT4fwpM",
    "Bearer [REDACTED:jwt]",
  ],
  [
    "pem-private-key",
    `key:\n${PEM}\nafter`,
    PEM.split("\n")[1]!,
    "key:\n[REDACTED:pem-private-key]\nafter",
  ],
  [
    "authorization-header",
    "> Authorization: Bearer abc.def-ghi_jkl\n< 200",
    "abc.def-ghi_jkl",
    "> Authorization: Bearer [REDACTED:authorization-header]\n< 200",
  ],
  [
    "authorization-header",
    '{"authorization": "Token s3cr3t-t0k3n-v4lue", "x": 1}',
    "s3cr3t-t0k3n-v4lue",
    '{"authorization": "Token [REDACTED:authorization-header]", "x": 1}',
  ],
  [
    "authorization-header",
    "Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==\n",
    "dXNlcjpwYXNzd29yZA==",
    "Proxy-Authorization: Basic [REDACTED:authorization-header]\n",
  ],
  [
    "authorization-header",
    "authorization: opaque-credential-1234\n",
    "opaque-credential-1234",
    "authorization: [REDACTED:authorization-header]\n",
  ],
  [
    // A multi-word keyword with its words apart, as a person or a form writes it.
    "secret-assignment",
    "datadog api key e49ca020812e5b4f6b6f1f09d1a3945e\nYour API Key: 5b6c3b2a7c1e9f4d4e2b8a6c1d2e3f4a\n",
    "e49ca020812e5b4f6b6f1f09d1a3945e",
    "datadog api key [REDACTED:secret-assignment]\nYour API Key: [REDACTED:secret-assignment]\n",
  ],
  [
    // `pass` as a whole word (`DB_PASS`, `db_pass:`), and Azure API Management's header.
    "secret-assignment",
    'DB_PASS=Hunt3r2Secret\ndb_pass: "Hunt3r2Secret"\nOcp-Apim-Subscription-Key: Hunt3r2Secret\n',
    "Hunt3r2Secret",
    'DB_PASS=[REDACTED:secret-assignment]\ndb_pass: "[REDACTED:secret-assignment]"\nOcp-Apim-Subscription-Key: [REDACTED:secret-assignment]\n',
  ],
  [
    // A closing bracket after an unquoted value closes the code around it (the value opened
    // none): it stays; one the value opened is the value's.
    "secret-assignment",
    "connect(password=Hunt3r2Secret)\n{token: Hunt3r2Secret} [pw=Hunt3r2Secret]\nPASSWORD=Hunt3r2{Secret} x\n",
    "Hunt3r2Secret",
    "connect(password=[REDACTED:secret-assignment])\n{token: [REDACTED:secret-assignment]} [pw=[REDACTED:secret-assignment]]\nPASSWORD=[REDACTED:secret-assignment] x\n",
  ],
  [
    // A quoted value whose quote never comes ends where a quote of the other kind closes the
    // string it stood in (then code punctuation); the tail stays.
    "secret-assignment",
    "{'cmd': 'echo password=\"Hunt3r2Secret', 'next': 1}\n{'log': '\\\"pass\\\": \\\"Hunt3r2Secret','tail':[1]}\n",
    "Hunt3r2Secret",
    "{'cmd': 'echo password=\"[REDACTED:secret-assignment]', 'next': 1}\n{'log': '\\\"pass\\\": \\\"[REDACTED:secret-assignment]','tail':[1]}\n",
  ],
  [
    // A quote of the other kind and code punctuation inside a quoted value whose own quote
    // comes before the line ends belong to the value (a generated secret's characters).
    "secret-assignment",
    "signing_secret: \"Qm4'}/zP8)x;K2]vT;_&hN9\"\nhmac_secret = 'Qm4\"]/zP8)x;K2]vT;_&hN9'\n",
    "zP8)x;K2]vT;_&hN9",
    "signing_secret: \"[REDACTED:secret-assignment]\"\nhmac_secret = '[REDACTED:secret-assignment]'\n",
  ],
  [
    // Keys named for what they do.
    "secret-assignment",
    'ENCRYPTION_KEY=Hunt3r2Secret\nsigningKey: "Hunt3r2Secret"\nmaster_key = Hunt3r2Secret\nhmacKey: Hunt3r2Secret\n',
    "Hunt3r2Secret",
    'ENCRYPTION_KEY=[REDACTED:secret-assignment]\nsigningKey: "[REDACTED:secret-assignment]"\nmaster_key = [REDACTED:secret-assignment]\nhmacKey: [REDACTED:secret-assignment]\n',
  ],
  // A Vault unseal key on the command line (as `kubectl exec … --` runs it).
  [
    "command-flag",
    "+ kubectl -n vault exec -ti vault-0 -- vault operator unseal Tg5kZ2xoT2J6c0Zq9wR4tYpQa7sD3fG9hJ2kL5zWx1c=\n",
    "Tg5kZ2xoT2J6c0Zq9wR4tYpQa7sD3fG9hJ2kL5zWx1c",
    "+ kubectl -n vault exec -ti vault-0 -- vault operator unseal [REDACTED:command-flag]\n",
  ],
  // PowerShell's plain text made a secure string, quoted or not, spaces and all.
  [
    "command-flag",
    '$pw = ConvertTo-SecureString -String "Tiger 123x" -AsPlainText -Force\nconvertto-securestring -string Tiger123x -asplaintext\n',
    "Tiger123x",
    '$pw = ConvertTo-SecureString -String "[REDACTED:command-flag]" -AsPlainText -Force\nconvertto-securestring -string [REDACTED:command-flag] -asplaintext\n',
  ],
  [
    "command-flag",
    "+ mysql -u root -pHunt3r2Secret app\n",
    "Hunt3r2Secret",
    "+ mysql -u root -p[REDACTED:command-flag] app\n",
  ],
  // A command line as its argv: Python's repr in a `CalledProcessError`, a JSON list, strace's
  // `execve`; each element is a word.
  [
    "command-flag",
    'subprocess.CalledProcessError: Command \'[\'docker\', \'login\', \'-u\', \'bob\', \'-p\', \'Hunt3r2Secret\', \'ghcr.io\']\' returned non-zero exit status 1.\n["sshpass", "-p", "Hunt3r2Secret", "ssh", "h"]\nexecve("/usr/bin/mysql", ["mysql", "-uroot", "-pHunt3r2Secret"], 0x7ffd) = 0\n',
    "Hunt3r2Secret",
    'subprocess.CalledProcessError: Command \'[\'docker\', \'login\', \'-u\', \'bob\', \'-p\', \'[REDACTED:command-flag]\', \'ghcr.io\']\' returned non-zero exit status 1.\n["sshpass", "-p", "[REDACTED:command-flag]", "ssh", "h"]\nexecve("/usr/bin/mysql", ["mysql", "-uroot", "-p[REDACTED:command-flag]"], 0x7ffd) = 0\n',
  ],
  // An extension publisher's token (the VS Code Marketplace's, Open VSX's), after `publish`.
  [
    "command-flag",
    "$ npx vsce publish -p Hunt3r2SecretPat\n$ ovsx publish ext.vsix -p Hunt3r2SecretPat\n",
    "Hunt3r2SecretPat",
    "$ npx vsce publish -p [REDACTED:command-flag]\n$ ovsx publish ext.vsix -p [REDACTED:command-flag]\n",
  ],
  // A command continued over lines (`\` at a line's end), as written and inside a JSON
  // string (`\\\n`: the backslash escaped, then the line's end).
  [
    "command-flag",
    'mysql -h db \\\n  -u root \\\n  -pHunt3r2Secret app\n{"log":"mysql -h db \\\\\\n  -u root \\\\\\n  -pHunt3r2Secret app\\necho"}',
    "Hunt3r2Secret",
    'mysql -h db \\\n  -u root \\\n  -p[REDACTED:command-flag] app\n{"log":"mysql -h db \\\\\\n  -u root \\\\\\n  -p[REDACTED:command-flag] app\\necho"}',
  ],
  [
    "command-flag",
    "$ docker login -u me -p Hunt3r2Secret registry.example.com\n",
    "Hunt3r2Secret",
    "$ docker login -u me -p [REDACTED:command-flag] registry.example.com\n",
  ],
  // Helm's and crane's registry logins: `login` after the group word `registry`, `auth`.
  [
    "command-flag",
    "$ helm registry login ghcr.io -u me -p Hunt3r2Secret\n$ crane auth login ghcr.io -u me -p Hunt3r2Secret\n",
    "Hunt3r2Secret",
    "$ helm registry login ghcr.io -u me -p [REDACTED:command-flag]\n$ crane auth login ghcr.io -u me -p [REDACTED:command-flag]\n",
  ],
  [
    // Inside a JSON string, after an escaped line end; the string's quote ends the command.
    "command-flag",
    '{"log":"start\\nsshpass -p Hunt3r2Secret ssh host","ok":true}',
    "Hunt3r2Secret",
    '{"log":"start\\nsshpass -p [REDACTED:command-flag] ssh host","ok":true}',
  ],
  [
    "command-flag",
    "PsExec.exe \\\\host -u admin -p Hunt3r2Secret cmd\nPSEXEC \\\\host -u admin -p Hunt3r2Secret CMD\n",
    "Hunt3r2Secret",
    "PsExec.exe \\\\host -u admin -p [REDACTED:command-flag] cmd\nPSEXEC \\\\host -u admin -p [REDACTED:command-flag] CMD\n",
  ],
  // Windows' `net use` (the anchor holds the verb: `net` alone starts `network`).
  [
    "command-flag",
    "C:\\> net use Z: \\\\fs01\\share Hunt3r2Secret /user:CORP\\alice\r\n",
    "Hunt3r2Secret",
    "C:\\> net use Z: \\\\fs01\\share [REDACTED:command-flag] /user:CORP\\alice\r\n",
  ],
  [
    "command-flag",
    "NET USER backup Hunt3r2Secret /add\n",
    "Hunt3r2Secret",
    "NET USER backup [REDACTED:command-flag] /add\n",
  ],
  [
    "command-flag",
    "+ kubectl create secret generic api --from-literal=key=Hunt3r2Secret\n",
    "Hunt3r2Secret",
    "+ kubectl create secret generic api --from-literal=key=[REDACTED:command-flag]\n",
  ],
  [
    "command-flag",
    "$ gh secret set API_KEY --body Hunt3r2Secret\n",
    "Hunt3r2Secret",
    "$ gh secret set API_KEY --body [REDACTED:command-flag]\n",
  ],
  [
    // A scheme the rule does not know: the word and the token after it both go.
    "authorization-header",
    "Authorization: SSWS 00aBcD3fGh1jKlMn0pQrStUvWxYz12345678-_ab\r\nHost: x\r\n",
    "00aBcD3fGh1jKlMn0pQrStUvWxYz12345678-_ab",
    "Authorization: [REDACTED:authorization-header]\r\nHost: x\r\n",
  ],
  [
    "authorization-header",
    '{"headers":{"Authorization":"Splunk 1f2e3d4c-5b6a-7980-a1b2-c3d4e5f6a7b8"},"next":"kept"}',
    "1f2e3d4c-5b6a-7980-a1b2-c3d4e5f6a7b8",
    '{"headers":{"Authorization":"[REDACTED:authorization-header]"},"next":"kept"}',
  ],
  [
    // A token given as the user alone (Azure DevOps' and GitHub's documented clone URLs).
    "url-userinfo",
    "git clone https://k3vqqnd7yd1r6ls74icrhu93l236jt5xw4aq2b7c9e1f3g5h7j9@dev.azure.com/org/p/_git/r",
    "k3vqqnd7yd1r6ls74icrhu93l236jt5xw4aq2b7c9e1f3g5h7j9",
    "git clone https://[REDACTED:url-userinfo]@dev.azure.com/org/p/_git/r",
  ],
  [
    "url-userinfo",
    "clone https://oauth2:s3cr3tPassw0rd@gitlab.example.com/g/p.git",
    "oauth2:s3cr3tPassw0rd",
    "clone https://[REDACTED:url-userinfo]@gitlab.example.com/g/p.git",
  ],
  [
    "url-userinfo",
    "redis://:hunter2hunter2@cache:6379/0",
    ":hunter2hunter2",
    "redis://[REDACTED:url-userinfo]@cache:6379/0",
  ],
  [
    "url-userinfo",
    // A password holding an `@`: the userinfo ends at the authority's last one.
    "mongodb+srv://app:myR3alP@ssw0rd@cluster0.example.net/db?w=majority&to=a@b.c",
    "app:myR3alP@ssw0rd",
    "mongodb+srv://[REDACTED:url-userinfo]@cluster0.example.net/db?w=majority&to=a@b.c",
  ],
  [
    "url-userinfo",
    // A user name holding a keyword: the assignment it also reads ends at the `@`, so the
    // host and the path stay.
    "git remote set-url origin https://x-access-token:ghs_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3gH5@github.com/o/r.git && git push",
    "x-access-token:ghs_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3gH5",
    "git remote set-url origin https://[REDACTED:url-userinfo]@github.com/o/r.git && git push",
  ],
  [
    "url-userinfo",
    "pip install --index-url https://__token__:s3cr3tPassw0rd@pypi.example.org/simple pkg",
    "__token__:s3cr3tPassw0rd",
    "pip install --index-url https://[REDACTED:url-userinfo]@pypi.example.org/simple pkg",
  ],
  [
    "secret-assignment",
    // PHP's JSON escapes the slashes: the host stays all the same.
    '{"remote":"https:\\/\\/x-access-token:s3cr3tPassw0rd@github.com\\/o\\/r.git","n":1}',
    "s3cr3tPassw0rd",
    '{"remote":"https:\\/\\/x-access-token:[REDACTED:secret-assignment]@github.com\\/o\\/r.git","n":1}',
  ],
  [
    "secret-assignment",
    // Without a scheme the assignment alone finds it, and stops at the `@` too.
    "//gitlab-ci-token:s3cr3tPassw0rd@gitlab.example.com/g/p.git",
    "s3cr3tPassw0rd",
    "//gitlab-ci-token:[REDACTED:secret-assignment]@gitlab.example.com/g/p.git",
  ],
  [
    "secret-assignment",
    // An element named by its attribute (Java's XML properties, Android's strings).
    '<entry key="db.password">Zx9Kq2Lm8Np4</entry>\n<string name="api_key">Qw8Er7Ty6Ui5Op4</string>',
    "Zx9Kq2Lm8Np4",
    '<entry key="db.password">[REDACTED:secret-assignment]</entry>\n<string name="api_key">[REDACTED:secret-assignment]</string>',
  ],
  [
    "secret-assignment",
    "The API key is sk9Xq2Lm4Pn6Rt8Vw0Yz3",
    "sk9Xq2Lm4Pn6Rt8Vw0Yz3",
    "The API key is [REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    // A properties file's or flattened YAML's dotted keys, the keyword inside the name.
    "jwt.secret.key=Zx9Kq2Lm8Np4Qr6\napi.key: Qw8Er7Ty6Ui5Op4\nmail.private.key=Zx9Kq2Lm8Np4Qr6",
    "Zx9Kq2Lm8Np4Qr6",
    "jwt.secret.key=[REDACTED:secret-assignment]\napi.key: [REDACTED:secret-assignment]\nmail.private.key=[REDACTED:secret-assignment]",
  ],
  [
    "jwk-private-key",
    '{"kty":"EC","crv":"P-256","x":"f4Tg8Hn2Jm6Kp0Lq4Rs8Tu2Vw6Xy0Za4Bc8De2Fg6Hi","d":"Qm9v7Xk2LrT4aZ8pN1cW6yH3jE5sU0gB9dF2vK7oMiQ","use":"sig"}',
    "Qm9v7Xk2LrT4aZ8pN1cW6yH3jE5sU0gB9dF2vK7oMiQ",
    '{"kty":"EC","crv":"P-256","x":"f4Tg8Hn2Jm6Kp0Lq4Rs8Tu2Vw6Xy0Za4Bc8De2Fg6Hi","d":"[REDACTED:jwk-private-key]","use":"sig"}',
  ],
  [
    "jwk-private-key",
    // A key printed inside a JSON string (a tool result, a log line).
    '{"out":"{\\"kty\\":\\"OKP\\",\\"d\\": \\"Zx8Wq3Lm5Np7Rt9Vb1Cd3Fg5Hj7Kl9Mn1Pq3Rs5Tu7V\\"}"}',
    "Zx8Wq3Lm5Np7Rt9Vb1Cd3Fg5Hj7Kl9Mn1Pq3Rs5Tu7V",
    '{"out":"{\\"kty\\":\\"OKP\\",\\"d\\": \\"[REDACTED:jwk-private-key]\\"}"}',
  ],
  [
    "docker-auth",
    // ~/.docker/config.json: base64 of `user:password` under a registry's `auth`.
    '{"auths":{"ghcr.io":{"auth":"Ym9iOnMzY3IzdC1wYXNz"}},"credsStore":"desktop"}',
    "Ym9iOnMzY3IzdC1wYXNz",
    '{"auths":{"ghcr.io":{"auth":"[REDACTED:docker-auth]"}},"credsStore":"desktop"}',
  ],
  [
    "secret-assignment",
    "export DB_PASSWORD=correct-horse-battery",
    "correct-horse-battery",
    "export DB_PASSWORD=[REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    '{"client_secret": "a\\"quoted\\"secret-value", "n": 2}',
    'a\\"quoted\\"secret-value',
    '{"client_secret": "[REDACTED:secret-assignment]", "n": 2}',
  ],
  [
    "secret-assignment",
    "API_KEY: 'single-quoted-key-value'",
    "single-quoted-key-value",
    "API_KEY: '[REDACTED:secret-assignment]'",
  ],
  [
    "secret-assignment",
    "curl 'https://x/y?access_token=tok3n-value-xyz&page=2'",
    "tok3n-value-xyz",
    // An unquoted value ends at the query string's next `&key=`; the rest is kept.
    "curl 'https://x/y?access_token=[REDACTED:secret-assignment]&page=2'",
  ],
  [
    "secret-assignment",
    "privateKey := deadbeefcafebabe1234",
    "deadbeefcafebabe1234",
    "privateKey := [REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    "GITHUB_CREDENTIAL_HELPER=opaque-helper-value",
    "opaque-helper-value",
    "GITHUB_CREDENTIAL_HELPER=[REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    "passwd=pa55w0rd-long-enough",
    "pa55w0rd-long-enough",
    "passwd=[REDACTED:secret-assignment]",
  ],
  // Names of documented secrets: sshpass's environment, the Bitwarden CLI's session key
  // (as `bw unlock` prints it), a Wi-Fi network's pre-shared key in its two files.
  [
    "secret-assignment",
    `SSHPASS=Zq8vLm2xQw9r sshpass -e ssh me@h\nexport BW_SESSION="${B62}+${B62}=="\n`,
    "Zq8vLm2xQw9r",
    'SSHPASS=[REDACTED:secret-assignment] sshpass -e ssh me@h\nexport BW_SESSION="[REDACTED:secret-assignment]"\n',
  ],
  [
    "secret-assignment",
    'network={\n\tssid="home"\n\tpsk="Vq7pLm2xZ9wR"\n\tkey_mgmt=WPA-PSK\n}\n[wifi-security]\npsk=Vq7pLm2xZ9wR\n',
    "Vq7pLm2xZ9wR",
    'network={\n\tssid="home"\n\tpsk="[REDACTED:secret-assignment]"\n\tkey_mgmt=WPA-PSK\n}\n[wifi-security]\npsk=[REDACTED:secret-assignment]\n',
  ],
  // Amazon ECR's registry password: base64 of a JSON document that opens with its payload.
  [
    "aws-ecr-token",
    `$ aws ecr get-login-password\n${ECR_TOKEN}\n`,
    ECR_TOKEN.slice(16),
    "$ aws ecr get-login-password\n[REDACTED:aws-ecr-token]\n",
  ],
  // A Teams webhook of today's form: its last segment is base64url (`_` and `-`).
  [
    "teams-webhook",
    `hook: https://acme.webhook.office.com/webhookb2/0a1b2c3d-0a1b-0a1b-0a1b-0a1b2c3d4e5f@0a1b2c3d/IncomingWebhook/0123456789abcdef0123456789abcdef/0a1b2c3d/V2${B62.slice(0, 10)}_${B62}-x\n`,
    `${B62.slice(0, 10)}_${B62}-x`,
    "hook: [REDACTED:teams-webhook]\n",
  ],
  // Command lines whose credential is a documented flag or place: OpenShift's and Cloud
  // Foundry's logins, MinIO's alias (its secret key after the access key).
  [
    "command-flag",
    "+ oc login -u me -p Hunt3r2Secret https://api.c:6443\n+ cf login -a api.x -u me -p Hunt3r2Secret\n+ mc alias set s3 https://s3.example.com minio Hunt3r2Secret --api S3v4\n+ oc get pods -p x\n+ wandb login Hunt3r2Secret\n+ rclone obscure Hunt3r2Secret\nwandb: Logging into wandb.ai.\n",
    "Hunt3r2Secret",
    "+ oc login -u me -p [REDACTED:command-flag] https://api.c:6443\n+ cf login -a api.x -u me -p [REDACTED:command-flag]\n+ mc alias set s3 https://s3.example.com minio [REDACTED:command-flag] --api S3v4\n+ oc get pods -p x\n+ wandb login [REDACTED:command-flag]\n+ rclone obscure [REDACTED:command-flag]\nwandb: Logging into wandb.ai.\n",
  ],
  // In a connection string or a URL's query a plain word is the value (no code names a
  // password there), quoted too; SonarQube's `sonar.github.oauth` token (`oauth` as a whole
  // word, when random).
  [
    "secret-assignment",
    'Server=db;User ID=sa;Password=hunterhunter;Database=x\ndatabase=x;uid=me;pwd=mypassword\nServer="db";Password="mypassword";\njdbc:postgresql://db:5432/app?user=me&password=mypassword&ssl=1\nsonar.github.oauth=0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 oauth: true\n',
    "hunterhunter",
    'Server=db;User ID=sa;Password=[REDACTED:secret-assignment];Database=x\ndatabase=x;uid=me;pwd=[REDACTED:secret-assignment]\nServer="db";Password="[REDACTED:secret-assignment]";\njdbc:postgresql://db:5432/app?user=me&password=[REDACTED:secret-assignment]&ssl=1\nsonar.github.oauth=[REDACTED:secret-assignment] oauth: true\n',
  ],
  // A long literal wrapped onto the next line after a spaced `=`, as Prettier and Java's
  // formatters print it (CRLF too); only a quoted value counts there.
  [
    "secret-assignment",
    'const apiToken =\n  "Hunt3r2Word";\n    private static final String DB_PASSWORD =\r\n            "Hunt3r2Word";\n',
    "Hunt3r2Word",
    'const apiToken =\n  "[REDACTED:secret-assignment]";\n    private static final String DB_PASSWORD =\r\n            "[REDACTED:secret-assignment]";\n',
  ],
  // A private key written as joined string literals (Java's `+`, Python's adjacent strings):
  // the block runs on through each quote, operator and line break to its END line; a quote
  // not followed by another literal on the next line ends it (the header alone is no key).
  [
    "pem-private-key",
    'String key =\n    "-----BEGIN RSA PRIVATE KEY-----\\n" +\n    "MIIEowIBAAKCAQEAzq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9r\\n" +\n    "-----END RSA PRIVATE KEY-----";\nint next = 1;\nKEY = (\n    "-----BEGIN RSA PRIVATE KEY-----\\n"\n    "MIIEowIBAAKCAQEAzq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9r\\n"\n    "-----END RSA PRIVATE KEY-----\\n"\n)\n{"key":"-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEAzq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9r","next":"value"}\n',
    "MIIEowIBAAKCAQEAzq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9r",
    'String key =\n    "[REDACTED:pem-private-key]";\nint next = 1;\nKEY = (\n    "[REDACTED:pem-private-key]\\n"\n)\n{"key":"[REDACTED:pem-private-key]","next":"value"}\n',
  ],
  // Joined literals whose last lines were pasted without their quotes: the written lines go
  // on with the block to its END line; a name after the operator is no key's line.
  [
    "pem-private-key",
    'String k = "-----BEGIN RSA PRIVATE KEY-----" +\n    "MIIEowIBAAKCAQEA9pQ3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8" +\nHb5cD7eF9gH1iJ3kL5mN7oP9qR1sT3uV5wX7yZ9aB1cD3eF5Zx9Kq2Lm8Np4Rt6Vw3Y\n-----END RSA PRIVATE KEY-----\nnext();\nString j = "-----BEGIN RSA PRIVATE KEY-----" +\n    "MIIEowIBAAKCAQEA9pQ3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8" +\n    KEY_TAIL;\n',
    "Hb5cD7eF9gH1iJ3kL5mN7oP9qR1sT3uV5wX7yZ9aB1cD3eF5Zx9Kq2Lm8Np4Rt6Vw3Y",
    'String k = "[REDACTED:pem-private-key]\nnext();\nString j = "[REDACTED:pem-private-key]" +\n    KEY_TAIL;\n',
  ],
  // A value whose 48th byte is an escape's backslash or the quote of the string it stands in
  // is judged without it (a vendor's value was kept, a key's took the backslash).
  [
    "vendor-credential",
    'newrelic_key = Zq8v-Lm2x0123456789abcdef0123456789abcdef01qq9X\\nend\n{"log":"datadog_key = Zq8v-Lm2x0123456789abcdef0123456789abcdef01qq9X"}\nDATADOG_API_KEY=Zq8v-Lm2x0123456789abcdef0123456789abcdef01qq9X\\tx\n',
    "Zq8v-Lm2x0123456789abcdef0123456789abcdef01qq9X",
    'newrelic_key = [REDACTED:vendor-credential]\\nend\n{"log":"datadog_key = [REDACTED:vendor-credential]"}\nDATADOG_API_KEY=[REDACTED:secret-assignment]\\tx\n',
  ],
  // A bearer token without its header's name (a YAML list, `curl -H "Bearer …"`, inside a
  // string): the scheme stays; a word, a placeholder or a letters-only run stays.
  [
    "bearer-token",
    '  - Bearer 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\ncurl -H "Bearer 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b" x\nBearer tokens; Bearer ${TOKEN}; f"Bearer {token}"; Bearer abcdefghijklmnopqrstuvwxyz\ncurl -H "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl" x\n',
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
    '  - Bearer [REDACTED:bearer-token]\ncurl -H "Bearer [REDACTED:bearer-token]" x\nBearer tokens; Bearer ${TOKEN}; f"Bearer {token}"; Bearer abcdefghijklmnopqrstuvwxyz\ncurl -H "Bearer [REDACTED:jwt]" x\n',
  ],
  // Go's MySQL DSN: the password between the user's `:` and `@tcp(`, the user and address
  // kept; a placeholder, an empty password and a format string stay.
  [
    "dsn-password",
    'DB_DSN=app:Hunt3r2Word@tcp(db:3306)/shop?parseTime=true\ndsn := "root:Hunt3r2Word@unix(/run/mysqld.sock)/x"\nopen("app:${DB_PASS}@tcp(db)/x"); app:@tcp(db)/x; fmt.Sprintf("%s:%s@tcp(%s)/%s")\n',
    "Hunt3r2Word",
    'DB_DSN=app:[REDACTED:dsn-password]@tcp(db:3306)/shop?parseTime=true\ndsn := "root:[REDACTED:dsn-password]@unix(/run/mysqld.sock)/x"\nopen("app:${DB_PASS}@tcp(db)/x"); app:@tcp(db)/x; fmt.Sprintf("%s:%s@tcp(%s)/%s")\n',
  ],
  // A Discord token bare, its id's segment opening as base64 of digits does (an old
  // 27-character HMAC too, made-up ids, a sentence's full stop after it); base64 of digits
  // alone, a short HMAC or a fourth segment stays.
  [
    "discord-token",
    "bot: MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz1a.Zq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6uPo\nNzY1NDMyMTA5ODc2NTQzMjE.Ab_1-x.Zq8vLm2xQw9rTy6uPo3iZq8vLm2. Next\nMTExMjEzZq8vLm2xQw9rTy6uP.Ab_1-x.Zq8vLm2xQw9rTy6uPo3iZq8vLm2\nNDEyVkQ5MTIzNDU2Nzg5MDEy.Ab_1-x.Zq8vLm2xQw9rTy6uPo3iZq8vLm2\nMTU 1500; MTIzNDU2Nzg5MDEyMzQ1Njc4 alone; MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz1a.short; MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz1a.Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7.abc\n",
    "Zq8vLm2xQw9rTy6uPo3iZq8vLm2",
    "bot: [REDACTED:discord-token]\n[REDACTED:discord-token]. Next\n[REDACTED:discord-token]\n[REDACTED:discord-token]\nMTU 1500; MTIzNDU2Nzg5MDEyMzQ1Njc4 alone; MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz1a.short; MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz1a.Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7.abc\n",
  ],
  // A Vault token given to `vault login` (prose's `vault login to …` and dev mode's `root`
  // stay), WPA's passphrase, HTTPie's `-a user:password`, a login tester's `-p`.
  [
    "command-flag",
    "+ vault login 0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d\nrun vault login to sign in\n+ vault login root\n+ wpa_passphrase home Hunt3r2Word\n+ http -v -a me:Hunt3r2Word pie.dev/basic-auth\nsee http://x.io/a?b=-1\n+ hydra -l admin -p Hunt3r2Word ssh://10.0.0.1\n",
    "Hunt3r2Word",
    "+ vault login [REDACTED:command-flag]\nrun vault login to sign in\n+ vault login root\n+ wpa_passphrase home [REDACTED:command-flag]\n+ http -v -a me:[REDACTED:command-flag] pie.dev/basic-auth\nsee http://x.io/a?b=-1\n+ hydra -l admin -p [REDACTED:command-flag] ssh://10.0.0.1\n",
  ],
  // A query's key in Go's JSON, whose `&` is escaped (`\u0026key=`), and OpenWeather's key.
  [
    "url-query-key",
    '{"url":"https://x.io/a?b=1\\u0026key=Zq8vLm2xQw9rTy6uPo3i\\u0026c=2"}\nGET /data/2.5/weather?q=Oslo&appid=4f1c2b3a5d6e7f8091a2b3c4d5e6f708 200\n',
    "Zq8vLm2xQw9rTy6uPo3i",
    '{"url":"https://x.io/a?b=1\\u0026key=[REDACTED:url-query-key]\\u0026c=2"}\nGET /data/2.5/weather?q=Oslo&appid=[REDACTED:url-query-key] 200\n',
  ],
  // keyring's password is its call's third argument; the service's name before it stays.
  [
    "credential-argument",
    "keyring.set_password('backup', 'me', 'Zq8vLm2xQw9r')\nkeyring.get_password('backup', 'me')\n",
    "Zq8vLm2xQw9r",
    "keyring.set_password('backup', 'me', '[REDACTED:credential-argument]')\nkeyring.get_password('backup', 'me')\n",
  ],
  // …but a qualifier of where or whose keeps it a password's; and what is said of `pass_dict`
  // is not remembered for `token_dict`.
  [
    "secret-assignment",
    "DB_PASS_PROD=Zq8vLm2xQw9r\nPWD_HASH=Zq8vLm2xQw9r\nPASS_B64=Zq8vLm2xQw9r\npass_dict=1\ntoken_dict=Zq8vLm2xQw9r\n",
    "Zq8vLm2xQw9r",
    "DB_PASS_PROD=[REDACTED:secret-assignment]\nPWD_HASH=[REDACTED:secret-assignment]\nPASS_B64=[REDACTED:secret-assignment]\npass_dict=1\ntoken_dict=[REDACTED:secret-assignment]\n",
  ],
  // A random name before a keyword's word is a token still.
  [
    "secret-assignment",
    "token: Zq8vLm2xQw9rTy6uToken\n",
    "Zq8vLm2xQw9rTy6uToken",
    "token: [REDACTED:secret-assignment]\n",
  ],
  // A bracketed value with a digit, and an f-string without a field, are read.
  [
    "secret-assignment",
    'password="[Zq8vLm2xQw9r]"\ntoken = f"Zq8vLm2xQw9rTy6u"\nroot pass: Zq8vLm2xQw9r\n',
    "Zq8vLm2xQw9r",
    'password="[REDACTED:secret-assignment]"\ntoken = f"[REDACTED:secret-assignment]"\nroot pass: [REDACTED:secret-assignment]\n',
  ],
  // Ruby's symbol subscript (`opts[:password] = …`); another key's value stays.
  [
    "secret-assignment",
    'opts[:password] = "Zq8vLm2xQw9r"\nparams[:password] = params[:password_confirmation]\n',
    "Zq8vLm2xQw9r",
    'opts[:password] = "[REDACTED:secret-assignment]"\nparams[:password] = params[:password_confirmation]\n',
  ],
  // curl's bearer token, as any keyword's value (a variable stays).
  [
    "secret-assignment",
    "+ curl --oauth2-bearer Hunt3r2Secret https://x\n+ curl --oauth2-bearer $TOKEN https://x\n",
    "Hunt3r2Secret",
    "+ curl --oauth2-bearer [REDACTED:secret-assignment] https://x\n+ curl --oauth2-bearer $TOKEN https://x\n",
  ],
];

/** The widened grammar: separators and forms beyond `NAME=value`. */
const GRAMMAR: readonly (readonly [string, string, string, string])[] = [
  [
    "secret-assignment",
    "echo token=hunter2xyz; exit 3",
    "hunter2xyz",
    "echo token=[REDACTED:secret-assignment]; exit 3",
  ],
  [
    "secret-assignment",
    "PASSWORD=abcdefghijklmnopqrstuvwxyz0123456789ABCDEF;; ok",
    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF",
    "PASSWORD=[REDACTED:secret-assignment];; ok",
  ],
  [
    "secret-assignment",
    "PASSWORD=abcdefghijklmnopqrstuvwxyz0123456789ABCDEF;",
    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF",
    "PASSWORD=[REDACTED:secret-assignment];",
  ],
  [
    "secret-assignment",
    "TOKEN=sk_P7r5;@*xC$utE x",
    "sk_P7r5;@*xC$utE",
    "TOKEN=[REDACTED:secret-assignment] x",
  ],
  [
    "secret-assignment",
    "PASSWORD=abcdefghijklmnopqrstuvwxyz0123456789ABCDEF;x;;y; z",
    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF;x;;y",
    "PASSWORD=[REDACTED:secret-assignment]; z",
  ],
  [
    "secret-assignment",
    "TOKEN=sk_P7r5&@*xC$utE x",
    "sk_P7r5&@*xC$utE",
    "TOKEN=[REDACTED:secret-assignment] x",
  ],
  [
    "secret-assignment",
    "X_TOKEN==bvjhAbc123",
    "=bvjhAbc123",
    "X_TOKEN=[REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    "MY_TOKEN ?= abcdef123456",
    "abcdef123456",
    "MY_TOKEN ?= [REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    "MY_TOKEN :::= abcdef123456",
    "abcdef123456",
    "MY_TOKEN :::= [REDACTED:secret-assignment]",
  ],
  [
    "secret-assignment",
    'System.setProperty("X_TOKEN", "abcXYZ123456");',
    "abcXYZ123456",
    'System.setProperty("X_TOKEN", "[REDACTED:secret-assignment]");',
  ],
  [
    "secret-assignment",
    "$c['x_password'] .= 'pa55word1';",
    "pa55word1",
    "$c['x_password'] .= '[REDACTED:secret-assignment]';",
  ],
  [
    // A password element's text may hold any sign but a blank (its `<` ends it).
    "secret-assignment",
    "<password>P@ss(w0rd)!{x}$</password>",
    "P@ss(w0rd)!{x}$",
    "<password>[REDACTED:secret-assignment]</password>",
  ],
  [
    "secret-assignment",
    "<xToken>abc123def456</xToken>",
    "abc123def456",
    "<xToken>[REDACTED:secret-assignment]</xToken>",
  ],
  [
    // An XML element named after the keyword, its `value` attribute the secret.
    "secret-assignment",
    '<password value="abc123def456"/>',
    "abc123def456",
    '<password value="[REDACTED:secret-assignment]"/>',
  ],
  [
    // Visual Basic's: `As` and the type.
    "secret-assignment",
    'Private Const ApiToken As String = "abc123def456"',
    "abc123def456",
    'Private Const ApiToken As String = "[REDACTED:secret-assignment]"',
  ],
  [
    "secret-assignment",
    'var xToken string = "abc123def456"',
    "abc123def456",
    'var xToken string = "[REDACTED:secret-assignment]"',
  ],
  [
    "secret-assignment",
    "huggingface-cli login --token abcdef123456789",
    "abcdef123456789",
    "huggingface-cli login --token [REDACTED:secret-assignment]",
  ],
  ["secret-assignment", "db_pw=hunter22x", "hunter22x", "db_pw=[REDACTED:secret-assignment]"],
  [
    "basic-auth",
    "curl -u deploy:p4ssw0rd-x https://x",
    "p4ssw0rd-x",
    "curl -u [REDACTED:basic-auth] https://x",
  ],
  [
    "basic-auth",
    "curl --user 'deploy:p4ssw0rd-x' x",
    "p4ssw0rd-x",
    "curl --user '[REDACTED:basic-auth]' x",
  ],
  [
    "basic-auth",
    "curl --user  'deploy:p4ssw0rd-x' x",
    "p4ssw0rd-x",
    "curl --user  '[REDACTED:basic-auth]' x",
  ],
  [
    "basic-auth",
    'curl -u "d2LkV78zLx!t:" https://localhost:9200',
    "d2LkV78zLx!t",
    'curl -u "[REDACTED:basic-auth]" https://localhost:9200',
  ],
  // Inside a JSON string the argument ends at the line's `\n` (`\\n` a string deeper): the
  // next line stays, as OpenSSL's password and a printed password do.
  [
    "basic-auth",
    '{"log":"curl -u deploy:p4ssw0rd-x\\nnext line"}\n{"r":"{\\"log\\":\\"curl -u deploy:p4ssw0rd-x\\\\nnext line\\"}"}',
    "p4ssw0rd-x",
    '{"log":"curl -u [REDACTED:basic-auth]\\nnext line"}\n{"r":"{\\"log\\":\\"curl -u [REDACTED:basic-auth]\\\\nnext line\\"}"}',
  ],
  [
    "openssl-pass",
    '{"log":"openssl rsa -passin pass:Zx9Kq2Lm8\\nnext line"}',
    "Zx9Kq2Lm8",
    '{"log":"openssl rsa -passin pass:[REDACTED:openssl-pass]\\nnext line"}',
  ],
  [
    "mysql-temporary-password",
    '{"r":"{\\"log\\":\\"A temporary password is generated for root@localhost: k#9QhZu;tQg0w\\\\nnext line\\"}"}',
    "k#9QhZu;tQg0w",
    '{"r":"{\\"log\\":\\"A temporary password is generated for root@localhost: [REDACTED:mysql-temporary-password]\\\\nnext line\\"}"}',
  ],
  [
    "vendor-credential",
    "HEROKU_API=01234567-89ab-4cde-8f01-23456789abcd",
    "01234567-89ab-4cde-8f01-23456789abcd",
    "HEROKU_API=[REDACTED:vendor-credential]",
  ],
  [
    "vendor-credential",
    '"datadog_key": "0123456789abcdef0123456789abcdef01234567"',
    "0123456789abcdef0123456789abcdef01234567",
    '"datadog_key": "[REDACTED:vendor-credential]"',
  ],
  [
    // The vendor's name, a space and `key`, then `:`, `=` or a space (`Mailjet keys: …`,
    // another word, is not it; nor is a word that is no token: `datadog key rotation`).
    "vendor-credential",
    "Mailjet key: 8d0cf10341929f8ed3b0a62463fd4372\nMIXPANEL KEY=8d0cf10341929f8ed3b0a62463fd4372\ndatadog key 8d0cf10341929f8ed3b0a62463fd4372\n",
    "8d0cf10341929f8ed3b0a62463fd4372",
    "Mailjet key: [REDACTED:vendor-credential]\nMIXPANEL KEY=[REDACTED:vendor-credential]\ndatadog key [REDACTED:vendor-credential]\n",
  ],
  [
    // An object named by a keyword in JSON: its first member's value, the member named by a
    // host or a URL (Pulumi's `credentials.json`, `accessTokens`, a camelCase plural).
    "secret-assignment",
    '{"accessTokens": {"https://api.pulumi.com": "Vq7pLm2xZ9wR4tW6yZ3a"}, "gitlab-token": {"gitlab.com": "Vq7pLm2xZ9wR4tW6yZ3a"}}',
    "Vq7pLm2xZ9wR4tW6yZ3a",
    '{"accessTokens": {"https://api.pulumi.com": "[REDACTED:secret-assignment]"}, "gitlab-token": {"gitlab.com": "[REDACTED:secret-assignment]"}}',
  ],
  [
    // Elasticsearch's `elastic` password: a node's first start, then after a reset.
    "elastic-password",
    "Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):\n  vV53lp*dQ0pJsl=P66p+\n\nPassword for the [elastic] user successfully reset.\nNew value: vV53lp*dQ0pJsl=P66p+\n",
    "vV53lp*dQ0pJsl=P66p+",
    "Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):\n  [REDACTED:elastic-password]\n\nPassword for the [elastic] user successfully reset.\nNew value: [REDACTED:elastic-password]\n",
  ],
  [
    // Jenkins' initial admin password in the log of its first start.
    "jenkins-initial-password",
    "Please use the following password to proceed to installation:\n\n72d437c5061f499ebf4376c8fc8e69e7\n\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword\n",
    "72d437c5061f499ebf4376c8fc8e69e7",
    "Please use the following password to proceed to installation:\n\n[REDACTED:jenkins-initial-password]\n\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword\n",
  ],
  [
    // MySQL's temporary root password in its error log (`mysqld --initialize`).
    "mysql-temporary-password",
    "2024-05-01T10:00:00.000000Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: k#9QhZu;tQg0w\n",
    "k#9QhZu;tQg0w",
    "2024-05-01T10:00:00.000000Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: [REDACTED:mysql-temporary-password]\n",
  ],
  // Windows' `netsh wlan show profile name=… key=clear`: the passphrase to its line's end.
  [
    "wifi-key",
    "Security settings\r\n    Authentication         : WPA2-Personal\r\n    Key Content            : Vq7p Lm2x!Z9w\r\n\r\nCost settings\r\n",
    "Vq7p Lm2x!Z9w",
    "Security settings\r\n    Authentication         : WPA2-Personal\r\n    Key Content            : [REDACTED:wifi-key]\r\n\r\nCost settings\r\n",
  ],
  // Rust's `Option` as `{:?}` prints it: the literal inside `Some(…)`.
  [
    "secret-assignment",
    'ClientConfig { api_key: Some("Vq7pLm2xZ9wR4tW6yZ3a"), timeout: 30 }',
    "Vq7pLm2xZ9wR4tW6yZ3a",
    'ClientConfig { api_key: Some("[REDACTED:secret-assignment]"), timeout: 30 }',
  ],
  // Markdown's emphasis or code span around the name, its marks closed before or after the
  // `:` (a README's, an issue's, a model's answer).
  [
    "secret-assignment",
    "**API key**: Vq7pLm2xZ9wR4tW6yZ3a\n* **Client Secret:** `Vq7pLm2xZ9wR4tW6yZ3a`\n- `API_TOKEN`: Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "**API key**: [REDACTED:secret-assignment]\n* **Client Secret:** `[REDACTED:secret-assignment]`\n- `API_TOKEN`: [REDACTED:secret-assignment]\n",
  ],
  [
    // A table's row: Markdown's and MySQL's `|`, a box-drawn `│` (`npm token list`), heavy
    // `┃` and double `║`, psql's last column (no closing `|`).
    "secret-assignment",
    "| password | Vq7pLm2xZ9wR4tW6yZ3a |\n│ token          │ Vq7pLm2xZ9wR4tW6yZ3a │\n┃ API_KEY ┃ Vq7pLm2xZ9wR4tW6yZ3a ┃\n║ DB_PASSWORD ║ Vq7pLm2xZ9wR4tW6yZ3a ║\n api_key | Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "| password | [REDACTED:secret-assignment] |\n│ token          │ [REDACTED:secret-assignment] │\n┃ API_KEY ┃ [REDACTED:secret-assignment] ┃\n║ DB_PASSWORD ║ [REDACTED:secret-assignment] ║\n api_key | [REDACTED:secret-assignment]\n",
  ],
  [
    // psql's last column at the end of the single-quoted string the row stands in.
    "secret-assignment",
    "{'out': ' api_key | Vq7pLm2xZ9wR4tW6yZ3a'}",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "{'out': ' api_key | [REDACTED:secret-assignment]'}",
  ],
  [
    // PHP's `print_r` of an array: the name alone in brackets, then `=>` and the value.
    "secret-assignment",
    "Array\n(\n    [host] => db\n    [password] => Vq7pLm2x!Z9w\n    [api_key] => Vq7pLm2x!Z9w\n)\n",
    "Vq7pLm2x!Z9w",
    "Array\n(\n    [host] => db\n    [password] => [REDACTED:secret-assignment]\n    [api_key] => [REDACTED:secret-assignment]\n)\n",
  ],
  [
    // PHP's `var_dump` (the value's type and length on the next line) and Xdebug's.
    "secret-assignment",
    'array(2) {\n  ["host"]=>\n  string(2) "db"\n  ["password"]=>\n  string(12) "Vq7pLm2x!Z9w"\n}\n  \'password\' => string \'Vq7pLm2x!Z9w\' (length=12)\n',
    "Vq7pLm2x!Z9w",
    'array(2) {\n  ["host"]=>\n  string(2) "db"\n  ["password"]=>\n  string(12) "[REDACTED:secret-assignment]"\n}\n  \'password\' => string \'[REDACTED:secret-assignment]\' (length=12)\n',
  ],
  [
    // A setting that holds a credential, set on a command line (AWS's keys, a registry's
    // token, a .NET project's user secret).
    "command-flag",
    '+ aws configure set aws_secret_access_key Vq7pLm2x!Z9w\nnpm config set //registry.npmjs.org/:_authToken Vq7pLm2x!Z9w\ndotnet user-secrets set "Api:Key" "Vq7pLm2x!Z9w"\n',
    "Vq7pLm2x!Z9w",
    '+ aws configure set aws_secret_access_key [REDACTED:command-flag]\nnpm config set //registry.npmjs.org/:_authToken [REDACTED:command-flag]\ndotnet user-secrets set "Api:Key" "[REDACTED:command-flag]"\n',
  ],
  [
    // A password piped to a command that reads it from its standard input: a registry's
    // login, sudo's own, chpasswd's `user:password` (after the colon), printf's `%s`.
    "piped-password",
    "+ echo 'Vq7pLm2x!Z9w' | docker login -u me --password-stdin ghcr.io\necho Vq7pLm2x!Z9w | sudo -S apt-get update\necho \"deploy:Vq7pLm2x!Z9w\" | chpasswd\nprintf '%s\\n' Vq7pLm2x!Z9w | gcloud secrets create db --data-file=-\n",
    "Vq7pLm2x!Z9w",
    "+ echo '[REDACTED:piped-password]' | docker login -u me --password-stdin ghcr.io\necho [REDACTED:piped-password] | sudo -S apt-get update\necho \"deploy:[REDACTED:piped-password]\" | chpasswd\nprintf '%s\\n' [REDACTED:piped-password] | gcloud secrets create db --data-file=-\n",
  ],
  // Quoted words in the command after the pipe, and the value at a line's end.
  [
    "piped-password",
    '+ echo "Vq7pLm2x!Z9w" | docker login -u "me" --password-stdin\necho \'Vq7pLm2x!Z9w\' | gh auth login --with-token',
    "Vq7pLm2x!Z9w",
    '+ echo "[REDACTED:piped-password]" | docker login -u "me" --password-stdin\necho \'[REDACTED:piped-password]\' | gh auth login --with-token',
  ],
  [
    // A table padded into columns (PowerShell's `Get-ChildItem Env:`): the value after the
    // name's padding, as after a space.
    "secret-assignment",
    "Name                           Value\n----                           -----\nAPI_KEY                        Vq7pLm2xZ9wR4tW6yZ3a\nPATH                           C:\\Windows\\system32\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "Name                           Value\n----                           -----\nAPI_KEY                        [REDACTED:secret-assignment]\nPATH                           C:\\Windows\\system32\n",
  ],
  [
    // A secret key's name in a table's cell, as after a space (a secret manager's listing,
    // `doppler secrets`: `│ STRIPE_SECRET_KEY │ … │`).
    "secret-assignment",
    "│ STRIPE_SECRET_KEY    │ Vq7pLm2xZ9wR4tW6yZ3a    │\n| secret_key | Vq7pLm2xZ9wR4tW6yZ3a |\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "│ STRIPE_SECRET_KEY    │ [REDACTED:secret-assignment]    │\n| secret_key | [REDACTED:secret-assignment] |\n",
  ],
  [
    // HashiCorp's tokens: Consul's and Nomad's `SecretID`, Vault AppRole's `secret_id`, UUIDs.
    "secret-assignment",
    "SecretID:         3f0c5a8e-9b1d-4c2e-a7f6-0d3b8e1c4a92\nSecret ID    = 3f0c5a8e-9b1d-4c2e-a7f6-0d3b8e1c4a92\nsecret_id             3f0c5a8e-9b1d-4c2e-a7f6-0d3b8e1c4a92\n",
    "3f0c5a8e-9b1d-4c2e-a7f6-0d3b8e1c4a92",
    "SecretID:         [REDACTED:secret-assignment]\nSecret ID    = [REDACTED:secret-assignment]\nsecret_id             [REDACTED:secret-assignment]\n",
  ],
  [
    // A name ending in `_API` or `-api` with a random value: a vendor's key named for its API.
    "key-assignment",
    "SHODAN_API=a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6\nalphavantage-api: a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6\n",
    "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
    "SHODAN_API=[REDACTED:key-assignment]\nalphavantage-api: [REDACTED:key-assignment]\n",
  ],
  [
    // A short keyword ending a camelCase name (MinIO's banner prints `RootPass: …`).
    "secret-assignment",
    'RootPass: Vq7pLm2xZ9wR4tW6yZ3a\nconst dbPass = "Vq7pLm2xZ9wR4tW6yZ3a";\nadminPwd=Vq7pLm2xZ9wR4tW6yZ3a\n',
    "Vq7pLm2xZ9wR4tW6yZ3a",
    'RootPass: [REDACTED:secret-assignment]\nconst dbPass = "[REDACTED:secret-assignment]";\nadminPwd=[REDACTED:secret-assignment]\n',
  ],
  [
    // YAML's plain scalar on the next line, indented, when it is random.
    "secret-assignment",
    "password:\n  Vq7pLm2xZ9wR4tW6yZ3a\nnext: 1\napi_key:\n    Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "password:\n  [REDACTED:secret-assignment]\nnext: 1\napi_key:\n    [REDACTED:secret-assignment]\n",
  ],
  [
    // …and unindented, as a tool prints a label and the value under it, alone on its line.
    "secret-assignment",
    "API key:\nVq7pLm2xZ9wR4tW6yZ3a\nYour new password:\nVq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "API key:\n[REDACTED:secret-assignment]\nYour new password:\n[REDACTED:secret-assignment]\n",
  ],
  [
    // An identifier ending a statement is a variable, unless it is random.
    "secret-assignment",
    "int x = 1; appSecret = ce3f9f0362bbe5ab01dfc8ee565e4372;\n",
    "ce3f9f0362bbe5ab01dfc8ee565e4372",
    "int x = 1; appSecret = [REDACTED:secret-assignment];\n",
  ],
  [
    // LDAP's bind and root passwords, as their configuration files write them.
    "secret-assignment",
    "bindpw Vq7pLm2xZ9wR4tW6yZ3a\nrootpw Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "bindpw [REDACTED:secret-assignment]\nrootpw [REDACTED:secret-assignment]\n",
  ],
  [
    // …or glued to a word of its case, with a random value.
    "secret-assignment",
    "dbpass=Vq7pLm2xZ9wR4tW6yZ3a\n$mysqlpass = 'Vq7pLm2xZ9wR4tW6yZ3a';\nADMINPWD: Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "dbpass=[REDACTED:secret-assignment]\n$mysqlpass = '[REDACTED:secret-assignment]';\nADMINPWD: [REDACTED:secret-assignment]\n",
  ],
  [
    // A header's name as a quoted key in brackets: a `-` before the keyword is no flag's.
    "secret-assignment",
    "headers[\"X-API-Key\"] = \"Vq7pLm2xZ9wR4tW6yZ3a\"\nh['x-auth-token'] = 'Vq7pLm2xZ9wR4tW6yZ3a'\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "headers[\"X-API-Key\"] = \"[REDACTED:secret-assignment]\"\nh['x-auth-token'] = '[REDACTED:secret-assignment]'\n",
  ],
  [
    // A keyword, a space and `key` (`Secret key: …`, as a console prints a new key pair).
    "secret-assignment",
    "Secret key: Vq7pLm2xZ9wR4tW6yZ3a\nsecret key Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "Secret key: [REDACTED:secret-assignment]\nsecret key [REDACTED:secret-assignment]\n",
  ],
  [
    "vendor-credential",
    "twilio:\n  key: 3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e5f\n",
    "3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e5f",
    "twilio:\n  key: [REDACTED:vendor-credential]\n",
  ],
  [
    "vendor-credential",
    'zoom:\r\n    sdk_key: "Ab3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e"',
    "Ab3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e",
    'zoom:\r\n    sdk_key: "[REDACTED:vendor-credential]"',
  ],
  // A name that holds the keyword, as the value of a `name` key, and the secret under its
  // sibling `value` key: Kubernetes and ECS env lists, HCL, Hadoop XML, CLI key/value pairs.
  [
    "secret-assignment",
    '{"name": "DB_PASSWORD", "value": "Vq7pLm2xZ9wR"}',
    "Vq7pLm2xZ9wR",
    '{"name": "DB_PASSWORD", "value": "[REDACTED:secret-assignment]"}',
  ],
  [
    "secret-assignment",
    '"env": [\n  {\n    "Name": "API_TOKEN",\n    "Value": "9f8e7d6c5b4a3928"\n  }\n]',
    "9f8e7d6c5b4a3928",
    '"env": [\n  {\n    "Name": "API_TOKEN",\n    "Value": "[REDACTED:secret-assignment]"\n  }\n]',
  ],
  [
    "secret-assignment",
    '{"log":"{\\"name\\":\\"API_TOKEN\\",\\"value\\":\\"9f8e7d6c5b4a3928\\"}"}',
    "9f8e7d6c5b4a3928",
    '{"log":"{\\"name\\":\\"API_TOKEN\\",\\"value\\":\\"[REDACTED:secret-assignment]\\"}"}',
  ],
  [
    "secret-assignment",
    "env:\n  - name: DB_PASSWORD\n    value: Vq7pLm2xZ9wR\n  - name: B\n",
    "Vq7pLm2xZ9wR",
    "env:\n  - name: DB_PASSWORD\n    value: [REDACTED:secret-assignment]\n  - name: B\n",
  ],
  [
    "secret-assignment",
    '{"log":"- name: GITHUB_TOKEN\\r\\n  value: \\"9f8e7d6c5b4a3928\\"\\n"}',
    "9f8e7d6c5b4a3928",
    '{"log":"- name: GITHUB_TOKEN\\r\\n  value: \\"[REDACTED:secret-assignment]\\"\\n"}',
  ],
  [
    "secret-assignment",
    '  name  = "DB_PASSWORD"\r\n  value = "Vq7pLm2xZ9wR"\r\n',
    "Vq7pLm2xZ9wR",
    '  name  = "DB_PASSWORD"\r\n  value = "[REDACTED:secret-assignment]"\r\n',
  ],
  [
    "secret-assignment",
    "<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>Vq7pLm2xZ9wR</value>\n</property>",
    "Vq7pLm2xZ9wR",
    "<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>[REDACTED:secret-assignment]</value>\n</property>",
  ],
  [
    "secret-assignment",
    "--parameters ParameterKey=DBPassword,ParameterValue=Vq7pLm2xZ9wR ParameterKey=Env,ParameterValue=prod",
    "Vq7pLm2xZ9wR",
    "--parameters ParameterKey=DBPassword,ParameterValue=[REDACTED:secret-assignment] ParameterKey=Env,ParameterValue=prod",
  ],
  [
    // CloudFormation's parameters file and a stack's outputs, as JSON.
    "secret-assignment",
    '[{"ParameterKey": "DBPassword", "ParameterValue": "Vq7pLm2xZ9wR"}, {"ParameterKey": "Env", "ParameterValue": "prod"}]\n{"OutputKey": "ApiToken", "OutputValue": "Vq7pLm2xZ9wR"}\n',
    "Vq7pLm2xZ9wR",
    '[{"ParameterKey": "DBPassword", "ParameterValue": "[REDACTED:secret-assignment]"}, {"ParameterKey": "Env", "ParameterValue": "prod"}]\n{"OutputKey": "ApiToken", "OutputValue": "[REDACTED:secret-assignment]"}\n',
  ],
  [
    "secret-assignment",
    "--set env[0].name=DB_PASSWORD,env[0].value=Vq7pLm2xZ9wR",
    "Vq7pLm2xZ9wR",
    "--set env[0].name=DB_PASSWORD,env[0].value=[REDACTED:secret-assignment]",
  ],
  // A token-like word after a keyword and a space, with more words after it: 16+
  // characters switching between letters and digits 4+ times.
  [
    "secret-assignment",
    "login failed: password Xk9mP2qL8vR4tW6y expired at 12:00",
    "Xk9mP2qL8vR4tW6y",
    "login failed: password [REDACTED:secret-assignment] expired at 12:00",
  ],
  [
    "vendor-credential",
    "datadog key 9f8e7d6c5b4a39281706f5e4 for the eu site",
    "9f8e7d6c5b4a39281706f5e4",
    "datadog key [REDACTED:vendor-credential] for the eu site",
  ],
  // AWS Systems Manager's encrypted parameters, and PowerShell's plain text made secure.
  [
    "secret-assignment",
    '{\n  "Parameter": {\n    "Name": "/prod/db/password",\n    "Type": "SecureString",\n    "Value": "Vq7pLm2xZ9wR",\n    "Version": 1\n  }\n}',
    "Vq7pLm2xZ9wR",
    '{\n  "Parameter": {\n    "Name": "/prod/db/password",\n    "Type": "SecureString",\n    "Value": "[REDACTED:secret-assignment]",\n    "Version": 1\n  }\n}',
  ],
  [
    "secret-assignment",
    "Parameter:\n  Name: /app/api-key\n  Type: SecureString\n  Value: 9f8e7d6c5b4a3928\n",
    "9f8e7d6c5b4a3928",
    "Parameter:\n  Name: /app/api-key\n  Type: SecureString\n  Value: [REDACTED:secret-assignment]\n",
  ],
  [
    "secret-assignment",
    '$s = ConvertTo-SecureString "Vq7pLm2xZ9wR" -AsPlainText -Force',
    "Vq7pLm2xZ9wR",
    '$s = ConvertTo-SecureString "[REDACTED:secret-assignment]" -AsPlainText -Force',
  ],
  // One word between a vendor's name and `key`.
  [
    "vendor-credential",
    "algolia admin key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "algolia admin key: [REDACTED:vendor-credential]",
  ],
  [
    "vendor-credential",
    "Datadog application key 9f8e7d6c5b4a39281706f5e4d3c2b1a0bcde1234\n",
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0bcde1234",
    "Datadog application key [REDACTED:vendor-credential]\n",
  ],
  // npm's `_auth` (base64 `user:password` in an `.npmrc`).
  [
    "secret-assignment",
    "//registry.npmjs.org/:_auth=YWRtaW46UHE5eExtMlZ6OHc=\n",
    "YWRtaW46UHE5eExtMlZ6OHc=",
    "//registry.npmjs.org/:_auth=[REDACTED:secret-assignment]\n",
  ],
  // `=` escaped as Gson and other HTML-safe JSON writers do (`\u003d`); `\u0026` ends the value.
  [
    "secret-assignment",
    '{"url":"https://x/cb?token\\u003dVq7pLm2xZ9wR4tW6\\u0026user\\u003dbob"}',
    "Vq7pLm2xZ9wR4tW6",
    '{"url":"https://x/cb?token\\u003d[REDACTED:secret-assignment]\\u0026user\\u003dbob"}',
  ],
  // A key named for what it unlocks (`qualified-key.ts`): snake, kebab, dotted, camelCase.
  [
    "key-assignment",
    "LICENSE_KEY=Vq7pLm2xZ9wR4tW6yZ3a\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "LICENSE_KEY=[REDACTED:key-assignment]\n",
  ],
  [
    "key-assignment",
    '{"sessionKey": "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "n": 1}',
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    '{"sessionKey": "[REDACTED:key-assignment]", "n": 1}',
  ],
  [
    "key-assignment",
    "export AZURE_STORAGE_ACCOUNT_KEY=Vq7pLm2xZ9wR4tW6yZ3a+b/Q0e8Jk1Nn5Ss7Uu==\n",
    "Vq7pLm2xZ9wR4tW6yZ3a+b/Q0e8Jk1Nn5Ss7Uu==",
    "export AZURE_STORAGE_ACCOUNT_KEY=[REDACTED:key-assignment]\n",
  ],
  [
    "key-assignment",
    "app.jwt-key: Vq7pLm2xZ9wR4tW6yZ3a\nappLicenseKey = 'Vq7pLm2xZ9wR4tW6yZ3a'",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "app.jwt-key: [REDACTED:key-assignment]\nappLicenseKey = '[REDACTED:key-assignment]'",
  ],
  [
    "key-assignment",
    "tool --license-key Vq7pLm2xZ9wR4tW6yZ3a --verbose\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "tool --license-key [REDACTED:key-assignment] --verbose\n",
  ],
  // A form's label or prose: the words apart, a `:` after them.
  [
    "key-assignment",
    "License key: Vq7pLm2xZ9wR4tW6yZ3a\nINTEGRATION KEY: 9f8e7d6c5b4a39281706f5e4d3c2b1a0\n",
    "Vq7pLm2xZ9wR4tW6yZ3a",
    "License key: [REDACTED:key-assignment]\nINTEGRATION KEY: [REDACTED:key-assignment]\n",
  ],
  // A YAML block scalar: the value is the next line's indented text.
  [
    "secret-assignment",
    "stringData:\n  DB_PASSWORD: |\n    Vq7pLm2xZ9wR\n  USER: app\n",
    "Vq7pLm2xZ9wR",
    "stringData:\n  DB_PASSWORD: |\n    [REDACTED:secret-assignment]\n  USER: app\n",
  ],
  [
    "secret-assignment",
    "token: >-2\r\n   9f8e7d6c5b4a3928\r\n",
    "9f8e7d6c5b4a3928",
    "token: >-2\r\n   [REDACTED:secret-assignment]\r\n",
  ],
  [
    "secret-assignment",
    '{"log":"secret: |+\\n  9f8e7d6c5b4a3928\\n"}',
    "9f8e7d6c5b4a3928",
    '{"log":"secret: |+\\n  [REDACTED:secret-assignment]\\n"}',
  ],
];

/** Settings and code that must come through unchanged (the issue's false alarms and kin). */
const SETTINGS = [
  // Helm's other commands: `-p` is no password there.
  "helm install x ./chart -p 8080\nhelm registry list -p 2\ncrane copy a b -p x\nthe crane lifted 3 tons\n",
  // A `key` that names a word, comes after another member, or before the username.
  '{"username":"bob","key":"name"}\n{"username":"bob","email":"x","key":"a8f5f167f44f4964e6c998dee827110c"}\n{"key":"a8f5f167f44f4964e6c998dee827110c","username":"bob"}',
  // A secret's own description (no version), and another API's `secrets/` path.
  '{"name": "projects/p1/secrets/db", "replication": {"automatic": {}}, "payload": {"data": "kept"}}\nGET /repos/o/r/actions/secrets/NAME/versions/2\n{"name": "NAME"}',
  // Another engine's response (a token's lookup): its data is not a key/value secret's.
  '{"renewable": true, "data": {"display_name": "token", "policies": ["default"]}}',
  // A registry row of another type, an empty string, a variable.
  "    PasswordExpiryWarning    REG_DWORD    0x5\n    DefaultPassword    REG_SZ    \n    ProxyPassword    REG_EXPAND_SZ    %PW%\n",
  // `refresh_interval` as a setting, and a Data heading over no table.
  "scrape:\n  refresh_interval: 30s\nrefresh_interval: 1m\nfoo: bar\nrefresh_interval  30s\nfoo: bar\n== Data ==\nKey: v\n",
  // A vault secret's URL whose object has no value (a list's entry), then another object's.
  '[{"id": "https://kv.vault.azure.net/secrets/db/1", "name": "db"}, {"value": "kept"}]\n{"id": "https://kv.vault.azure.net/secrets/x/1", "value": ""}',
  // The key or the password in a variable, and one argument alone.
  "crypto.createHmac('sha256', key); new Sequelize('sqlite::memory:'); new Sequelize(process.env.DB, 'bob', process.env.PW)",
  // A label's name with no hex lines after it, or not at a line's start.
  "priv: true\nprime1: 7\nconfig:\n  priv:\n    fa:65:75:02\nexponent1:\n    see below\ncoefficient:\n    0a\n",
  // No password set, and the name in prose.
  '1) "requirepass"\n2) ""\nset "requirepass" in redis.conf\n"masterauth" "x"',
  // A template's placeholder where a hash would stand.
  "ALTER USER x IDENTIFIED WITH mysql_native_password AS '${HASH}';\nidentified by values 'abc'\n",
  // Blocks of other labels, and BEGIN without a block.
  `-----BEGIN CERTIFICATE-----\n${B62}\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\n${B62}\n-----END PUBLIC KEY-----\nBEGIN TRANSACTION;\n# BEGIN ANSIBLE MANAGED BLOCK\n-----BEGIN  PRIVATE KEY-----\n`,
  // A key log's label with no secret of a secret's length after it, or in a longer name.
  `CLIENT_RANDOM ${"4f1c".repeat(16)} ${"7d8e".repeat(20)}\nCLIENT_RANDOM is sent in the clear\nXCLIENT_RANDOM ${"4f1c".repeat(16)} ${"7d8e".repeat(16)}`,
  // Public DER and a private key's header with a wrong version: no private key. Capitals
  // that start like one.
  `${PUBLIC_DER.join("\n")}\nMIGRATIONS MIGHT MIHAIL MIIX\n${der("308201220201050282")}`,
  // An argv list whose flags hold no secret (`docker run -p` publishes a port).
  "['docker', 'run', '-p', '8080:80', 'img']\nx = ['mysql', 'mysql']\n['mysql', '-p', 'appdb']\n",
  // An `Option` holding a variable, or none.
  "Config { password: Some(pw), token: None }\npassword = Some\n",
  // Markdown's emphasis around a name with prose after it, and a power, are no assignments.
  "**Password**: must be at least 8 characters\n`API_KEY`: your key\ny = secret**2 + token ** 2",
  // Minified code: a variable as an object's member before the next one.
  "return{startState:function(){return{token:p,inTag:null,localMode:null,localState:null,htmlState:e.startState(a)}}}\n",
  // A page's cursor under a label, a long constant's name, a variable passed as an argument.
  "    Next page token: eav1OzQB0OM8rLdGXOEsyQWSG\n    token = _SEND_INITIAL_METADATA_AND_SEND_STATUS_FROM_SERVER_TOKEN\nconnect(host, password=ssh_pass, port=22)\nctx.load_cert_chain(CERTFILE, password=getpass_unicode)\n",
  // A URL's password that is a variable or a template's field; MITRE's technique's id after
  // a name that ends in a password's stores.
  "extra-index-url = https://_json_key_base64:{password}@{location}-python.pkg.dev/{repo_path}/simple/\nDATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app\nurl = 'https://%s:%s@%s' % (user, pw, host)\nhttps://user:%(password)s@host\n      CREDENTIALS_FROM_PASSWORD_STORES: T1555\n",
  // /etc/services' ports, PostgreSQL's setting of how passwords are stored, code that a
  // highlighter marked up in HTML.
  'kpasswd\t\t464/tcp\nkpasswd\t\t464/udp\n#password_encryption = scram-sha-256\t# scram-sha-256 or md5\n<span class="hljs-keyword">const</span> aliceSecret = alice.<span class="hljs-title function_">computeSecret</span>(bobKey);\n',
  // Paths to a credential's field, as a redaction library's options list them.
  "  paths: ['users[0].password', 'users[1].password']\n  paths: ['users.*.password', 'users.*.profile.preferences.apiKey']\n",
  // A member path longer than what the rule holds, Closure Compiler's mangled names, a
  // test's metasyntactic values.
  '  secretManagerStoredSecurityToken=args.salesforce_secret_manager_stored_security_token,\na.CloseSquareToken = module$contents$google3$third_party$javascript$safevalues$builders$tokens_CloseSquareToken;\nconn = connect(aws_secret_access_key=\'bar\')\n"X-API-Secret": "foo",\n',
  // When a credential was last used, not applicable, a suffix appended to a token's value.
  '    password_last_used = "not_supported"\n    access_key_1_last_rotated = "N/A"\n    portfolio_share_token += "-tags"\npassword = "N/A"\n',
  // A page's cursor, an idempotency or concurrency token: AWS's, Google's (`aws … list-…`).
  '{"NextToken": "RW5DdDJkMWYwZjM2MzM2VHVpOHJIUXlDUXlhc2QzRGViYnc9", "ChangeToken": "abcd12f2-46da-4fdb-b8d5-fbd4c466928f"}\n"nextPageToken": "Xk9mP2qL8vR4tW6yZ3aB",\nNEXT_CONTINUATION_TOKEN=1w41l63U0xa8q7smH50v\n"ClientRequestToken": "1d2129a1-3d38-460a-9756-e5b91fddb951"\n',
  // A quoted type's name after `::` (cfn-lint's table of CloudFormation's resource types and
  // their schemas' digests), as written and inside a string.
  '    "AWS::SecretsManager::Secret": "c85175a4ebcce361",\n    "AWS::IAM::AccessKey": "62d91b17309e76c8",\n{"r":"{\\"AWS::ApiGateway::ApiKey\\": \\"48205d4ffd7feba3\\"}"}\n',
  // A masked credential, as `gh auth status` and dashboards print one.
  "  \u2713 Token: gho_************************************\nOPENAI_API_KEY=sk-proj-****************************abcd\n",
  // TypeScript's non-null assertion after a member path, SQL's and Ruby's named references,
  // the shell's command substitution between backticks.
  "  password: process.env.DB_PASSWORD!,\n  apiKey: process.env.API_KEY!.trim(),\nWHERE password = :password\nUPDATE users SET password = @password WHERE id = @id\nPASSWORD=`cat /run/secrets/db`\nTOKEN=`gh auth token`\n",
  // YAML's alias and a pointer's dereference after a keyword: references, not values.
  "db:\n  password: *pw\n  token: *api-token\npassword = *ptr;\npw=*p->pw;\n",
  // A shell parameter's error message and alternate value, a variable as its default, an
  // f-string's template after a two-byte prefix.
  '${API_TOKEN:?API_TOKEN must be set}\ncurl ${API_TOKEN:+--token $API_TOKEN}\n${API_TOKEN:-$GITHUB_TOKEN}\npassword = fr"{token}"\n',
  // C#'s interpolated string after a keyword is a template; `$HOME` and `$'$PW'` name variables.
  "var password = $\"{prefix}Gq9Lz2Xpq7\";\nPASSWORD=$HOME\nexport PASSWORD=$'$PW'\n",
  // A plural's YAML map whose first member is no token (settings, a name, a path).
  "secrets:\n  name: my-app-secrets-v2\ntokens:\n  access_ttl: 3600\ncredentials:\n  path: /etc/creds/app-2024-05-01.json\n",
  // An AWS CLI text row's other fields: a date, a word, a name; the label not at a line's start.
  "ACCESSKEY\tAKIDNOTAKEY\t2024-05-01T12:00:00+00:00\tabcdefghijabcdefghijabcdefghijabcdefghijxyz\tActive\tbob\nGOOGLE_APPLICATION_CREDENTIALS\tdGhpcyBpcyBub3QgYSBrZXkgYnV0IGl0IGlzIGxvbmc\n",
  // A triple-quoted string continued on the next line (`"""\` and a line break): the
  // backslash ends the value at its line, as a line break does (a config's text follows).
  'PYPIRC_NOPASSWORD = """\\\n[distutils]\nindex-servers =\n    server1\n"""\n',
  // A private key's header without its key: a `grep` hit and the lines after it.
  "./certs/server.key:-----BEGIN PRIVATE KEY-----\n./src/tls.py:    key = load(path)\n./README.md:Generate a key with openssl genrsa\n",
  // Words joined by commas after a plural: scopes, not tokens.
  "TOKENS=abc,def\nALLOWED_TOKENS=read,write,admin\nsecrets: inherit,none",
  // A connection string's and a URL query's placeholders stay (the credential's word alone).
  "Server=db;Password=${DB_PASSWORD};Database=x\nServer=db;Password=<password>;Database=x\nServer=db;Password=;Database=x\nServer=db;Password=password;\nunix://[user@]/path/to/socket.sock?db=0[&password=password]",
  // After a spaced `=` and a line break, code, or a shell's next command, or a blank line.
  'const token =\n  await getToken();\nexport TOKEN=\necho "Hunt3r2Word"\npassword =\n\n"Hunt3r2Word"',
  // Code that names a password (the issue's forms): a CSS selector, Ruby's interpolation (in
  // a connection string too), an HTML-escaped placeholder, a shell variable between the
  // strings it joins, a concatenation's code between two strings, a quoted route or
  // redirect path, a format's conversion or a batch file's variable as a flag's value.
  'this.addPassword = "#add-password";\ntext << "Password=#{password}, "\n"password": "#{password}"',
  `"server=(#{datastore['DBHOST']});pwd=#{datastore['DBPASSWORD']}"\n"password": "&lt;YOURPASSWORD&gt;"`,
  `- echo 'export DATABASE_PASSWORD="'$PRECOMPILE_PASSWORD'"' >> .env`,
  `echo 'password = '.$p['config']['daemon_password'];\n"//localhost:1337/:_password = "+new Buffer("x").toString("base64")`,
  `  put '/forgot-password' => "cms/sites/passwords#update"\n"/en/3.0/creating-a-strong-password":"/en/server@3.0/auth"`,
  `cmd := fmt.Sprintf("sshpass -p '%s' ssh", pw)\nPsExec.exe \\\\host -u me -p %PASS% -i 2`,
  // After a token's, a key's or a credential's name, letters alone that look like a name
  // (a pagination config's field, a member's path, a variable), an id's code, a variable
  // named for a credential, an object's member that is a type's name, a format's field.
  '"input_token": "Cursor",\n"output_token": "PageList.NextCursor",\n"result_token": "offset"',
  "conn = connect(ca=ca, private_key=key)\nlogin(credential=creds, api_token=tok_value)",
  "  LATERAL_TOKEN_THEFT: T1550.001\n  CREDENTIAL_HARVEST: TA0006\n  API_KEY_LEAK: T1552",
  // After a vendor's name, a class named for the vendor; base64 of zeros after 21 `A`s.
  '  ("cohere2_vision", "Cohere2VisionConfig"),\n__all__ = ["Mistral3Model", "Mistral3PreTrainedModel"]',
  `${"A".repeat(70)}YAAAAB\n${"A".repeat(40)}P/5AAAAAAAAAA`,
  // Base64 of zeros inside a search index (after `/`).
  `"AAAAAAAAAAAAAAAAAAAAAAAADwAwB4+f//${"A".repeat(24)}8cAgAEAAAAAgD/gBwAAYAD+${"A".repeat(21)}kAgAEAbcDAAAAAAAAAAkAgAEAbcDAAAAAAAAAAxyzAB/AAgIAACA/wEAwAMAA"`,
  // A primitive type, a compiler's token stream, `EAA` inside base64 (after `+`).
  'const WILL_PASS: u32 = 0;\npub(super) token_stream: TokenStream,\nrn_("BQLAAACh22Gh3WFod6HBAQD9AEMAA+EAAgAbQABAAMAHADFADYAdwB5AJ8AxgDIAMoAzgDQANMA1QDYAOcA6QDsAO4A8QD3AP0A/MAK")',
  // A private type's name as an object's member, a file's name and a namespace after the
  // keyword, a variable named for a token, a URL's template, a service's host name.
  '"NextToken": {"shape": "__stringMin1Max64PatternS"}\nSERVICE_TOKEN_FILENAME = "/var/run/secrets/sa/token"\n_SECRET_NAMESPACE = \'acme:secrets#ns\'',
  '"enum": ["v1Token", "v2Token"]\npath = \'projects/{projectsId}/secrets/{secretsId}\',\n_SQL_SERVICE_TOKEN = \'sql-component.googleapis.com\'',
  // Long capitalized names after a token's name; a regular expression's named group.
  '      "output_token": "DistributionSummaryList.NextContinuationMarker",\n      "input_token": "ExclusiveStartBackupArn",',
  'm = re.match(r"^projects/(?P<project>.+?)/secrets/(?P<secret>.+?)/versions/(?P<v>.+?)$", p)',
  // A URN (OAuth's grant types) and a class named after the keyword's name.
  '    grant: Literal["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]\n    token_auth_class = OAuth2Auth',
  // A credential's word alone: a placeholder or a variable; a parser's token data.
  'connect("ws://h/?token=secret")\nexport_key(passphrase="secret")\ncfg = {"password": "password"}',
  '    this.currentToken.data = "[CDATA[";\n    nextLastSignificantToken = "?JSX";',
  // A password's other spelling as a variable, a lambda, a private name for a credential, a
  // call in an f-string's field or in a code span.
  "    mgr.add_password(realm=None, uri=u, user=user, passwd=password)\n    key = load(k, password=passphrase)",
  "    connect(cert, keyfile=key, password=lambda: ssl_password)\n    Creds: _convert_oauth2_credentials,",
  "    r += f\", secret='{base64.b64encode(self.secret).decode()}'\"\n    # cached token: `get_token()` may refresh",
  // A short password's keyword that a word of another kind follows names something else.
  "    pass_dict=patterns,\nreduce_node, pw_node = node_a, node_b\n_PW_MAGNET = 'Magnetic moment per atom'\nbackward_pass_mode = \"same_as_forward\"",
  // What is computed per token, an attribute's or a result's name after the keyword, a
  // negated call, an entry point's object reference, an f-string's item, a label's `:` that
  // closes its string, a type's name ending in the keyword.
  'per_token_loss = -torch.min(loss_a, loss_b)\ntoken_logps = -gather(logits, ids)\npw_attr="efficiency"',
  '  "pwd": "IPython.core.magics.osm:OSMagics",\n  "token": "acme.auth.tokens:TokenStore",',
  "raise Error(f\"could not get a token: `{result['error']}`\")\n  'Unexpected Pass:   ': self.unexpected,",
  "    token: JiraOauth2Token\n    api_key: ServiceApiKey",
  // A field's type annotation named `authorization`; a model's or an index's name after a
  // vendor's name.
  "    authorization: Optional[str] = None\n    authorization: Union[str, None] = None",
  "model = (\"openai\", \"text-embedding-3-large\")\ns.index('twitter-2024.01.01', 'twitter-2024.01.02')",
  // A tokenizer's special tokens, an f-string that interpolates, a symbol's subscript quoted
  // in prose, and a pass of an algorithm described.
  '"pad_token": "[PAD]",\n"mask_token": "[MASK]",\noov_token="[OOV]"',
  'barrier_token = f"merge-barrier-{token}"\nrefresh_token = f"rt_{secrets.token_hex(16)}"',
  "# split('user[:passwd]@host[:port]') --> 'user[:passwd]', 'host[:port]'",
  "    # Forward pass: per-channel rescaling of the weights",
  // A lazy import's map of relative module names, and an f-string's slices of a variable.
  '  "RotateAccessTokenRequest": ".rotate_access_token",\n  "SecretList": "..models.secret_list",\n  shown = f"{token[:4]}…{token[-4:]}"',
  // A file's name, and a usage line's lowercase metavariable.
  "  creds = my-service-account.json\n  -P, --passwd=file      read the accounts from file",
  // A variable named for a credential, one of its words a number (`_1_3`).
  '  "Lib_HAS_PSK_SUITES_1_3": lib_has_psk_suites_1_3,\n  SESSION_KEY_V2=session_key_v_2',
  '{"actor_token": "actor_token_1", "id_token": "id_token_2"}',
  // A link's text after a path that names a credential's tool; a compiler's pass.
  '<a href="https://crates.io/crates/cargo-credential-gnome3">cargo-credential-gnome3</a>',
  "cargo dev new_lint --name=foo --pass=late --category=style",
  // A call on a member's path longer than the value is held.
  "creds = service_account.Credentials.from_service_account_file(path)\ntokens = vendor.parser._internal.antlr3.CommonTokenStream(lexer)",
  // An ARN, a scoped name and a time after a vendor's name; a type's name as its object's
  // first member.
  "'VaultARN': 'arn:aws:glacier:eu-west-1:123456789012:vaults/logs'\nAWS_S3_REGIONAL = 'AWS::S3::UseRegional'",
  'AWS_REQUEST_TIME = "2021-03-04T05:06:07Z"\n"AwsEcsTask":{"shape":"AwsEcs2TaskDetails"}',
  "sign(encryption_key_sha1=encryption_key_sha1, x)\nself.use_k8s_token_auth = use_k8s_token_auth",
  '"sessionToken":{\n  "shape":"String1024",\n  "documentation":"…"}',
  'def mavenPassword = "{password}"\ntemplate = "token: {token}"',
  "const TOKEN_WORDS = /bearer|basic|digest/i;",
  // `kubectl describe serviceaccount` and `kubectl get secrets`: names of credentials, a type.
  "Mountable secrets:   default-token-x7k2p\nTokens:              default-token-x7k2p",
  "app-deploy-token    helm.sh/release.v1                    1      1h",
  // A password a tool masked (pip's index URL).
  "Looking in indexes: https://__token__:****@pypi.example.com/simple",
  // A test harness's results (Automake's `make check`, LLVM's lit): FTP's `PASS x` has no `:`.
  "PASS: tests/t0001-init.sh\nPASS: suite :: pass.txt (2 of 9)\nPASS: test_parser_01\n# PASS:  12",
  // A playground link's code, form-encoded after `?code=`.
  '<a href="https://play.example.org/?code=let+x+%3D+1%3B%0Aprintln!(x)%3B%0A&amp;edition=2024">Run</a>',
  // A build's filter tokens and Maven's artifact patterns; a dotted attribute value.
  "<token>@projectversion@</token>\n<include>com.example:lib:*:jar:*:tests</include>",
  '<include>org.example.web:*:*:*:test</include>\n<replacefilter token=".qualifier" value="x"/>',
  // After a quoted name and a `,`, a name or a name's assignment passed on, not a literal.
  "check(code='pass', exitcode=0)\nrun(\"while True: pass\", timeout=0.5)\nsetProperty('X_TOKEN', token)",
  // The same when the next name starts as a string's prefix would (`r`, `b`, `f`, `u`, `e`).
  "check(code='pass', retries=3)\ncheck(code='pass', user=bob1x)\ncheck(code='pass', exitcode=0)",
  // An Authorization that is another name's part, code, or a docstring's prose.
  "dnsAuthorization: A DnsAuthorization resource for the domain\nbinaryAuthorization: Optional.",
  "headers = {'Authorization': auth_token}\n'authorization': self._authorization(args),",
  "authorization: Required. Immutable. Policy for the cluster.",
  "binary_authorization: vendor_settings.BinaryAuthorization = proto.Field(",
  // Flags whose value is a word, a phrase, a placeholder or a file.
  'tool --token "bearer" --password "Enter a password" --password "%s1" --password-file /etc/pw1',
  // A short value, code naming both, and a `value` in another object.
  '{"keyName": "key1", "value": "short"}; const keyName = "x"; const value = compute();',
  '{"keyName": "k"}, {"value": "Lk6Xb+FLfvl6gGPGDivnsvGs2JM1zb5T/UxGTH8tW4L1VZ1DHxHKO2cT2BErOpmND5008n"}',
  // A CI log's cache keys: a lowercase word before a label's `key:` is prose, not a name.
  "Cache restored from key: Linux-node-modules-5f1d3c2a9b8e7d6c5b4a39281706f5e4\nRestore key: v1-deps-4f5e6d7c8b9a0f1e2d3c",
  "action key: 4f3a2b1c9d8e7f6a5b4c3d2e1f0a9b8c; Using key: 4f3a2b1c9d8e7f6a5b4c3d2e1f0a9b8c",
  // `auth` naming a method or a flag, a longer name, a value that is no random token.
  '"auth": true, auth: basic, oauth=Zq8vLm2xQw9rTy6uIo3p, auth_method=a1b2c3d4e5f6a7b8c9d0e1f2, auth=user42abcdefghijklmn',
  // `pat` as a pattern, a value that is no random token, a longer name.
  "pat = re.compile(r'\\d+'); pat: \"%Y-%m\"; pat='user42abcdefghijklmn'; pattern=Zq8vLm2xQw9rTy6uIo3p",
  // A generic type in a declaration file.
  "token_methods_supported: z.ZodOptional<z.ZodArray<z.ZodString>>;",
  // A message queue's routing key, an app's name as its key, a scheme with no token.
  'routing_key: orders.created.v2; appKey: "com.example.app"; token: bearer; token: Bearer auth',
  // A table's primary key: a column's name, a flag, SQL.
  'primaryKey: "id", primary_key = user_id, {"primaryKey": true}, PRIMARY KEY (id), secondaryKey: "email"',
  // Member paths whose parts have digits, none switching like a token's.
  "e.token=n.value; token=this.base64UrlEncode2; password = config.dbPassword2; token: v2.utf8Bytes",
  // Negations in minified code: a number, a name before an operator, a bracket.
  "token=!0,a=1;e.token=!1;token=!e||x;token=!e.t?1:0;password=!(a&&b);token=!!x;enabled=!disabled",
  // Words that start like this stop's catalogue prefixes.
  "tr_dev_server started; sec-c-onfig; signkey-prod-missing; SCWRAPPERFUNCTIONS1; RGAPI-docs",
  // An uppercase digest that starts like a Salesforce org id, no `!` in it.
  `sha512=00D${"5E2A1B3C4D5E6F7A8B9C0D1E2F3A4B5C".repeat(4)}`,
  // WordPress's sample placeholder, a name inside a longer one, a short value, the name alone.
  "define( 'NONCE_KEY',        'put your unique phrase here' );",
  "define('MY_AUTH_KEY', 'z8#Km2!pQ9@vR4$tW6^yB1'); define('AUTH_KEY', 'short');",
  "$name = 'AUTH_KEY'; AUTH_KEY is used; define('LOGGED_IN_SALT', $salt);",
  // Vault's own words and settings around its keys: no key of 16 bytes, or no list of them.
  "Unseal Key: required\nRecovery Key 1: short\nUnseal Key 1 of 5 entered",
  'unseal_keys_b64: []\n"keys_base64": ["abc", "def"]\nmy_unseal_keys_b64: [Qm9v7Xk2LrT4aZ8pN1cW]',
  '"unseal_keys_b64": 5, "recovery_keys_hex": null',
  // A Jenkins secret's prefix without its body.
  "{AQAAABAAAAA} and {AQAAABAAdGVzdA==}",
  // One-letter JSON keys whose values are no key: short, worded, or a public member.
  '{"q": "search terms here", "p": 2, "d": "2024-05-01"}',
  '{"d":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}',
  '{"kty":"RSA","e":"AQAB","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86z"}',
  'x"d":"Qm9v7Xk2LrT4aZ8pN1cW6yH3jE5sU0gB9dF2vK7oMiQ"',
  // An `auth` that names a method, or is base64 of no `user:password` pair.
  '{"auth": "jwt", "mode": {"auth": "basic"}}',
  '{"auth":"dGhpcyBpcyBub3QgYSBwYWly"}',
  // An attribute that names a password, before text that is no token.
  '<label for="password">Password</label><entry key="db.password">changeme</entry>',
  // Cookies that carry no credential, and code that only names one.
  "document.cookie: x=1",
  "Set-Cookie: id=a3fWa; Expires=Thu, 21 Oct 2021 07:28:00 GMT",
  "curl --cookie cookies.txt --cookie-jar jar.txt https://x",
  "cookies: enabled",
  "q=password%3D%24%7BPW%7D&token%3Dabc&x=encodeURIComponent('api_key%3D')",
  // Escaped quotes around a label, a mask, a placeholder, nothing, or no closing quote.
  "{&quot;password&quot;:&quot;Password&quot;,&quot;token&quot;:&quot;********&quot;}\n{\\u0022apiKey\\u0022:\\u0022%API_KEY%\\u0022,\\u0022secret\\u0022:\\u0022\\u0022}\n{&quot;secret&quot;:&quot;s3cr3t-Value is",
  "password%22%3A%22%24%7BPW%7D%22 token%22%3A%22%22\nDim password As New SecureString()\nthe password as plain text",
  "a boundary is read through `%XX` (token%3Dghp_…); see above",
  "the password is required; Password is too short; if password is None: pass",
  "password is: string, token is 3, password is set to default",
  "the request was identified by the server",
  "Load a dynamic library identified by 'name'; password 'secret' will be sent",
  "each row is identified by uuid4 values; each key identified by sha256 digests",
  "peek_9c41f0a27be35d86e1c9a2b7f03d58e6 week_ek_0123456789abcdef0123456789abcdef0 ek_abcdefabcdefabcdefabcdefabcdefab",
  'usePAT = true; myPAT: "%Y-%m"; env.PATH = "/usr/local/bin:/usr/bin"; isPATCH = "a1b2c3d4e5f6a7b8c9d0"',
  "the user identified by bob42x in the log",
  "Set password for the account = 'abc' in the form; SET PASSWORD FOR 'bob'@'%' = '${PW}';",
  "SET PASSWORD FOR x; SET PASSWORD FOR 'a'@'b' (the account's); set password for bob = 'changeme' ;",
  "ALTER USER x PASSWORD '$" +
    "{PW}'; ALTER USER y PASSWORD NULL; CREATE USER z IDENTIFIED BY :pw;",
  "CREATE USER q WITH PASSWORD ''; ALTER USER w IDENTIFIED BY VALUES ''",
  // A name and a value as two arguments, the value no header's (no scheme) or no literal.
  'throw new Error("Authorization", "failed"); h.Set("Authorization", token); f("Authorization", "Bearer")',
  'Authorization token expired\nAuthorization "failed"\nproxy_set_header Authorization "Bearer $token";\nproxy_set_header Authorization $http_authorization;',
  "password 0 attempts left; password 7 days; the password 0 is wrong",
  "10.0.0.5:5432: connection refused; listening on 0.0.0.0:5432: ok; a:*:b; db:5432:app:u:a:b",
  '<input name="password" type="password"><label for="password" class="x">Password</label>',
  '<setting name="ApiKeyUrl" serializeAs="String"><value>https://x</value></setting>',
  'the password is "required"; the password is "too short"; the password for root is wrong',
  "password for the database is stored in vault; Forgot password for your account? It is easy",
  "Password for user bob: changed successfully\nPassword for the postgres user: hunter2\nEnter password for root:\n",
  '{"datadog": {"site": "datadoghq.com0123456789"}, "twilio": {"enabled": true}, "sentry": {"region": "us1-0123456789abcdef"}}',
  'password = ""; token = \'\' # none; x = {"password": "", "y": 1}; password=""""',
  'password "required"; Password "must be 8 chars"; validates :password, presence: true',
  "password <- getLine; token <- ch; if (password < 8) x; password <= 8",
  // Bundler settings that are no host's credentials, or values without a user and a password.
  'BUNDLE_PATH: "vendor/bundle"\nBUNDLE_BUILD__NOKOGIRI: "--use-system-libraries:x"\nBUNDLE_JOBS=4',
  'BUNDLE_MIRROR__HTTPS://RUBYGEMS__ORG/: "https://m.example.com"\nBUNDLE_LOCAL__RACK: "/u/rack:x"',
  "BUNDLE_GEMS__X__COM=justtoken1 BUNDLE_GEMS__X__COM:a:b XBUNDLE_GEMS__X__COM=a:b BUNDLE_X=a:b",
  // A quoted argument with a blank, too short, a placeholder, or no `;` right after it.
  'password "Enter a password"; token "abc"; token "$x"; password "Vq7p!Lm2x" ; secret "a!b"',
  // Field names in a list, a word, a phrase: no literal a secret is set to.
  'fields = ["password", "confirmation"]; ["token", "secret"]; put("password", "required")',
  'validate("password", "Enter your password"); rename("api_key", "api-key-old")',
  // Change logs: config.guess's case patterns (no .pgpass line: a field's `*` stands alone,
  // no password starts with a blank), an empty flag value, `Pass` the verb, a placeholder,
  // a source file's name, an OpenPGP key's fingerprint.
  "\t* config.guess (mips:*:4*:UMIPS): New case.\n\t* config.guess (pc:*:*:*): Return i586-pc",
  'gpg: The option --passphrase= can be empty. Pass "GUILE_AUTO_COMPILE=0" to avoid; Pass v4l2_pix_fmts',
  "a series of token=value; contrib/git-credential-gnome-keyring.c: *style* use",
  "  * Add new upstream signing key 19882D92DDA4C400C22C0D56CC2AF4472167BE03",
  // Usage lines' metavariables (gcloud's manuals, argparse), cut by a manual's hyphen, a
  // cloud resource's name, a name after a keyword and a blank.
  "--encryption-key=ENCRYPTION_KEY --oauth2-client-secret=OAUTH2_CLIENT_SECRET [--password=PASS\u2010",
  "--private-key=LOCAL_FILE_PATH --etcd-backup-encryption-key=KEY --password=PASSWORD",
  "[--disk-encryption-key=DISK_ENCRYPTION_KEY : --disk-encryption-key-keyring=DISK_KEYRING]",
  "--secret=projects/my-project/secrets/my-secret/versions/2; to operate on user creds creds-name-1:",
  "LoadCredential=/SetCredential= (see systemd.exec(1) for details).",
  // A signing key that is no literal (a variable, the environment), a literal message.
  'jwt.sign(payload, privateKey, { algorithm: "RS256" }); jwt.verify(t, process.env.JWT_SECRET); hmac.new(key, b"message", sha256); hmac.new(bkey, msg)',
  // A path as a call's first argument; names of a token's status or a message about it.
  "readFile('/etc/passwd', 'utf8', callback); open(\"/run/secrets/api_token\", \"r2\")",
  'OriginTrialTokenStatus = "Success"; [options.invalidToken.message="Unauthorized"]',
  'password_msg: "Wrong password!1"; token_status: "expired1"; TOKEN_STATE=revoked_2',
  // A syntax highlighter's styles and lexer (colours, an enum's members, patterns in raw
  // strings, arguments passed on by name), an authorization scheme as a default.
  'Token:              \'#ffffff\',\n    Token.Comment: "italic #A3AAB2",\n  Token.String.Escape: "bold"',
  "jsonnet_token = r'[^\\W\\d]\\w*'; _token_terminator = r'(?=\\^?[%s]|[%s%s])' % (_ws, _nl)",
  "def f(c, _core_token=_core_token, _stoken=_stoken): ResourceEndpoint(default_token='Bearer')",
  // Messages after a token's name (TypeScript's translated diagnostics), a type named after
  // one, a long name naming one, a compiler pass's argument.
  '"Unexpected_token_1012": "Neo\u010dek\u00e1van\u00fd token", "Unexpected_token": "Unexpected token"',
  '"x_token_here_1007": "\u5206\u6790\u5668\u9884\u671f\u201c{0}\u201d\u3002"',
  '"x_pass_for_module_1_using__6140": "Il rilevamento automatico per le defizioni di tipi e abilitato"',
  '"Storage.deletePrivateVerificationToken": Storage.deletePrivateVerificationTokenParameters;',
  'export type TrustTokenOperationType = "Issuance"|"Redemption"; --pass-arg=asyncify-imports@env.x',
  "Address6.fromWildcard('2001:db8:*:*:*:*:*:*').subnet;  // '/32'",
  // A package's version in dpkg's and apt's lists, Perl's patterns and scoped names, a path
  // and a module after `-u`, a header's name as the value of a choice, code in backticks.
  "apt\tpasswd\t1:4.13+dfsg1-1+deb12u1\nii  passwd  1:4.13+dfsg1-1+deb12u1 amd64  change password data",
  "my $Token = qr/[\\x21\\x23-\\x27]/; 'Pod::Simple::PullParserEndToken'=> undef,",
  "git add -u :/ && perldoc -u Some::Modulename",
  "my $header = $mode eq 'proxy' ? 'Proxy-Authorization' : 'Authorization';",
  "the source argument for a token is `args[token.index]`.",
  // Tools' own output: `ssh -G`'s security-key algorithms, dpkg's conffiles (a path, then
  // its md5sum); documentation's placeholders after a flag, a SQL statement, Spring's
  // {noop} and MySQL's temporary password.
  "pubkeyacceptedalgorithms ssh-ed25519,sk-ssh-ed25519-cert-v01@openssh.com,sk-ecdsa-sha2-nistp256-cert-v01@openssh.com",
  " /etc/pam.d/chpasswd 9900720564cb4ee98b7da29e2d183cb2\n /etc/pam.d/passwd eaf2ad85b5ccd06cceb19a3e75f40c63",
  "net user NAME PASSWORD; gh secret set --body X --from-literal; ssh-keygen -N \"\", sshpass -p '')",
  "(sshpass -pX, rabbitmqctl add_user's password)",
  'IDENTIFIED BY "\u2026" (password={noop}..., "{noop}...") for root@localhost: X)',
  // A dependency's version range, ABNF quoted in a comment, a tokenizer's states, a function.
  '"@esfx/canceltoken": "^1.0.0", "csrf-token": "~2.1.x", "x_token": ">=3.0.0-rc.1"',
  " * token         = 1*<any CHAR except CTLs or separators>\n * token = 1*tchar",
  'lastSignificantToken = "?InterpolationInTemplate"; jsTokens_1 = function*(input, {jsx}) {',
  // Lists of names, one a line (pygments' lists of PHP's functions).
  "    'openssl_x509_check_private_key',\n    'openssl_x509_checkpurpose',\n    'x_lob2_bind',",
  "  'cubrid_lob2_bind',\n  'cubrid_lob2_close',\n  'curle_ftp_user_password_incorrect',\n  'curle_ftp_weird_227_format',",
  // A keyword as a value, then the mapping's next key (Google's service account file).
  '{"a": "token",\n  "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs"}',
  '{"log":"{\\"a\\": \\"token\\",\\n \\"client_x509_cert_url2\\": \\"x\\"}"}',
  // Plurals: settings, counts, short or unmixed words, ARNs and resource paths.
  '{"credentials": "include", "tokens": 4096, "max_tokens": 128} secrets: inherit tokens=abc123',
  '"secrets": "arn:aws:secretsmanager:us-east-1:123:secret:x1", "tokens": "cl100k_base"',
  // A Secrets Manager ARN: `secret` is a field of it, the name after it is no secret.
  "SecretId: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf1",
  '"ARN": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:MyTestSecret-a1b2c3"',
  '"secrets": "projects/123/secrets/db-pass/versions/1" passwords = ["a", "b"] tokens: 12345678901234567',
  // Comparisons with code, an empty string, a keyword a lexer compares its token with.
  'if (password != null && token !== undefined && pw == other) {} if (token == "")',
  'if token == "return" {} if (token === "if-else") {} secret == "a b c1"; password=="x1"',
  'if (token.equals("return") || password.equals(confirm) || password.equals("")) {}',
  // Code and docs from C headers and declaration files: an enum member's number, a path, a
  // generic type, a kernel-doc description, a macro's other name, a minified variable.
  "  IMAGE_REL_I386_TOKEN = 0x000C,\n  U_UNEXPECTED_TOKEN=0x10100,\n  _S_token_unknown = -1u\n  GNUTLS_MASTER_SECRET = 1<<1,",
  'random_device(const std::string& __token = "/dev/urandom"); secret: ~/.ssh/id_rsa',
  "progressToken: z.ZodUnion<readonly [z.ZodString, z.ZodNumber]>; Schema: z.ZodObject<{",
  " * @GNUTLS_BAG_SECRET: PKCS-12 bag with secret PKCS-9 keys.\n * @FOO_TOKEN: Non-zero token",
  "#define ed25519_sha512_set_private_key nettle_ed25519_sha512_set_private_key",
  "keepSourceTokens&&(y.srcToken=l); Pass *ResultPass = Resolver->getAnalysisIfAvailable(PI);",
  // A phrase or a path that names the keyword; an include after an element-like `<…_token>`.
  `"Unexpected_token_1012": "Token inesperado.", "token": "Unexpected token.", paths: ['*.*.password', '*.*.*.password']`,
  "#include <stop_token>\n#include <semaphore>\nXMLSEC_EXPORT xmlSecOpenSSLTransformHmacSha224GetKlass(void);",
  // HTML's one-letter access keys, module versions, messages that name the keyword, bundled
  // JavaScript and CSS (a template literal's word, a minified variable, an enum, a selector).
  "<a accesskey=\"n\" href=\"dist.html\"> 'Test2::Event::Pass' => '1.302199', PWD=/Users/Me/src",
  '<span class="token">v1.2.3</span> token: v2.0.1b',
  '"Unexpected_token_1012": "Token inesperado.", "token": "Unexpected token.", {token:`linkified`}',
  'r.pos=0,r.addToken=wn,Ge(e); t[t.OpenBraceToken=1]="OpenBraceToken"; .gist-secret:before{content:"x"}',
  "export type OAuthTokenRevocationRequest = z.infer<typeof OAuthTokenRevocationRequestSchema>;",
  // Docstrings (reST fields and roles), code passing a constant or a member of `self`; four
  // words are no token.
  "    :type passphrase: :py:data:`bytes`\n    :param refresh_token: REQUIRED.  The refresh token",
  "nid_key = self._lib.NID_pbe_WithSHA1And3_Key_TripleDES_CBC; f(default_token_placement=AUTH_HEADER, x)",
  'Pass :meth:`peek` a default value; {"token_help": "Paste it here to deploy apps"}',
  // Terraform variables: one not named for a secret, an interpolation, a nested block's
  // argument, a default outside the block.
  'variable "region" {\n  default = "eu-west-1"\n}\nvariable "db_password" {\n  default = "${var.x}"\n}',
  'variable "api_token" {\n  validation {\n    default = "x1y2z3"\n  }\n}\nvariable "db_password" {}\nx = { default = "Zq8vLm2R!x" }',
  // `sonar.login` with a user's name (older SonarQube servers), a longer key.
  "mvn sonar:sonar -Dsonar.login=admin; sonar.login.hint=abc123",
  "CC_TEST_REPORTER_ID: ${{ secrets.CC_TEST_REPORTER_ID }}",
  "<password>my password here</password> <token>${TOKEN}</token> <secret>{acme AQAAABAAA short}</secret>",
  // A password element's text that is a template, a placeholder or a note.
  "<password>{{ vault_password }}</password> <password>&lt;changeme&gt;</password> <Password>[set by installer]</Password> <password>%(db_password)s</password>",
  "usage: login <token> <host>; <section>a1b2c3d4e5f6g7h8i9j0k1</section>",
  "helm install --set key=value; cache key=3b1f9a8c2d7e6f5a4b3c2d1e0f9a8b7c; sort key=a1b2c3d4e5f6g7h8i9j0",
  "Restore key = node-cache-Linux-x64-8f2c1e9a7b3d5f; cache key = 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  "Using key: /home/u/.ssh/id_ed25519; using key=ABCDEF0123456789",
  'password = "%s"; password: "%(pw)s"; password="%-12s"; password: %{pw}\nset PASSWORD=%DB_PASSWORD%',
  "Cache restored from key: node-cache-Linux-x64-npm-8f2c1e9a7b3d5f4e2a1c\nCache saved with key: Linux-pip-3b1f9a8c2d7e6f5a4b3c\naction key: Space",
  "headers['Authorization'] = 'Bearer ' + token; h['Authorization'] = auth_header; h['Authorization'] = `Bearer ${token}`",
  'h["authorization"] = "GoogleLogin Auth=" + self.auth; h["Authorization"] = "Basic %s" % creds',
  'h["authorization"] = \'WSSE profile="UsernameToken"\'',
  // Long names of letters alone: camelCase, PascalCase with acronyms.
  "token: getUserPasswordFromEnvironment\nsecret: XMLHttpRequestEventTargetURL\npassword = HTMLInputElementValue",
  // An IPv6 wildcard is no `.pgpass` line: its last field holds no letter or digit.
  "Address6.fromWildcard('2001:db8:*:*:*:*:*:*'); Address6.fromWildcard('*:*:*:*:*:*:*:*')",
  // C constants named after a keyword (PKCS #11's `CKO_SECRET_KEY`): a number, not a value.
  "#define CKO_SECRET_KEY 0x00000004UL\n#define CKA_PASSWORD 0x0000011BUL\n#define TOKEN_MAX 1024u",
  // Words joined to a keyword by hyphens, a generated name that goes on, a file name, a
  // run that is not random; `secret_key` with words after it.
  "app-secret-7d9f8b6c5d-x2k9p secret-rotation-policy token-refresh-interval-in-seconds",
  "acme-secret-k3j9x2m7q4w1z6c5v0b8n2l5h7-suffix acme-secret-k3j9x2m7q4w1z6c5v0b8n2l5.yaml",
  "acme-secret-abcdefghijklmnopqrstuvwxyz123456 password-reset-confirm private-registry-mirror-01",
  "secret_key is required; secret_key must be set; secretKey string; secretkey: str",
  // A getter's result used, not compared with a literal; a call with arguments; `=` after it.
  'x = getPassword(); y = getPassword() + "a1"; getToken().trim(); z = hashPassword(pw) == "Vq7p!Lm2x"',
  'getPassword() = "Vq7p!Lm2x"; if (getToken() == "return" || getPassword() != null) {}',
  "if (getPassword().length == 12 || getToken() == other) {}",
  // The literal first: a keyword, an empty or short string, a placeholder, a name that is
  // no secret's, a call or a subscript after it.
  'if ("return" == token || "" == password || "a1" == pw || "$PW" == password) {}',
  'if ("Vq7p!Lm2x" == username || "Vq7p!Lm2x" == hashPassword(x) || "x1y2" == password[0]) {}',
  '"Vq7p!Lm2x".equals(getPassword(x)); "Vq7p!Lm2x".equals(password + 1); ("a b c1" == token)',
  'const x = process.env.X_PASSWORD || "x1y2"; password |= 2; token || "abc123"; pw?.x',
  'password[i] = c; char password[MAX] = "Vq7p!Lm2x"; passwords[0] = "x"',
  'password: string; token: string = ""; password: string = getPassword(); secret: str = req.body.secret',
  // A credential call whose password is no literal, a placeholder or missing.
  'DriverManager.getConnection(url, user, System.getenv("PW")); server.login(user, password)',
  "jdbc:oracle:thin:@//db:1521/XE jdbc:oracle:thin:scott@db jdbc:oracle:thin:scott/%PW%@db",
  'get(u, auth=(user, password)); oauth=(1, 2); [\'auth\' => [$user, $pass]]; auth=("u", "")',
  'server.login("me@example.com", os.environ["PW"]); x.login("bob"); login("a", "b")',
  'new NetworkCredential("mailer", "%s"); new NetworkCredential("mailer", "<password>")',
  'new MyDirectoryEntry("a", "b", "c"); mysqli_connect("localhost", "root", "", "app")',
  // A setter's literal with a blank is a message; a bare Token is a lexer's.
  'form.setPassword("Enter a password"); lexer.setToken("IDENT"); x.setPassword(hash)',
  'func (u *User) SetPassword(p string) error { return u.SetPassword("Enter a password") }',
  '{"sensitive": true} {"value": "kept: the object closed"}',
  // A login name with an empty password: not shaped like a token.
  "curl -u deploy-bot-01: https://x",
  "curl -u Deploy01: https://x",
  "TOKENIZERS_PARALLELISM=false",
  "PASSWORD_MIN_LENGTH=12",
  '"tokenCount": 1834',
  "token_url: https://auth.example.com/oauth/token",
  "credentialsProvider: default",
  'secret := strings.Trim(os.Getenv("APP_SECRET"), " ")',
  "export type SecretLintSourceOptions = {",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder, on purpose
  "API_TOKEN=${API_TOKEN}",
  "SECRET_KEY_BASE=$SECRET_KEY_BASE",
  "password: <your-password>",
  "DB_PASSWORD=***",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a CI placeholder, on purpose
  'token = "${{ secrets.GITHUB_TOKEN }}"',
  "password = req.body.password",
  "token = await getToken()",
  "password: string;",
  "the --token flag takes a value",
  "ALGOLIA_APP_ID=ABCDEF1234",
  // A vendor's YAML block: an id child, and a child that is not indented, are no values.
  "zoom:\n  id: 3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e5f",
  "segment:\nkey: 3f9a1c0e5b7d2a4c6e8f0a1b2c3d4e5f",
  "AWS_REGION=us-east-1",
  // Name/value pairs whose value is no secret: a reference, a placeholder, a path, another
  // key than `value`, another list item, and a word after the line break.
  "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a CI placeholder, on purpose
  "- name: GITHUB_TOKEN\n  value: ${{ secrets.GITHUB_TOKEN }}",
  '- name: VAULT_TOKEN\n  value: "{{ vault_token }}"\n- name: PASSWORD_FILE\n  value: /run/db',
  "- name: DB_PASSWORD\n  description: the database password, 12 characters",
  "- name: DB_PASSWORD\n- value: Vq7pLm2xZ9wR",
  "read -s password\necho value: Vq7pLm2xZ9wR",
  '{"name": "DB_PASSWORD", "required": true, "value": "Vq7pLm2xZ9wR"}',
  '{"name":"tokens","value":12} {"name": "SECRET_NAME", "value": "db-creds"}',
  "<name>db.password.file</name><value>/etc/db.pw</value>",
  "self._auth = auth; this._auth = options.auth || null; def _authenticate(self): _author=x1y2z3",
  "password sha256WithRSAEncryption is used; token x509CertificateV3 here; api_token Ab12cd34 now",
  // A public key, an id, or prose after a vendor's name and a word.
  "algolia search key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  "the algolia admin panel shows 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  "datadog org id key 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  // Another escaped character after a keyword, and a placeholder after an escaped `=`.
  '{"h":"password\\u003cbr\\u003e","q":"api_key\\u003d\\u003cyour key\\u003e"}',
  // Keys that are no secret (a cache's, a table's, random or not), another word ending in
  // the qualifier (its value not random), an id or a file of a secret key, no token.
  "CACHE_KEY=user42abcdefghijklmn; partitionKey: tenant1a2b3c4d5e6f7g8; sortKey=created9abcdefghij",
  "cacheKEY=a1b2c3d4e5f6a7b8c9d0e1f2 xKEYS=a1b2c3d4e5f6a7b8c9d0e1f2 shodanKEY=hello",
  "CACHE_KEY=a1b2c3d4e5f6a7b8c9d0e1f2; storageKey: 'theme-preference-v2'; GPG_KEY=0A1B2C3D4E5F6A7B",
  "xlicense_key=Vq7pLmxZwRtWyZab1234 license_keys=Vq7pLm2xZ9wR4tW6yZ3a",
  "LICENSE_KEY_ID=Vq7pLm2xZ9wR4tW6yZ3a\nclient_key: /etc/ssl/private/client.key",
  "SESSION_KEY=session appKey: process.env.APP_KEY jwtKeyword=Vq7pLm2xZ9wR4tW6yZ3a",
  // Prose: a public key, another word before `key`, no `:` after the words, YAML's `key:`.
  "Public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIXk9\nthe kernel key: linux-image-6-amd64",
  "the license key is Vq7pLm2xZ9wR4tW6yZ3a\n- key: app\n  operator: Exists",
  // PowerShell: a cmdlet assigned, and a parameter that is no SecureString's value.
  "$password = Read-Host -AsSecureString; token = ConvertTo-Json $x",
  '{"Name": "/app/region", "Type": "String", "Value": "eu-west-1"}',
  // Block scalars whose text is prose or a placeholder, or not indented, and a shell pipe.
  "secret: >\n  This secret signs the session cookies\ntoken: |\n  {{ .Values.token }}",
  "password: |\nVq7pLm2xZ9wR\npassword: | cat x1y2z3w4",
  // `net` without a verb that takes a password, or a prompt for it.
  "net start spooler; netstat -an; dotnet run; net use Z: \\\\fs\\s * /user:bob",
  "kubectl create configmap c --from-literal=LOG_LEVEL=debug1; gh pr create --body text1",
  // A ConfigMap's `data:` (plain values: the first ends the block), a name that ends in
  // `data:`, SOPS's ciphertext in `stringData:`.
  "kind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n  user: YWRtaW4=\nmetadata:\n  x: YWRtaW4=\nstringData:\n  db: ENC[AES256_GCM,data:O+5l4g==,type:str]\n",
  // A ConfigMap in JSON (its first plain value ends the object), an API's other `data`
  // object (GraphQL's node ids are base64 of text), another kind's `apiVersion`.
  '{"apiVersion":"v1","data":{"LOG_LEVEL":"debug","user":"YWRtaW4="},"kind":"ConfigMap"}\n{"data":{"node":{"id":"VXNlcjox"}}}\n{"apiVersion":"apps/v1","data":{"x":"YWRtaW4="}}',
  // A parenthesized expression after a keyword is no tuple.
  'password = (x + y)\ntoken = (get_token() or "x")\npassword = ("a" + "b")',
  // A value before an attribute that names no secret, or that is a placeholder; a
  // comparison's `>`.
  '<input value="Wp4!zQ8rLm2x" type="text" name="username">\n<a title="Wp4!zQ8rLm2x" name="password">\n<x value="${PASSWORD}" name="password"/>\nif (password > 8) {}',
  // A dash after the name that is no separator, or a value after it that is no token.
  "password - required\ntoken -= 1\ntoken - 'abc'\nthe token - the one you made\nPassword -- see docs",
  // A client id's run that is part of a longer name; a digest after a storage key's name.
  "x-318273645091-q7w2e9r4t1y6u3i8o5p0a2s7d4f9g1h6.apps.googleusercontent.com",
  "account key (sha512-3B2bsv0dNgyfLsL5vkNOKIuxnUDa1KPxgSpn01uOKsVKUUsSXRHIhCM9Of5RQiNulCHSU7HaTck9sdF7aa6gXQ==)",
];

/** Text that must come through unchanged. */
const BENIGN = [
  // A base64url digest in which a token's prefix follows a `-` (a wheel's RECORD lines).
  "pkg/util.py,sha256=Xr7Q-fw_Kd82LmQpZt4VbN1sHyC6gJwR3eTu9aOi5kE,2048\npkg/x.py,sha256=b2Yk-ghp_Zt4VbN1sHyC6gJwR3eTu9aOi5kE7Q2mLp9,88",
  "the datadog key rotation ran\nrotate the Mailjet key weekly\nMailjet keys: 2",
  "secret key rotation\nthe secret key: see vault\nsecret key bytes\nSecret key: $SECRET_KEY",
  'headers["X-API-Key"] = apiKey; h["X-Auth-Token"] = os.environ["TOKEN"]',
  // Spring's `{noop}` with no password after it, or inside a word.
  "the {noop} prefix stores a password as it is: {noop} x{noop}abc",
  // A pipe after a keyword that is a shell's, and a cell that holds a word or prose.
  // `var_dump` of a value that is no string.
  '  ["password"]=>\n  NULL\n  ["token"]=>\n  int(5)\n',
  // A help text's columns: a flag's type or a description after the name's padding.
  "  -p, --password string                 Password to log in with\n  token                                 The API token to use\n",
  // A list's item that is a mapping or a word, after a keyword's line.
  "imagePullSecrets:\n  - name: regcred\ntokens:\n  - default\nsecrets:\n  - secretRef:\n      name: db\n",
  // A header's name with prose, a line without a list's `-`, or a placeholder, after it.
  "Authorization:\n\nthe next paragraph - Basic rules\nAuthorization:\n  Basic abcDEF123ghiJKL456\nAuthorization:\n- Bearer ${TOKEN}\n",
  // A bracketed name that is a link's text, or a print_r of a nested array.
  "see [password](https://example.com/docs) for the rules\n[password]: reset it\n    [password] => Array\n",
  // A value piped to a command that does not read a password, a variable, a placeholder,
  // `||`, words after the value.
  "echo 'Vq7pLm2x!Z9w' | base64\necho \"$REGISTRY_PASSWORD\" | docker login --password-stdin\necho PASSWORD | docker login --password-stdin\necho 'Vq7pLm2x!Z9w' || sudo -S true\necho build done | sudo tee /x\nmyecho 'Vq7pLm2x!Z9w' | kinit",
  "cat password | sha256sum | tee x\necho $password | base64 | x\n| password | yes |\n| api_key | Your key | x |\n| SECRET_KEY | cache |\n| secret_key | SecretKeySpec |",
  "type Input = Token | Uint8Array | string;\nalgorithm: AesKeyGenParams | HmacKeyGenParams | Pbkdf2Params,",
  "password set to expire in 30 days\npassword was changed to meet policy\ntoken has been set to default",
  // A session parameter without an id in it.
  'url = "/cart;jsessionid=" + id;\nGET /x?sessionid=expired&y=1',
  // What a tool says of a credential it made, where no random value follows; names that
  // say when it was made.
  "Token created: 2024-05-01T12:00:00Z\nSecret created: projects/123/secrets/db-pass\nAPI key created: 3 keys\nToken generated: in 5ms\npassword generated: hunter2hunter",
  "ACCESS_TOKEN_CREATED: 2024-05-01\ntokenCreated: 1714564800\npassword_updated_at=1714564800\nTOKEN_ISSUED=2024-05-01T12:00:00Z",
  "REST_API=enabled USE_API=v2 PUBLIC_API=https://api.example.com/v1 x_api_version=2 GET /api/v1/x",
  "a password is generated for each user\nthe password is generated for root@localhost:",
  '<password value=""/> <apiToken value="$TOKEN"/> password value="abc123def456"',
  // A user that is a name, and a Sentry DSN's public key (32 small hex digits, public).
  "https://john.doe2024@example.com ssh://git@github.com/o/r https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/4",
  "Password for the elastic user is in the keystore\nnext\nPassword for the [elastic] user successfully reset.\nNewer value: x",
  // Objects named by a keyword that describe it: a JSON Schema, OpenAPI's security scheme, a
  // reference, a Mongoose schema; and a camelCase plural's plain value.
  '"password": {"type": "string", "minLength": 8}, "apiKey": {"in": "header", "name": "X-Api-Key"}',
  '"secret": {"$ref": "#/definitions/x"}\ntoken: { type: String, required: true }\n{"accessTokens": "Vq7pLm2xZ9wR4tW6yZ3a"}',
  // A secret's id that is no HashiCorp token: a name, an accessor, not a UUID.
  '"SecretId": "prod/db/password"\nsecret_id_accessor    3f0c5a8e-9b1d-4c2e-a7f6-0d3b8e1c4a92\nsecret_id=abc123def456ghi789',
  // camelCase names ending in `Pass` that are no password's, and values that are C++ or
  // JavaScript code: a call on a scope or an optional call, a cast, a scoped constant.
  "const renderPass = new RenderPass(scene, camera);\nisPass: true\nfirstPass = 0\nbypass=Vq7pLm2xZ9wR4tW6yZ3a",
  '"SigningKeyCertificateChain":\n  "NIICiTCCAfICCQD6m7oRw0uXOjANBgkqhkiG9w0BAQUFADCBiDELMAkGA1UEBhMC"\nSIGNING_KEY_FINGERPRINT=5F4DCC3B5AA765D61D8327DEB882CF99AB12CD34',
  'foo("password", "hunter2x", 1)\nFIELDS = ["password", "confirmation", "token_2fa_code"]',
  "smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd\n# rootpw is set below",
  'stripe "charge"\ndatadog "agent-7.2"\nheroku "my-app-name"\nuse datadog \'dd-trace\' here',
  "x = 1; token = next;\npassword = newPassword2;\nself.token = tokenValue;\n",
  // A placeholder, a format string's field, CloudFormation's reference, an empty password.
  'password = "{ password }"\nformat_password = "prefix_{}".format(x)\n"MasterUserPassword": "!Ref MasterUserPassword"',
  "MasterUserPassword: !Ref DBPassword\nindex-url = https://username:@pypi.example.com/simple\nmysql://root:@localhost/test",
  "run vault operator unseal three times\n$ vault operator unseal\nUnseal Key (will be hidden):",
  'Refreshing token:\n5f4dcc3b5aa765d61d8327deb882cf99 done\nToken:\n------\ntoken:\n{"a": 1}',
  "password:\n  changeme\ntoken:\n  value: Vq7pLm2xZ9wR4tW6yZ3a\nPassword:\n  This is prose of 2024\nsecret:\n${SECRET}",
  "compass=Vq7pLm2xZ9wR4tW6yZ3a OVERPASS=Vq7pLm2xZ9wR4tW6yZ3a\ndbpass=hunter2 OLDPWD=/home/me/src",
  "password = std::move(other);\ntoken = Token::Bearer1;\nPass *FP = static_cast<Pass *>(PassVector[N]);",
  // Rust's macros: a reference to an environment variable, a formatted string.
  'let token: &str = env!("API_TOKEN");\nlet api_key = option_env!("API_KEY").unwrap_or("");\npassword = format!("{}:{}", user, pw)',
  "Pass *ResultPass = nullptr;\nFSDiscriminatorPassword P = FSDiscriminatorPass::Pass1);\nokPass = this.opts.isEqual?.(a, b) ?? false;",
  "all tests pass\ntests pass: 12\nif ok: pass\npass = next\ncompass=north1 bypass=1 pass_through=yes",
  "openssl enc -aes256 -pass env:KEY_PASS -in f\nopenssl enc -aes256 -pass file:/run/pw -in f",
  "Enter your API key:\nset the API key in the settings page; the private key file is missing",
  // A flag value the table does not name a secret, a prompt, a command only mentioned.
  "docker run -p 8080:80 nginx\nmysql -u root -p app\nthe mysql server is up; zip -r a.zip d",
  "redis-cli -h cache -p 6379 ping\nsshpass -f ~/.pw ssh host\nopenssl rand -hex 16",
  "max_tokens=4096 input_tokens: 12 tokenizer=cl100k secretary: alice",
  "password:\nnext line",
  "if token == expected { } Token::Bearer",
  // A property of an object named after a keyword: code spaces its `=`, minified code
  // assigns names, and a dotted name's next word may say it is not the secret.
  "token.prev = prev1; e.token.value=n1; token.url=https1example; token.length=abc12345",
  "Loading private.key from /etc/ssl and api.key in the settings; see api.example.com",
  "ssh://git@github.com/org/repo.git and https://example.com:8443/path",
  "task-runner-for-the-pipeline sk-learn-compatible-estimator-thing",
  "AKIA is a prefix; ghp_ too; eyJ alone; npm_config_cache=/tmp",
  // Prose about a device's commands, a default community, a type with no value; prose
  // after `password` and a blank (an address, a hash's name, a URL).
  "the key-string command sets it\nsnmp-server community public RO\ntacacs-server key 7\npassword for root@localhost1\npassword hash sha256:abc123def",
  // A key's unspaced `:` before a name or a field (`redis_key:user:1234`), an ARN's fields.
  "redis_key:user:1234:session foo_key:bar aws:iam::123456789012:role/x",
  // A vault header with no payload under it, or a short first line.
  "$ANSIBLE_VAULT;1.1;AES256\nnot hex here\n$ANSIBLE_VAULT;1.1;AES256\nabc123\n",
  // `--key` with a path, a name, or a longer flag's name.
  "curl --key ./tls.key --cert x\ntool --key mykey\ntool --key-id 126d49fb3014bd26457471ebae97c625",
  // A list of words or variables after a keyword; a call's parameters that name things.
  'tokens = ["if", "else"]\napi_keys: [ $KEY ]\ntoken: [Token]\n{"method": "token.create", "params": ["my-token-name"]}',
  // A getter that returns no literal, or one that is no token.
  'if hasToken() { return "Bearer " + t }\nfunc getToken() string { return os.Getenv("TOKEN") }\ndef get_token(self):\n    return self._token\ngetPassword() { return "password"; }',
  // A ConfigMap with `kind` first, and a Secret's other objects than `data`.
  '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"app"},"data":{"LOG":"ZGVidWc="}}\n{"kind":"Secret","metadata":{"name":"a"},"data2":{"a":"Rk8henEyTHBXN3g="}}',
  // A secret's name in kebab case, small words one of which names a credential (a secret
  // store's key, a flag that names the secret to read).
  "gcloud secrets versions access latest --secret=db-password\n  remoteRef:\n    key: prod-api-token\n",
  // `AUTH` without a prompt before it, with three arguments, or with none.
  '> AUTH is required\n127.0.0.1:6379> AUTH a b c\n127.0.0.1:6379> AUTH\n(error) ERR wrong number of arguments\n"AUTH" "x" ok',
  // A format's field in a connection string (.NET's `{0}`, a template's `{password}`).
  'Server=x;User Id=sa;Password={0};\nconn = "Server=x;Password={db_password}"',
  // A server's list of SASL mechanisms and prose about them.
  "250-AUTH PLAIN LOGIN CRAM-MD5\nThe server offers AUTH PLAIN mechanism; AUTH PLAIN authentication failed",
  // A property's accessors with a body, a block after a name, an empty initializer.
  'public string Token { get { return _token; } }\npassword {\n  value = x\n}\npublic string ApiKey { get; set; } = "";',
  // A variable or a member path before a logical operator (minified code), and a fallback
  // that is no random token.
  'e.token=process.env.GITHUB_TOKEN||"x",f();var password=n.password||"";token=t&&t.value\nconst label = token ?? "Anonymous"; password || "changeme1"',
  // A secret store's reads, and a shell's variable where a flag's value goes.
  'aws secretsmanager get-secret-value --secret-id prod/db\naz keyvault secret show --name db --value-only\ndocker login -u bob -p "$DOCKER_PASSWORD" registry\naws ssm put-parameter --name /x --value "${DB_PASSWORD}"',
  "$pw = ConvertTo-SecureString -String $env:DB_PASSWORD -AsPlainText -Force\ndocker login -u bob -p $env:DOCKER_PW",
  // A dictionary after a plural whose values are names, paths or variables.
  'secrets = {"name": "db", "path": "/etc/app/db.conf"}\ntokens = {"prod": prod_token, "dev": dev}',
  // An element named for a secret that is empty, or whose child is no `<value>`.
  "<password></password> <secret><name>db</name></secret> <token><value>true</value></token>",
  '<password type="x"/> <password type="x"></password> <token name="a">some text here</token>',
  // `NRAL` ends a New Relic license key only after exactly 36 letters and digits.
  "GENERAL NRAL xeu01xxaa7460e1ea3abdfbbbd36e85c10cd0NRAL eu01xxaa7460e1ea3abdfbbbd36e85c10cd0NRALx",
  "Authorization failed for user bob",
  "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
  "plain log line: GET /api/v1/items 200 12ms über 日本",
];

const ALL_CASES = [...CASES, ...GRAMMAR];

/** Each case's lines that hold its whole secret and are redacted alone: `[rule, line, secret]`. */
function secretLines(cases: readonly (readonly [string, string, string, string])[]) {
  return cases.flatMap(([name, text, secret]) =>
    text
      .split(/\r?\n/)
      .filter((line) => line.includes(secret) && !redact(line).includes(secret))
      .map((line) => [name, line, secret] as const),
  );
}

describe("built-in rules", () => {
  it("covers every built-in rule name with a case", () => {
    // Catalogue formats have their cases in catalogue.test.ts.
    const covered = new Set([
      ...ALL_CASES.map(([name]) => name),
      ...PROVIDER_FORMATS.map((p) => p.rule),
    ]);
    for (const rule of BUILTIN_RULES) expect(covered, rule.name).toContain(rule.name);
    for (const rule of BUILTIN_RULES)
      if (rule.kind !== "literal") expect(rule.maxLength).toBeLessThanOrEqual(8192);
  });

  it.each(ALL_CASES)("%s: redacts %j", (name, text, secret, expected) => {
    const output = redact(text);
    expect(output).toBe(expected);
    expect(output).toContain(`[REDACTED:${name}]`);
    checkNoSecretPiece(output, secret);
    // Every byte through `next`, the skip fast path left out: the same output.
    const stepped = createRedactor(compiled, { skip: false });
    const out = [...stepped.push([Buffer.from(text)]), ...stepped.end()];
    expect(Buffer.concat(out).toString()).toBe(expected);
  });

  it.each(ALL_CASES)(
    "%s: keeps the line after it, raw and inside a string once or twice (%j)",
    (_name, text) => {
      for (let depth = 0, t = `${text}\n\nKeep this line`; depth <= 2; depth++) {
        expect(redact(t)).toContain("Keep this line");
        t = JSON.stringify({ log: t });
      }
    },
  );

  // A control byte ends a value or a word: `/proc/<pid>/environ`'s and `find -print0`'s NUL
  // between entries, a terminal's BEL, DEL and colours (raw, as `redactText` is given them).
  it.each(secretLines(ALL_CASES))(
    "%s: keeps what follows a control byte after %j",
    (_name, line, secret) => {
      for (const control of ["\u0000", "\u0007", "\u007f", "\u001b[0m"]) {
        const out = redact(`${line}${control}PATH=/usr/bin`);
        expect(out.endsWith(`${control}PATH=/usr/bin`)).toBe(true);
        checkNoSecretPiece(out, secret);
      }
    },
  );

  it.each(SETTINGS)("leaves a setting or code alone: %j", (text) => {
    expect(redact(text)).toBe(text);
  });

  it("keeps a PuTTY key's lines when the count is missing or zero", () => {
    for (const text of [
      "Private-Lines: 0\nAAAA\n",
      "Private-Lines: x\nAAAA\n",
      "Private-Lines:\nAAAA\n",
    ])
      expect(redact(text)).toBe(text);
  });

  it.each(BENIGN)("leaves benign text alone: %j", (text) => {
    expect(redact(text)).toBe(text);
  });

  it("catches a partial assignment split across chunks at every point", () => {
    const input = Buffer.from("X token=ghp_abc Y");
    expect(input.length).toBeLessThanOrEqual(17);
    let n = 0;
    for (const chunks of allChunkings(Buffer.from("token=ab1 Y"))) {
      checkRedactor(compiled, Buffer.from("token=ab1 Y"), chunks);
      n++;
    }
    expect(n).toBe(1024);
    expect(redact("token=ab1 Y")).toBe("token=[REDACTED:secret-assignment] Y");
    // A `;` before whitespace ends the value; one before anything else is part of it.
    for (const text of ["token=ab1; Y", "token=ab1;x Y"]) {
      for (const chunks of allChunkings(Buffer.from(text)))
        checkRedactor(compiled, Buffer.from(text), chunks);
    }
    expect(redact("token=ab1; Y")).toBe("token=[REDACTED:secret-assignment]; Y");
    expect(redact("token=ab1;x Y")).toBe("token=[REDACTED:secret-assignment] Y");
  });

  it("command-flag: a command name on the line ends the candidate before it (one a word)", () => {
    const rule = BUILTIN_RULES.find((r) => r.name === "command-flag");
    if (rule?.kind !== "matcher") throw new Error("command-flag is a matcher rule");
    const verdicts = (text: string) => {
      const cand = rule.start({ anchor: "mysql", length: 5, before: -1 })!;
      return [...Buffer.from(text)].map((byte) => cand.next(byte));
    };
    // `mysql mysql …`: the second name is its own candidate's; the first stops there.
    expect(verdicts(" mysql ").at(-1)).toBe(Verdict.Reject);
    // …unless it is the value a flag names: `sshpass -p mysql` has the password `mysql`.
    expect(redact("sshpass -p mysql ssh h\n")).toBe("sshpass -p [REDACTED:command-flag] ssh h\n");
    expect(redact("mysql mysql mysql -pS3cretPass1 db\n")).toBe(
      "mysql mysql mysql -p[REDACTED:command-flag] db\n",
    );
    // A value that is itself a command's name (or this command's) closes the candidate
    // there: that name's own candidate reads on, so a line of `sshpass -p sshpass -p …` holds
    // one candidate a command (it held one for every command before it: 0.1 MB/s).
    const sshpass = rule.start({ anchor: "sshpass", length: 7, before: -1 })!;
    expect([...Buffer.from(" -p sshpass ")].map((b) => sshpass.next(b)).at(-1)).toBe(Verdict.Close);
    expect(redact("sshpass -p sshpass -p S3cretPass1 ssh h\n")).toBe(
      "sshpass -p [REDACTED:command-flag] -p [REDACTED:command-flag] ssh h\n",
    );
    expect(redact("keytool -storepass keytool -keypass S3cretPass1 -v\n")).toBe(
      "keytool -storepass [REDACTED:command-flag] -keypass [REDACTED:command-flag] -v\n",
    );
  });

  it("redacts each cookie's value and keeps names, short values and attributes, however split", () => {
    const text =
      "Cookie: a=1; sid=Zx9Kq2Lm8Np4Rt6Vw3Yb; b=x\nSet-Cookie: t=Qw8Er7Ty6Ui5; Max-Age=3600\n";
    const expected =
      "Cookie: a=1; sid=[REDACTED:cookie]; b=x\nSet-Cookie: t=[REDACTED:cookie]; Max-Age=3600\n";
    expect(redact(text)).toBe(expected);
    checkEverySplit(compiled, Buffer.from(text), 3);
  });

  it("redacts an Ansible Vault payload's lines and a device's secrets, however split", () => {
    const text =
      "db: !vault |\r\n  $ANSIBLE_VAULT;1.1;AES256\r\n  6132336539393231363665663765613937396637\r\n  6136\r\n" +
      '{"cfg":"snmp-server community S3cretComm RW\\nkey-string 7 045802150C2E\\n"}\n';
    const expected =
      "db: !vault |\r\n  $ANSIBLE_VAULT;1.1;AES256\r\n  [REDACTED:ansible-vault]\r\n  [REDACTED:ansible-vault]\r\n" +
      '{"cfg":"snmp-server community [REDACTED:network-device-secret] RW\\nkey-string 7 [REDACTED:network-device-secret]\\n"}\n';
    expect(redact(text)).toBe(expected);
    checkEverySplit(compiled, Buffer.from(text), 7);
  });

  it("redacts a sensitive output's value of any shape and keeps the rest, however split", () => {
    const text =
      '{"a": {"sensitive": true, "type": ["object", {"p": "string"}], "value": {"p": "x\\"}"}},\n' +
      ' "b": {"sensitive":true,"type":"number","value":5432},\n' +
      ' "c": {"sensitive": false, "type": "string", "value": "keep"}}';
    const expected =
      '{"a": {"sensitive": true, "type": ["object", {"p": "string"}], "value": [REDACTED:sensitive-output]},\n' +
      ' "b": {"sensitive":true,"type":"number","value":[REDACTED:sensitive-output]},\n' +
      ' "c": {"sensitive": false, "type": "string", "value": "keep"}}';
    expect(redact(text)).toBe(expected);
    checkEverySplit(compiled, Buffer.from(text), 5);
    // A repeated key: the last says, as JSON parsers read it (a run of them holds one
    // candidate, not one for each before it: 0.17 MB/s before).
    const repeated =
      '{"a": {"sensitive": true, "sensitive": false, "value": "k1"}, ' +
      '"b": {"sensitive": false, "sensitive": true, "value": "r1"}}';
    expect(redact(repeated)).toBe(
      '{"a": {"sensitive": true, "sensitive": false, "value": "k1"}, ' +
        '"b": {"sensitive": false, "sensitive": true, "value": "[REDACTED:sensitive-output]"}}',
    );
    checkEverySplit(compiled, Buffer.from(repeated), 3);
  });

  it("redacts an encoded query's value up to its encoded separator, however split", () => {
    const text =
      "r=%2Fcb%3Faccess_token%3Dya29abc%2526DEF123%26t%3D1&s=2 db_password%3DZx9Kq2+x (token%3DQw8Er7Ty6)\n";
    const expected =
      "r=%2Fcb%3Faccess_token%3D[REDACTED:secret-assignment]%26t%3D1&s=2 db_password%3D[REDACTED:secret-assignment]+x (token%3D[REDACTED:secret-assignment])\n";
    expect(redact(text)).toBe(expected);
    checkEverySplit(compiled, Buffer.from(text), 3);
  });

  it("names a span a rule and a base64 run claim together the same, however it is split", () => {
    // The run ends at an escape: split byte by byte, the run is decided before the
    // assignment (which reads the byte after the backslash); whole, after it.
    const text = ";Password=Hq7w12Xk9LmN0pQr/StUvWxYz12345678abcd+ef\\u0022A\n";
    expect(redact(text)).toBe(";Password=[REDACTED:secret-assignment]\\u0022A\n");
    checkEverySplit(compiled, Buffer.from(text), 2);
    expect(redact("Hq7w12Xk9LmN0pQr/StUvWxYz12345678abcd+ef")).toBe(
      "[REDACTED:aws-secret-access-key]",
    );
  });

  it("redacts SQL passwords with their doubled quotes and keeps the statement, however split", () => {
    const text =
      "CREATE USER a IDENTIFIED BY 'x''y9Kq2' ;\nALTER ROLE b PASSWORD 'Lm8Np4Rt' VALID UNTIL 'infinity';\n";
    const expected =
      "CREATE USER a IDENTIFIED BY '[REDACTED:sql-password]' ;\nALTER ROLE b PASSWORD '[REDACTED:sql-password]' VALID UNTIL 'infinity';\n";
    expect(redact(text)).toBe(expected);
    checkEverySplit(compiled, Buffer.from(text), 3);
  });

  it("redacts a call's password literal and keeps the call, however split", () => {
    const text =
      '$e = New-Object DirectoryServices.DirectoryEntry("LDAP://10.1.2.3", "corp\\svc",\n  "Wint3r-C0ming");\n';
    expect(redact(text)).toBe(
      '$e = New-Object DirectoryServices.DirectoryEntry("LDAP://10.1.2.3", "corp\\svc",\n  "[REDACTED:credential-argument]");\n',
    );
    checkEverySplit(compiled, Buffer.from(text), 3);
  });

  it("redacts every secret of a command line and keeps the words between, however split", () => {
    const text =
      "keytool -srcstorepass Zx9Kq2Lm8 -deststorepass 'Qw8Er7Ty' -v\nmysql -pAb3dE5fG7\n";
    const expected =
      "keytool -srcstorepass [REDACTED:command-flag] -deststorepass '[REDACTED:command-flag]' -v\nmysql -p[REDACTED:command-flag]\n";
    expect(redact(text)).toBe(expected);
    checkEverySplit(compiled, Buffer.from(text), 3);
  });

  it("takes an unknown scheme word and one token after it, never more, however split", () => {
    const cases: [string, string][] = [
      // A token, then a word that is none: the word stays.
      [
        "Authorization: abc123token from 10.0.0.1\n",
        "Authorization: [REDACTED:authorization-header] from 10.0.0.1\n",
      ],
      [
        "Authorization: Splunk 1f2e3d4c-5b6a-7980-a1b2-c3d4e5f6a7b8 sent\n",
        "Authorization: [REDACTED:authorization-header] sent\n",
      ],
      // Nothing after the blanks: the word alone was the credential, the blanks stay.
      ["Authorization: tok3n-only   \n", "Authorization: [REDACTED:authorization-header]   \n"],
      ['"Authorization: tok3n-only "', '"Authorization: [REDACTED:authorization-header] "'],
      // A word that is no token, with none after it: prose, a placeholder, a variable.
      ["Authorization: GenieKey <KEY>\n", "Authorization: GenieKey <KEY>\n"],
      [
        "# Keep Authorization: headers on a redirect.\n",
        "# Keep Authorization: headers on a redirect.\n",
      ],
      ["h = {'Authorization': auth, 'x': 1}\n", "h = {'Authorization': auth, 'x': 1}\n"],
      [
        "'authorization: basic ...' or Bearer \u2026\n",
        "'authorization: basic ...' or Bearer \u2026\n",
      ],
    ];
    for (const [text, expected] of cases) {
      expect(redact(text)).toBe(expected);
      // Every byte through `next`, the skip fast path left out: the same output.
      const stepped = createRedactor(compiled, { skip: false });
      const out = [...stepped.push([Buffer.from(text)]), ...stepped.end()];
      expect(Buffer.concat(out).toString()).toBe(expected);
      checkEverySplit(compiled, Buffer.from(text), 3);
    }
  });

  it("redacts a whole PEM block however it is split, and a long value without holding it", () => {
    const long = `PASSWORD=${"v".repeat(50_000)} tail`;
    expect(redact(long)).toBe("PASSWORD=[REDACTED:secret-assignment] tail");
    const pem = Buffer.from(`a\n${PEM}\nb`);
    for (let cut = 1; cut < pem.length; cut += 7)
      checkRedactor(compiled, pem, [pem.subarray(0, cut), pem.subarray(cut)]);
  });

  // Code that writes a key as joined string literals, read inside a JSON string (a tool's
  // result holding a source file): the literals' quotes and line breaks come escaped.
  it("redacts a key written as joined literals in code inside a JSON string", () => {
    const lines = PEM.split("\n");
    const code = `String key =\n${lines.map((l) => `    "${l}\\n"`).join(" +\n")};\nint next = 1;\n`;
    for (const text of [code, JSON.stringify({ content: code, next: "kept" })]) {
      const out = redact(text);
      for (const line of lines.slice(1, -1)) expect(out).not.toContain(line.slice(0, 24));
      expect(out).toContain("int next = 1;");
      expect(out).toContain("[REDACTED:pem-private-key]");
    }
  });

  it("redacts a Secret's data block that opens a JSON string, keeping the string's escapes", () => {
    const yaml = 'data:\n  extra: "SHg0IXBROHpUbTJ3Szk="\n  more: Zm9vYmFyYmF6\nkind: Secret\n';
    const kept =
      'data:\n  extra: "[REDACTED:kubernetes-secret]"\n  more: [REDACTED:kubernetes-secret]\nkind: Secret\n';
    let [text, expected] = [yaml, kept];
    for (let depth = 0; depth < 3; depth++) {
      expect(redact(text)).toBe(expected);
      [text, expected] = [JSON.stringify({ out: text }), JSON.stringify({ out: expected })];
    }
  });

  it("reads a private key's dashes behind its BEGIN, also where another span took them", () => {
    const body = PEM.split("\n").slice(1).join("\n");
    // Fewer dashes than five are still a block; none is not; a run of dashes stays.
    expect(redact(`----BEGIN PRIVATE KEY-----\n${body}\nok`)).toBe(
      "[REDACTED:pem-private-key]\nok",
    );
    expect(redact("BEGIN PRIVATE KEY-----\nMIIab\n")).toBe("BEGIN PRIVATE KEY-----\nMIIab\n");
    expect(redact(`${"-".repeat(300)}\nok`)).toBe(`${"-".repeat(300)}\nok`);
    // The dashes inside an assignment's value, redacted before BEGIN is read: the block's
    // body is redacted with it, however the text is split.
    const text = `password=password=-----BEGIN PRIVATE KEY-----\n${body}\ntail\n`;
    expect(redact(text)).toBe("password=[REDACTED:secret-assignment]\ntail\n");
    checkEverySplit(compiled, Buffer.from(text), 9);
  });

  it.each(ALL_CASES.map(([name, text, secret]) => [name, text, secret] as const))(
    "%s passes the SPEC §5 property check on random embeddings and chunkings (%j)",
    (_name, text, secret) => {
      checkRedaction(compiled, { secrets: [{ text, secret }], numRuns: 15 });
    },
  );
});

describe("bytes that rule an anchor out before it starts", () => {
  it("are only bytes on which the rule's own start declines, for every anchor of every built-in", () => {
    let checked = 0;
    for (const rule of BUILTIN_RULES) {
      if (rule.kind !== "matcher") continue;
      const ruledOut = notBeforeOf(rule);
      if (ruledOut === undefined) continue;
      for (const anchor of rule.anchors) {
        const length = Buffer.byteLength(anchor);
        for (let before = 0; before < 256; before++) {
          if (ruledOut[before] !== 1) continue;
          expect(rule.start({ anchor, length, before, nameBefore: before })).toBeUndefined();
          checked++;
        }
      }
    }
    // The token, assignment and command-line rules register theirs.
    expect(checked).toBeGreaterThan(10_000);
  });

  it("and after it: only first bytes every candidate rejects, whatever came before", () => {
    let checked = 0;
    for (const rule of BUILTIN_RULES) {
      if (rule.kind !== "matcher") continue;
      const ruledOut = notAfterOf(rule);
      if (ruledOut === undefined) continue;
      for (const anchor of rule.anchors) {
        const length = Buffer.byteLength(anchor);
        for (const before of [-1, 0x20, 0x2d, 0x2f, 0x5f, 0x41, 0x22]) {
          for (let after = 0; after < 256; after++) {
            if (ruledOut[after] !== 1) continue;
            const candidate = rule.start({ anchor, length, before, nameBefore: before });
            if (candidate !== undefined) expect(candidate.next(after)).toBe(Verdict.Reject);
            checked++;
          }
        }
      }
    }
    // The assignment rules (keywords and vendor names) register theirs.
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe("every case inside a JSON string (contexts are views)", () => {
  // A case already written escaped (a JSON string inside a JSON string) and terraform's
  // `sensitive` marks, read in unescaped JSON only (docs/redaction.md), aside.
  const views = ALL_CASES.filter(
    ([name, text]) => !text.includes("\\") && name !== "sensitive-output",
  );

  it.each(views)("%s: %j as a tool result carries it", (_name, text, secret) => {
    const doc = JSON.stringify({ log: `start\n${text}\nend`, n: 1 });
    const out = redact(doc);
    checkNoSecretPiece(out, JSON.stringify(secret).slice(1, -1));
    // Nothing after the document's own string is lost.
    expect(out.endsWith('end","n":1}')).toBe(true);
  });

  // A row of a labelled corpus, or a log line, is a JSON document's whole string: the
  // secret's line ends at the string's closing quote, not at a line end.
  it.each(secretLines(views))("%s: its line %j as a string's whole text", (_name, line, secret) => {
    const out = redact(JSON.stringify({ log: line }));
    checkNoSecretPiece(out, JSON.stringify(secret).slice(1, -1));
    expect(out.endsWith('"}')).toBe(true);
  });
});

describe("every case inside JSON inside a JSON string", () => {
  // A tool's JSON result carried as a string in another JSON document escapes its escapes
  // (`\\\"password\\\":`, `…\\n`): every rule reads a run of backslashes as one.
  const views = ALL_CASES.filter(
    ([name, text]) => !text.includes("\\") && name !== "sensitive-output",
  );

  it.each(views)("%s: %j", (_name, text, secret) => {
    const inner = JSON.stringify({ log: text });
    const doc = JSON.stringify({ result: inner, n: 1 });
    const out = redact(doc);
    checkNoSecretPiece(out, JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1));
    expect(out.endsWith('"}","n":1}')).toBe(true);
  });
});

describe("a quoted value holding a quote of the other kind or a backslash", () => {
  it("redacts a value with a backslash inside a JSON string, and keeps the string's escapes", () => {
    // The value's backslash is `\\` there (`\\\\` a level deeper), its end `\"` (`\\\"`):
    // the byte after a run of backslashes says which.
    // Short and long values, and ones whose backslash or end falls where a value is decided
    // (its 48th byte).
    const values = [
      "Wq7\\zP8x",
      "Qm4w\\zP8x\\K2vTh9cLdRutWsp3jXTkaMeHUbqONsyke1Aq9Lm2Zx7W",
      `${"Xk9".repeat(13)}Wq7\\zP8x`,
      `${"Xk9".repeat(15)}Wq`,
    ];
    for (const value of values) {
      const line = `signing_secret: "${value}"\nnext`;
      const once = redact(JSON.stringify({ log: line }));
      checkNoSecretPiece(once, JSON.stringify(value).slice(1, -1));
      // Still JSON, its string's escapes whole.
      expect(JSON.parse(once).log).toBe('signing_secret: "[REDACTED:secret-assignment]"\nnext');
      const twice = redact(JSON.stringify({ r: JSON.stringify({ log: line }) }));
      expect(JSON.parse(JSON.parse(twice).r).log).toBe(
        'signing_secret: "[REDACTED:secret-assignment]"\nnext',
      );
    }
  });

  it("leaks no piece of a value longer than a hold whose own quote comes late", () => {
    // Held from the other quote on until the own quote; past the rule's hold the candidate
    // fails closed (to the next blank), so nothing of the value survives.
    const secret = "Qm4`w'}/zP8)x;K2]vT;_&hN9>cL??]R&7GB=;@dutWs[$_pF3^?{jX/TkaMe[HUbq:ONsy_k$%e";
    for (const text of [
      `signing_secret: "${secret}"\nnext line\n`,
      JSON.stringify({ log: `signing_secret: "${secret}"\nnext` }),
    ]) {
      const out = redact(text);
      checkNoSecretPiece(out, text.startsWith("{") ? JSON.stringify(secret).slice(1, -1) : secret);
      expect(out).toContain("next");
    }
  });
});
