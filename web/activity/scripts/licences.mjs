// Writes the licences of the packages bundled into app.js beside it (MIT and the like ask
// that their notice go with every copy). The bundled packages: the SDK and what it needs.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const bundled = ["@discord/embedded-app-sdk", "big-integer", "decimal.js-light", "eventemitter3",
                 "lodash.transform", "uuid", "zod"];
const parts = ["Packages bundled into app.js (built from web/activity/), with their licences.\n"];
for (const name of bundled) {
  const folder = join("node_modules", name);
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const file = readdirSync(folder).find((f) => /^licen[cs]e/i.test(f));
  const text = file ? readFileSync(join(folder, file), "utf8").trim() : `(${manifest.license})`;
  parts.push(`== ${manifest.name} ${manifest.version} (${manifest.license})\n\n${text}\n`);
}
writeFileSync("../../bot/web/static/activity/LICENCES.txt", parts.join("\n"));
