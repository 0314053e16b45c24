/** One polite live region at the foot of the popup: progress and outcomes for screen readers and eyes. */
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useMemo, useState } from 'preact/hooks';

const AnnounceContext = createContext<(text: string) => void>(() => {});

export function LiveStatusProvider({ children }: { children: ComponentChildren }) {
  const [text, setText] = useState('');
  const announce = useMemo(() => (next: string) => setText(next), []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <p class="live-status" role="status" aria-live="polite" data-testid="live-status">
        {text}
      </p>
    </AnnounceContext.Provider>
  );
}

export function useAnnounce(): (text: string) => void {
  return useContext(AnnounceContext);
}
