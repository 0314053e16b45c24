// The API key `npm start` hands to the extension: the key kept in DATA_DIR/start-api-key while the
// service still accepts it, else a new demo key made with the admin command
// (`create-key --credits 1000 --label demo`) and printed as `Demo API key: …`. Only this
// development starter makes a demo key: the service's production entry points, the image and
// compose never do (docs/design.md §4).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

async function accepted(url, key) {
  try {
    const res = await fetch(`${url}/verify/bulk/files?page=1&pageSize=1`, { headers: { 'x-api-key': key } });
    return res.ok;
  } catch {
    return false;
  }
}

function createKey(root, env) {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', 'server/admin.ts', 'create-key', '--credits', '1000', '--label', 'demo'];
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const key = out.trim().split('\n').at(-1)?.trim();
      if (code === 0 && key) resolve(key);
      else reject(new Error(`service:admin create-key failed (exit ${code})`));
    });
  });
}

export async function ensureKey({ root, env, dataDir, url }) {
  const file = path.join(dataDir, 'start-api-key');
  if (existsSync(file)) {
    const kept = (await readFile(file, 'utf8')).trim();
    if (kept && (await accepted(url, kept))) return kept;
  }
  const key = await createKey(root, env);
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  console.log(`Demo API key: ${key}  (1,000 credits; kept in ${file})`);
  return key;
}
