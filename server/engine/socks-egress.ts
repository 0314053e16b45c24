/**
 * SMTP through a SOCKS5 proxy (`SMTP_PROXY=socks5://[user:pass@]host:port`), for hosts whose
 * outbound port 25 is blocked. The proxy is given the IP address the engine already resolved
 * and vetted (ALLOW_PRIVATE_MX applies to it as without a proxy): it resolves nothing itself.
 */
import type net from 'node:net';
import { SocksClient } from 'socks';

interface SocksProxy {
  host: string;
  port: number;
  userId?: string;
  password?: string;
}

export function parseSocksProxy(url: string): SocksProxy {
  const parsed = new URL(url);
  if (parsed.protocol !== 'socks5:') throw new Error('SMTP_PROXY must start with socks5://');
  const proxy: SocksProxy = { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port) };
  if (parsed.username) proxy.userId = decodeURIComponent(parsed.username);
  if (parsed.password) proxy.password = decodeURIComponent(parsed.password);
  return proxy;
}

/** A TCP connection to `address:port` through the proxy; rejects after `timeoutMs`. */
export async function connectViaSocks(
  proxy: SocksProxy,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<net.Socket> {
  const { socket } = await SocksClient.createConnection({
    proxy: { host: proxy.host, port: proxy.port, type: 5, userId: proxy.userId, password: proxy.password },
    command: 'connect',
    destination: { host: address, port },
    timeout: timeoutMs,
  });
  return socket;
}
