export interface FileDifference {
  missing: string[];
  extra: string[];
  changed: string[];
  same: boolean;
}
export function storeEnv(
  env: Record<string, string | undefined>,
  options?: { keepOutDir?: boolean },
): Record<string, string | undefined>;
export function zipEntries(file: string): Promise<Map<string, Buffer>>;
export function compareFiles(expected: Map<string, Buffer>, actual: Map<string, Buffer>): FileDifference;
export function describeDifference(diff: FileDifference): string;
export function zipPaths(
  root: string,
  outDir: string,
): Promise<{ chrome: string; firefox: string; sources: string }>;
export interface StoreCheck {
  name: string;
  ok: boolean;
  detail: string;
}
export function storeChecks(options?: { log?: (line: string) => void }): Promise<StoreCheck[]>;
export function sourcesOf(files: string[], include: string[], exclude: string[]): string[];
