/**
 * SQL for the `<TICKER>:<MARKET>` symbol a resource of an issuer names it by, the one the `symbols`
 * filters and the /v1/companies/{symbol} routes take: the issuer's listing under `tickerSql` when
 * the resource names a ticker and such a listing exists, else its primary listing (active first,
 * then by symbol). NULL when no listing of the issuer is known.
 */
export function issuerSymbolSql(cikSql: string, tickerSql?: string): string {
  const byTicker = tickerSql ? `upper(x.ticker) IS NOT DISTINCT FROM upper(${tickerSql}) DESC, ` : '';
  return `(SELECT x.symbol FROM companies x WHERE x.cik = ${cikSql} ORDER BY ${byTicker}x.status <> 'active', x.symbol LIMIT 1)`;
}
