package dev.pagantic.engine.routing;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Engine} over a fleet of replica engines that serve the same model (llama.cpp servers on several machines,
 * say), acting as one: each call goes to one replica chosen by the {@link Strategy}, a call that fails with a
 * retryable inference failure before any output reached the caller is retried once on another replica, and replicas
 * that keep failing rest for a cooldown.
 *
 * <pre>{@code
 * RoutingEngine fleet = RoutingEngine.builder()
 *         .replicas(gpuBox1, gpuBox2, gpuBox3)
 *         .strategy(RoutingEngine.Strategy.LEAST_BUSY)
 *         .cooldown(Duration.ofSeconds(10))
 *         .ownReplicas(true)                     // close() closes them
 *         .build();
 * Result result = fleet.infer(ctx, request);     // ctx is passed to the chosen replica unchanged
 * fleet.health().forEach(replica -> log.info("{}", replica));
 * }</pre>
 *
 * <p>The rules (failover, health, model info) are described in the {@linkplain dev.pagantic.engine.routing package
 * documentation}. Thread-safe: the routing state is updated under a short-held monitor, never while a replica runs.
 */
public final class RoutingEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(RoutingEngine.class);

    /** How a call's replica is chosen among the available ones. */
    public enum Strategy {
        /** In turn: each call goes to the next available replica after the previous call's. */
        ROUND_ROBIN,
        /** To the available replica with the fewest calls in flight; ties go to the earlier replica in the list. */
        LEAST_BUSY
    }

    private final ReplicaPool pool;
    private final List<Engine> replicas;
    private final ModelInfo info;
    private final boolean failover;
    private final boolean ownReplicas;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RoutingEngine(Builder builder, List<ModelInfo> replicaInfos) {
        this.replicas = List.copyOf(builder.replicas);
        this.pool = new ReplicaPool(replicas, replicaInfos.stream().map(ModelInfo::name).toList(), builder.strategy,
                builder.unhealthyAfter, builder.cooldown, builder.clock);
        this.info = combinedInfo(replicaInfos);
        this.failover = builder.failover;
        this.ownReplicas = builder.ownReplicas;
    }

    /** Starts building; at least one replica is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Routes the call to one replica, failing over once as described in the class comment. */
    @Override
    public Result infer(CallContext context, Request request) {
        return route(context, request, StreamHandler.NOOP);
    }

    /**
     * Routes the call to one replica, passing the handler on. Once the replica has delivered any output to the
     * handler, a failure of the call is not retried elsewhere: the caller has already seen part of an answer.
     */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        return route(context, request, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * The fleet's model: named {@code routing(<the replicas' distinct model names>)}, with the smallest context
     * window the replicas declare (replicas that declare 0, unknown, are left out) and only the capabilities every
     * replica declares, so that a request is refused unless every replica can serve it. Computed when built.
     */
    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    /** The first replica's token counter: replicas serve the same model, so they count alike. */
    @Override
    public TokenCounter tokenCounter() {
        return replicas.get(0).tokenCounter();
    }

    /** Every replica's state now, in the builder's order; an immutable snapshot. */
    public List<ReplicaHealth> health() {
        return pool.snapshot();
    }

    /**
     * Later calls fail with {@code INFERENCE_ENGINE_CLOSED}; calls already running finish. With
     * {@link Builder#ownReplicas(boolean) ownReplicas(true)} the replicas are closed too (each once, all of them even
     * when one fails, whose exception is then thrown). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || !ownReplicas) {
            return;
        }
        RuntimeException failure = null;
        for (Engine replica : replicas) {
            try {
                replica.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "RoutingEngine[" + info.name() + ", replicas=" + replicas.size() + ", failover=" + failover + "]";
    }

    // --------------------------------------------------------------------------------------------------- routing

    /** Runs the call on one replica and, when the failover rule allows, once more on another. */
    private Result route(CallContext context, Request request, StreamHandler handler) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(request, "request");
        if (closed.get()) {
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED,
                    "routing engine for model '" + info.name() + "' is closed").detail("model", info.name()).build();
        }
        // Refusals come first, as in any engine: they are no replica's fault and must not count against one.
        context.throwIfDone();
        info.requireSupported(request);

        ReplicaPool.Lease first = pool.acquire(-1).orElseThrow(); // never empty: there is a replica, none excluded
        // Output given to the no-op handler reaches nobody: such a call is unstreamed and can always fail over.
        StreamHandler delivering = handler == StreamHandler.NOOP ? handler : new DeliveryTracker(handler);
        try {
            return run(first, context, request, delivering);
        } catch (PaganticException failure) {
            if (!mayFailOver(failure, delivering, context)) {
                throw failure;
            }
            Optional<ReplicaPool.Lease> second = pool.acquire(first.index());
            if (second.isEmpty()) {
                LOG.debug("request {}: replica {} ({}) failed with {}; no other replica to fail over to",
                        context.requestId(), first.index(), pool.name(first.index()), failure.code());
                throw failure;
            }
            LOG.warn("request {}: replica {} ({}) failed with {} before any output reached the caller, failing over"
                            + " to replica {} ({}): {}", context.requestId(), first.index(), pool.name(first.index()),
                    failure.code(), second.get().index(), pool.name(second.get().index()), failure.description());
            try {
                return run(second.get(), context, request, handler);
            } catch (RuntimeException | Error secondFailure) {
                if (secondFailure != failure) { // replicas sharing one exception instance: no self-suppression
                    secondFailure.addSuppressed(failure);
                }
                throw secondFailure;
            }
        }
    }

    /** Calls the leased replica and reports the outcome to the pool, whatever happens. */
    private Result run(ReplicaPool.Lease lease, CallContext context, Request request, StreamHandler handler) {
        ReplicaPool.Outcome outcome = ReplicaPool.Outcome.NEUTRAL;
        try {
            Result result = handler == StreamHandler.NOOP
                    ? lease.engine().infer(context, request)
                    : lease.engine().infer(context, request, handler);
            outcome = ReplicaPool.Outcome.SUCCESS;
            return result;
        } catch (PaganticException failure) {
            if (isReplicaFailure(failure)) {
                outcome = ReplicaPool.Outcome.REPLICA_FAILURE;
            }
            throw failure;
        } finally {
            logTransition(lease, pool.release(lease, outcome), context);
        }
    }

    /**
     * The failover rule: a retryable inference failure, failover enabled, nothing streamed to the caller yet, and a
     * caller still waiting (a retry of a cancelled or expired call would only fail again).
     */
    private boolean mayFailOver(PaganticException failure, StreamHandler delivering, CallContext context) {
        boolean delivered = delivering instanceof DeliveryTracker tracker && tracker.delivered();
        return failover && isReplicaFailure(failure) && !delivered && !context.isDone();
    }

    /** A failure that another replica may not have: retryable and of the inference category. */
    private static boolean isReplicaFailure(PaganticException failure) {
        return failure.retryable() && failure.category() == FailureCategory.INFERENCE;
    }

    private void logTransition(ReplicaPool.Lease lease, ReplicaPool.Transition transition, CallContext context) {
        int index = lease.index();
        switch (transition) {
            case MARKED_UNHEALTHY -> LOG.warn("replica {} ({}) marked unhealthy after request {}: skipped until {}",
                    index, pool.name(index), context.requestId(), pool.unhealthyUntil(index).orElse(null));
            case STILL_UNHEALTHY -> LOG.warn("replica {} ({}) failed again on request {}: unhealthy until {}",
                    index, pool.name(index), context.requestId(), pool.unhealthyUntil(index).orElse(null));
            case RECOVERED -> LOG.info("replica {} ({}) recovered: request {} succeeded", index, pool.name(index),
                    context.requestId());
            case NONE -> {
                // nothing changed
            }
        }
    }

    private static ModelInfo combinedInfo(List<ModelInfo> replicaInfos) {
        Set<String> names = new LinkedHashSet<>();
        Set<Capability> capabilities = EnumSet.allOf(Capability.class);
        int window = 0;
        for (ModelInfo replicaInfo : replicaInfos) {
            names.add(replicaInfo.name());
            capabilities.retainAll(replicaInfo.capabilities());
            int replicaWindow = replicaInfo.contextWindow();
            if (replicaWindow > 0 && (window == 0 || replicaWindow < window)) {
                window = replicaWindow;
            }
        }
        return new ModelInfo("routing(" + String.join(", ", names) + ")", window, capabilities);
    }

    /** Passes output on to the caller's handler and remembers whether any reached it. */
    private static final class DeliveryTracker implements StreamHandler {
        private final StreamHandler handler;
        private volatile boolean delivered;

        DeliveryTracker(StreamHandler handler) {
            this.handler = handler;
        }

        boolean delivered() {
            return delivered;
        }

        @Override
        public void onContent(String delta) {
            delivered = true; // before passing it on: a handler that fails on the delta has still seen it
            handler.onContent(delta);
        }

        @Override
        public void onReasoning(String delta) {
            delivered = true;
            handler.onReasoning(delta);
        }

        @Override
        public void onToolCall(ToolCall call) {
            delivered = true;
            handler.onToolCall(call);
        }
    }

    /**
     * Builds a {@link RoutingEngine}. {@link #build()} validates the settings and throws {@code CONFIG_INVALID} on a
     * bad one.
     */
    public static final class Builder {
        private final List<Engine> replicas = new ArrayList<>();
        private Strategy strategy = Strategy.ROUND_ROBIN;
        private boolean failover = true;
        private int unhealthyAfter = 1;
        private Duration cooldown = Duration.ofSeconds(5);
        private InstantSource clock = InstantSource.system();
        private boolean ownReplicas;

        private Builder() {
        }

        /** Replaces the replicas: the engines calls are routed to, in order (the order breaks ties). */
        public Builder replicas(Engine... engines) {
            return replicas(Arrays.asList(engines));
        }

        /** Replaces the replicas; see {@link #replicas(Engine...)}. */
        public Builder replicas(List<? extends Engine> engines) {
            Objects.requireNonNull(engines, "replicas");
            replicas.clear();
            engines.forEach(this::addReplica);
            return this;
        }

        /** Adds one replica after those already given. */
        public Builder addReplica(Engine engine) {
            replicas.add(Objects.requireNonNull(engine, "replica"));
            return this;
        }

        /** How a call's replica is chosen; default {@link Strategy#ROUND_ROBIN}. */
        public Builder strategy(Strategy value) {
            this.strategy = Objects.requireNonNull(value, "strategy");
            return this;
        }

        /**
         * Whether a call that failed with a retryable inference failure before any output reached the caller is
         * retried once on another replica; default true. Without failover the failure propagates, and health is
         * still tracked.
         */
        public Builder failover(boolean enabled) {
            this.failover = enabled;
            return this;
        }

        /** Retryable inference failures in a row (at least 1) that mark a replica unhealthy; default 1. */
        public Builder unhealthyAfter(int failures) {
            this.unhealthyAfter = failures;
            return this;
        }

        /**
         * How long an unhealthy replica is skipped (zero or more) before one trial call may go to it; default 5 s. A
         * failed trial starts another cooldown.
         */
        public Builder cooldown(Duration duration) {
            this.cooldown = Objects.requireNonNull(duration, "cooldown");
            return this;
        }

        /** The clock of the cooldowns; default the system clock. Inject a controllable one in tests. */
        public Builder clock(InstantSource source) {
            this.clock = Objects.requireNonNull(source, "clock");
            return this;
        }

        /** Whether closing the routing engine closes the replicas; default false (the caller owns them). */
        public Builder ownReplicas(boolean owned) {
            this.ownReplicas = owned;
            return this;
        }

        /** Validates the settings, reads each replica's model info once, and builds the engine. */
        public RoutingEngine build() {
            require(!replicas.isEmpty(), "a routing engine needs at least one replica");
            require(unhealthyAfter >= 1, "unhealthyAfter must be at least 1: " + unhealthyAfter);
            require(!cooldown.isNegative(), "cooldown must not be negative: " + cooldown);
            List<ModelInfo> replicaInfos = new ArrayList<>(replicas.size());
            for (Engine replica : replicas) {
                ModelInfo replicaInfo = replica.modelInfo();
                require(replicaInfo != null, "replica " + replicaInfos.size() + " (" + replica + ") has no model info");
                replicaInfos.add(replicaInfo);
            }
            return new RoutingEngine(this, replicaInfos);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
            }
        }
    }
}
