/**
 * robots.txt (RFC 9309), pure. Groups of `User-agent` lines share the rules below them; a crawler
 * obeys the group naming its product token (longest match), else the `*` group. The longest
 * matching path rule wins, `Allow` on a tie; `*` matches any run of characters and `$` anchors
 * the end. `Crawl-delay` is not in the RFC but widely used: it is read and returned.
 */
export interface RobotsRules {
  isAllowed(path: string, userAgent: string): boolean;
  /** Seconds between requests the site asks of this agent, or null. */
  crawlDelaySeconds(userAgent: string): number | null;
}

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay: number | null;
}

function ruleRegex(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** The product token of a User-Agent string: "FilingsBot/1.0 (+ops@x)" -> "filingsbot". */
export function productToken(userAgent: string): string {
  return (userAgent.trim().split(/[\s/]/)[0] ?? '').toLowerCase();
}

export function parseRobotsTxt(text: string): RobotsRules {
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelay: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (field === 'allow' || field === 'disallow') {
      // An empty Disallow allows everything: it adds no rule.
      if (value) current.rules.push({ allow: field === 'allow', pattern: value, regex: ruleRegex(value) });
    } else if (field === 'crawl-delay') {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = seconds;
    }
  }

  const groupFor = (userAgent: string): Group[] => {
    const token = productToken(userAgent);
    let best: Group[] = [];
    let bestLength = 0;
    for (const group of groups) {
      for (const agent of group.agents) {
        if (agent === '*' || !token.includes(agent)) continue;
        if (agent.length > bestLength) {
          best = [group];
          bestLength = agent.length;
        } else if (agent.length === bestLength && !best.includes(group)) best.push(group);
      }
    }
    // Groups naming the same agent are merged (RFC 9309 2.2.1); no named group -> the * groups.
    return best.length > 0 ? best : groups.filter((g) => g.agents.includes('*'));
  };

  return {
    isAllowed(path, userAgent) {
      const target = path.startsWith('/') ? path : `/${path}`;
      let decision: Rule | null = null;
      for (const group of groupFor(userAgent)) {
        for (const rule of group.rules) {
          if (!rule.regex.test(target)) continue;
          const longer = !decision || rule.pattern.length > decision.pattern.length;
          const tieAllow = decision !== null && rule.pattern.length === decision.pattern.length && rule.allow;
          if (longer || tieAllow) decision = rule;
        }
      }
      return decision ? decision.allow : true;
    },
    crawlDelaySeconds(userAgent) {
      const delays = groupFor(userAgent).map((g) => g.crawlDelay).filter((d): d is number => d !== null);
      return delays.length > 0 ? Math.max(...delays) : null;
    },
  };
}

/** Everything allowed (robots.txt absent: 4xx). */
export const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelaySeconds: () => null };
/** Nothing allowed (robots.txt unreachable: 5xx or network error, RFC 9309 2.3.1.4). */
export const DISALLOW_ALL: RobotsRules = { isAllowed: () => false, crawlDelaySeconds: () => null };
