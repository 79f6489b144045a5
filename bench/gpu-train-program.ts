// The Python program each replica of bench:gpu's PyTorchJob runs: it joins the job's rendezvous
// through torch.distributed (gloo, env://: the MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE the job
// controller set), trains a tiny model a few steps on its own slice of data (on `cuda` when it
// was given a GPU, else on the CPU), all-reducing the gradients as CPU tensors, and prints one
// JSON line: what it saw of the GPUs, the loss averaged over the ranks before and after, and how
// far its weights ended from rank 0's. Its other lines (PyTorch's warnings) are left alone.

export const TRAINING_STEPS = 20;

export const TRAIN_PROGRAM = String.raw`
import datetime, json, os
import torch
import torch.distributed as dist

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
rendezvous = os.environ["MASTER_ADDR"] + ":" + os.environ["MASTER_PORT"]
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=120))
print(f"rank {rank} of {world} joined the rendezvous at {rendezvous}", flush=True)
count = torch.cuda.device_count()
device = torch.device("cuda" if count > 0 else "cpu")
torch.manual_seed(0)  # the same initial weights on every rank
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
# Each rank its own slice of the data: without the all-reduce the ranks' weights would part.
data = torch.Generator().manual_seed(1 + rank)
x = torch.randn(512, 8, generator=data)
y = torch.sin(x @ torch.linspace(-1.0, 1.0, 8).unsqueeze(1))
x, y = x.to(device), y.to(device)

def mean_over_ranks(t):
    # gloo all-reduces CPU tensors: a copy on the CPU, summed over the ranks, then averaged.
    t = t.detach().to("cpu", copy=True)
    dist.all_reduce(t)
    return t / world

def loss_over_ranks():
    with torch.no_grad():
        return mean_over_ranks(torch.nn.functional.mse_loss(model(x), y).reshape(1)).item()

first_loss = loss_over_ranks()
for step in range(${TRAINING_STEPS}):
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(x), y).backward()
    for p in model.parameters():
        p.grad.copy_(mean_over_ranks(p.grad))
    optimizer.step()
loss = loss_over_ranks()
weights = torch.cat([p.detach().to("cpu").reshape(-1) for p in model.parameters()])
rank0 = weights.clone()
dist.broadcast(rank0, src=0)
print(json.dumps({
    "rank": rank,
    "world_size": world,
    "rendezvous": rendezvous,
    "device": device.type,
    "device_name": torch.cuda.get_device_name(0) if count > 0 else None,
    "device_count": count,
    "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
    "nvidia_visible_devices": os.environ.get("NVIDIA_VISIBLE_DEVICES"),
    "first_loss": first_loss,
    "loss": loss,
    "weight_drift": (weights - rank0).abs().max().item(),
}), flush=True)
dist.destroy_process_group()
`;

/** A replica's JSON line. */
export interface ReplicaReport {
  rank: number;
  worldSize: number;
  rendezvous: string;
  /** Where it trained: `cuda` or `cpu`. */
  device: string;
  deviceName: string | null;
  deviceCount: number;
  cudaVisibleDevices: string | null;
  nvidiaVisibleDevices: string | null;
  firstLoss?: number;
  loss?: number;
  /** The largest difference of its weights from rank 0's after the last step. */
  weightDrift?: number;
  /** Set only by scripts/device-gpu-dry-run.sh's stand-in python3, which has no PyTorch: why no loss. */
  standIn?: string;
}

/** The last JSON line of a replica's log that carries a rank; undefined when there is none. */
export function parseReplicaReport(log: string): ReplicaReport | undefined {
  let found: ReplicaReport | undefined;
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof o['rank'] !== 'number') continue;
    const num = (key: string) => (typeof o[key] === 'number' ? o[key] : undefined);
    const str = (key: string) => (typeof o[key] === 'string' ? o[key] : null);
    found = {
      rank: o['rank'],
      worldSize: Number(o['world_size']),
      rendezvous: str('rendezvous') ?? '',
      device: str('device') ?? '',
      deviceName: str('device_name'),
      deviceCount: Number(o['device_count']),
      cudaVisibleDevices: str('cuda_visible_devices'),
      nvidiaVisibleDevices: str('nvidia_visible_devices'),
      firstLoss: num('first_loss'),
      loss: num('loss'),
      weightDrift: num('weight_drift'),
      standIn: str('stand_in') ?? undefined,
    };
  }
  return found;
}
