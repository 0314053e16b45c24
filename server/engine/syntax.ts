/**
 * The engine's syntax step: the shared address rules of lib/shared/address.ts, so the service
 * and the extension decide every address alike. `email` is the normalized address the engine
 * probes and reports (the trimmed input when invalid).
 */
import { type ParsedAddress, parseAddress } from '../../lib/shared/address';

type SyntaxResult = ParsedAddress;

export function checkSyntax(input: string): SyntaxResult {
  return parseAddress(input);
}
