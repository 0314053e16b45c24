/** The ExtensionSession both browsers' launchers return, built from what differs between them. */
import type { Page } from 'puppeteer-core';
import { configureThroughOptions } from './configure';
import type { ExtensionSession } from './session';

export interface SessionParts extends Omit<ExtensionSession, 'openExtensionPage' | 'configure'> {
  /** Opens `url` in a new tab and resolves once it has loaded. */
  open(url: string): Promise<Page>;
}

export function extensionSession({ open, ...parts }: SessionParts): ExtensionSession {
  const session: ExtensionSession = {
    ...parts,
    openExtensionPage: (pagePath) => open(parts.extensionBaseUrl + pagePath.replace(/^\//, '')),
    configure: (serviceUrl, apiKey) => configureThroughOptions(session, serviceUrl, apiKey),
  };
  return session;
}
