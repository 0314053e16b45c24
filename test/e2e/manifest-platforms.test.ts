/**
 * Firefox for desktop only (docs/store/firefox.md): the built Firefox manifest declares no
 * `gecko_android`, so AMO does not list the add-on for Android, where context menus and keyboard
 * commands do not exist. (The background starts without them anyway: lib/background/main.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { readBuiltManifest } from './testing/paths';

describe('the platforms the Firefox build declares', () => {
  it('is desktop only: gecko settings, no gecko_android', () => {
    const settings = readBuiltManifest('firefox').browser_specific_settings as Record<string, unknown>;
    expect(settings).toHaveProperty('gecko.strict_min_version');
    expect(settings).not.toHaveProperty('gecko_android');
  });
});
