/**
 * Every CLI answers `--help` and `-h` (and `help` where it has commands) with its usage on stdout
 * and exit 0; bad input is exit 2 with the usage on stderr. These are the shared pieces.
 */

/** `--help` or `-h` anywhere in the arguments. */
export function helpRequested(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/**
 * For a CLI that takes no arguments (a worker, a one-step tool): the exit code to leave with when
 * it was asked for help (0, usage on stdout) or given arguments (2, usage on stderr); null to run.
 */
export function answerArgumentless(name: string, argv: readonly string[], usage: string): number | null {
  if (helpRequested(argv)) {
    console.log(usage);
    return 0;
  }
  if (argv.length > 0) {
    console.error(`${name}: unexpected argument ${JSON.stringify(argv[0])}\n${usage}`);
    return 2;
  }
  return null;
}
