/**
 * Preloaded (`node -r`) into a server when the bench profiles it: exits cleanly on an IPC 'exit'
 * message, so `--cpu-prof` writes its profile (Nest's shutdown hooks re-raise the signal, and a
 * process killed by a signal writes none).
 */
process.on('message', (message) => {
  if (message === 'exit') process.exit(0);
});
