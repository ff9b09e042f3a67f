package dev.pagantic.engine.routing;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One replica's state at the moment {@link RoutingEngine#health()} was called, for monitoring. A snapshot: it does
 * not change when the replica's state does.
 *
 * @param index               the replica's position in the builder's list, from 0
 * @param modelName           the replica's {@link dev.pagantic.inference.ModelInfo#name() model name}
 * @param healthy             false from the moment the replica was marked unhealthy until a call to it succeeds
 *                            again (also after its cooldown ended, while it waits for or runs its trial call)
 * @param inFlight            calls running on the replica now
 * @param consecutiveFailures retryable inference failures since its last success
 * @param requestsServed      calls the replica answered with a result, since the routing engine was built
 * @param unhealthyUntil      when the cooldown of an unhealthy replica ends (it may already have ended); empty when
 *                            healthy
 */
public record ReplicaHealth(int index, String modelName, boolean healthy, int inFlight, int consecutiveFailures,
                            long requestsServed, Optional<Instant> unhealthyUntil) {

    public ReplicaHealth {
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(unhealthyUntil, "unhealthyUntil");
    }
}
