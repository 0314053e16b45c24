/**
 * Whether this is the end-to-end test build (`npm run build:test`), whose manifest already grants
 * loopback host permissions, so no permission prompt is needed (headless browsers cannot answer one).
 */
export function isTestBuild(): boolean {
  return typeof __VERIMARK_TEST_BUILD__ !== 'undefined' && __VERIMARK_TEST_BUILD__ === true;
}
