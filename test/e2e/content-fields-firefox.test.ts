/**
 * Marks on form fields in Firefox, against the real service: on the CRM-like "Edit contact" panel
 * each email field's mark sits inside the field's end and the form keeps its layout, as in
 * Chromium (content-fields.test.ts has the rest). A screenshot.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { moved, openForm } from './testing/fields';
import { ROOT } from './testing/paths';
import { launchFirefox } from './testing/session';

const env = useContentEnv(launchFirefox, 100);
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');

describe('marks on form fields in Firefox', () => {
  it("sit inside the field's end and move nothing on the form", async () => {
    const marks = await openForm(env.page, env.fixtures.origin);
    expect(await moved(env.page)).toEqual([]);
    for (const [id, { field, badge, endPadding }] of Object.entries(marks)) {
      if (id === 'narrow') continue;
      expect(badge && badge.left >= field.right - endPadding, `${id}: mark in the end padding`).toBe(true);
    }
    mkdirSync(SHOTS, { recursive: true });
    await env.page.screenshot({ path: path.join(SHOTS, 'fields-firefox.png') });
  });
});
