package dev.pagantic.adapter.cli;

import dev.pagantic.inference.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An opened engine and the resources that live as long as it does (the llama.cpp runtime it borrowed its model
 * from), closed together in reverse order.
 *
 * @param engine    the engine
 * @param resources closed after the engine, last first
 */
record EngineHandle(Engine engine, List<AutoCloseable> resources) implements AutoCloseable {

    EngineHandle {
        Objects.requireNonNull(engine, "engine");
        resources = List.copyOf(resources);
    }

    /** An engine that owns nothing else. */
    static EngineHandle of(Engine engine) {
        return new EngineHandle(engine, List.of());
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>();
        all.add(engine);
        for (int i = resources.size() - 1; i >= 0; i--) {
            all.add(resources.get(i));
        }
        RuntimeException failure = null;
        for (AutoCloseable resource : all) {
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing " + resource + " failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
