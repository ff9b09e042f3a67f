package dev.pagantic.bench;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine that answers with canned results in a cycle, without latency, so that a benchmark measures only what
 * the orchestration around the engine costs. Unlike the testkit's ScriptedEngine it never runs out of replies and
 * records nothing.
 */
public final class ReplayingEngine implements Engine {

    private static final ModelInfo INFO = ModelInfo.of("replaying", 1 << 20);

    private final List<Result> results;
    private final AtomicInteger next = new AtomicInteger();

    /** An engine that returns the results in order, starting again after the last one. */
    public ReplayingEngine(List<Result> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("at least one result is needed");
        }
        this.results = List.copyOf(results);
    }

    /** Starts the cycle again from the first result. */
    public void rewind() {
        next.set(0);
    }

    @Override
    public Result infer(CallContext context, Request request) {
        return results.get(Math.floorMod(next.getAndIncrement(), results.size()));
    }

    @Override
    public ModelInfo modelInfo() {
        return INFO;
    }
}
