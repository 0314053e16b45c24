/**
 * Byte-level checks of an uploaded file before it is parsed: empty, binary, and the text
 * encoding (UTF-8, with or without a BOM; anything else is refused with a clear error).
 */
export type SniffError = 'empty' | 'binary' | 'encoding';
export type SniffResult = { ok: true; text: string } | { ok: false; error: SniffError };

const SAMPLE = 8192;

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** NUL bytes or many control characters in the first few KB mean it is not a text file. */
function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SAMPLE);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i] ?? 0;
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  }
  return end > 0 && control / end > 0.05;
}

/** Decodes the file as UTF-8 (a BOM is removed), refusing binary and non-UTF-8 content. */
export function sniff(bytes: Uint8Array): SniffResult {
  if (bytes.length === 0) return { ok: false, error: 'empty' };
  if (hasUtf16Bom(bytes)) return { ok: false, error: 'encoding' };
  if (looksBinary(bytes)) return { ok: false, error: 'binary' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'encoding' };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return { ok: false, error: 'empty' };
  return { ok: true, text };
}
