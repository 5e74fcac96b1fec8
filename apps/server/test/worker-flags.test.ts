import { describe, expect, it } from 'vitest';
import { workerExecArgv } from '../src/cluster/primary.js';

// The click workers' Node flags: the primary's own, with a larger young generation unless the operator
// chose its size, on the command line or in NODE_OPTIONS (either spelling V8 takes).

describe("the workers' Node flags", () => {
  it("add the young generation's size to the primary's flags", () => {
    expect(workerExecArgv(['--enable-source-maps'])).toEqual(['--enable-source-maps', '--max-semi-space-size=64']);
    expect(workerExecArgv([], '--max-old-space-size=4096')).toEqual(['--max-semi-space-size=64']);
  });

  it("keep the operator's own size, from the command line or NODE_OPTIONS", () => {
    expect(workerExecArgv(['--max-semi-space-size=8', '--enable-source-maps'])).toEqual([
      '--max-semi-space-size=8',
      '--enable-source-maps',
    ]);
    expect(workerExecArgv(['--enable-source-maps'], '--max_semi_space_size=128')).toEqual(['--enable-source-maps']);
  });
});
