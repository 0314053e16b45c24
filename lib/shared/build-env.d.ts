/** Defined by wxt.config.ts (vite `define`): true in `npm run build:test` builds only. */
declare const __VERIMARK_TEST_BUILD__: boolean;
