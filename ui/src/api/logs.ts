// A container's log, read as it is written (pods/log?follow=true through fetch's stream).
// Chromium drops every request in flight when the machine's network interfaces change, and
// Docker adds one for each container it starts, so a followed log is cut now and then. It is
// picked up again where it stopped: lines come with their timestamps (timestamps=true), the next
// request asks from the last one (sinceTime), and lines already shown are skipped.
import { apiFetch, readLines } from './client';

const TAIL_LINES = 1000;
const RECONNECTS = 20;
const RECONNECT_MS = 500;

export interface LogOptions {
  container: string;
  previous: boolean;
  follow: boolean;
}

export async function followLog(path: string, options: LogOptions, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
  let last = '';
  for (let attempt = 0; ; attempt++) {
    const query = new URLSearchParams({ container: options.container, timestamps: 'true' });
    if (options.previous) query.set('previous', 'true');
    if (options.follow) query.set('follow', 'true');
    if (last) query.set('sinceTime', last);
    else query.set('tailLines', String(TAIL_LINES));
    try {
      const response = await apiFetch(`${path}?${query}`, { signal });
      await readLines(response, (line) => {
        const space = line.indexOf(' ');
        const stamp = space > 0 ? line.slice(0, space) : '';
        // sinceTime is inclusive (and the server may round it): what was shown is skipped.
        if (last && stamp && sortable(stamp) <= sortable(last)) return;
        if (stamp) last = stamp;
        onLine(space > 0 ? line.slice(space + 1) : line);
      });
      return;
    } catch (error) {
      // Only a cut connection is picked up again; a Status (the pod is gone, 403) is the answer.
      if (signal.aborted || !options.follow || !(error instanceof TypeError) || attempt >= RECONNECTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }
}

/**
 * An RFC 3339 timestamp that sorts as text: RFC3339Nano drops trailing zeros of the fraction
 * (".5Z" and ".123456789Z"), so the fraction is padded to nine digits first.
 */
export function sortable(stamp: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(stamp);
  return match ? `${match[1]}.${(match[2] ?? '').padEnd(9, '0')}Z` : stamp;
}
