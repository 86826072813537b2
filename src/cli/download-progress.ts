/**
 * Progress of a download or a recording on stderr: on a terminal a bar redrawn in place, elsewhere
 * a plain line every few seconds. The wall clock is read here for the display only.
 */
const BAR_WIDTH = 28;
const REDRAW_MS = 100;
const LINE_MS = 5000;

export interface LineProgress {
  /** `share` of the whole (0 to 1) when known; `what` says where the work is. */
  update(count: number, share: number | undefined, what: string): void;
  finish(text: string): void;
}

export function lineProgress(write: (text: string) => void, isTTY: boolean, label: string, unit: string): LineProgress {
  // Plain lines start after the first interval; the bar at once.
  let last = isTTY ? 0 : Date.now();
  return {
    update(count, share, what) {
      const now = Date.now();
      if (now - last < (isTTY ? REDRAW_MS : LINE_MS)) return;
      last = now;
      if (!isTTY) {
        write(`${label}: ${count} ${unit}${share === undefined ? '' : ` (${(share * 100).toFixed(0)}%)`}, ${what}\n`);
        return;
      }
      const done = Math.min(1, Math.max(0, share ?? 0));
      const filled = Math.round(done * BAR_WIDTH);
      const bar =
        share === undefined ? '' : `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(done * 100).toFixed(0).padStart(3)}%  `;
      write(`\r\x1b[K${bar}${count} ${unit}  ${what}`);
    },
    finish(text) {
      write(isTTY ? `\r\x1b[K${text}\n` : `${label}: ${text}\n`);
    },
  };
}
