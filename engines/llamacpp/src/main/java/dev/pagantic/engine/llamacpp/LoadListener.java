package dev.pagantic.engine.llamacpp;

/** Hears about model loads (for a progress indicator); called on the loading thread. */
@FunctionalInterface
public interface LoadListener {

    /** The listener that ignores everything. */
    LoadListener NONE = event -> { };

    /** A load event. */
    void onEvent(LoadEvent event);
}
