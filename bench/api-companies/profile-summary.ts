import { readFileSync } from 'node:fs';

/**
 * `node dist/bench/api-companies/profile-summary.js <file.cpuprofile> [top]`: self time of a V8 CPU
 * profile (from BENCH_CPU_PROF_DIR) grouped by package / source file and by function, and the
 * inclusive time of the api's own hooks and handlers.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()].filter(([id]) => ['(idle)', '(program)', '(garbage collector)'].includes(byId.get(id)!.callFrame.functionName));

  const group = (key: (n: ProfileNode) => string): [string, number][] => {
    const m = new Map<string, number>();
    for (const [id, t] of self) {
      const k = key(byId.get(id)!);
      m.set(k, (m.get(k) ?? 0) + t);
    }
    return [...m.entries()].sort((a, b) => b[1] - a[1]);
  };
  const where = (n: ProfileNode): string => {
    const url = n.callFrame.url;
    if (!url) return n.callFrame.functionName || '(native)';
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (nm) return `npm:${nm[1]}`;
    if (url.startsWith('node:')) return url;
    const d = /\/dist\/(.*)$/.exec(url);
    return d ? d[1]! : url;
  };
  const ms = (us: number): string => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%`;

  console.log(`profile ${file}: ${(total / 1e6).toFixed(1)} s sampled; ${idle.map(([id, t]) => `${byId.get(id)!.callFrame.functionName} ${ms(t)}`).join(', ')}`);
  console.log('\nself time by package / file');
  for (const [k, t] of group(where).slice(0, top)) console.log(`${ms(t)}  ${k}`);
  console.log('\nself time by function');
  for (const [k, t] of group((n) => `${n.callFrame.functionName || '(anonymous)'}  ${where(n)}:${n.callFrame.lineNumber + 1}`).slice(0, top)) console.log(`${ms(t)}  ${k}`);

  // Inclusive time of every frame whose source is the api app (hooks, handler, auth, mapping...).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const k = `${n.callFrame.functionName || '(anonymous)'}  ${where(n)}:${n.callFrame.lineNumber + 1}`;
      if (!seen.has(k) && (/apps\/api\//.test(n.callFrame.url) || /npm:(pino|fastify|@nestjs\/[^ ]+|pg|zod)$/.test(where(n)))) {
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + t);
      }
    }
  }
  console.log('\ninclusive time, api app frames and pino/fastify/nest/pg/zod frames');
  for (const [k, t] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, top * 2)) console.log(`${ms(t)}  ${k}`);
}

main();
