package dev.pagantic.orchestrate.vote;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.internal.Phases;
import dev.pagantic.orchestrate.internal.Timing;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.loop.LoopBuilder;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.orchestrate.structured.SpecializedResult;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.validate.RetryPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * N-version inference: the same structured request runs N times (default 3) as independent {@link SpecializedLoop}
 * calls, and a {@link VotingStrategy} picks the winner (triple modular redundancy for LLM output).
 *
 * <h2>A call</h2>
 * <ol>
 *   <li>N replicas run, one after another by default (so that one local GPU is not contended), or concurrently on
 *       the configured {@link Builder#executor(Executor) executor}. On an engine that declares
 *       {@link Capability#SEED}, replica {@code i} samples with the seed {@code base + i} (the call's seed, or
 *       {@link Builder#baseSeed(long)}), so the votes are independent and a call is reproducible. Each replica repairs
 *       its own output; voting replaces retry, so no replica retries.</li>
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
    private final @Nullable ToolExecutor ownedExecutor;
    private final boolean seeded;
    private final int n;
    private final int minSuccesses;
    private final VotingStrategy voting;
    private final long baseSeed;
    private final @Nullable Executor executor;
    private final EventLog eventLog;
    private final @Nullable TransitionListener transitionListener;

    private RedundantLoop(Builder builder, LoopSettings settings, SpecializedLoop replica, boolean ownsExecutor) {
        this.replica = replica;
        this.ownedExecutor = ownsExecutor ? settings.toolExecutor().orElse(null) : null;
        this.seeded = settings.engine().modelInfo().supports(Capability.SEED);
        this.n = builder.n;
        this.minSuccesses = builder.minSuccesses > 0 ? builder.minSuccesses : builder.n / 2 + 1;
        this.voting = builder.voting;
        this.baseSeed = builder.baseSeed;
        this.executor = builder.executor;
        this.eventLog = settings.eventLog();
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
        return run(ctx, prompt, InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS).orElseThrow();
    }

    /** Runs the replicas in a {@linkplain CallContext#background() background context}. */
    public RedundantResult call(String prompt) {
        return call(CallContext.background(), prompt);
    }

    /**
     * Runs the replicas with the call's settings laid over the loop's (their seed, when present, is the base seed) and
     * per-call hooks, and reports the whole call, failed or not. A lifecycle in the options (INIT or PLAN, on the
     * {@link PatternPath#REDUNDANT_LOOP} path) is driven to its end.
     *
     * @throws PaganticException only {@code CONFIG_INVALID} for options that cannot apply; every other failure is in
     *                           the outcome
     */
    public Outcome<RedundantResult> run(CallContext ctx, String prompt, InferenceSettings settings,
                                        TurnOptions options) {
        requireNonNull(ctx, "ctx");
        requireNonNull(prompt, "prompt");
        requireNonNull(settings, "settings");
        requireNonNull(options, "options");
        Phases phases = new Phases(Phases.requireStartable(options.lifecycle()).orElseGet(
                () -> transitionListener == null ? null
                        : ExecutionLifecycle.start(ctx, PatternPath.REDUNDANT_LOOP, transitionListener)));
        List<Outcome<SpecializedResult>> replicas = List.of();
        try {
            phases.prepare("preparing " + n + " replicas");
            ctx.throwIfDone();
            phases.execute("running " + n + " replicas " + (executor == null ? "sequentially" : "concurrently"));
            replicas = runReplicas(ctx, prompt, settings, options.withoutLifecycle());
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

    /** Closes the replicas' tool executor if the loop created one; an executor given to it and the engine stay open. */
    @Override
    public void close() {
        if (ownedExecutor != null) {
            ownedExecutor.close();
        }
    }

    @Override
    public String toString() {
        return "RedundantLoop[n=" + n + ", minSuccesses=" + minSuccesses + ", voting=" + voting + ", "
                + (executor == null ? "sequential" : "concurrent") + "]";
    }

    private List<Outcome<SpecializedResult>> runReplicas(CallContext ctx, String prompt, InferenceSettings settings,
                                                         TurnOptions options) {
        long base = settings.seed().orElse(baseSeed);
        List<Outcome<SpecializedResult>> outcomes = new ArrayList<>(n);
        if (executor == null) {
            for (int i = 0; i < n; i++) {
                outcomes.add(checked(ctx, replica.run(ctx, prompt, seeded(settings, base + i), options)));
            }
            return outcomes;
        }
        List<CompletableFuture<Outcome<SpecializedResult>>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            InferenceSettings replicaSettings = seeded(settings, base + i);
            futures.add(CompletableFuture.supplyAsync(() -> replica.run(ctx, prompt, replicaSettings, options),
                    executor));
        }
        // every replica is waited for, even after one failed, so that none runs on once the call has returned
        RuntimeException first = null;
        for (CompletableFuture<Outcome<SpecializedResult>> future : futures) {
            try {
                Outcome<SpecializedResult> outcome = future.join();
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
    private static Outcome<SpecializedResult> checked(CallContext ctx, Outcome<SpecializedResult> outcome) {
        Optional<PaganticException> failure = outcome.failure();
        if (failure.isPresent() && failure.get().category() == FailureCategory.CANCELLATION) {
            throw failure.get();
        }
        ctx.throwIfDone();
        return outcome;
    }

    private RedundantResult vote(CallContext ctx, List<Outcome<SpecializedResult>> replicas, Phases phases) {
        List<String> candidates = new ArrayList<>();
        List<PaganticException> failures = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        for (Outcome<SpecializedResult> outcome : replicas) {
            usage = usage.plus(outcome.usage());
            Optional<PaganticException> failed = outcome.failure().or(() -> outcome.value()
                    .filter(SpecializedResult::cutOff).map(cut -> PaganticException.of(ErrorCode.CONSTRAINT_JSON_INVALID,
                            "the replica's answer was cut off at the token limit")));
            outcome.value().filter(value -> !value.cutOff()).ifPresent(value -> candidates.add(value.content()));
            failed.ifPresent(failure -> {
                failures.add(failure);
                phases.recovered(failure);
            });
        }
        phases.validate("voting over " + candidates.size() + " of " + n + " replicas");
        Instant started = ctx.now();
        Event.Builder event = Event.builder(ctx, Timing.LAYER, "vote").timestamp(started)
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
                        .duration(Timing.elapsed(ctx, started)).build());
            }
            return RedundantResult.of(vote, candidates, usage, failures);
        } catch (PaganticException failure) {
            if (eventLog.isEnabled()) {
                eventLog.record(event.duration(Timing.elapsed(ctx, started)).error(failure).build());
            }
            throw failure;
        }
    }

    private static Outcome<RedundantResult> outcome(List<Outcome<SpecializedResult>> replicas,
                                                    Optional<RedundantResult> value,
                                                    Optional<PaganticException> failure) {
        TokenUsage usage = TokenUsage.ZERO;
        List<ToolExecution> tools = new ArrayList<>();
        for (Outcome<SpecializedResult> replica : replicas) {
            usage = usage.plus(replica.usage());
            tools.addAll(replica.toolExecutions());
        }
        return new Outcome<>(value, failure, usage, tools);
    }

    /** A replica's settings: the call's, with the replica's own seed where the engine honours seeds. */
    private InferenceSettings seeded(InferenceSettings settings, long seed) {
        return seeded ? settings.withSeed(seed) : settings;
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds a {@link RedundantLoop}: the specification's {@code RedundantConfig}, plus the minimum of successful
     * replicas, the base seed and an executor for concurrent replicas. The replicas' settings are those every loop
     * shares ({@link LoopBuilder}), the schema and a grammar; any other {@link SpecializedLoop.Builder} setting (rules,
     * a validator, ...) through {@link #replica(Consumer)}. Validated at {@link #build()}: {@code CONFIG_NO_ENGINE},
     * {@code CONFIG_SCHEMA_REQUIRED}, {@code CONFIG_INVALID}.
     */
    public static final class Builder extends LoopBuilder<Builder> {
        private @Nullable Schema schema;
        private @Nullable GbnfGrammar grammar;
        private final List<Consumer<SpecializedLoop.Builder>> replicaSettings = new ArrayList<>();
        private int n = DEFAULT_N;
        private int minSuccesses;
        private VotingStrategy voting = new MajorityVoting();
        private long baseSeed = DEFAULT_BASE_SEED;
        private @Nullable Executor executor;
        private @Nullable TransitionListener transitionListener;

        private Builder() {
        }

        /** The schema of the structured output (required). */
        public Builder schema(Schema value) {
            this.schema = value;
            return this;
        }

        /** A GBNF grammar; derived from the schema when absent and the engine supports grammars. */
        public Builder grammar(@Nullable GbnfGrammar value) {
            this.grammar = value;
            return this;
        }

        /** Any other replica setting (rules, a schema validator, repair and strictness, ...). */
        public Builder replica(Consumer<SpecializedLoop.Builder> settings) {
            replicaSettings.add(requireNonNull(settings, "replica settings"));
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
        public Builder executor(@Nullable Executor value) {
            this.executor = value;
            return this;
        }

        /** When set, every call drives its own lifecycle and reports its transitions here. */
        public Builder transitionListener(@Nullable TransitionListener value) {
            this.transitionListener = value;
            return this;
        }

        /** The loop; see {@link Builder} for validation. */
        public RedundantLoop build() {
            LoopSettings settings = loopSettings("RedundantLoop");
            final String invalid = "invalid RedundantLoop configuration: "; // a constant: no concatenation at run time
            require(n > 0, invalid + "n must be positive: ", n);
            require(minSuccesses >= 0 && minSuccesses <= n, invalid + "minSuccesses must be within [1, n]: ",
                    minSuccesses);
            require(voting != null, invalid + "voting must not be null");
            SpecializedLoop.Builder replica = SpecializedLoop.builder().loopSettings(settings).grammar(grammar)
                    .retryPolicy(RetryPolicy.noRetry());
            if (schema != null) {
                replica.schema(schema);
            }
            replicaSettings.forEach(setting -> setting.accept(replica));
            return new RedundantLoop(this, settings, replica.build(), createdExecutor());
        }
    }
}
