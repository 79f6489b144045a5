import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { agentComment, writerAlive } from './host-rules.js';
import { procStatSync } from '../../util/process-alive.js';

describe("service rules' writers", () => {
  it('names the writing agent by pid and start time', () => {
    const comment = agentComment('c1', 'node-a', '10.96.0.0/16');
    assert.equal(comment, `drover c1 node-a 10.96.0.0/16 pid:${process.pid}:${procStatSync(process.pid)!.startTicks}`);
    assert.equal(writerAlive(comment), true);
  });

  it('takes a pid that another process has now for an agent that is gone', () => {
    // This process's pid with another start time: what a stopped agent's comment reads like once its pid is reused.
    const reused = `drover c1 node-a 10.96.0.0/16 pid:${process.pid}:${procStatSync(process.pid)!.startTicks + 1}`;
    assert.equal(writerAlive(reused), false);
    const ended = spawnSync('true').pid!;
    assert.equal(writerAlive(agentComment('c1', 'node-a', '10.96.0.0/16', ended)), false);
  });

  it("reads an older agent's comment, without a start time, by its pid alone", () => {
    assert.equal(writerAlive(`drover c1 node-a 10.96.0.0/16 pid:${process.pid}`), true);
    assert.equal(writerAlive(`drover c1 node-a 10.96.0.0/16 pid:${spawnSync('true').pid!}`), false);
  });
});
