import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";

// A match removes its secret and nothing after it: every form below puts a value `V` where
// a built-in rule reads one and text that must stay (`KEEP`) after the place where the
// value ends (a blank, a quote, a line's end, a URL's `@` or `&`, a statement's end). Each
// runs with values of the usual shapes (short, with signs, past the bytes a value is judged
// on, a prefixed token), as written, with CRLF line ends, and inside a JSON string once,
// twice and three times, as tool results nest them.
const FORMS = [
  // Assignments, quoted and not.
  "x token=V KEEP",
  "x token: V\tKEEP",
  'x password = "V" KEEP',
  "x api_key='V' KEEP",
  '{"password": "V", "KEEP": 1}',
  "export TOKEN=V && KEEP",
  "-e PASSWORD=V -e KEEP=1",
  "token=V\nKEEP",
  "password V\nKEEP",
  "Your password is: V\nKEEP",
  "the admin password is V\nKEEP",
  "| password | V |\nKEEP",
  "password: |\n  V\nKEEP: 1",
  "- name: DB_PASSWORD\n  value: V\n- name: KEEP",
  "<password>V</password><KEEP/>",
  'const apiToken =\n  "V"; KEEP();',
  '<add key="ApiPassword" value="V" /><KEEP/>',
  "stringData:\n  extra: V\nKEEP: 1",
  // Connection strings, URLs and query strings.
  "Server=x;Password=V;Database=KEEP;",
  'x connectionString="Server=x;Password=V;" KEEP',
  // ADO.NET's keys hold spaces; SQL Server's JDBC URL has properties after its port.
  "Server=x;Password=V;KEEP Catalog=db;",
  "Data Source=x;Password=V;KEEP Security Info=False",
  "jdbc:sqlserver://KEEP.example.com:1433;user=bob@x;password=V;",
  "postgres://bob:V@db.internal:5432/KEEP",
  "https://x-access-token:V@github.com/o/KEEP x",
  "https://__token__:V@pypi.org/KEEP x",
  "GET /cb?token=V&KEEP HTTP/1.1",
  "GET /cb?a=1&token=V#KEEP",
  "jdbc:oracle:thin:bob/V@db:1521/KEEP",
  'dsn := "KEEP:V@tcp(db:3306)/app"',
  "db.internal:5432:app:bob:V\nKEEP",
  // Headers and cookies.
  "Authorization: Bearer V\nKEEP: 1",
  '{"Authorization":"Bearer V","KEEP":1}',
  "Cookie: a=V; KEEP=1",
  "Set-Cookie: sid=V; Path=/KEEP; HttpOnly",
  '{"Set-Cookie": ["a=V; Path=/KEEP", "b=V"], "KEEP": 1}',
  "Set-Cookie:\n  - a=V; path=/KEEP\n  - b=V\nKEEP: 1",
  // Command lines.
  "curl -u admin:V https://KEEP.example.com",
  "curl -u admin:V\nKEEP",
  "redis-cli -u redis://:V@cache:6379/KEEP ping",
  "mysql -uroot -pV -h KEEP",
  "gh secret set API_KEY --body V\nKEEP",
  "openssl rsa -passin pass:V\nKEEP",
  "--password V --KEEP",
  // A password piped to a command that reads it, settings set on a command line.
  "echo 'V' | docker login -u me --password-stdin KEEP",
  "echo V | sudo -S KEEP",
  "aws configure set aws_secret_access_key V\nKEEP",
  "npm config set //r.io/:_authToken=V KEEP",
  // Dumps, recorded requests, padded columns, CloudFormation's JSON.
  "[password] => V\nKEEP",
  '["password"]=>\n  string(12) "V"\n["KEEP"]=>',
  "Authorization:\n  - Basic V\nKEEP:",
  "DB_PASSWORD                    V\nKEEP",
  "CREDENTIALS\tASIAQXK9MQ2ZLP7RTZ4W\t2024-05-01T13:00:00+00:00\tV\tKEEP",
  // Every element of a list of secrets, JSON's and YAML's (a short one is kept).
  '{"api_keys": ["Hm4kQ8wZ2pL6tR9yX3cB", "", "V"], "KEEP": 1}',
  "api_keys:\n  - Hm4kQ8wZ2pL6tR9yX3cB\n  - 'V'\nKEEP: 1",
  '{"api_keys": {"a": "Hm4kQ8wZ2pL6tR9yX3cB", "b": "V"}, "KEEP": 1}',
  "api_keys:\n  a: Hm4kQ8wZ2pL6tR9yX3cB\n  b: V\nKEEP: 1",
  'TOKENS=("Hm4kQ8wZ2pL6tR9yX3cB" "V") KEEP',
  'func getApiKey() string { return "V" } // KEEP',
  "127.0.0.1:6379> AUTH V\nKEEP",
  '1700000000.1 [0 127.0.0.1:5] "AUTH" "V"\n"KEEP"',
  'API_KEYS = {"a": "Hm4kQ8wZ2pL6tR9yX3cB", "b": "V"} # KEEP',
  // A server's printed password, calls and comparisons.
  "A temporary password is generated for root@localhost: V\nKEEP",
  'setPassword("V"); KEEP();',
  'requests.get(u, auth=("bob", "V")) # KEEP',
  'name = whoami(token=V)["KEEP"]',
  "first = fetch(password=V)[0].KEEP",
  'if (password == "V") KEEP();',
  // Typed declarations, a server's directive, PowerShell's secure string, LDAP's directive.
  'pub const API_KEY: &str = "V"; KEEP();',
  'proxy_set_header Authorization "Basic V"; KEEP;',
  '$pw = ConvertTo-SecureString -String "V" -AsPlainText -KEEP',
  "bindpw V\nKEEP",
  // Separators outside ASCII.
  "token: V。KEEP",
  "password=V\u00a0KEEP",
];
const VALUES = [
  "Zx9Kq2Lm8Np4",
  "P@ss-w0rd!x9",
  "aB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ",
  "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c",
];

describe("a match never removes more than its secret", () => {
  const compiled = compileRedaction();
  const redact = (text: string) => redactText(text, compiled);

  it.each(FORMS)("keeps what follows the value in %j, as written and nested in strings", (form) => {
    for (const value of VALUES) {
      let text = form.replaceAll("V", value);
      const views = [text, text.replaceAll("\n", "\r\n")];
      for (let depth = 0; depth < 3; depth++) {
        text = JSON.stringify({ log: `start\n${text}\nend` });
        views.push(text);
      }
      views.forEach((view, k) => {
        const output = redact(view);
        expect(output, view).toContain("KEEP");
        // The value is redacted as written and inside one string (the forms are ones the
        // rules read; a call's quotes escaped twice are not read as a literal's).
        if (k < 3) expect(output, view).toContain("[REDACTED:");
      });
    }
  });

  // A value held past what decides it would fail closed to the next blank, over what
  // follows it in one-line JSON: a value that is no credential is decided within the hold.
  it.each([
    `{"Authorization":"Foo ${"a".repeat(60)}","KEEP":1}`,
    `{"authorization":"some_long_identifier_without_any_digit_in_it_at_all","KEEP":1}`,
  ])("keeps a long value that is no credential whole: %j", (text) => {
    expect(redact(text)).toBe(text);
    expect(redact(JSON.stringify({ log: text }))).toBe(JSON.stringify({ log: text }));
  });

  // Values that ran on over a string's closing quote, or were held past their rule's hold
  // by an escape begun at its longest run, and failed closed over what followed.
  it.each([
    `{"k":"<secret>${"aB3xK9qZ7".repeat(8)}","KEEP":1}`,
    `{"k":"snmp-server community ${"aB3xK9qZ7".repeat(8)}","KEEP":1}`,
    `{"k":"BBDC-${"%2Fa-b".repeat(10)}","KEEP":1}`,
    // A `,` or `;` after a value, then words and a long token where a connection string's
    // key may have stood: held past the rule's hold, they failed closed over the rest.
    `{"k":"token ab,Some long key ${"xB7qK3aZ9".repeat(8)}\\nKEEP"}`,
    `{"k":"password=x1;Initial Catalog ${"xB7qK3aZ9".repeat(8)}\\nKEEP"}`,
    // A quoted value left open at a line's end inside a string (`'…\n`), short and long, and
    // at a backslash and a line break: it ends there, as at a line break.
    `{"msg":"invalid token: 'Xk9mQ2vLp7RtZ4wNa8Hc3Jf1\\nretrying KEEP","level":"warn"}`,
    `{"msg":"password = '${"Xk9mQ2vLp7RtZ4wNa8Hc3Jf1".repeat(3)}\\nnext KEEP","n":1}`,
    "password = `Xk9mQ2vLp7RtZ4wNa8Hc3Jf1\\\nKEEP",
    // A value held past its rule's hold inside a string fails closed up to the string's next
    // escaped line break, not over it to the next blank.
    `{"k":"[password] => ;abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz;nameZx9Kq2Lm8Np4\\nKEEP"}`,
    `{"k":"passwd := #${"xB7qK3aZ9".repeat(8)}key=ID;Zx9Kq2Lm8Np4;${"a".repeat(70)}\\nKEEP"}`,
    // A command's setting with no value at its string's end, and a value that a `,` and a
    // long key follow: each ends at the string's quote.
    '{"cmd":"aws configure set aws_secret_access_key ","KEEP":1}',
    `{"k":"&password=,${"abcdefghijklmnopqrstuvwxyz".repeat(2)};aB3Xk9mP2qL8vR4tW6yZ,","KEEP":1}`,
    // A value held past its rule's hold inside a string inside a string fails closed up to
    // the inner string's escaped quote, not over it and the outer one.
    `{"k":"{\\"v\\":\\"password=\uff0c,name${"abcdefghijklmnopqrstuvwxyz".repeat(2)}\\\\\\\\]\\"}","KEEP":1}`,
  ])("keeps what follows a value that ends at a string's quote: %j", (text) => {
    for (const view of [text, JSON.stringify({ log: text })])
      expect(redact(view)).toContain("KEEP");
  });

  // A `;` and the string's closing quote read just as the value reached the length it is
  // judged at: the `;` must still end it (it was dropped, and the value ran on).
  it("keeps what follows a value's `;` and its string's quote at any value length", () => {
    for (let n = 8; n <= 48; n++) {
      const value = "318273645091-q7w2e9r4t1y6u3i8o5p0a2s7d4f9g1h6x5z8c3v7b1n4m6".slice(0, n);
      for (const text of [
        `{"k":"x token=${value};","KEEP":1}`,
        `{"k":"x token==${value};","KEEP":1}`,
      ])
        expect(redact(text), text).toContain("KEEP");
    }
  });

  // A backtick's value left open at its string's end ends at the string's quote, as one
  // after `'` does. (Inside a string inside a string, where that quote is escaped, either
  // still takes what follows: a limit.)
  it("keeps what follows a backtick's value left open in a string", () => {
    expect(redact('{"k":"?token=`","KEEP":1}')).toContain("KEEP");
    expect(redact('{"k":"token: `Xk9mQ2vLp7RtZ4wNa8Hc3Jf1","KEEP":1}')).toBe(
      '{"k":"token: `[REDACTED:secret-assignment]","KEEP":1}',
    );
  });

  // A value failing closed stops at the backslash of an escaped quote; when that backslash
  // ended a chunk, the quote in the next one must stop it the same (it took the backslash).
  it("ends a value failing closed at an escape the same wherever the chunks split", () => {
    const text = Buffer.from(`${"password=".repeat(6)}${'"'.repeat(13)}${"\\".repeat(9)}"`);
    const run = (chunks: readonly Uint8Array[]) => {
      const redactor = createRedactor(compiled);
      const out = chunks.flatMap((chunk) => redactor.push([chunk]));
      return Buffer.concat([...out, ...redactor.end()]).toString("latin1");
    };
    const whole = run([text]);
    expect(whole).toBe('password=[REDACTED:secret-assignment]\\"');
    for (let k = 1; k < text.length; k++)
      expect(run([text.subarray(0, k), text.subarray(k)]), `split at ${k}`).toBe(whole);
  });

  it("ends a credential longer than its rule would hold where it ends (a 5,000-byte cookie)", () => {
    const text = `{"Cookie":"sid=${"aB3xK9".repeat(834)}","KEEP":1}`;
    expect(redact(text)).toBe('{"Cookie":"sid=[REDACTED:cookie]","KEEP":1}');
    expect(redact(JSON.stringify({ log: text }))).toBe(
      JSON.stringify({ log: '{"Cookie":"sid=[REDACTED:cookie]","KEEP":1}' }),
    );
  });
});
