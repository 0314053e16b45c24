/**
 * The setup most end-to-end suites share: before their tests the fake network, the real service
 * and a browser with the extension configured for that service; after them all three stopped.
 */
import { afterAll, beforeAll } from 'vitest';
import { type FakeNet, type FakeNetOptions, startFakeNet } from '../../../server/testing/fake-net';
import { type RunningService, startService } from '../../../server/testing/service';
import type { ExtensionSession } from './session';

interface ExtensionSuiteOptions {
  /** How to start the browser: `launchChromium` or `launchFirefox` of the harness. */
  launch: () => Promise<ExtensionSession>;
  /** The fake network and the service (default: both, with their defaults); false: the browser alone. */
  service?: false | { fakeNet?: FakeNetOptions; env?: Record<string, string> };
  /** Whether the browser is configured for the service before the tests (default true). */
  configure?: boolean;
}

/** What `useExtension()` started; each is there once `beforeAll` has run. */
interface ExtensionSuite {
  readonly session: ExtensionSession;
  readonly service: RunningService;
  readonly net: FakeNet;
}

/** Registers the `beforeAll` that starts the suite's net, service and browser, and the `afterAll` that stops them. */
export function useExtension(options: ExtensionSuiteOptions): ExtensionSuite {
  let net: FakeNet | undefined;
  let service: RunningService | undefined;
  let session: ExtensionSession | undefined;

  beforeAll(async () => {
    if (options.service !== false) {
      net = await startFakeNet(options.service?.fakeNet);
      service = await startService({ fakeNet: net, env: options.service?.env });
    }
    session = await options.launch();
    if (service && options.configure !== false) await session.configure(service.baseUrl, service.apiKey);
  });

  afterAll(async () => {
    await session?.close();
    await service?.stop();
    await net?.stop();
  });

  function started<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`no ${what}: not started yet, or not asked for`);
    return value;
  }
  return {
    get session() {
      return started(session, 'browser session');
    },
    get service() {
      return started(service, 'service');
    },
    get net() {
      return started(net, 'fake network');
    },
  };
}
