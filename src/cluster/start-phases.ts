// The steps of starting a server, a node or a whole cluster, reported as each begins, so the
// command that starts them can show how far along it is (src/cli/start-progress.ts).
export type StartPhase = 'store' | 'security' | 'api' | 'registration' | 'control-plane' | 'node';

/** Called as each phase begins; the previous one has then ended. */
export type OnStartPhase = (phase: StartPhase) => void;

/** What each phase does, as the progress line says it. */
export const START_PHASE_LABELS: Record<StartPhase, string> = {
  store: 'opening the store',
  security: 'loading the cluster CA and certificates',
  api: 'starting the API server',
  registration: "publishing the server (the kubernetes Service's endpoints)",
  'control-plane': 'starting the scheduler and controllers',
  node: "starting the node (Docker, pause image, pod network, the Node's registration)",
};

/** The phases `drover server` goes through, in order. */
export function serverPhases(controlPlane: boolean): StartPhase[] {
  return ['store', 'security', 'api', 'registration', ...(controlPlane ? ['control-plane' as const] : [])];
}
