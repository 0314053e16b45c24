import { describe, expect, it } from 'vitest';
import { completeLock, type Lock, platformOf } from './lock-platforms.mjs';

describe('lock-platforms', () => {
  it('reads the platform from a binary package name', () => {
    expect(platformOf('@rollup/rollup-linux-arm-musleabihf')).toEqual({
      os: 'linux',
      cpu: 'arm',
      libc: 'musl',
    });
    expect(platformOf('@rollup/rollup-win32-ia32-msvc')).toEqual({ os: 'win32', cpu: 'ia32', libc: null });
    expect(platformOf('@biomejs/cli-linux-x64')).toEqual({ os: 'linux', cpu: 'x64', libc: 'glibc' });
    expect(platformOf('@rollup/rollup-android-arm-eabi')).toEqual({ os: 'android', cpu: 'arm', libc: null });
    expect(platformOf('left-pad')).toBeNull();
  });

  it('adds only the missing platform entries, marked optional, dev like their dependent', () => {
    const lock: Lock = {
      packages: {
        '': { name: 'x' },
        'node_modules/rollup': {
          version: '4.1.0',
          dev: true,
          optionalDependencies: {
            '@rollup/rollup-linux-x64-gnu': '4.1.0',
            '@rollup/rollup-darwin-arm64': '4.1.0',
            fsevents: '~2.3.2',
          },
        },
        'node_modules/@rollup/rollup-linux-x64-gnu': { version: '4.1.0', dev: true, optional: true },
      },
    };
    expect(completeLock(lock)).toEqual(['@rollup/rollup-darwin-arm64@4.1.0']);
    expect(lock.packages['node_modules/@rollup/rollup-darwin-arm64']).toEqual({
      version: '4.1.0',
      dev: true,
      optional: true,
      os: ['darwin'],
      cpu: ['arm64'],
    });
    expect(completeLock(lock)).toEqual([]);
  });
});
