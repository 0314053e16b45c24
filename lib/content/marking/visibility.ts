/** Calls back once per element when it first shows on screen; re-armable (e.g. after an SPA navigation). */
export class Visibility {
  private readonly observer: IntersectionObserver;

  constructor(signal: AbortSignal, onVisible: (el: Element) => void) {
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          this.observer.unobserve(entry.target);
          onVisible(entry.target);
        }
      },
      { rootMargin: '100px' },
    );
    signal.addEventListener('abort', () => this.observer.disconnect(), { once: true });
  }

  watch(el: Element): void {
    this.observer.observe(el);
  }
}
