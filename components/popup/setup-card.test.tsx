// @vitest-environment happy-dom
/** The popup's setup card: first run, and a key left at the previous service address. */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { SetupCard } from './setup-card';

const draw = (moved?: { from: string; to: string }) =>
  act(() => render(<SetupCard moved={moved} />, document.body));
afterEach(() => render(null, document.body));

describe('SetupCard', () => {
  it('asks to connect a service on first run', () => {
    draw();
    expect(document.querySelector('h2')?.textContent).toBe('Connect Verimark to a verification service');
    expect(document.querySelector('button')?.textContent).toBe('Open settings');
  });

  it('names both addresses and asks for the key again after the service address changed', () => {
    draw({ from: 'https://old.example', to: 'https://new.example/api' });
    expect(document.querySelector('h2')?.textContent).toBe('Enter your API key again');
    const text = document.querySelector('p')?.textContent ?? '';
    expect(text).toContain('The service address is now https://new.example/api.');
    expect(text).toContain('belongs to the previous address, https://old.example,');
    expect(document.querySelector('button')?.textContent).toBe('Enter the API key');
  });
});
