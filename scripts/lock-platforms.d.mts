export interface Platform {
  os: string;
  cpu: string;
  libc: 'musl' | 'glibc' | null;
}
export interface Lock {
  packages: Record<string, Record<string, unknown>>;
}
export function platformOf(name: string): Platform | null;
export function completeLock(lock: Lock): string[];
