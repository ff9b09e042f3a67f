package dev.pagantic.orchestrate;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Engine;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.validate.RetryPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * N-version inference: the same structured request runs N times (default 3) as independent {@link SpecializedLoop}
 * calls, and a {@link VotingStrategy} picks the winner (triple modular redundancy for LLM output).
 *
 * <h2>A call</h2>
 * <ol>
 *   <li>N replicas run, one after another by default (so that one local GPU is not contended), or concurrently on
 *       the configured {@link Builder#executor(Executor) executor}. Replica {@code i} samples with the seed
 *       {@code base + i} (the options' seed, or {@link Builder#baseSeed(long)}), so the votes are independent and a
 *       call is reproducible. Each replica repairs its own output; voting replaces retry, so no replica retries.</li>
 *   <li>A replica that fails is recorded in {@link RedundantResult#failures()} and the others go on (the pattern
 *       recovers from {@code InferenceFailure} and {@code ConstraintFailure} of single replicas). A cancellation ends
 *       the whole call.</li>
 *   <li>The successful outputs (the validated JSON) are the candidates; the strategy votes on them
 *       ({@link MajorityVoting} by default, first seen wins a tie). The confidence is the vote's, over the candidates.
 *   </li>
 * </ol>
 * When no replica succeeds, the call fails with the last replica's failure; when fewer than
 * {@link Builder#minSuccesses(int) minSuccesses} (default a majority of N) succeed, or the strategy finds no winner,
 * it fails with {@code ORCHESTRATION_NO_CONSENSUS}. The usage is summed over every inference of every replica.
 *
 * <h2>Lifecycle and events</h2>
 * A call can drive the {@link PatternPath#REDUNDANT_LOOP} path: INIT → PREPARE → EXECUTE (the replicas) → VALIDATE
 * (the vote) → COMPLETE, or ERROR / CANCELLED; a failed replica is recorded as a recovered error, never a retry. Each
 * vote is a {@code vote} event with the replica, candidate and failure counts, the winner's index and the confidence.
 */
public final class RedundantLoop implements AutoCloseable {

    /** The default number of replicas. */
    public static final int DEFAULT_N = 3;
    /** The default first seed. */
    public static final long DEFAULT_BASE_SEED = 1;

    private final SpecializedLoop replica;
    private final int n;
    private final int minSuccesses;
    private final VotingStrategy voting;
    private final long baseSeed;
    private final Executor executor; // null: sequential
    private final EventLog eventLog;
    private final TransitionListener transitionListener; // null: none

    private RedundantLoop(Builder builder, SpecializedLoop replica) {
        this.replica = replica;
        this.n = builder.n;
        this.minSuccesses = builder.minSuccesses > 0 ? builder.minSuccesses : builder.n / 2 + 1;
        this.voting = builder.voting;
        this.baseSeed = builder.baseSeed;
        this.executor = builder.executor;
        this.eventLog = builder.eventLog;
        this.transitionListener = builder.transitionListener;
    }

    /** Starts building a loop; an engine and a schema are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs the N replicas and votes.
     *
     * @throws PaganticException {@code ORCHESTRATION_NO_CONSENSUS} when too few replicas succeed or the vote finds no
     *                           winner; the last replica's failure when none succeeds; {@code CANCELLED_*}
     */
    public RedundantResult call(CallContext ctx, String prompt) {
        return run(ctx, prompt, TurnOptions.DEFAULTS).orElseThrow();
    }

    /** Runs the replicas in a {@linkplain CallContext#background() background context}. */
    public RedundantResult call(String prompt) {
        return call(CallContext.background(), prompt);
    }

    /**
     * Runs the replicas with per-call settings (applied to every replica; the options' seed, when present, is the base
     * seed) and reports the whole call, failed or not. A lifecycle in the options (INIT or PLAN, on the
     * {@link PatternPath#REDUNDANT_LOOP} path) is driven to its end.
     *
     * @throws PaganticException only {@code CONFIG_INVALID} for options that cannot apply; every other failure is in
     *                           the outcome
     */
    public RedundantOutcome run(CallContext ctx, String prompt, TurnOptions options) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(options, "options");
        Phases phases = new Phases(Phases.requireStartable(options.lifecycle()).orElseGet(
                () -> transitionListener == null ? null
                        : ExecutionLifecycle.start(ctx, PatternPath.REDUNDANT_LOOP, transitionListener)));
        List<SpecializedOutcome> replicas = List.of();
        try {
            phases.prepare("preparing " + n + " replicas");
            ctx.throwIfDone();
            phases.execute("running " + n + " replicas " + (executor == null ? "sequentially" : "concurrently"));
            replicas = runReplicas(ctx, prompt, options);
            RedundantResult result = vote(ctx, replicas, phases);
            phases.complete("winner chosen with confidence " + result.confidence());
            return outcome(replicas, Optional.of(result), Optional.empty());
        } catch (PaganticException failure) {
            phases.fail(failure);
            return outcome(replicas, Optional.empty(), Optional.of(failure));
        } catch (RuntimeException | Error bug) {
            phases.fail(bug);
            throw bug;
        }
    }

    /** The number of replicas. */
    public int n() {
        return n;
    }

    /** The least number of replicas that must succeed. */
    public int minSuccesses() {
        return minSuccesses;
    }

    /** Closes the replicas' tool executor if the loop created one; the executor and engine stay open. */
    @Override
    public void close() {
        replica.close();
    }

    @Override
    public String toString() {
        return "RedundantLoop[n=" + n + ", minSuccesses=" + minSuccesses + ", voting=" + voting + ", "
                + (executor == null ? "sequential" : "concurrent") + "]";
    }

    private List<SpecializedOutcome> runReplicas(CallContext ctx, String prompt, TurnOptions options) {
        long base = options.seed().orElse(baseSeed);
        List<SpecializedOutcome> outcomes = new ArrayList<>(n);
        if (executor == null) {
            for (int i = 0; i < n; i++) {
                outcomes.add(checked(ctx, replica.run(ctx, prompt, seeded(options, base + i))));
            }
            return outcomes;
        }
        List<CompletableFuture<SpecializedOutcome>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            TurnOptions seeded = seeded(options, base + i);
            futures.add(CompletableFuture.supplyAsync(() -> replica.run(ctx, prompt, seeded), executor));
        }
        // every replica is waited for, even after one failed, so that none runs on once the call has returned
        RuntimeException first = null;
        for (CompletableFuture<SpecializedOutcome> future : futures) {
            try {
                SpecializedOutcome outcome = future.join();
                if (first == null) {
                    outcomes.add(checked(ctx, outcome));
                }
            } catch (CompletionException wrapped) {
                if (first == null) {
                    first = wrapped.getCause() instanceof RuntimeException cause ? cause : wrapped;
                }
            } catch (RuntimeException failure) {
                if (first == null) {
                    first = failure;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return outcomes;
    }

    /** The outcome, unless the replica was cancelled: a cancellation ends the whole call. */
    private static SpecializedOutcome checked(CallContext ctx, SpecializedOutcome outcome) {
        Optional<PaganticException> failure = outcome.failure();
        if (failure.isPresent() && failure.get().category() == FailureCategory.CANCELLATION) {
            throw failure.get();
        }
        ctx.throwIfDone();
        return outcome;
    }

    private RedundantResult vote(CallContext ctx, List<SpecializedOutcome> replicas, Phases phases) {
        List<String> candidates = new ArrayList<>();
        List<PaganticException> failures = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        for (SpecializedOutcome outcome : replicas) {
            usage = usage.plus(outcome.usage());
            outcome.value().ifPresent(value -> candidates.add(value.content()));
            outcome.failure().ifPresent(failure -> {
                failures.add(failure);
                phases.recovered(failure);
            });
        }
        phases.validate("voting over " + candidates.size() + " of " + n + " replicas");
        Instant started = ctx.now();
        Event.Builder event = Event.builder(ctx, AgentLoop.LAYER, "vote").timestamp(started)
                .data("replicas", n)
                .data("candidates", candidates.size())
                .data("failures", failures.size());
        try {
            if (candidates.isEmpty()) {
                throw failures.get(failures.size() - 1);
            }
            if (candidates.size() < minSuccesses) {
                throw PaganticException.builder(ErrorCode.ORCHESTRATION_NO_CONSENSUS,
                                "only " + candidates.size() + " of " + n + " replicas succeeded; " + minSuccesses
                                        + " are needed")
                        .detail("succeeded", candidates.size())
                        .detail("replicas", n)
                        .detail("min_successes", minSuccesses)
                        .cause(failures.get(failures.size() - 1)).build();
            }
            Vote vote = voting.vote(candidates);
            if (eventLog.isEnabled()) {
                eventLog.record(event.data("winner_index", vote.winnerIndex()).data("confidence", vote.confidence())
                        .duration(EphemeralContext.elapsed(ctx, started)).build());
            }
            return RedundantResult.of(vote, candidates, usage, failures);
        } catch (PaganticException failure) {
            if (eventLog.isEnabled()) {
                eventLog.record(event.duration(EphemeralContext.elapsed(ctx, started)).error(failure).build());
            }
            throw failure;
        }
    }

    private static RedundantOutcome outcome(List<SpecializedOutcome> replicas, Optional<RedundantResult> value,
                                            Optional<PaganticException> failure) {
        TokenUsage usage = TokenUsage.ZERO;
        List<ToolExecution> tools = new ArrayList<>();
        for (SpecializedOutcome replica : replicas) {
            usage = usage.plus(replica.usage());
            tools.addAll(replica.toolExecutions());
        }
        return new RedundantOutcome(value, failure, usage, tools);
    }

    private static TurnOptions seeded(TurnOptions options, long seed) {
        return options.toBuilder().seed(seed).lifecycle(null).build();
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds a {@link RedundantLoop}: the specification's {@code RedundantConfig}, plus the minimum of successful
     * replicas, the base seed and an executor for concurrent replicas. The replica settings (engine, prompt, schema,
     * grammar, tools, context, ...) are those of a {@link SpecializedLoop.Builder}, given through
     * {@link #replica(java.util.function.Consumer)} or the shortcuts here. Validated at {@link #build()}:
     * {@code CONFIG_NO_ENGINE}, {@code CONFIG_SCHEMA_REQUIRED}, {@code CONFIG_INVALID}.
     */
    public static final class Builder {
        private final SpecializedLoop.Builder replica = SpecializedLoop.builder().retryPolicy(RetryPolicy.noRetry());
        private int n = DEFAULT_N;
        private int minSuccesses;
        private VotingStrategy voting = new MajorityVoting();
        private long baseSeed = DEFAULT_BASE_SEED;
        private Executor executor;
        private EventLog eventLog = EventLog.noOp();
        private TransitionListener transitionListener;

        private Builder() {
        }

        /** The inference backend (required). */
        public Builder engine(Engine value) {
            replica.engine(value);
            return this;
        }

        /** The system prompt of every replica. */
        public Builder systemPrompt(String value) {
            replica.systemPrompt(value);
            return this;
        }

        /** The schema of the structured output (required). */
        public Builder schema(Schema value) {
            replica.schema(value);
            return this;
        }

        /** A GBNF grammar; derived from the schema when absent and the engine supports grammars. */
        public Builder grammar(String value) {
            replica.grammar(value);
            return this;
        }

        /** The most tokens per inference of each replica; 2048 by default. */
        public Builder maxTokens(int value) {
            replica.maxTokens(value);
            return this;
        }

        /** Wraps every inference and tool call of every replica. */
        public Builder interceptor(Interceptor value) {
            replica.interceptor(value);
            return this;
        }

        /** Any other replica setting (tools, context provider, rules, stream, prompt provider, ...). */
        public Builder replica(java.util.function.Consumer<SpecializedLoop.Builder> settings) {
            settings.accept(replica);
            return this;
        }

        /** The number of replicas; {@value RedundantLoop#DEFAULT_N} by default (0 also means the default). */
        public Builder n(int value) {
            this.n = value == 0 ? DEFAULT_N : value;
            return this;
        }

        /** The least number of replicas that must succeed; a majority of N by default. */
        public Builder minSuccesses(int value) {
            this.minSuccesses = value;
            return this;
        }

        /** How the winner is picked; {@link MajorityVoting} by default. */
        public Builder voting(VotingStrategy value) {
            this.voting = value;
            return this;
        }

        /** The seed of replica 0 (replica i uses base + i); {@value RedundantLoop#DEFAULT_BASE_SEED} by default. */
        public Builder baseSeed(long value) {
            this.baseSeed = value;
            return this;
        }

        /** Runs the replicas concurrently on this executor; sequential by default. */
        public Builder executor(Executor value) {
            this.executor = value;
            return this;
        }

        /** Where the replicas' events and the {@code vote} events go; a no-op log by default. */
        public Builder eventLog(EventLog value) {
            this.eventLog = value;
            replica.eventLog(value);
            return this;
        }

        /** When set, every call drives its own lifecycle and reports its transitions here. */
        public Builder transitionListener(TransitionListener value) {
            this.transitionListener = value;
            return this;
        }

        /** The loop; see {@link Builder} for validation. */
        public RedundantLoop build() {
            require(n > 0, "n must be positive: ", n);
            require(minSuccesses >= 0 && minSuccesses <= n, "minSuccesses must be within [1, n]: ", minSuccesses);
            require(voting != null, "voting must not be null");
            require(eventLog != null, "eventLog must not be null (use EventLog.noOp())");
            return new RedundantLoop(this, replica.build());
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid RedundantLoop configuration: "
                        + message);
            }
        }

        private static void require(boolean condition, String message, Object value) {
            if (!condition) {
                require(false, message + value);
            }
        }
    }
}
