// Runs one agent in its own process, configured by a JSON argument:
//   node dist/test/support/agent/standalone-agent.js '{"server":"http://127.0.0.1:6443","nodeName":"n1","dataDir":"/var/lib/drover"}'
// The end-to-end tests use it to kill an agent with SIGKILL and start it again; `drover agent`
// is the command for people. Prints "agent ready" once the node is registered and pods sync.
import { startAgent, type AgentOptions } from '../../../src/agent/agent.js';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as AgentOptions;
  const agent = await startAgent(options);
  console.log(`agent ready: ${agent.nodeName}`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    agent.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
