/** The engine configuration SMTP probe tests share: loopback-friendly, short timeouts. */
import type { EngineConfig } from '../engine/types';

export function testEngineConfig(extra: Partial<EngineConfig> = {}): EngineConfig {
  return {
    dnsServers: [],
    smtpPort: 25,
    heloName: 'verimark.test',
    mailFrom: 'probe@verimark.test',
    smtpTimeoutMs: 500,
    greylistRetryMs: 0,
    allowPrivateMx: true,
    globalConcurrency: 2,
    perHostConcurrency: 1,
    ...extra,
  };
}
