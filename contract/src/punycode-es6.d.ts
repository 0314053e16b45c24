/**
 * punycode.js's ES module (the package ships no types). contract/src/address.ts imports `encode`
 * from it by name, so bundles keep only the encoder (the package's main file is CommonJS, whose
 * one exported object carries every function into a bundle).
 */
declare module 'punycode.js/punycode.es6.js' {
  /** RFC 3492: a string of Unicode symbols to a Punycode string of ASCII-only symbols. */
  export function encode(input: string): string;
}
