import { ConfigError, findCheckoutRoot, loadOperatorConfig } from '@app/config';
import {
  backfillStatusCommand,
  dlqListCommand,
  dlqRequeueCommand,
  dlqShowCommand,
  lagCommand,
  OpsFailure,
  replayIntoCommand,
  replayResetCommand,
  type OpsContext,
} from './ops.commands';
import { followerGroups, operatorConfigSchema } from './ops.config';
import { EXIT, parseOpsArgs, USAGE, UsageError, type OpsCommand } from './ops.args';

/**
 * `npm run ops -- <command>`: the operator's CLI (lag, dead letters, replays, backfill checkpoints).
 * Works from a plain shell after `npm start`: the settings it wrote under `.run/` fill in what the
 * environment does not set. Exit codes: 0 done, 1 failed, 2 bad input; `lag` also 3 (dead letters
 * wait) and 4 (a group's lag above --max-lag), so it serves as a health check (codes in ops.args.ts).
 */
async function main(argv: string[]): Promise<number> {
  const command: OpsCommand = parseOpsArgs(argv);
  if (command.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  const config = loadOperatorConfig(operatorConfigSchema);
  const ctx: OpsContext = {
    settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ops-cli', logLevel: 'nothing' },
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    projectorGroup: config.PROJECTOR_GROUP_ID,
    followerGroups: followerGroups(config),
    root: findCheckoutRoot(__dirname),
    out: (line) => console.log(line),
    warn: (line) => console.error(line),
    progress: { tty: process.stderr.isTTY === true, write: (text) => process.stderr.write(text) },
  };
  switch (command.kind) {
    case 'lag':
      return lagCommand(ctx, command);
    case 'dlq-list':
      await dlqListCommand(ctx, command.topic, command.json);
      break;
    case 'dlq-show':
      await dlqShowCommand(ctx, command.topic, command.offset, command.limit, command.full, command.json);
      break;
    case 'dlq-requeue':
      await dlqRequeueCommand(ctx, command.topic, command.select);
      break;
    case 'replay':
      await replayIntoCommand(ctx, command.topics, command.into, process.env);
      break;
    case 'replay-reset':
      await replayResetCommand(ctx, command.topics);
      break;
    case 'backfill-status':
      backfillStatusCommand(ctx, command.dir, command.json);
      break;
    default: {
      const unreachable: never = command;
      throw new Error(`unhandled command ${JSON.stringify(unreachable)}`);
    }
  }
  return EXIT.done;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      if (err.showUsage) console.error(`error: ${err.message}\n\n${USAGE}`);
      else console.error(`error: ${err.message}`);
      process.exit(EXIT.badInput);
    }
    if (err instanceof ConfigError || err instanceof OpsFailure) console.error(`error: ${err.message}`);
    else console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(EXIT.failed);
  },
);
