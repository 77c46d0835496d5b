// Pure extractors over issuer IR pages (cheerio) and the polite IR-site fetcher.
