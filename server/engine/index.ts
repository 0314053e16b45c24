/** The verification engine's public surface. */
export { createEngine, type EngineLogger } from './engine';
export type { DomainScope, Engine, EngineConfig, VerificationResult } from './types';
