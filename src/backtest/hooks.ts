import type { Tick } from '../domain/tick.js';
import type { Transaction } from '../domain/transactions.js';
import type { Engine } from '../engine/engine.js';
import type { EngineStrategyContext } from './context.js';
import { POINT_FILL, type EquityRecorder } from './equity.js';
import type { Strategy, StrategyContext, StrategyDefinition, StrategyParams } from './strategy.js';
import { TRANSACTIONS_PER_DELIVERY_MAX } from '../domain/limits.js';
import { strategyFrame } from './strategy-frame.js';

export class StrategyError extends Error {
  override readonly name = 'StrategyError';
}

type Hook = 'create' | 'onStart' | 'onTick' | 'onTransaction' | 'onEnd';

/** The hooks a strategy may return; each is optional, and a function when given. */
const HOOKS = ['onStart', 'onTick', 'onTransaction', 'onEnd'] as const;

function checkSync(result: unknown, strategy: string, hook: Hook): void {
  if (typeof result === 'object' && result !== null && typeof (result as { then?: unknown }).then === 'function') {
    // The run stops on the error below; a rejection of the promise (an async hook that throws)
    // would otherwise reach the process as an unhandled rejection after it.
    (result as PromiseLike<unknown>).then(undefined, () => undefined);
    throw new StrategyError(`strategy ${strategy}: ${hook} returned a Promise; hooks must be synchronous (the account answers in process)`);
  }
}

function wrapError(error: unknown, strategy: string, hook: Hook, time: string): Error {
  if (error instanceof StrategyError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const frame = strategyFrame(error);
  const where = frame === undefined ? '' : ` (${frame})`;
  return new StrategyError(`strategy ${strategy} failed in ${hook} at ${time}: ${message}${where}`, { cause: error });
}

/** The strategy's hooks for this run (its create(params)). */
function createHooks<P extends StrategyParams>(definition: StrategyDefinition<P>, params: P, ctx: EngineStrategyContext<P>): Strategy<P> {
  let hooks: Strategy<P>;
  try {
    hooks = definition.create(params);
  } catch (error) {
    throw wrapError(error, definition.name, 'create', ctx.time);
  }
  checkSync(hooks, definition.name, 'create');
  if (typeof hooks !== 'object' || hooks === null)
    throw new StrategyError(`strategy ${definition.name}: create(params) must return an object of hooks`);
  // Checked here, not when called: `onTick: 5` would fail on its first tick as "onTick.call is not a function".
  for (const hook of HOOKS) {
    const fn: unknown = hooks[hook];
    if (fn !== undefined && typeof fn !== 'function')
      throw new StrategyError(`strategy ${definition.name}: ${hook} must be a function, got ${fn === null ? 'null' : typeof fn}`);
  }
  return hooks;
}

/**
 * A run's strategy: calls its hooks (a throw or a Promise becomes a StrategyError naming the hook
 * and the simulated time) and hands it the transactions the engine journaled since the last round.
 */
export class StrategyHooks<P extends StrategyParams> {
  private readonly hooks: Strategy<P>;
  private readonly name: string;
  private readonly context: StrategyContext<P>;

  constructor(
    definition: StrategyDefinition<P>,
    params: P,
    private readonly ctx: EngineStrategyContext<P>,
    private readonly engine: Engine,
    /** The transactions journaled and not yet delivered (the run's journal fills it). */
    readonly pending: Transaction[],
    private readonly recorder: EquityRecorder,
  ) {
    this.hooks = createHooks(definition, params, ctx);
    this.name = definition.name;
    this.context = ctx as StrategyContext<P>;
  }

  private call(hook: Hook, fn: () => unknown): void {
    let result: unknown;
    try {
      result = fn();
    } catch (error) {
      throw wrapError(error, this.name, hook, this.ctx.time);
    }
    checkSync(result, this.name, hook);
  }

  /** onStart, then the transactions it caused. */
  start(): void {
    const { hooks, context } = this;
    if (hooks.onStart !== undefined) this.call('onStart', () => hooks.onStart?.call(hooks, context));
    this.deliver();
  }

  /** The transactions of a tick, then onTick and the transactions it caused. */
  tick(tick: Tick): void {
    if (this.pending.length !== 0) this.deliver();
    const { hooks, context } = this;
    const onTick = hooks.onTick;
    if (onTick === undefined) return;
    try {
      const result: unknown = onTick.call(hooks, tick, context);
      if (result !== undefined) checkSync(result, this.name, 'onTick');
    } catch (error) {
      throw wrapError(error, this.name, 'onTick', this.ctx.time);
    }
    if (this.pending.length !== 0) this.deliver();
  }

  /** onEnd, then the transactions it caused. */
  end(): void {
    const { hooks, context } = this;
    if (hooks.onEnd !== undefined) this.call('onEnd', () => hooks.onEnd?.call(hooks, context));
    this.deliver();
  }

  /** Hands each pending transaction to onTransaction (whose own transactions join the queue), then marks fills on the curve. */
  private deliver(): void {
    const { hooks, context, pending, name } = this;
    const onTransaction = hooks.onTransaction;
    let fills = false;
    let i = 0;
    while (i < pending.length) {
      const tx = pending[i] as Transaction;
      i += 1;
      if (tx.type === 'ORDER_FILL') fills = true;
      if (onTransaction !== undefined) {
        if (i > TRANSACTIONS_PER_DELIVERY_MAX)
          throw new StrategyError(
            `strategy ${name}: more than ${TRANSACTIONS_PER_DELIVERY_MAX} transactions in one delivery round; does onTransaction answer its own transactions forever?`,
          );
        this.call('onTransaction', () => onTransaction.call(hooks, tx, context));
      }
    }
    pending.length = 0;
    this.recorder.invalidate();
    if (fills) this.recorder.record(this.engine.now, POINT_FILL);
  }
}
