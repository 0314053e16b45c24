/** Types for the one function used of `punycode.js` (RFC 3492), which ships none. */
declare module 'punycode.js' {
  const punycode: {
    /** The Punycode of a string of code points, without the `xn--` prefix. */
    encode(input: string): string;
  };
  export default punycode;
}
