import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a fresh Node process (the engine setting is process-wide); returns its output. */
function inFreshProcess(body: string): string {
  const script = `import * as mode from './src/engineMode.ts';\n${body}`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
}

describe('engine mode', () => {
  it('favours speed only while requests run, memory again after, even when the work throws', () => {
    const out = inFreshProcess(`
      const seen = [mode.engineFavours()];
      mode.favourMemory();
      seen.push(mode.engineFavours());
      await mode.favouringSpeed(async () => { seen.push(mode.engineFavours()); });
      seen.push(mode.engineFavours());
      await mode.favouringSpeed(async () => { throw new Error('x'); }).catch(() => {});
      seen.push(mode.engineFavours());
      console.log(seen.join(' '));`);
    expect(out).toBe('default memory speed memory memory');
  });

  it('leaves a process that never asked for memory as it is', () => {
    const out = inFreshProcess(`
      const seen = [];
      await mode.favouringSpeed(async () => { seen.push(mode.engineFavours()); });
      seen.push(mode.engineFavours());
      console.log(seen.join(' '));`);
    expect(out).toBe('default default');
  });
});

describe('engine mode under a large heap', () => {
  it('favours memory again, for the rest of the work, once the heap passes the budget', () => {
    const out = inFreshProcess(`
      mode.favourMemory();
      const seen = [];
      await mode.favouringSpeed(async () => {
        seen.push(mode.engineFavours());
        await new Promise((resolve) => setTimeout(resolve, 200));
        seen.push(mode.engineFavours());
      }, { budgetBytes: 1, everyMs: 20 });
      seen.push(mode.engineFavours());
      await mode.favouringSpeed(async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        seen.push(mode.engineFavours());
      }, { budgetBytes: 1e12, everyMs: 20 });
      console.log(seen.join(' '));`);
    expect(out).toBe('speed memory memory speed');
  });
});
