/**
 * Per-file caches behind the opaque DomainScope: one route (MX) lookup, one address lookup per
 * MX host and one catch-all probe per domain. In-flight promises are shared, so concurrent rows
 * of the same domain wait for the first lookup instead of starting their own.
 */
import type { Route } from './dns-route';
import type { DomainScope } from './types';

export interface ScopeState {
  routes: Map<string, Promise<Route>>;
  addresses: Map<string, Promise<string[]>>;
  catchAll: Map<string, Promise<boolean | null>>;
}

export function memo<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

function emptyState(): ScopeState {
  return { routes: new Map(), addresses: new Map(), catchAll: new Map() };
}

export class ScopeRegistry {
  private readonly states = new WeakMap<DomainScope, ScopeState>();

  create(): DomainScope {
    const scope: DomainScope = Object.freeze({ kind: 'domain-scope' as const });
    this.states.set(scope, emptyState());
    return scope;
  }

  /** The caches of `scope`; without one (or with a foreign one) a fresh, unshared state. */
  state(scope?: DomainScope): ScopeState {
    const known = scope && this.states.get(scope);
    if (known) return known;
    const fresh = emptyState();
    if (scope) this.states.set(scope, fresh);
    return fresh;
  }
}
