package dev.pagantic.engine.routing;

import dev.pagantic.inference.Engine;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The replicas' bookkeeping: which replica the next call goes to, how many calls each runs, and its health. Every
 * method holds the pool's monitor only for a few field updates; the replicas themselves run outside it, between
 * {@link #acquire} and {@link #release}.
 */
final class ReplicaPool {

    /** What a finished call says about its replica. */
    enum Outcome {
        /** The replica returned a result. */
        SUCCESS,
        /** A retryable inference failure: the replica, not the request, is likely at fault. */
        REPLICA_FAILURE,
        /** Anything else (cancellation, a refused request, a caller's handler that threw): no news about health. */
        NEUTRAL
    }

    /** A health change a finished call caused, for the caller to log outside the monitor. */
    enum Transition {
        NONE,
        /** A healthy replica reached the failure threshold and starts its cooldown. */
        MARKED_UNHEALTHY,
        /** A call to an unhealthy replica (its trial, or one sent because no replica was healthy) failed again. */
        STILL_UNHEALTHY,
        /** A call to an unhealthy replica succeeded: it is healthy again. */
        RECOVERED
    }

    /**
     * A call's claim on one replica, from {@link #acquire} to {@link #release}.
     *
     * @param index  the replica's index
     * @param engine the replica
     * @param trial  whether the replica was unhealthy when the call was sent to it
     * @param epoch  the replica's health epoch when the call was sent: a result that arrives after the replica was
     *               marked unhealthy by another call says nothing about its current state
     */
    record Lease(int index, Engine engine, boolean trial, long epoch) {
    }

    private final List<Engine> engines;
    private final List<String> names;
    private final RoutingEngine.Strategy strategy;
    private final int unhealthyAfter;
    private final Duration cooldown;
    private final InstantSource clock;
    private final Object monitor = new Object();
    private final List<State> states;
    private int nextInTurn; // round robin: where the next search starts

    ReplicaPool(List<Engine> engines, List<String> names, RoutingEngine.Strategy strategy, int unhealthyAfter,
                Duration cooldown, InstantSource clock) {
        this.engines = List.copyOf(engines);
        this.names = List.copyOf(names);
        this.strategy = strategy;
        this.unhealthyAfter = unhealthyAfter;
        this.cooldown = cooldown;
        this.clock = clock;
        List<State> list = new ArrayList<>(engines.size());
        for (int i = 0; i < engines.size(); i++) {
            list.add(new State());
        }
        this.states = List.copyOf(list);
    }

    String name(int index) {
        return names.get(index);
    }

    /**
     * Chooses a replica for one call and counts the call as in flight on it. Healthy replicas, and unhealthy ones
     * whose cooldown has ended and that run no trial yet, are chosen by the strategy; when there is none, the
     * replica whose cooldown ends first is chosen rather than failing the call.
     *
     * @param excluded a replica that must not be chosen (the one a failed call ran on), or -1
     * @return the lease, or empty when no replica other than {@code excluded} exists
     */
    Optional<Lease> acquire(int excluded) {
        Instant now = clock.instant();
        synchronized (monitor) {
            int chosen = chooseAvailable(now, excluded);
            if (chosen < 0) {
                chosen = earliestRecovering(excluded);
            }
            if (chosen < 0) {
                return Optional.empty();
            }
            State state = states.get(chosen);
            state.inFlight++;
            boolean trial = state.unhealthyUntil != null;
            if (trial) {
                state.trials++;
            }
            return Optional.of(new Lease(chosen, engines.get(chosen), trial, state.epoch));
        }
    }

    /** Ends a lease and records what its call says about the replica's health. */
    Transition release(Lease lease, Outcome outcome) {
        Instant now = clock.instant();
        synchronized (monitor) {
            State state = states.get(lease.index());
            state.inFlight--;
            if (lease.trial()) {
                state.trials--;
            }
            if (outcome == Outcome.SUCCESS) {
                state.served++;
            }
            if (outcome == Outcome.NEUTRAL || lease.epoch() != state.epoch) {
                // A call that started before the replica was last marked unhealthy reports on an outage (or a
                // recovery) that is already accounted for.
                return Transition.NONE;
            }
            if (outcome == Outcome.SUCCESS) {
                state.consecutiveFailures = 0;
                if (state.unhealthyUntil == null) {
                    return Transition.NONE;
                }
                state.unhealthyUntil = null;
                return Transition.RECOVERED;
            }
            state.consecutiveFailures++;
            if (state.unhealthyUntil != null) {
                markUnhealthy(state, now);
                return Transition.STILL_UNHEALTHY;
            }
            if (state.consecutiveFailures >= unhealthyAfter) {
                markUnhealthy(state, now);
                return Transition.MARKED_UNHEALTHY;
            }
            return Transition.NONE;
        }
    }

    /** When the cooldown of an unhealthy replica ends; empty when it is healthy. */
    Optional<Instant> unhealthyUntil(int index) {
        synchronized (monitor) {
            return Optional.ofNullable(states.get(index).unhealthyUntil);
        }
    }

    /** Every replica's state, copied under the monitor. */
    List<ReplicaHealth> snapshot() {
        synchronized (monitor) {
            List<ReplicaHealth> health = new ArrayList<>(states.size());
            for (int i = 0; i < states.size(); i++) {
                State state = states.get(i);
                health.add(new ReplicaHealth(i, names.get(i), state.unhealthyUntil == null, state.inFlight,
                        state.consecutiveFailures, state.served, Optional.ofNullable(state.unhealthyUntil)));
            }
            return List.copyOf(health);
        }
    }

    private void markUnhealthy(State state, Instant now) {
        state.unhealthyUntil = now.plus(cooldown);
        state.epoch++;
    }

    /** The strategy's choice among the available replicas, or -1 when none is available. Holds the monitor. */
    private int chooseAvailable(Instant now, int excluded) {
        int count = states.size();
        int best = -1;
        for (int offset = 0; offset < count; offset++) {
            int index = strategy == RoutingEngine.Strategy.ROUND_ROBIN ? (nextInTurn + offset) % count : offset;
            if (index == excluded || !states.get(index).isAvailable(now)) {
                continue;
            }
            if (strategy == RoutingEngine.Strategy.ROUND_ROBIN) {
                nextInTurn = (index + 1) % count;
                return index;
            }
            if (best < 0 || states.get(index).inFlight < states.get(best).inFlight) {
                best = index; // strictly fewer: ties go to the earlier replica
            }
        }
        return best;
    }

    /**
     * With no replica available, the one whose cooldown ends first (ties by order), or -1 when every replica is
     * excluded. Holds the monitor. Every candidate is unhealthy here, since a healthy replica is always available.
     */
    private int earliestRecovering(int excluded) {
        int best = -1;
        for (int index = 0; index < states.size(); index++) {
            if (index == excluded) {
                continue;
            }
            if (best < 0 || states.get(index).unhealthyUntil.isBefore(states.get(best).unhealthyUntil)) {
                best = index;
            }
        }
        return best;
    }

    /** One replica's mutable state; read and written only under the pool's monitor. */
    private static final class State {
        int inFlight;
        int consecutiveFailures;
        long served;
        /** Null while healthy; else the end of the cooldown, which may lie in the past (half-open). */
        @Nullable Instant unhealthyUntil;
        /** Calls running on the replica that were sent while it was unhealthy. */
        int trials;
        /** Incremented each time the replica is marked unhealthy. */
        long epoch;

        /** Healthy, or unhealthy with its cooldown over and no trial call running yet (half-open). */
        boolean isAvailable(Instant now) {
            return unhealthyUntil == null || (!now.isBefore(unhealthyUntil) && trials == 0);
        }
    }
}
