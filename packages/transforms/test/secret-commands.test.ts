import { describe, expect, it } from "vitest";
import { printsSecret, readsSecretFromStdin } from "../src/secret-commands.js";

describe("commands whose output is a secret", () => {
  it.each([
    ["op", "read op://Private/db/password"],
    ["op", "item get db --fields password --reveal"],
    ["pass", "show email/work"],
    ["pass", "email/work"],
    ["security", "find-generic-password -s db -w"],
    ["/usr/bin/gcloud", "secrets versions access latest --secret=db"],
    ["gcloud", "auth print-access-token"],
    ["aws", "--region eu-west-1 secretsmanager get-secret-value --secret-id db"],
    ["aws", "ssm get-parameter --name /db/pw --with-decryption"],
    ["aws", "ecr get-login-password"],
    ["az", "keyvault secret show --vault-name v --name db"],
    ["vault", "kv get -field=password secret/db"],
    ["kubectl", "get secret db -o jsonpath={.data.password}"],
    ["kubectl", "get secret db --output=go-template={{.data.pw}}"],
    ["kubectl", "create token builder"],
    ["printenv", "DB_PASSWORD GITHUB_TOKEN"],
    ["cat", "/run/secrets/db_password"],
    ["doppler", "secrets get DB --plain"],
    ["gh", "auth token"],
    ["openssl", "rand -base64 32"],
    ["wg", "genkey"],
    ["kubeadm", "token create --ttl 2h"],
    ["argocd", "admin initial-password -n argocd"],
    ["bin/rails", "secret"],
    ["php", "artisan key:generate --show"],
    ["docker-credential-pass", "get"],
  ])("%s %s", (command, args) => {
    expect(printsSecret(command, args.split(" "))).toBe(true);
  });

  it("reads a shell's -c string that is one command, as agents wrap them", () => {
    expect(printsSecret("bash", ["-lc", "op read 'op://Private/db/password'"])).toBe(true);
    expect(printsSecret("/bin/sh", ["-c", "printenv DB_PASSWORD"])).toBe(true);
    // A pipeline's, a substitution's or a redirection's output is another command's.
    expect(printsSecret("bash", ["-lc", "op read op://Private/db/password | wc -c"])).toBe(false);
    expect(printsSecret("sh", ["-c", "echo $(op read op://x/y/z)"])).toBe(false);
    expect(printsSecret("bash", ["-lc", "ls -la"])).toBe(false);
    expect(printsSecret("bash", ["script.sh"])).toBe(false);
  });

  it.each([
    ["op", "item list"],
    ["pass", "ls"],
    ["pass", "insert email/work"],
    ["security", "find-generic-password -s db"],
    ["gcloud", "secrets list"],
    ["aws", "ssm get-parameter --name /db/host"],
    ["aws", "s3 ls"],
    ["vault", "status"],
    ["kubectl", "get secrets"],
    ["kubectl", "get secret db -o yaml"],
    ["printenv", "HOME"],
    ["printenv", "DB_PASSWORD HOME"],
    ["printenv", ""],
    ["cat", "/etc/hosts /run/secrets/db"],
    ["gh", "auth status"],
    ["openssl", "x509 -in cert.pem -noout -text"],
    ["make", "test"],
    ["kubeadm", "token list"],
    ["php", "artisan key:generate"],
    ["bin/rails", "server"],
  ])("not %s %s", (command, args) => {
    expect(printsSecret(command, args.split(" ").filter(Boolean))).toBe(false);
  });

  it.each([
    ["docker login -u me --password-stdin ghcr.io", "whole"],
    ["sudo -u deploy -S true", "whole"],
    ["sudo chpasswd", "after-colon"],
    ["passwd --stdin deploy", "whole"],
    ["kinit admin@EXAMPLE.COM", "whole"],
    ["htpasswd -i /etc/htpasswd admin", "whole"],
    ["gh auth login --with-token", "whole"],
    ["vault login -", "whole"],
    ["docker secret create db -", "whole"],
    ["gcloud secrets versions add db --data-file=-", "whole"],
    ["pass insert -e db/password", "whole"],
    ["openssl enc -aes-256-cbc -pass stdin", "whole"],
    ["base64", null],
    ["sudo apt-get install x", null],
    ["passwd deploy", null],
    ["vault login", null],
    ["gcloud secrets create db --data-file=db.txt", null],
    ["openssl enc -pass env:PW", null],
  ])("what %s reads from its standard input: %s", (command, reads) => {
    expect(readsSecretFromStdin(command.split(" "))).toBe(reads);
  });
});
