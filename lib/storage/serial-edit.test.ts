import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { storage } from 'wxt/utils/storage';
import { serialEditor } from './serial-edit';

const item = storage.defineItem<Record<string, number>>('session:serialEditTest', { fallback: {} });

beforeEach(() => fakeBrowser.reset());

describe('serialEditor', () => {
  it('keeps every one of many parallel edits (each reads what the previous one wrote)', async () => {
    const editor = serialEditor(item);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        editor.edit((all) => {
          all.count = (all.count ?? 0) + 1;
          all[`k${i}`] = i;
          return all.count;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const stored = await item.getValue();
    expect(stored.count).toBe(20);
    expect(Object.keys(stored)).toHaveLength(21);
  });

  it('goes on after an edit that throws, which writes nothing', async () => {
    const editor = serialEditor(item);
    const failed = editor.edit((all) => {
      all.lost = 1;
      throw new Error('no');
    });
    const next = editor.edit((all) => {
      all.kept = 2;
    });
    await expect(failed).rejects.toThrow('no');
    await next;
    expect(await item.getValue()).toEqual({ kept: 2 });
  });

  it('reads after the edits queued before it, and never changes the fallback', async () => {
    const editor = serialEditor(item);
    void editor.edit((all) => {
      all.a = 1;
    });
    expect(await editor.read()).toEqual({ a: 1 });
    expect(item.fallback).toEqual({});
    await item.removeValue();
    expect(await editor.read()).toEqual({});
  });
});
