import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_FLAG_MARKER, redactCommandFlags } from "../src/command-flags.js";

const M = COMMAND_FLAG_MARKER;

describe("redactCommandFlags", () => {
  it.each([
    ["mysql --password hunter2 db", `mysql --password ${M} db`],
    ["mysql --password=x db", `mysql --password=${M} db`],
    ["mysql -u root -phunter2 db", `mysql -u root -p${M} db`],
    ["curl -u bob:pass https://h", `curl -u bob:${M} https://h`],
    ["curl --user=bob:pass https://h", `curl --user=bob:${M} https://h`],
    ["gh --token x api", `gh --token ${M} api`],
    ["tool --API-KEY=k", `tool --API-KEY=${M}`],
    ["/usr/bin/sshpass -p hunter2 ssh host", `/usr/bin/sshpass -p ${M} ssh host`],
    ["sshpass -e -p  x ssh", `sshpass -e -p  ${M} ssh`],
    // The commands: each value after its credential flag, the shape kept.
    ["openssl rsa -in k.pem -passin pass:Hunter2x", `openssl rsa -in k.pem -passin pass:${M}`],
    ["openssl enc -aes256 -pass pass:Hunter2x -in f", `openssl enc -aes256 -pass pass:${M} -in f`],
    ["openssl enc -aes256 -k Hunter2x -in f", `openssl enc -aes256 -k ${M} -in f`],
    ["docker login -u bob -p Hunter2x reg.io", `docker login -u bob -p ${M} reg.io`],
    ["az login -u bob -p Hunter2x", `az login -u bob -p ${M}`],
    ["helm registry login r.io -u bob -p Hunter2x", `helm registry login r.io -u bob -p ${M}`],
    ["redis-cli -h h -a Hunter2x ping", `redis-cli -h h -a ${M} ping`],
    ["htpasswd -b f.htpasswd u Hunter2x", `htpasswd -b f.htpasswd u ${M}`],
    ["htpasswd -bnB u Hunter2x", `htpasswd -bnB u ${M}`],
    ["htpasswd -bBC 10 f u Hunter2x", `htpasswd -bBC 10 f u ${M}`],
    ["sshpass -p Hunter2x ssh h", `sshpass -p ${M} ssh h`],
    ["sshpass -pHunter2x ssh h", `sshpass -p${M} ssh h`],
    ["rabbitmqctl add_user bob Hunter2x", `rabbitmqctl add_user bob ${M}`],
    [
      "rabbitmqctl -n r@h change_password bob Hunter2x",
      `rabbitmqctl -n r@h change_password bob ${M}`,
    ],
    ["mysql -pHunter2x", `mysql -p${M}`],
    ["PsExec.exe \\\\h -u bob -p Hunter2x cmd", `PsExec.exe \\\\h -u bob -p ${M} cmd`],
    ["curl -u user:Hunter2x https://x", `curl -u user:${M} https://x`],
    // A word quoted whole keeps its closing quote.
    ["curl --user 'me:Hunter2x' https://x", `curl --user 'me:${M}' https://x`],
    ['smbclient //h/s -U "bob%Hunter2x"', `smbclient //h/s -U "bob%${M}"`],
    ["oc login -u me -p Hunter2x https://api:6443", `oc login -u me -p ${M} https://api:6443`],
    ["mc alias set s3 https://s3.io AKID Hunter2x", `mc alias set s3 https://s3.io AKID ${M}`],
    ["wandb login --relogin 0a1b2c3d4e", `wandb login --relogin ${M}`],
    ["rclone obscure Hunter2x", `rclone obscure ${M}`],
    // A setting that holds a credential: its value (also `NAME=VALUE`).
    [
      "aws configure set aws_secret_access_key Hunter2x",
      `aws configure set aws_secret_access_key ${M}`,
    ],
    [
      "aws configure set p.aws_session_token Hunter2x",
      `aws configure set p.aws_session_token ${M}`,
    ],
    ["npm config set //r.io/:_authToken Hunter2x", `npm config set //r.io/:_authToken ${M}`],
    [
      "npm config set //r.io/:_authToken=Hunter2x --location user",
      `npm config set //r.io/:_authToken=${M} --location user`,
    ],
    [
      "npm config set //r.io/:_authToken=Hunter2x x2y",
      `npm config set //r.io/:_authToken=${M} x2y`,
    ],
    ["yarn config set npmAuthToken Hunter2x", `yarn config set npmAuthToken ${M}`],
    ["poetry config http-basic.repo me Hunter2x", `poetry config http-basic.repo me ${M}`],
    [
      "composer config -g github-oauth.github.com Hunter2x",
      `composer config -g github-oauth.github.com ${M}`,
    ],
    ['dotnet user-secrets set "Api:Key" "Hunter2x"', `dotnet user-secrets set "Api:Key" "${M}"`],
    ["cargo login cioHunter2xHunter2x", `cargo login ${M}`],
    ["vault login 0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d", `vault login ${M}`],
    ["vault login -method=userpass username=me", "vault login -method=userpass username=me"],
    ["vault login root", "vault login root"],
    [
      "vault operator unseal 98m+o2ylRhVbOi+3o5ub6PbP343ocFUVORgSYeypMDjh",
      `vault operator unseal ${M}`,
    ],
    ["vault operator unseal -reset", "vault operator unseal -reset"],
    ["wpa_passphrase home Hunter2xHunter", `wpa_passphrase home ${M}`],
    ["http -a bob:Hunter2x pie.dev/get", `http -a bob:${M} pie.dev/get`],
    ["https --auth=bob:Hunter2x POST x.io", `https --auth=bob:${M} POST x.io`],
    ["hydra -l admin -p Hunter2x ssh://h", `hydra -l admin -p ${M} ssh://h`],
    ["hydra -L users -P words.txt ftp://h", "hydra -L users -P words.txt ftp://h"],
    ["nxc smb 10.0.0.0/24 -u bob -p Hunter2x", `nxc smb 10.0.0.0/24 -u bob -p ${M}`],
    ["ldapsearch -D cn=admin -w Hunter2x -b dc=x", `ldapsearch -D cn=admin -w ${M} -b dc=x`],
    ["sqlcmd -S db -U sa -P Hunter2x", `sqlcmd -S db -U sa -P ${M}`],
    ["7z x -pHunter2x a.7z", `7z x -p${M} a.7z`],
    ["smbclient //h/s -U bob%Hunter2x", `smbclient //h/s -U bob%${M}`],
    ["wget --http-password=Hunter2x https://x", `wget --http-password=${M} https://x`],
    ["curl --oauth2-bearer Hunter2x https://x", `curl --oauth2-bearer ${M} https://x`],
    [
      "keytool -importkeystore -srcstorepass Hunter2x -deststorepass Other9x -destkeystore k.jks",
      `keytool -importkeystore -srcstorepass ${M} -deststorepass ${M} -destkeystore k.jks`,
    ],
    [
      "jarsigner -storepass Hunter2x -keypass Other9x a.jar k",
      `jarsigner -storepass ${M} -keypass ${M} a.jar k`,
    ],
    ["twine upload -u __token__ -p Hunter2x dist/*", `twine upload -u __token__ -p ${M} dist/*`],
    ["rdesktop -u admin -p Hunter2x host", `rdesktop -u admin -p ${M} host`],
    [
      "sqlplus -s scott/Tiger123@//db:1521/XE @run.sql",
      `sqlplus -s scott/${M}@//db:1521/XE @run.sql`,
    ],
    ['sqlplus "scott/Tiger123"', `sqlplus "scott/${M}"`],
    ["expdp system/Oracle_1 directory=D", `expdp system/${M} directory=D`],
    // The quotes around a value are not the secret.
    ["keytool -storepass 'Hunter2x' -list", `keytool -storepass '${M}' -list`],
    ['mysql -p"Hunter2x" db', `mysql -p"${M}" db`],
    [
      "openssl enc -aes-256-cbc -K 00aa11bb -iv 0f0e -in f",
      `openssl enc -aes-256-cbc -K ${M} -iv 0f0e -in f`,
    ],
    ["rpcclient -U bob%Hunter2x 10.0.0.1", `rpcclient -U bob%${M} 10.0.0.1`],
    ["ssh-keygen -p -P 'Old1pass' -N 'New2pass' -f k", `ssh-keygen -p -P '${M}' -N '${M}' -f k`],
    ["mosquitto_pub -u bob -P Hunter2x -t t", `mosquitto_pub -u bob -P ${M} -t t`],
    ["mosquitto_sub --pw Hunter2x -t t", `mosquitto_sub --pw ${M} -t t`],
    ["xfreerdp /v:h /u:bob /p:Hunter2x", `xfreerdp /v:h /u:bob /p:${M}`],
    ["cmdkey /add:h /user:bob /pass:Hunter2x", `cmdkey /add:h /user:bob /pass:${M}`],
    ["schtasks /create /tn t /RU bob /RP Hunter2x", `schtasks /create /tn t /RU bob /RP ${M}`],
    [
      "ConvertTo-SecureString -String Hunter2x -AsPlainText",
      `ConvertTo-SecureString -String ${M} -AsPlainText`,
    ],
    // Windows' `net`: the word after the share, before or after `/user:`; a new user's password.
    ["net use Z: \\\\fs\\s Hunter2x /user:bob", `net use Z: \\\\fs\\s ${M} /user:bob`],
    ["NET USE \\\\fs\\s /user:CORP\\bob Hunter2x", `NET USE \\\\fs\\s /user:CORP\\bob ${M}`],
    ["net user backup Hunter2x /add", `net user backup ${M} /add`],
    // A new secret's value: Kubernetes' literals, GitHub CLI's body.
    [
      "kubectl create secret generic api --from-literal=key=Hunter2x --from-literal=u=bob",
      `kubectl create secret generic api --from-literal=key=${M} --from-literal=u=${M}`,
    ],
    ["gh secret set API_KEY --body Hunter2x", `gh secret set API_KEY --body ${M}`],
    // A new secret's or parameter's value in Azure's and AWS's stores.
    [
      "az keyvault secret set --vault-name v --name db --value Hunter2x",
      `az keyvault secret set --vault-name v --name db --value ${M}`,
    ],
    [
      "aws secretsmanager put-secret-value --secret-id db --secret-string Hunter2x",
      `aws secretsmanager put-secret-value --secret-id db --secret-string ${M}`,
    ],
    [
      "aws ssm put-parameter --name /db --value Hunter2x --type SecureString",
      `aws ssm put-parameter --name /db --value ${M} --type SecureString`,
    ],
  ])("%s", (label, expected) => {
    expect(redactCommandFlags(label)).toBe(expected);
  });

  it("leaves flags that carry no secret alone", () => {
    for (const label of [
      "mkdir -p dir",
      "mkdir -pv dir",
      "ssh -p 22 host",
      "curl -u bob https://h",
      "ls -la",
      // -p alone prompts: the word after it is the database.
      "mysql -p db",
      "openssl rsa -passin env:KEY_PASS -in k.pem",
      "openssl rsa -passin file:/run/pass -in k.pem",
      "openssl enc -aes256 -pass env:KEY_PASS -in f",
      "openssl enc -aes256 -pass stdin -in f",
      "git log -p -a",
      "htpasswd -c f u",
      "docker run -p 8080:80 img",
      "podman run --rm -p 80:80 -a stdout img",
      "keytool -list -v -keystore k.jks",
      // An empty passphrase or password holds nothing to redact.
      'ssh-keygen -t ed25519 -N "" -f key',
      "sshpass -p '' ssh host",
      "ssh-keygen -lf key.pub -E sha256",
      // `*` prompts for the password; a share or a user without one; another verb.
      "net use Z: \\\\fs\\s * /user:bob",
      "net use Z: \\\\fs\\s /persistent:yes",
      "net user bob /domain",
      'net use \\\\srv\\ipc$ "" /user:""',
      "net start spooler now",
      // RabbitMQ: other verbs, a user's name alone.
      "rabbitmqctl set_user_tags bob administrator",
      "rabbitmqctl delete_user bob",
      "rabbitmqctl add_user bob",
      // Oracle's OS authentication and a login without a password prompt for none.
      "sqlplus / as sysdba",
      "sqlplus scott@orcl @scripts/run.sql",
      // A configmap's literals and another gh command's body are no secrets.
      "kubectl create configmap cfg --from-literal=LOG_LEVEL=debug",
      "gh pr create --title t --body text",
      // A secret store's reads.
      "az keyvault secret show --name db --query value",
      "aws secretsmanager get-secret-value --secret-id db",
      "aws ssm get-parameter --name /db --with-decryption",
      // Settings that hold no credential; `set` before another command's words.
      "aws configure set region eu-west-1",
      "aws configure set aws_secret_access_key default_secret_key",
      "npm config set registry https://registry.npmjs.org/",
      "poetry config virtualenvs.in-project true",
      "dotnet nuget set x Hunter2x",
      "cargo login",
    ]) {
      expect(redactCommandFlags(label)).toBe(label);
    }
  });

  it("keeps every word and space it does not redact (property)", () => {
    // No word names `net`, whose `net user NAME X` takes a password by its place.
    const word = fc
      .stringMatching(/^[a-z0-9./]{1,8}$/)
      .filter((w) => w.slice(w.lastIndexOf("/") + 1) !== "net");
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 12 }),
        fc.constantFrom(" ", "  ", "\t"),
        (ws, sep) => {
          const label = ws.join(sep);
          expect(redactCommandFlags(label)).toBe(label);
        },
      ),
    );
  });
});
