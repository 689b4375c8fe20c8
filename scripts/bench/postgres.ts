import { readFileSync } from "node:fs";
import postgres from "postgres";
import { ProcessSetCpu, procStatCpuMs } from "./journey-stats";

/*
 * The journey bench on PostgreSQL (scripts/bench-journey.ts): a throwaway database per app server,
 * the CPU time of its backends, and the lock waits seen in it.
 */

/** A database created for the run on the server of `serverUrl` (trust auth), dropped by `drop`. */
export async function throwawayDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
      // FORCE: the app's connections may not be closed yet when the bench ends.
      await again.unsafe(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

/** A lock wait seen: since when, and for how long at the last look. */
interface Wait {
  since: number;
  longest: number;
}

/**
 * Watches one database: every `everyMs`, which backends serve it (pg_stat_activity; this
 * watcher's own connection left out) and which of them wait for a lock (pg_locks, not granted,
 * with its `waitstart`). Their CPU is read from /proc/<pid>/stat of each backend (the server is
 * on this machine), kept across backends that come and go.
 */
export class DatabaseWatch {
  private readonly sql;
  private readonly cpu = new ProcessSetCpu();
  private pids: number[] = [];
  private readonly waits = new Map<string, Wait>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    url: string,
    private readonly database: string,
    private readonly everyMs = 100,
  ) {
    this.sql = postgres(url, { max: 1, onnotice: () => {} });
  }

  async start(): Promise<void> {
    await this.look();
    this.timer = setInterval(() => void this.look(), this.everyMs);
  }

  private async look(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const backends = await this.sql<{ pid: number }[]>`
        select pid from pg_stat_activity where datname = ${this.database} and pid <> pg_backend_pid()`;
      this.pids = backends.map((b) => b.pid);
      const waiting = await this.sql<{ pid: number; since: Date; ms: number }[]>`
        select l.pid, l.waitstart as since, extract(epoch from (clock_timestamp() - l.waitstart)) * 1000 as ms
        from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.datname = ${this.database} and l.waitstart is not null`;
      for (const w of waiting) {
        const key = `${w.pid}@${w.since.getTime()}`;
        const seen = this.waits.get(key);
        this.waits.set(key, { since: w.since.getTime(), longest: Math.max(seen?.longest ?? 0, Number(w.ms)) });
      }
      this.cpuMs();
    } catch {
      // The database is going away at the end of the run.
    } finally {
      this.busy = false;
    }
  }

  /** The CPU time of the database's backends so far, in ms. */
  cpuMs(): number {
    const readings = new Map<number, number>();
    for (const pid of this.pids) {
      try {
        readings.set(pid, procStatCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8")));
      } catch {
        // gone
      }
    }
    return this.cpu.update(readings);
  }

  /** The lock waits seen, those of at least `overMs`, and the longest. */
  lockWaits(overMs = 100): { seen: number; over: number; longestMs: number } {
    const all = [...this.waits.values()];
    return { seen: all.length, over: all.filter((w) => w.longest >= overMs).length, longestMs: Math.max(0, ...all.map((w) => w.longest)) };
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sql.end({ timeout: 1 });
  }
}
