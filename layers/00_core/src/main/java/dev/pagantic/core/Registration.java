package dev.pagantic.core;

/** A registered callback that can be removed again; closing it twice is harmless. */
@FunctionalInterface
public interface Registration extends AutoCloseable {

    /** Removes the callback. */
    @Override
    void close();
}
