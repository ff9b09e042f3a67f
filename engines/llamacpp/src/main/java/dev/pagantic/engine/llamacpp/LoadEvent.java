package dev.pagantic.engine.llamacpp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link LoadListener} hears about a model load. java-llama.cpp reports no progress while the model is read,
 * so a load is {@link Stage#STARTED} and then {@link Stage#LOADED} or {@link Stage#FAILED}; a model the runtime
 * already holds is {@link Stage#REUSED} at once.
 *
 * @param model   the model file
 * @param stage   where the load is
 * @param elapsed the time since the load started
 * @param detail  the reason of a failure; empty otherwise
 */
public record LoadEvent(Path model, Stage stage, Duration elapsed, Optional<String> detail) {

    /** The stages of a load. */
    public enum Stage {
        /** Reading the model has started. */
        STARTED,
        /** The model is loaded and ready. */
        LOADED,
        /** The runtime already held the model; nothing was read. */
        REUSED,
        /** The model could not be loaded; the detail says why. */
        FAILED
    }

    public LoadEvent {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(detail, "detail");
    }

    /** The fraction done, for a progress bar: 0 when started, 1 when loaded or reused. */
    public double fraction() {
        return stage == Stage.STARTED || stage == Stage.FAILED ? 0.0 : 1.0;
    }
}
