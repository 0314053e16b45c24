/** Host names of this machine: the only ones plain HTTP may reach (lib/api/service-url.ts). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase());
}
