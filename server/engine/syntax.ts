/**
 * The engine's syntax step: the shared address rules of contract/src/address.ts, so the service
 * and the extension decide every address alike. `email` is the normalized address the engine
 * probes and reports (the trimmed input when invalid).
 */
import { type ParsedAddress, parseAddress } from '@verimark/contract/address';

type SyntaxResult = ParsedAddress;

export function checkSyntax(input: string): SyntaxResult {
  return parseAddress(input);
}
