import { parseRobotsTxt, productToken } from './robots.parser';

describe('parseRobotsTxt', () => {
  const robots = parseRobotsTxt(`
# comment
User-agent: *
Disallow: /private/
Allow: /private/annual-report.pdf
Disallow: /*.cgi$
Crawl-delay: 2

User-agent: BadBot
User-agent: filingsbot-legacy
Disallow: /

User-agent: FilingsBot
Disallow: /drafts
`);

  it('applies the * group to an agent not named', () => {
    expect(robots.isAllowed('/investor-relations.html', 'OtherBot/1.0')).toBe(true);
    expect(robots.isAllowed('/private/x.html', 'OtherBot/1.0')).toBe(false);
    expect(robots.isAllowed('/private/annual-report.pdf', 'OtherBot/1.0')).toBe(true);
    expect(robots.isAllowed('/cgi/run.cgi', 'OtherBot/1.0')).toBe(false);
    expect(robots.isAllowed('/cgi/run.cgi?x=1', 'OtherBot/1.0')).toBe(true);
    expect(robots.crawlDelaySeconds('OtherBot/1.0')).toBe(2);
  });

  it('applies only the most specific group naming the product token', () => {
    expect(productToken('FilingsBot/1.0 (+ops@filings.example)')).toBe('filingsbot');
    expect(robots.isAllowed('/private/x.html', 'FilingsBot/1.0 (+ops@filings.example)')).toBe(true);
    expect(robots.isAllowed('/drafts/q3.pdf', 'FilingsBot/1.0')).toBe(false);
    expect(robots.isAllowed('/anything', 'BadBot')).toBe(false);
    expect(robots.crawlDelaySeconds('FilingsBot/1.0')).toBeNull();
  });

  it('allows everything when empty, or with an empty Disallow', () => {
    expect(parseRobotsTxt('').isAllowed('/x', 'A')).toBe(true);
    expect(parseRobotsTxt('User-agent: *\nDisallow:\n').isAllowed('/x', 'A')).toBe(true);
  });
});
