// CPU time of the stack's processes, from /proc (Linux): where a benchmark's work goes, in a
// figure that, unlike throughput, hardly depends on what else the machine is doing.
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';

const TICKS_PER_SECOND = 100;

interface ProcessInfo {
  pid: number;
  ppid: number;
  cpuSeconds: number;
  commandLine: string;
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return { pid, ppid: Number(fields[1]), cpuSeconds: ticks / TICKS_PER_SECOND, commandLine };
  } catch {
    return null;
  }
}

function allProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p) => p !== null);
}

// Groups: a name and how to recognise the group's root process; each group counts its root and
// every live descendant (PostgreSQL's backends are children of the postmaster).
export type ProcessGroups = Record<string, (p: ProcessInfo) => boolean>;

export function sampleCpu(groups: ProcessGroups): Record<string, number> {
  const processes = allProcesses();
  const children = new Map<number, ProcessInfo[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const subtreeSeconds = (root: ProcessInfo): number =>
    root.cpuSeconds + (children.get(root.pid) ?? []).reduce((sum, child) => sum + subtreeSeconds(child), 0);
  const sample: Record<string, number> = {};
  for (const [name, isRoot] of Object.entries(groups)) {
    sample[name] = processes.filter(isRoot).reduce((sum, root) => sum + subtreeSeconds(root), 0);
  }
  return sample;
}

export function cpuDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((name) => [name, after[name]! - (before[name] ?? 0)]));
}

export function pidFrom(file: string | undefined): number | null {
  if (!file) return null;
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

export const coreCount = cpus().length;

// CPU seconds so far of each part of a test stack (this process is the API and the benchmark
// client): what a unit of work costs each side, a figure that moves far less with the machine's
// load than wall time.
export function stackCpuSampler(env: Record<string, string>): () => Record<string, number> {
  const workDir = env.TEST_WORK_DIR!;
  const groups: ProcessGroups = {
    worker: (p) => p.pid === pidFrom(env.WORKER_PID_FILE),
    temporal: (p) => p.pid === pidFrom(env.TEMPORAL_PID_FILE),
    postgres: (p) => p.commandLine.includes(`${workDir}/postgres`),
    minio: (p) => p.commandLine.includes(`${workDir}/minio`),
  };
  return () => {
    const { user, system } = process.cpuUsage();
    return { ...sampleCpu(groups), 'api + client': (user + system) / 1e6 };
  };
}
