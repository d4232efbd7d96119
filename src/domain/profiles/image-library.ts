import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * Sharp (libvips) is loaded with the first image a process handles, not when it starts. Loaded, it adds
 * about 28 MB to the process's resident memory, and most processes of a service spend their lives on tokens:
 * each of `WEB_CONCURRENCY` workers would carry it for nothing.
 */
export function imageLibrary(): Promise<typeof Sharp> {
  if (!loading) loading = import('sharp').then((m) => m.default);
  return loading;
}
