// Unit specs that parse real PDFs take seconds on a loaded 2-core machine (seen: 5 s exceeded at
// load average 8). The timeout is there to catch a hang, not to measure speed (benches do that).
jest.setTimeout(30_000);
